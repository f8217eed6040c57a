package capture_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// fuzzSeeds adds corpus captures of a few devices (every format), the
// capture fixtures (and those of fabrics/) and some hand-made edge cases
// to f; only the seeds whose format is in formats are added (all when
// formats is empty).
func fuzzSeeds(f *testing.F, formats ...powerstate.Format) {
	want := func(b []byte) bool {
		if len(formats) == 0 {
			return true
		}
		d := capture.DetectFormat(b)
		for _, x := range formats {
			if d == x {
				return true
			}
		}
		return false
	}
	add := func(b []byte) {
		if want(b) {
			f.Add(b)
		}
	}
	for _, dev := range corpusDevices(f) {
		switch dev.name {
		case evoPlus, fake980, "WDC_CH_SN530_SDBPTPZ-1T00-1024_08.01.00", "SKhynix_SHPP41-1000GM_51060A20",
			"WDC_WD_BLACK_SN770_1TB_731120WD", "SanDisk_A400_SD9PN9U-256G-1001_A3590001":
		default:
			continue
		}
		b, err := os.ReadFile(dev.smartctl)
		if err != nil {
			f.Fatal(err)
		}
		add(b)
		if dev.name == evoPlus {
			addShapes(add, b)
		}
		c, err := capture.Parse(bytes.NewReader(b))
		if err != nil {
			f.Fatal(err)
		}
		if j, err := smartctlJSON(&c); err == nil {
			add(j)
		}
		for _, o := range dev.others {
			b, err := os.ReadFile(o.path)
			if err != nil {
				f.Fatal(err)
			}
			add(b)
			if dev.name == evoPlus && o.format != powerstate.FormatBinary {
				addShapes(add, b)
			}
		}
	}
	// The pasted forms (flattened, the table alone, quoted-printable, hex
	// dumps).
	forms, _ := filepath.Glob(testfixture.Path("forms/*.*"))
	for _, p := range forms {
		if b, err := os.ReadFile(p); err == nil && !strings.HasSuffix(p, ".sh") && !strings.HasSuffix(p, ".md") {
			add(b)
		}
	}
	fixtures, _ := filepath.Glob(filepath.Join("testdata", "capture", "*.json"))
	// The fabrics and PCIe captures with cntrltype and ioccsz.
	fabrics, _ := filepath.Glob(testfixture.Path("fabrics/*.*"))
	for _, p := range fabrics {
		if !strings.HasSuffix(p, ".md") {
			fixtures = append(fixtures, p)
		}
	}
	for _, p := range fixtures {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		add(b)
	}
	for _, s := range []string{
		"npss : 0\nps 0 : mp:0.00W operational enlat:0 exlat:0 rrt:0 rrl:0\n rwt:0 rwl:0 idle_power:- active_power:-\n",
		"ps 0 : mp:655.35W non-operational enlat:-2147483648 exlat:4294967295 rrt:255 rrl:255\n\trwt:0 rwl:0 idle_power:reserved active_power:6.5535W\n\tactive_power_workload:reserved\n",
		"Supported Power States\nSt Op     Max   Active     Idle   RL RT WL WT  Ent_Lat  Ex_Lat\n 0 -   6.5535W        ?        ?   31 31 31 31 4294967295 4294967295\n\n",
		"Model Number: \nSerial Number:\nNVMe Version: <1.2\nWarning  Comp. Temp. Threshold: -273 Celsius\nSupported Power States\nSt Op Max Active Idle RL RT WL WT Ent_Lat Ex_Lat\n 0 + 0.00W - - 0 0 0 0 0 0\n\n",
		`{"psds":[{"max_power":1,"flags":255,"entry_lat":1,"exit_lat":2,"read_tput":3,"read_lat":4,"write_tput":5,"write_lat":6,"idle_power":7,"idle_scale":255,"active_power":8,"active_work_scale":255}]}`,
		`{"npss":255,"psds":[{"max_power":1,"max_power_scale":1,"non-operational_state":1,"entry_lat":1,"exit_lat":2,"read_tput":3,"read_lat":4,"write_tput":5,"write_lat":6}]}`,
		`{"nvme_power_states":[{"non_operational_state":true,"relative_read_latency":0,"relative_read_throughput":0,"relative_write_latency":0,"relative_write_throughput":0,"entry_latency_us":0,"exit_latency_us":0,"max_power":{"value":1,"scale":1}}]}`,
		"\xff\xfeN\x00V\x00M\x00E\x00",
		"> npss : 0\n> ps 0 : mp:0.00W operational enlat:0 exlat:0 rrt:0 rrl:0\n>  rwt:0 rwl:0 idle_power:- active_power:-\n",
		"    {\"npss\":0,\"psds\":[{\"max_power\":1,\"flags\":0,\"entry_lat\":1,\"exit_lat\":2,\"read_tput\":3,\"read_lat\":4,\"write_tput\":5,\"write_lat\":6}]}\n",
		"get-feature:0x0c (Autonomous Power State Transition), Current value:0x00000001\n",
	} {
		add([]byte(s))
	}
}

// addShapes adds the capture b in the shapes a paste gives it
// (pasteShapes, wrapped at 72 columns as it is and quoted, padded with NUL bytes to 4096).
func addShapes(add func([]byte), b []byte) {
	for _, sh := range pasteShapes {
		add([]byte(sh.f(string(b))))
	}
	add([]byte(wrapAt(string(b), 72, true, "")))
	add([]byte(wrapAt(quote(string(b), 1), 72, true, "")))
	if len(b) < powerstate.IdentifySize {
		add(append(bytes.Clone(b), make([]byte, powerstate.IdentifySize-len(b))...))
	}
}

// checkParse is the property every parser must have: no panic (the fuzzer
// catches those), an error is a *ParseError starting with "capture: ",
// and a successful parse knows only what its format carries and re-encodes
// with the binary image and every writer to the same controller.
func checkParse(t *testing.T, c powerstate.Controller, err error, want powerstate.Format) {
	t.Helper()
	if err != nil {
		var pe *capture.ParseError
		if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), "capture: ") {
			t.Fatalf("error %v (%T) is not a *ParseError", err, err)
		}
		for _, s := range []error{capture.ErrUnknownFormat, capture.ErrTooLarge, capture.ErrTruncated,
			capture.ErrSyntax, capture.ErrNoPowerStates, powerstate.ErrImageSize, capture.ErrDuplicateKey,
			capture.ErrMultipleCaptures, capture.ErrFeatureCapture, powerstate.ErrNotIdentify, capture.ErrEmpty, capture.ErrTrailingData} {
			if errors.Is(err, s) {
				return
			}
		}
		t.Fatalf("error %v wraps no sentinel", err)
	}
	if want != powerstate.FormatUnknown && c.Format != want {
		t.Fatalf("format %v, want %v", c.Format, want)
	}
	if c.Known()&^carried(c.Format) != 0 {
		t.Fatalf("%v knows %v, more than it carries", c.Format, c.Known())
	}
	if !c.Knows(powerstate.FieldPowerStates) {
		t.Fatalf("a parsed controller knows its power states")
	}
	if diffs := roundTrip(&c); len(diffs) > 0 {
		t.Fatalf("re-encoding changes the controller:\n%s", strings.Join(diffs, "\n"))
	}
}

func fuzzParser(f *testing.F, format powerstate.Format, parse func(io.Reader) (powerstate.Controller, error)) {
	fuzzSeeds(f, format)
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := parse(bytes.NewReader(b))
		checkParse(t, c, err, format)
	})
}

func FuzzParse(f *testing.F) {
	fuzzSeeds(f)
	f.Add(testfixture.ReadFile(f, testfixture.Samsung990EVOPlus))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := capture.Parse(bytes.NewReader(b))
		checkParse(t, c, err, powerstate.FormatUnknown)
		if err == nil && c.Format != capture.DetectFormat(b) {
			t.Fatalf("parsed as %v, detected as %v", c.Format, capture.DetectFormat(b))
		}
	})
}

// FuzzParseBytes: reading in place gives what Parse gives, and the result
// does not keep the buffer.
func FuzzParseBytes(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		want, werr := capture.Parse(bytes.NewReader(b))
		buf := bytes.Clone(b)
		got, err := capture.ParseBytes(buf)
		checkParse(t, got, err, powerstate.FormatUnknown)
		if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
			t.Fatalf("ParseBytes: %v, Parse: %v", err, werr)
		}
		for i := range buf {
			buf[i] = 'X'
		}
		if err == nil && (got.Model != want.Model || got.Serial != want.Serial || got.Firmware != want.Firmware) {
			t.Fatalf("the controller changed with the buffer: %q != %q", got.Model, want.Model)
		}
	})
}

func FuzzParseNVMeCLIText(f *testing.F) {
	fuzzParser(f, powerstate.FormatNVMeCLIText, capture.ParseNVMeCLIText)
}

func FuzzParseNVMeCLIJSON(f *testing.F) {
	fuzzParser(f, powerstate.FormatNVMeCLIJSON, capture.ParseNVMeCLIJSON)
}

func FuzzParseSmartctlText(f *testing.F) {
	fuzzParser(f, powerstate.FormatSmartctlText, capture.ParseSmartctlText)
}

func FuzzParseSmartctlJSON(f *testing.F) {
	fuzzParser(f, powerstate.FormatSmartctlJSON, capture.ParseSmartctlJSON)
}
