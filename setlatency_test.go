package nvmeapst_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	nvmeapst "github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/sysfs"
)

func toleranceFile(root, name string) string {
	return filepath.Join(root, "class", "nvme", name, "power", "pm_qos_latency_tolerance_us")
}

func TestSetLatencyWritesAndReadsBack(t *testing.T) {
	root := testfixture.CopyTree(t, fixtureRoot)
	s := system(t, root, consistentDrives(t))

	ch, err := s.SetLatency(context.Background(), "nvme0", "25000")
	require.NoError(t, err)
	assert.Equal(t, apst.Tolerance{Kind: apst.ToleranceValue, Value: 100000}, ch.Old)
	assert.Equal(t, apst.Tolerance{Kind: apst.ToleranceValue, Value: 25000}, ch.New)
	assert.Equal(t, apst.Microseconds(25000), ch.Bound)
	b, err := os.ReadFile(toleranceFile(root, "nvme0"))
	require.NoError(t, err)
	assert.Equal(t, "25000", string(bytes.TrimSpace(b)))

	// The table the kernel now builds, from the new bound: on the Intel
	// 600p both exit latencies are below 25000, so it is unchanged.
	rep := ch.Report
	assert.Equal(t, apst.Microseconds(25000), rep.Params.Bound)
	assert.Equal(t, nvmeapst.BoundPMQoS, rep.BoundSource)
	require.NotNil(t, rep.Plan)
	assert.Equal(t, intelTable, rep.Plan.Table)
	require.NotNil(t, rep.Drive)
	assert.Equal(t, nvmeapst.StatusMatch, rep.Verdict.Status)

	p := ch.Persist
	assert.Equal(t, `ACTION=="add|change", SUBSYSTEM=="nvme", KERNEL=="nvme[0-9]*", ATTR{model}=="INTEL SSDPEKKW256G7", TEST=="power/pm_qos_latency_tolerance_us", ATTR{power/pm_qos_latency_tolerance_us}="25000"`, p.UdevRule)
	assert.Equal(t, "nvme_core.default_ps_max_latency_us=25000", p.KernelParameter)
	assert.Equal(t, "options nvme_core default_ps_max_latency_us=25000", p.ModprobeOption)

	// The text and JSON views of the change are apstctl's (its golden
	// files and cmd_inspect_test.go).
	assert.Equal(t, "nvme0", ch.Controller)
}

func TestSetLatencyChangesThePlan(t *testing.T) {
	root := testfixture.CopyTree(t, fixtureRoot)
	s := system(t, root, consistentDrives(t))
	// nvme2 goes from 25000 to the module default: ps4 becomes the
	// secondary target; the fake drive still holds the old table.
	ch, err := s.SetLatency(context.Background(), "nvme2", "100000")
	require.NoError(t, err)
	assert.Equal(t, samsung100000Table, ch.Report.Plan.Table)
	assert.Equal(t, nvmeapst.BoundModuleDefault, ch.Report.BoundSource)
	assert.Equal(t, nvmeapst.StatusMismatch, ch.Report.Verdict.Status)
	assert.Equal(t, nvmeapst.CauseBoundChanged, ch.Report.Verdict.Causes[0].Kind)
}

func TestSetLatencyKeywords(t *testing.T) {
	tests := []struct {
		value, reads, param string
		bound               apst.Microseconds
	}{
		{"auto", "auto", "nvme_core.default_ps_max_latency_us=2147483647", apst.NoLimit},
		{"any", "any", "nvme_core.default_ps_max_latency_us=2147483647", apst.NoLimit},
		{"2147483647", "any", "nvme_core.default_ps_max_latency_us=2147483647", apst.NoLimit},
		{"0", "0", "nvme_core.default_ps_max_latency_us=0", 0},
		{"0x10\n", "16", "nvme_core.default_ps_max_latency_us=16", 16},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			root := testfixture.CopyTree(t, fixtureRoot)
			ch, err := system(t, root, consistentDrives(t)).SetLatency(context.Background(), "nvme2", tt.value)
			require.NoError(t, err)
			assert.Equal(t, tt.reads, ch.New.String())
			assert.Equal(t, tt.bound, ch.Bound)
			assert.Equal(t, tt.param, ch.Persist.KernelParameter)
			assert.Contains(t, ch.Persist.UdevRule, `ATTR{power/pm_qos_latency_tolerance_us}="`+tt.reads+`"`)
			if tt.bound == 0 {
				assert.Equal(t, apst.OutcomeDisabled, ch.Report.Plan.Outcome)
			}
		})
	}
}

func TestSetLatencyRefusesInvalidValues(t *testing.T) {
	root := testfixture.CopyTree(t, fixtureRoot)
	s := system(t, root, consistentDrives(t))
	path := toleranceFile(root, "nvme0")
	before, err := os.ReadFile(path)
	require.NoError(t, err)
	st, err := os.Stat(path)
	require.NoError(t, err)

	for _, v := range []string{"-5", "2147483648", "12abc", "auto\nany", "", " 5", "5\n\n"} {
		ch, err := s.SetLatency(context.Background(), "nvme0", v)
		assert.ErrorIs(t, err, apst.ErrInvalidTolerance, "%q", v)
		assert.Nil(t, ch)
		after, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.Equal(t, before, after, "%q changed the file", v)
		st2, err := os.Stat(path)
		require.NoError(t, err)
		assert.Equal(t, st.ModTime(), st2.ModTime(), "%q touched the file", v)
	}
}

func TestSetLatencyErrors(t *testing.T) {
	root := testfixture.CopyTree(t, fixtureRoot)
	s := system(t, root, consistentDrives(t))
	_, err := s.SetLatency(context.Background(), "nvme1", "25000")
	assert.ErrorIs(t, err, sysfs.ErrAPSTDisabled)
	_, err = s.SetLatency(context.Background(), "nvme9", "25000")
	assert.ErrorIs(t, err, nvmeapst.ErrNoController)
	_, err = s.SetLatency(context.Background(), "nvme0n1", "25000")
	assert.ErrorIs(t, err, nvmeapst.ErrNoController)
}

func TestPersistenceWithoutSerial(t *testing.T) {
	root := testfixture.CopyTree(t, fixtureRoot)
	ch, err := system(t, root, consistentDrives(t)).SetLatency(context.Background(), "nvme2", "5500")
	require.NoError(t, err)
	assert.Equal(t, `ACTION=="add|change", SUBSYSTEM=="nvme", KERNEL=="nvme[0-9]*", ATTR{model}=="Samsung SSD 990 EVO Plus *", TEST=="power/pm_qos_latency_tolerance_us", ATTR{power/pm_qos_latency_tolerance_us}="5500"`, ch.Persist.UdevRule,
		"keyed on the model, every capacity: it reaches a second drive of the model")
	require.NoError(t, os.WriteFile(filepath.Join(root, "class/nvme/nvme2/model"), []byte("BAD\"MODEL\n"), 0o644))
	ch, err = system(t, root, consistentDrives(t)).SetLatency(context.Background(), "nvme2", "5500")
	require.NoError(t, err)
	assert.Equal(t, `ACTION=="add|change", SUBSYSTEM=="nvme", KERNEL=="nvme[0-9]*", ATTR{serial}=="S7U6NJ0X123456B", TEST=="power/pm_qos_latency_tolerance_us", ATTR{power/pm_qos_latency_tolerance_us}="5500"`, ch.Persist.UdevRule)
	require.NoError(t, os.WriteFile(filepath.Join(root, "class/nvme/nvme2/serial"), []byte("BAD\"SERIAL\n"), 0o644))
	ch, err = system(t, root, consistentDrives(t)).SetLatency(context.Background(), "nvme2", "5500")
	require.NoError(t, err)
	// Neither can be quoted: no rule keyed on a name that changes between
	// boots; the kernel parameter, rendered by persist, still is.
	assert.Empty(t, ch.Persist.UdevRule)
	assert.Contains(t, strings.Join(ch.Persist.Notes, "\n"), "no udev rule")
	assert.Equal(t, "nvme_core.default_ps_max_latency_us=5500", ch.Persist.KernelParameter)
	assert.Equal(t, "options nvme_core default_ps_max_latency_us=5500", ch.Persist.ModprobeOption)
}
