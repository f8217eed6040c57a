package diagnose_test

import (
	"strings"
	"testing"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
)

// FuzzParseTried holds the three readers of settings tried to their
// contracts on any text: no panic; a --tried value that reads gives
// settings with a name, without contradictions, that read back the same
// when written again; a command line gives settings from the log, each
// with a name and without blanks outside its value.
func FuzzParseTried(f *testing.F) {
	for _, s := range []string{
		"pcie_aspm=off", "pcie_aspm=off:helped,nvme_core.default_ps_max_latency_us=0:no",
		"nvme.quirks=144d:a808:no_apst,no_deepest_ps:partly", "/sys/bus/pci/devices/0000:01:00.0/d3cold_allowed=0:yes",
		"other-slot:no", "dtparam=pciex1_gen=2", "x=$(reboot)", ",", "a=1:maybe",
		`BOOT_IMAGE=/vmlinuz root=UUID=1 ro quiet dyndbg="file nvme.c +p" -- single`,
	} {
		f.Add(s)
	}
	outcomeWord := map[diagnose.Outcome]string{diagnose.Helped: "helped", diagnose.Partly: "partly", diagnose.DidNotHelp: "no"}
	f.Fuzz(func(t *testing.T, s string) {
		diagnose.ParseTried(s)
		for _, c := range diagnose.ParseCommandLine(s) {
			if c.Setting == "" || !c.FromLog || c.Outcome != diagnose.DidNotHelp {
				t.Fatalf("command line %q: %+v", s, c)
			}
		}
		ts, err := diagnose.ParseTriedFlag(s)
		if err != nil {
			return
		}
		if len(ts) == 0 {
			t.Fatalf("%q: no setting and no error", s)
		}
		if err := diagnose.CheckTried(ts); err != nil {
			t.Fatalf("%q: read, yet contradicts itself: %v", s, err)
		}
		for _, x := range ts {
			if x.Setting == "" || x.FromLog {
				t.Fatalf("%q: %+v", s, x)
			}
			again := x.Setting
			if x.Value != "" || strings.Contains(x.Setting, "=") {
				again += "=" + x.Value
			}
			back, err := diagnose.ParseTriedFlag(again + ":" + outcomeWord[x.Outcome])
			if err != nil || len(back) != 1 || back[0] != x {
				t.Fatalf("%q: %+v written as %q reads back as %+v (%v)", s, x, again, back, err)
			}
		}
	})
}
