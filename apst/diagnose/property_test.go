package diagnose_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// The log lines a random failure is made of.
var failureLines = []string{
	"nvme nvme0: pci function 0000:04:00.0",
	"nvme nvme0: I/O 5 QID 1 timeout, aborting",
	"nvme nvme0: I/O 5 QID 1 timeout, reset controller",
	"nvme nvme0: I/O 9 QID 0 timeout, reset controller",
	"nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff",
	"nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10",
	"nvme nvme0: controller is down; will reset: CSTS=0x3, PCI_STATUS=0x10",
	"nvme nvme0: Does your device have a faulty power saving mode enabled?",
	"nvme 0000:04:00.0: Unable to change power state from D3cold to D0, device inaccessible",
	"pcieport 0000:00:1d.0: Unable to change power state from D3hot to D0, device inaccessible",
	"pcieport 0000:00:1d.0: AER: Corrected error received: 0000:04:00.0",
	"nvme 0000:04:00.0: PCIe Bus Error: severity=Corrected, type=Physical Layer, (Receiver ID)",
	"nvme 0000:04:00.0: PCIe Bus Error: severity=Uncorrected (Fatal), type=Transaction Layer, (Requester ID)",
	"pcieport 0000:00:1d.0: pciehp: Slot(1): Link Down",
	"nvme nvme0: Removing after probe failure status: -19",
	"nvme nvme0: Disabling device after reset failure: -19",
	"nvme nvme0: Device not ready; aborting reset, CSTS=0x1",
	"nvme nvme0: failed to set APST feature (-19)",
	"I/O error, dev nvme0n1, sector 1 op 0x0:(READ) flags 0x0 phys_seg 1 prio class 0",
	"nvme nvme0: I/O 12 QID 0 timeout, completion polled",
	"PM: suspend exit",
	"nvme 0000:04:00.0: PM: failed to resume async: error -16",
	"nvme nvme0: failed to allocate host memory buffer.",
	"nvme0n1: I/O Cmd(0x2) @ LBA 0, 8 blocks, I/O Error (sct 0x3 / sc 0x71)",
	"nvme nvme0: Device shutdown incomplete; abort shutdown",
	"nvme0n1: I/O Cmd(0x2) @ LBA 0, 8 blocks, I/O Error (sct 0x2 / sc 0x86) DNR",
	"nvme0n1: Read(0x2) @ LBA 2048, 8 blocks, Internal Error (sct 0x0 / sc 0x6) DNR",
	"thunderbolt: probe of 0000:05:00.0 failed with error -108",
	"operation not supported error, dev nvme0n1, sector 13952 op 0x9:(WRITE_ZEROES) flags 0x800 phys_seg 0 prio class 0",
	"nvme 0000:04:00.0: AER:   Error of this Agent is reported first",
	"igc 0000:02:00.0: not ready 65535ms after bus reset; giving up",
	"pcieport 0000:00:1c.2: AER: Uncorrected (Non-Fatal) error received: 0000:02:00.0",
	"pcieport 0000:00:1c.2: AER: device recovery failed",
	"Linux version 6.2.0-rc1 (x@y) #1",
	"Kernel command line: ro pcie_aspm=off",
}

func TestRapidDiagnosisInvariants(t *testing.T) {
	id := evo(t)
	rapid.Check(t, func(t *rapid.T) {
		var log strings.Builder
		for _, l := range failureLines {
			if rapid.Bool().Draw(t, "line") {
				log.WriteString(l + "\n")
			}
		}
		m := quietLaptop
		m.policy = rapid.SampledFrom([]string{"default", "performance", "powersave", "powersupersave"}).Draw(t, "policy")
		m.l12 = rapid.SampledFrom([]string{"", "0", "1"}).Draw(t, "l12")
		m.d3cold = rapid.SampledFrom([]string{"0", "1"}).Draw(t, "d3cold")
		m.control = rapid.SampledFrom([]string{"on", "auto"}).Draw(t, "control")
		m.portControl = rapid.SampledFrom([]string{"on", "auto"}).Draw(t, "portControl")
		m.portRuntime = rapid.SampledFrom([]string{"active", "suspended"}).Draw(t, "portRuntime")
		m.cmdline = rapid.SampledFrom([]string{"ro", "pcie_aspm=off", "nvme_core.default_ps_max_latency_us=0", "pcie_port_pm=off"}).Draw(t, "cmdline")
		tried := rapid.SampledFrom([]string{"", "pcie_aspm=off", "nvme_core.default_ps_max_latency_us=0:no", "nvme.noacpi=1", "pcie_aspm=off:helped", "nvme.max_host_mem_size_mb=0"}).Draw(t, "tried")
		if rapid.Bool().Draw(t, "health") {
			m.health = &diagnose.HealthLog{PowerCycles: rapid.Uint64Range(0, 1000).Draw(t, "cycles"), UnsafeShutdowns: rapid.Uint64Range(0, 1000).Draw(t, "unsafe")}
		}
		// The log alone names the controller, or the caller does.
		in := diagnose.Input{Controller: rapid.SampledFrom([]string{"nvme0", ""}).Draw(t, "controller"), Tried: diagnose.ParseTried(tried)}
		if rapid.Bool().Draw(t, "facts") {
			in.Facts = m.facts("nvme0")
		}
		// An empty paste is refused (ErrEmpty): no log then.
		if rapid.Bool().Draw(t, "log") && log.Len() > 0 {
			l, err := kernlog.ReadString(log.String(), kernlog.Options{})
			if err != nil {
				t.Fatal(err)
			}
			in.Log = l
		}
		if rapid.Bool().Draw(t, "identify") {
			in.Identify = id
			in.Params = apst.DefaultParams(apst.Current)
			in.Params.Bound = apst.Microseconds(rapid.SampledFrom([]uint64{0, 5000, 25000, 100000}).Draw(t, "bound"))
		}
		d := diagnose.Diagnose(in)
		checkDiagnosis(t, d, strings.Count(log.String(), "\n"))
	})
}

// fataler is what the invariant checks need of a *testing.T or *rapid.T.
type fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// checkDiagnosis asserts what every diagnosis keeps, whatever its input:
// nothing ranked without a failure, each layer once and in order, grades
// that match scores, tests with an action, a cost and where a setting
// goes, evidence that quotes its line (within the log's nlines), an
// undecided answer of two or more groups at the top, nothing tried without help
// offered again, and no placeholder printed as a name.
func checkDiagnosis(t fataler, d diagnose.Diagnosis, nlines int) {
	t.Helper()
	if !d.Failure {
		// No failure: nothing ranked, and the summary says so.
		if len(d.Causes) != 0 || !strings.HasPrefix(d.Summary, "no failure") {
			t.Fatalf("no failure, yet %d causes: %s", len(d.Causes), d.Summary)
		}
		// What it quotes of a failure whose own lines are missing is
		// lines of the log.
		for _, l := range d.Consequences {
			if l.Line < 1 || l.Line > nlines || l.Quote == "" || strings.Contains(l.Quote, "\n") {
				t.Fatalf("a consequence without its line, or a line the log does not have (%d lines): %+v", nlines, l)
			}
		}
		// Other programs' copies of the kernel's lines are listed only
		// when they are all there is, each with its program, and the
		// summary says whose they are.
		if len(d.Relayed) > 0 && (len(d.Unread) > 0 || !strings.Contains(d.Summary, "of other programs (")) {
			t.Fatalf("%d relayed lines beside %d unread: %s", len(d.Relayed), len(d.Unread), d.Summary)
		}
		for _, u := range d.Relayed {
			if u.Program == "" || u.Line < 1 || u.Line > nlines {
				t.Fatalf("a relayed line without its program, or a line the log does not have (%d lines): %+v", nlines, u)
			}
		}
		for _, u := range d.Unread {
			if u.Program != "" {
				t.Fatalf("another program's line listed as unread: %+v", u)
			}
		}
		return
	}
	if len(d.Relayed) > 0 {
		t.Fatalf("a failure, and other programs' lines listed: %+v", d.Relayed)
	}
	for _, u := range d.Unread {
		if u.Program != "" {
			t.Fatalf("a failure, and another program's line listed as unread: %+v", u)
		}
	}
	if d.Consequences != nil {
		t.Fatalf("a failure, and consequences of a missing one: %+v", d.Consequences)
	}
	// Every layer is weighed, but for a fabrics controller's failure,
	// which no layer of a PCIe drive explains: its one cause says so.
	fabrics := len(d.Causes) == 1 && d.Causes[0].Layer == diagnose.LayerUnknown && strings.Contains(d.Summary, ": an NVMe over Fabrics controller (")
	if n := len(d.Causes); n != len(diagnose.Layers())-1 && n != len(diagnose.Layers()) && !fabrics {
		t.Fatalf("%d causes: %s", n, d.Summary)
	}
	seen := map[diagnose.Layer]bool{}
	for i, c := range d.Causes {
		if seen[c.Layer] {
			t.Fatalf("layer %s twice", c.Layer)
		}
		seen[c.Layer] = true
		if i > 0 && d.Causes[i-1].Score < c.Score {
			t.Fatalf("not ordered: %s %d before %s %d", d.Causes[i-1].Layer, d.Causes[i-1].Score, c.Layer, c.Score)
		}
		switch {
		case c.Likelihood == diagnose.Likely && c.Score < 3:
			t.Fatalf("%s: score %d graded likely", c.Layer, c.Score)
		case c.Likelihood == diagnose.Unlikely && c.Score >= 1:
			t.Fatalf("%s: score %d graded unlikely", c.Layer, c.Score)
		}
		for _, tst := range c.Tests {
			if tst.Action == "" || tst.Cost == "" {
				t.Fatalf("%s: test without action or cost: %+v", c.Layer, tst)
			}
			if tst.Setting != "" && len(tst.Where) == 0 {
				t.Fatalf("%s: a lasting setting without where it goes: %+v", c.Layer, tst)
			}
		}
		for _, l := range append(c.Evidence, c.Against...) {
			if l.Line > 0 && (l.Quote == "" || l.Line > nlines || strings.Contains(l.Quote, "\n")) {
				t.Fatalf("%s: log evidence without its line, or a line the log does not have (%d lines): %+v", c.Layer, nlines, l)
			}
		}
	}
	// Undecided: two or more layers of different groups, none likely, the
	// first cause's first, the others tied with the second, and no layer
	// of another group left out that scores as the second does.
	if len(d.Undecided) > 0 {
		groups := map[diagnose.Layer]bool{}
		for _, l := range d.Undecided {
			groups[l.Group()] = true
		}
		if len(d.Undecided) < 2 || len(groups) != len(d.Undecided) || d.Separate == nil {
			t.Fatalf("undecided %v (separate %v)", d.Undecided, d.Separate)
		}
		second := d.Cause(d.Undecided[1]).Score
		for _, l := range d.Undecided[2:] {
			if d.Cause(l).Score != second {
				t.Fatalf("undecided %v: %s scores %d, the second %d", d.Undecided, l, d.Cause(l).Score, second)
			}
		}
		for _, c := range d.Causes {
			if c.Score == second && !groups[c.Layer.Group()] && d.Cause(d.Undecided[0]).Score == second {
				t.Fatalf("undecided %v, and %s left out at the same score", d.Undecided, c.Layer)
			}
		}
		for _, l := range d.Undecided {
			if d.Cause(l).Likelihood == diagnose.Likely {
				t.Fatalf("undecided, yet %s likely", l)
			}
		}
		if d.Undecided[0] != d.Causes[0].Layer {
			t.Fatalf("undecided %v, first cause %s", d.Undecided, d.Causes[0].Layer)
		}
	}
	a := d.Cause(diagnose.LayerAPST)
	if d.APSTRuledOut && (a.Likelihood != diagnose.Unlikely || len(a.Against) == 0) {
		t.Fatalf("APST ruled out without a reason or while %s", a.Likelihood)
	}
	// What was tried without helping is never recommended again.
	for _, tr := range d.Tried {
		if tr.Outcome == diagnose.Helped || tr.Value == "" {
			continue
		}
		for _, c := range d.Causes {
			for _, tst := range c.Tests {
				if tst.Setting == tr.Setting+"="+tr.Value {
					t.Fatalf("%s: %s recommended though it was tried: %+v", c.Layer, tst.Setting, tr)
				}
			}
		}
	}
	// Never a placeholder printed as a name.
	for _, c := range d.Causes {
		for _, tst := range c.Tests {
			if strings.Contains(tst.Command, "nvmeN") || strings.Contains(tst.Command, "DDDD:BB") {
				t.Fatalf("placeholder in %q", tst.Command)
			}
		}
	}
}

func FuzzDecodeHealthLog(f *testing.F) {
	f.Add(make([]byte, 512))
	f.Add(diagnose.EncodeHealthLog(diagnose.HealthLog{PowerCycles: 10, UnsafeShutdowns: 3, MediaErrors: 1, CriticalWarning: 4, TemperatureK: 310}))
	f.Add([]byte{1, 2, 3})
	f.Fuzz(func(t *testing.T, b []byte) {
		h, err := diagnose.DecodeHealthLog(b)
		if len(b) != diagnose.HealthLogSize {
			if err == nil {
				t.Fatalf("%d bytes accepted", len(b))
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		back, err := diagnose.DecodeHealthLog(diagnose.EncodeHealthLog(h))
		if err != nil || back != h {
			t.Fatalf("round trip: %+v -> %+v (%v)", h, back, err)
		}
	})
}

func TestHealthLogLayout(t *testing.T) {
	b := make([]byte, 512)
	b[0], b[1], b[2], b[3], b[4], b[5] = 0x04, 0x36, 0x01, 100, 10, 3
	b[112], b[128], b[144], b[160], b[176] = 7, 9, 2, 1, 5
	h, err := diagnose.DecodeHealthLog(b)
	require.NoError(t, err)
	assert.Equal(t, diagnose.HealthLog{CriticalWarning: 4, TemperatureK: 310, AvailableSpare: 100, AvailableSpareThreshold: 10, PercentageUsed: 3,
		PowerCycles: 7, PowerOnHours: 9, UnsafeShutdowns: 2, MediaErrors: 1, ErrorLogEntries: 5}, h)
	b[144+8] = 1
	h, err = diagnose.DecodeHealthLog(b)
	require.NoError(t, err)
	assert.True(t, h.Saturated)
	assert.Equal(t, uint64(math.MaxUint64), h.UnsafeShutdowns)
	_, err = diagnose.DecodeHealthLog(b[:511])
	require.ErrorIs(t, err, diagnose.ErrHealthLog)
	assert.Contains(t, err.Error(), "diagnose: invalid SMART / Health log page: 511 bytes, want 512")
	assert.True(t, slices.Equal(diagnose.Layers(), []diagnose.Layer{"apst", "aspm", "link", "d3cold", "runtime-pm", "suspend", "platform", "firmware", "power-loss", "drive", "unknown"}))
}
