package capture_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// benchCaptures returns the captures of one device (Samsung SSD 990 EVO
// Plus 1TB) in every format.
func benchCaptures(b *testing.B) []struct {
	name string
	data []byte
} {
	c, err := capture.Parse(bytes.NewReader(testfixture.ReadFile(b, filepath.Join("corpus", "smartctl", evoPlus+".txt"))))
	if err != nil {
		b.Fatal(err)
	}
	sj, err := smartctlJSON(&c)
	if err != nil {
		b.Fatal(err)
	}
	return []struct {
		name string
		data []byte
	}{
		{"binary", testfixture.ReadFile(b, filepath.Join("corpus", "binary", "synthetic", evoPlus+".id-ctrl.bin"))},
		{"nvme-cli-text-v1", testfixture.ReadFile(b, filepath.Join("corpus", "nvme-cli", "synthetic", evoPlus+".v1.txt"))},
		{"nvme-cli-text-v2", testfixture.ReadFile(b, filepath.Join("corpus", "nvme-cli", "synthetic", evoPlus+".v2.txt"))},
		{"nvme-cli-text-v2.12", testfixture.ReadFile(b, filepath.Join("corpus", "nvme-cli", "synthetic", evoPlus+".v2_12.txt"))},
		{"nvme-cli-json", testfixture.ReadFile(b, filepath.Join("corpus", "nvme-cli", "synthetic", evoPlus+".json"))},
		{"smartctl-text", testfixture.ReadFile(b, filepath.Join("corpus", "smartctl", evoPlus+".txt"))},
		{"smartctl-json", sj},
	}
}

// BenchmarkParse parses the captures of one device in every format through
// the io.Reader entry point.
func BenchmarkParse(b *testing.B) {
	for _, bc := range benchCaptures(b) {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bc.data)))
			for b.Loop() {
				if _, err := capture.Parse(bytes.NewReader(bc.data)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParseBytes parses the same captures in place.
func BenchmarkParseBytes(b *testing.B) {
	for _, bc := range benchCaptures(b) {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bc.data)))
			for b.Loop() {
				if _, err := capture.ParseBytes(bc.data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// The typed structs encoding/json decodes the two JSON captures into, for
// BenchmarkJSONStdlib: the fields the readers take, nothing more.
type (
	stdNVMeCLI struct {
		VID    uint16 `json:"vid"`
		SSVID  uint16 `json:"ssvid"`
		SN     string `json:"sn"`
		MN     string `json:"mn"`
		FR     string `json:"fr"`
		IEEE   uint32 `json:"ieee"`
		CNTLID uint16 `json:"cntlid"`
		Ver    uint32 `json:"ver"`
		RTD3R  uint32 `json:"rtd3r"`
		RTD3E  uint32 `json:"rtd3e"`
		OACS   uint16 `json:"oacs"`
		NPSS   uint8  `json:"npss"`
		AVSCC  uint8  `json:"avscc"`
		APSTA  uint8  `json:"apsta"`
		WCTemp uint16 `json:"wctemp"`
		CCTemp uint16 `json:"cctemp"`
		PSDs   []struct {
			MaxPower   uint16 `json:"max_power"`
			Flags      uint8  `json:"flags"`
			MXPS       uint8  `json:"max_power_scale"`
			NOPS       uint8  `json:"non-operational_state"`
			EntryLat   uint32 `json:"entry_lat"`
			ExitLat    uint32 `json:"exit_lat"`
			ReadTput   uint8  `json:"read_tput"`
			ReadLat    uint8  `json:"read_lat"`
			WriteTput  uint8  `json:"write_tput"`
			WriteLat   uint8  `json:"write_lat"`
			IdlePower  uint16 `json:"idle_power"`
			IdleScale  uint8  `json:"idle_scale"`
			ActPower   uint16 `json:"active_power"`
			ActWork    uint8  `json:"active_power_work"`
			ActScale   uint8  `json:"active_scale"`
			ActWorkScl uint8  `json:"active_work_scale"`
		} `json:"psds"`
	}
	stdSmartctl struct {
		Model    string `json:"model_name"`
		Serial   string `json:"serial_number"`
		Firmware string `json:"firmware_version"`
		Vendor   struct {
			ID  uint16 `json:"id"`
			SID uint16 `json:"subsystem_id"`
		} `json:"nvme_pci_vendor"`
		IEEE    uint32 `json:"nvme_ieee_oui_identifier"`
		CNTLID  uint16 `json:"nvme_controller_id"`
		Version struct {
			Value uint32 `json:"value"`
		} `json:"nvme_version"`
		OACS struct {
			Value uint16 `json:"value"`
		} `json:"nvme_optional_admin_commands"`
		Temps struct {
			Warning  int `json:"warning"`
			Critical int `json:"critical"`
		} `json:"nvme_composite_temperature_threshold"`
		States []struct {
			NOPS     bool   `json:"non_operational_state"`
			RRL      uint8  `json:"relative_read_latency"`
			RRT      uint8  `json:"relative_read_throughput"`
			RWL      uint8  `json:"relative_write_latency"`
			RWT      uint8  `json:"relative_write_throughput"`
			EntryLat uint32 `json:"entry_latency_us"`
			ExitLat  uint32 `json:"exit_latency_us"`
			MaxPower struct {
				Value uint16 `json:"value"`
				Scale uint8  `json:"scale"`
				UPW   uint32 `json:"units_per_watt"`
			} `json:"max_power"`
		} `json:"nvme_power_states"`
	}
)

// BenchmarkJSONStdlib decodes the two JSON captures with encoding/json into
// typed structs, the bar the JSON readers of BenchmarkParseBytes must meet
// (run both in the same invocation: go test -bench 'ParseBytes/.*json|JSONStdlib').
func BenchmarkJSONStdlib(b *testing.B) {
	for _, bc := range benchCaptures(b) {
		var v any
		switch bc.name {
		case "nvme-cli-json":
			v = new(stdNVMeCLI)
		case "smartctl-json":
			v = new(stdSmartctl)
		default:
			continue
		}
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bc.data)))
			for b.Loop() {
				if err := json.Unmarshal(bc.data, v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParseCorpus parses every file of the corpus once per iteration.
func BenchmarkParseCorpus(b *testing.B) {
	var files [][]byte
	for _, dev := range corpusDevices(b) {
		paths := []string{dev.smartctl}
		for _, o := range dev.others {
			paths = append(paths, o.path)
		}
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			files = append(files, data)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, data := range files {
			if _, err := capture.ParseBytes(data); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(files)), "files/op")
}

// BenchmarkParseCorpusCapture is the reader's cost per capture: one op
// parses one capture of the corpus in the format of the sub-benchmark (its
// captures in turn), from bytes in memory, so that ns/op and allocs/op are
// per capture (what apstctl survey pays per file after reading it).
func BenchmarkParseCorpusCapture(b *testing.B) {
	byFormat := map[powerstate.Format][][]byte{}
	for _, dev := range corpusDevices(b) {
		caps := append([]corpusCapture{{dev.smartctl, powerstate.FormatSmartctlText}}, dev.others...)
		for _, c := range caps {
			data, err := os.ReadFile(c.path)
			if err != nil {
				b.Fatal(err)
			}
			byFormat[c.format] = append(byFormat[c.format], data)
		}
	}
	for _, f := range []powerstate.Format{powerstate.FormatSmartctlText, powerstate.FormatBinary, powerstate.FormatNVMeCLIText, powerstate.FormatNVMeCLIJSON} {
		files := byFormat[f]
		if len(files) == 0 {
			b.Fatalf("no %s captures in the corpus", f)
		}
		b.Run(f.String(), func(b *testing.B) {
			size := 0
			for _, d := range files {
				size += len(d)
			}
			b.SetBytes(int64(size / len(files)))
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := capture.ParseBytes(files[i%len(files)]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}
