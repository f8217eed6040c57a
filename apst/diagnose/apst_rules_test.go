package diagnose_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// Linux programs APST since v4.11 (and Ubuntu's 4.10 by backport): a log
// of an older kernel speaks against APST, offers no test of it (its
// parameter does not exist there), and lets the controller that stopped
// answering while its config space still did count for ASPM alone. The
// boot line is a 4.4 Ubuntu kernel's shape; the failure is 4.12's line.
func TestKernelBeforeAPST(t *testing.T) {
	const fail = "[ 1200.123456] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n"
	for _, tc := range []struct {
		release string
		out     bool
	}{
		{"4.4.0-21-generic (buildd@lgw01-21) (gcc version 5.3.1 20160413 (Ubuntu 5.3.1-14ubuntu2) ) #37-Ubuntu SMP Mon Apr 18 18:33:37 UTC 2016 (Ubuntu 4.4.0-21.37-generic 4.4.6)", true},
		{"3.19.0-84-generic (buildd@lcy01-11) (gcc version 4.8.4 (Ubuntu 4.8.4-2ubuntu1~14.04.3) ) #92~14.04.1-Ubuntu SMP Fri Mar 24 15:47:40 UTC 2017", true},
		{"4.10.0-14-generic (buildd@lcy01-01) (gcc version 6.3.0 20170221 (Ubuntu 6.3.0-8ubuntu1) ) #16-Ubuntu SMP Fri Mar 17 15:19:26 UTC 2017", false},
		{"4.11.0-1-amd64 (debian-kernel@lists.debian.org) (gcc version 6.3.0 20170516 (Debian 6.3.0-18) ) #1 SMP Debian 4.11.6-1 (2017-06-19)", false},
	} {
		t.Run(tc.release[:8], func(t *testing.T) {
			d := diagnoseFailure(t, "[    0.000000] Linux version "+tc.release+"\n"+fail)
			a := d.Cause(diagnose.LayerAPST)
			if !tc.out {
				assert.Greater(t, a.Score, 0, d.Summary)
				assert.NotEmpty(t, a.Tests)
				return
			}
			assert.LessOrEqual(t, a.Score, 0, d.Summary)
			require.NotEmpty(t, a.Against)
			assert.Contains(t, a.Against[0].Text, "older than Linux's APST support (v4.11")
			assert.Empty(t, a.Tests, "no test of a layer the kernel does not have")
			assert.True(t, d.APSTRuledOut)
			assert.Empty(t, d.Undecided, d.Summary)
			assert.Equal(t, diagnose.LayerASPM, d.Causes[0].Layer, d.Summary)
			assert.Contains(t, d.Summary, "APST is probably not the cause: the log's kernel ("+tc.release[:len("4.4.0-21-generic")])

			// With the drive's Identify data: no plan of a later kernel's
			// speaks for APST, and the score is the same.
			l, err := kernlog.ReadString("[    0.000000] Linux version "+tc.release+"\n"+fail, kernlog.Options{})
			require.NoError(t, err)
			withID := diagnose.Diagnose(diagnose.Input{Log: l, Identify: evo(t)})
			wa := withID.Cause(diagnose.LayerAPST)
			assert.Equal(t, a.Score, wa.Score, withID.Summary)
			for _, e := range wa.Evidence {
				assert.NotEqual(t, "APST plan", e.Source, "a plan of a kernel that sends no table: %s", e.Text)
			}
			assert.Empty(t, wa.Tests)
		})
	}
}

// "failed to set APST feature (-19)" after a reset that failed its own
// way ("Device not ready; aborting reset, CSTS=0x1": the controller
// answered) is the driver having let the controller go: no evidence that
// the controller "read all ones". The lines as the ArchWiki's NVMe page
// quotes them.
func TestAPSTENODEVAfterAFailedReset(t *testing.T) {
	d := diagnoseFailure(t, "nvme nvme0: I/O 840 QID 6 timeout, reset controller\n"+
		"nvme nvme0: I/O 24 QID 0 timeout, reset controller\n"+
		"nvme nvme0: Device not ready; aborting reset, CSTS=0x1\n"+
		"nvme nvme0: failed to set APST feature (-19)\n")
	for _, c := range d.Causes {
		for _, e := range c.Evidence {
			assert.NotContains(t, e.Text, "read all ones", "%s: %s", c.Layer, e.Quote)
		}
	}
	// After a reset that failed with -19 too, it is the read; alone, a
	// removal (TestAPSTMinus19AloneIsARemoval).
	d = diagnoseFailure(t, "nvme nvme0: Disabling device after reset failure: -19\nnvme nvme0: failed to set APST feature (-19)\n")
	assert.True(t, slices.ContainsFunc(d.Causes, func(c diagnose.Cause) bool {
		return slices.ContainsFunc(c.Evidence, func(e diagnose.Line) bool { return strings.Contains(e.Text, "read all ones") })
	}), d.Summary)
}

// A timeout that made the driver disable the controller, rather than
// reset it, came while the driver brought it up (nvme-pci's timeout
// handler, a controller still connecting): the first Identify of a probe,
// before the driver ever set up APST. Neither APST's "a stall after a
// wake" nor a recovery fits; the bring-up's failure is the platform's
// evidence. Two drives' probes behind an AMD IOMMU whose page table was
// wrong (Ankit Soni, iommu@, Message-ID:
// <pntkuh63y26rygrkxegbzncvc3shtplucrnzkkz2dimpkfyn75@uekvyuz5kred>,
// posted zh-04).
func TestBringUpTimeoutIsNoAPST(t *testing.T) {
	d := diagnoseFailure(t, `[   72.179618] nvme nvme1: I/O tag 24 (0018) QID 0 timeout, disable controller
[   72.203063] nvme nvme1: Identify Controller failed (-4)
`)
	assert.Empty(t, causeOf(&d, diagnose.LayerAPST).Evidence, d.Summary)
	require.NotEmpty(t, d.Causes)
	assert.Equal(t, diagnose.LayerPlatform, d.Causes[0].Layer, d.Summary)
	for _, e := range d.Causes[0].Evidence {
		assert.NotContains(t, e.Text, "recovered")
	}
}
