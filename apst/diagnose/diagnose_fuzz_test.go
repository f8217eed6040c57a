package diagnose_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// FuzzDiagnose runs the whole diagnosis on any pasted text, as a user's
// bug report brings it, with any --tried value: the reader refuses what is
// no log with its sentinel errors, and whatever it reads, the diagnosis
// keeps every invariant of checkDiagnosis (evidence quoting lines the
// input has, nothing ranked without a failure, nothing that failed offered
// again) and encodes to JSON. The seeds are the real threads' logs.
func FuzzDiagnose(f *testing.F) {
	for _, th := range loadThreads(f) {
		f.Add(th.log, th.header["tried"])
	}
	f.Add("[    1.0] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n", "pcie_aspm=off:no")
	f.Add("> nvme nvme0: I/O 9 QID 0 timeout, reset\n> controller\n", "")
	// A failure's consequences without it: a file system's I/O errors,
	// nvme's hint.
	f.Add("[  517.654795] XFS (nvme0n1p2): log I/O error -5\n", "")
	f.Add("kernel: nvme nvme0: Does your device have a faulty power saving mode enabled?\n", "")
	// Another program's copy of the kernel's line, alone.
	f.Add("Dec  5 10:00:01 thinkpad smartd[912]: nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff\n", "")
	f.Fuzz(func(t *testing.T, log, tried string) {
		l, err := kernlog.ReadString(log, kernlog.Options{})
		if err != nil {
			if !errors.Is(err, kernlog.ErrBinary) && !errors.Is(err, kernlog.ErrNotKernelLog) && !errors.Is(err, kernlog.ErrEmpty) {
				t.Fatalf("error %v", err)
			}
			return
		}
		in := diagnose.Input{Log: l, Tried: diagnose.ParseTried(tried)}
		if diagnose.CheckTried(in.Tried) != nil {
			in.Tried = nil
		}
		d := diagnose.Diagnose(in)
		// A log without LF reads its lines at CR (a classic Mac text):
		// the lines the reader can number are at most the line ends of
		// both kinds, plus one.
		checkDiagnosis(t, d, strings.Count(log, "\n")+strings.Count(log, "\r")+1)
		if _, err := json.Marshal(d); err != nil {
			t.Fatalf("JSON: %v", err)
		}
	})
}
