package nvmeapst_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	nvmeapst "github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/ioctl"
	"github.com/nvmeapst/nvmeapst/ioctl/ioctltest"
)

func inspect(t *testing.T, s *nvmeapst.System, names ...string) *nvmeapst.Report {
	t.Helper()
	r, err := s.Inspect(context.Background(), names...)
	require.NoError(t, err)
	return r
}

func TestInspectConsistentMachine(t *testing.T) {
	var rec opened
	r := inspect(t, systemWith(t, fixtureRoot, consistentDrives(t), &rec))
	rec.allClosed(t)

	assert.Equal(t, fixtureRelease, r.KernelRelease)
	assert.Equal(t, apst.Current, r.Generation)
	assert.Equal(t, "ASUSTeK COMPUTER INC.", r.DMI.BoardVendor)
	require.Len(t, r.Controllers, 3)
	for _, c := range r.Controllers {
		assert.Equal(t, nvmeapst.StatusMatch, c.Verdict.Status, "%s: %s", c.Name, c.Verdict.Summary)
		assert.Empty(t, c.Verdict.Differences, c.Name)
		assert.Empty(t, c.Verdict.Causes, c.Name)
		require.NotNil(t, c.Plan, c.Name)
		require.NotNil(t, c.Power, c.Name)
	}

	intel := r.Controllers[0]
	assert.Equal(t, "nvme0", intel.Name)
	assert.Equal(t, apst.PCIID{Vendor: 0x8086, Device: 0xf1a5}, intel.Sysfs.PCI)
	assert.Equal(t, apst.QuirkNoDeepestPS, intel.Quirks.APST())
	require.Len(t, intel.Quirks.Sources, 1)
	assert.Equal(t, "pci_id_table", intel.Quirks.Sources[0].Table)
	assert.Contains(t, intel.Quirks.Sources[0].Rule, "8086:f1a5")
	assert.Equal(t, nvmeapst.BoundModuleDefault, intel.BoundSource)
	assert.Equal(t, apst.Microseconds(100000), intel.Bound)
	assert.Equal(t, intelTable, intel.Plan.Table)
	assert.Equal(t, 3, intel.Plan.MaxPS)
	assert.Equal(t, uint8(3), intel.Power.State)

	noAPST := r.Controllers[1]
	assert.True(t, noAPST.APSTDisabled)
	assert.Equal(t, nvmeapst.BoundAPSTDisabled, noAPST.BoundSource)
	assert.Equal(t, apst.QuirkNoAPST, noAPST.Quirks.APST())
	require.Len(t, noAPST.Quirks.Sources, 1)
	assert.Equal(t, "dmi", noAPST.Quirks.Sources[0].Table)
	assert.Contains(t, noAPST.Quirks.Sources[0].Rule, "PRIME B350M-A")
	assert.Equal(t, apst.OutcomeDisabled, noAPST.Plan.Outcome)
	assert.False(t, noAPST.Plan.Enabled)

	samsung := r.Controllers[2]
	assert.Equal(t, apst.Quirks(0), samsung.Quirks.APST())
	assert.Empty(t, samsung.Quirks.Sources)
	assert.Equal(t, nvmeapst.BoundPMQoS, samsung.BoundSource)
	assert.Equal(t, apst.Microseconds(25000), samsung.Bound)
	assert.Equal(t, apst.Microseconds(100000), samsung.ModuleDefaultBound)
	assert.Equal(t, samsung25000Table, samsung.Plan.Table)
	assert.Equal(t, uint8(1), samsung.Power.WorkloadHint)
}

func TestInspectDriveHoldsAnotherTable(t *testing.T) {
	d := consistentDrives(t)
	// nvme0 holds the table of a kernel without the Intel 600p quirk, nvme2
	// the table of the module default bound (100000) although 25000 is set.
	d["nvme0"] = fake(intelImage(t), apst.Feature{Enabled: true, Table: intelNoQuirkTable}, ioctl.PowerManagement{}, nil)
	d["nvme2"] = fake(samsung990Image(t), apst.Feature{Enabled: true, Table: samsung100000Table}, ioctl.PowerManagement{}, nil)
	r := inspect(t, system(t, fixtureRoot, d))

	intel := r.Controllers[0].Verdict
	assert.Equal(t, nvmeapst.StatusMismatch, intel.Status)
	assert.Equal(t, []nvmeapst.EntryDiff{
		{State: 0, Kernel: 0x6418, Drive: 0x6420},
		{State: 1, Kernel: 0x6418, Drive: 0x6420},
		{State: 2, Kernel: 0x6418, Drive: 0x6420},
		{State: 3, Kernel: 0, Drive: 0x6420},
	}, intel.Differences)
	require.NotEmpty(t, intel.Causes)
	assert.Equal(t, nvmeapst.CauseQuirk, intel.Causes[0].Kind)
	assert.Contains(t, intel.Causes[0].Detail, "without the no-deepest-ps quirk")
	assert.Contains(t, kinds(intel.Causes), nvmeapst.CauseForceAPST, "force_apst=Y also cancels NO_DEEPEST_PS")
	assert.Equal(t, "4 entries differ (states 0, 1, 2, 3)", intel.Summary)

	assert.Equal(t, nvmeapst.StatusMatch, r.Controllers[1].Verdict.Status)

	samsung := r.Controllers[2].Verdict
	assert.Equal(t, nvmeapst.StatusMismatch, samsung.Status)
	assert.Equal(t, []nvmeapst.EntryDiff{{State: 3, Kernel: 0, Drive: 0x7d020}}, samsung.Differences)
	require.NotEmpty(t, samsung.Causes)
	assert.Equal(t, nvmeapst.CauseBoundChanged, samsung.Causes[0].Kind)
	assert.Contains(t, samsung.Causes[0].Detail, "at least 43000us")
	assert.Contains(t, samsung.Causes[0].Detail, "the module default 100000us")
	assert.Contains(t, samsung.Causes[0].Detail, "the bound is now 25000us")
	assert.Equal(t, nvmeapst.CauseUserSetFeature, samsung.Causes[len(samsung.Causes)-1].Kind)

	var text bytes.Buffer
	require.NoError(t, r.WriteText(&text))
	assert.Contains(t, text.String(), "verdict: mismatch: 1 entry differs (state 3)")
	assert.Contains(t, text.String(), "likely cause [bound-changed]")
	assert.Regexp(t, `\*\s+3 non-op .* -\s+->ps4@2000ms`, text.String())
}

func kinds(cs []nvmeapst.Cause) []nvmeapst.CauseKind {
	var out []nvmeapst.CauseKind
	for _, c := range cs {
		out = append(out, c.Kind)
	}
	return out
}

func TestInspectUnexplainedTables(t *testing.T) {
	custom := table(map[int]apst.Entry{0: apst.NewEntry(4, 5000), 1: apst.NewEntry(4, 5000), 2: apst.NewEntry(4, 5000), 3: apst.NewEntry(4, 5000)})
	tests := []struct {
		name    string
		feature apst.Feature
		want    []nvmeapst.CauseKind
		diffs   int
	}{
		{"user-space table", apst.Feature{Enabled: true, Table: custom},
			[]nvmeapst.CauseKind{nvmeapst.CauseUserSetFeature, nvmeapst.CauseFirmware}, 4},
		{"APST switched off", apst.Feature{Enabled: false, Table: samsung25000Table},
			[]nvmeapst.CauseKind{nvmeapst.CauseUserSetFeature, nvmeapst.CauseFirmware}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := consistentDrives(t)
			d["nvme2"] = fake(samsung990Image(t), tt.feature, ioctl.PowerManagement{}, nil)
			r := inspect(t, system(t, fixtureRoot, d), "nvme2")
			require.Len(t, r.Controllers, 1)
			v := r.Controllers[0].Verdict
			assert.Equal(t, nvmeapst.StatusMismatch, v.Status)
			assert.Len(t, v.Differences, tt.diffs)
			assert.Equal(t, tt.want, kinds(v.Causes))
		})
	}
}

func TestInspectFailuresAreReported(t *testing.T) {
	d := consistentDrives(t)
	d["nvme2"] = fake(samsung990Image(t), apst.Feature{}, ioctl.PowerManagement{}, map[string]error{
		ioctl.OpGetAPST:            ioctltest.PermissionError(ioctl.OpGetAPST),
		ioctl.OpGetPowerManagement: ioctltest.PermissionError(ioctl.OpGetPowerManagement),
	})
	delete(d, "nvme0") // cannot be opened at all
	var rec opened
	r := inspect(t, systemWith(t, fixtureRoot, d, &rec))
	rec.allClosed(t)

	nvme0 := r.Controllers[0]
	require.NotNil(t, nvme0.DeviceProblem)
	assert.True(t, nvme0.DeviceProblem.NotExist)
	assert.ErrorIs(t, nvme0.DeviceProblem, os.ErrNotExist)
	assert.Nil(t, nvme0.Plan)
	assert.Equal(t, nvmeapst.StatusUnknown, nvme0.Verdict.Status)
	// Without Identify the PCI table still applies.
	assert.Equal(t, apst.QuirkNoDeepestPS, nvme0.Quirks.APST())

	nvme2 := r.Controllers[2]
	require.NotNil(t, nvme2.Plan)
	assert.Nil(t, nvme2.Drive)
	require.NotNil(t, nvme2.DriveProblem)
	assert.ErrorIs(t, nvme2.DriveProblem, os.ErrPermission)
	assert.Equal(t, nvmeapst.StatusUnknown, nvme2.Verdict.Status)

	var text bytes.Buffer
	require.NoError(t, r.WriteText(&text))
	assert.Contains(t, text.String(), "drive: unreadable: "+nvme2.DriveProblem.Message+"\n")
	assert.Contains(t, nvme2.DriveProblem.Message, "get features (APST)")
	assert.Contains(t, nvme2.DriveProblem.Message, "CAP_SYS_ADMIN")
}

func TestInspectNamedAndUnknownControllers(t *testing.T) {
	s := system(t, fixtureRoot, consistentDrives(t))
	r := inspect(t, s, "nvme2", "nvme0")
	require.Len(t, r.Controllers, 2)
	assert.Equal(t, "nvme2", r.Controllers[0].Name)

	for _, name := range []string{"nvme7", "nvme0n1", "../nvme0"} {
		_, err := s.Inspect(context.Background(), name)
		assert.ErrorIs(t, err, nvmeapst.ErrNoController, name)
	}
}

func TestInspectInfersUnknownNoAPSTQuirk(t *testing.T) {
	// A drive the model has no quirk for, on a machine whose kernel hides
	// pm_qos_latency_tolerance_us: the kernel knows a NO_APST quirk.
	root := copyTree(t, fixtureRoot)
	require.NoError(t, os.Remove(root+"/class/nvme/nvme2/power/pm_qos_latency_tolerance_us"))
	d := consistentDrives(t)
	d["nvme2"] = fake(samsung990Image(t), apst.Feature{}, ioctl.PowerManagement{}, nil)
	r := inspect(t, system(t, root, d), "nvme2")
	c := r.Controllers[0]
	assert.True(t, c.APSTDisabled)
	assert.Equal(t, apst.QuirkNoAPST, c.Params.Quirks)
	require.Len(t, c.Quirks.Sources, 1)
	assert.Equal(t, "inferred", c.Quirks.Sources[0].Table)
	assert.Equal(t, nvmeapst.StatusMatch, c.Verdict.Status)
}

func TestReportJSON(t *testing.T) {
	r := inspect(t, system(t, fixtureRoot, consistentDrives(t)))
	b, err := json.Marshal(r)
	require.NoError(t, err)
	var out struct {
		KernelRelease string `json:"kernel_release"`
		Generation    string `json:"generation"`
		Module        struct {
			Default *uint64 `json:"default_ps_max_latency_us"`
			Force   *bool   `json:"force_apst"`
		} `json:"module"`
		Controllers []struct {
			Name      string  `json:"name"`
			Tolerance *string `json:"pm_qos_latency_tolerance_us"`
			PCI       *struct {
				ID string `json:"id"`
			} `json:"pci"`
			Quirks struct {
				APST    string `json:"apst"`
				Sources []struct {
					Table string `json:"table"`
				} `json:"sources"`
			} `json:"quirks"`
			Bound struct {
				US     uint64 `json:"us"`
				Source string `json:"source"`
			} `json:"bound"`
			Plan struct {
				Sent           bool `json:"sent"`
				Enabled        bool `json:"enabled"`
				MaxPS          int  `json:"max_ps"`
				MaxRoundTripUS int  `json:"max_round_trip_us"`
				Entries        []struct {
					State int    `json:"state"`
					Value string `json:"value"`
				} `json:"entries"`
			} `json:"plan"`
			Drive struct {
				Enabled bool `json:"enabled"`
			} `json:"drive"`
			Power struct {
				State          uint8 `json:"state"`
				NonOperational *bool `json:"non_operational"`
			} `json:"power"`
			Verdict struct {
				Status string `json:"status"`
			} `json:"verdict"`
		} `json:"controllers"`
	}
	require.NoError(t, json.Unmarshal(b, &out))
	assert.Equal(t, fixtureRelease, out.KernelRelease)
	assert.Equal(t, "current", out.Generation)
	require.NotNil(t, out.Module.Default)
	assert.Equal(t, uint64(100000), *out.Module.Default)
	require.Len(t, out.Controllers, 3)
	c0 := out.Controllers[0]
	assert.Equal(t, "nvme0", c0.Name)
	require.NotNil(t, c0.Tolerance)
	assert.Equal(t, "100000", *c0.Tolerance)
	assert.Equal(t, "8086:f1a5", c0.PCI.ID)
	assert.Equal(t, "no-deepest-ps", c0.Quirks.APST)
	assert.Equal(t, "pci_id_table", c0.Quirks.Sources[0].Table)
	assert.Equal(t, "module-default", c0.Bound.Source)
	assert.True(t, c0.Plan.Sent)
	assert.Equal(t, 3, c0.Plan.MaxPS)
	assert.Equal(t, 10300, c0.Plan.MaxRoundTripUS)
	require.Len(t, c0.Plan.Entries, 32)
	assert.Equal(t, "0x0000000000006418", c0.Plan.Entries[0].Value)
	require.NotNil(t, c0.Power.NonOperational)
	assert.True(t, *c0.Power.NonOperational)
	assert.Equal(t, "match", c0.Verdict.Status)
	assert.Nil(t, out.Controllers[1].Tolerance)
	assert.Equal(t, "apst-disabled", out.Controllers[1].Bound.Source)
}

func TestProblemRoundTrip(t *testing.T) {
	err := fmt.Errorf("open /dev/nvme0: %w", os.ErrPermission)
	p := nvmeapst.NewProblem(err)
	assert.Equal(t, err.Error(), p.Error())
	assert.ErrorIs(t, p, os.ErrPermission)
	assert.NotErrorIs(t, p, os.ErrNotExist)
	assert.Equal(t, p, nvmeapst.NewProblem(p))
	assert.Equal(t, p, nvmeapst.NewProblem(fmt.Errorf("%w", p)))
	assert.Nil(t, nvmeapst.NewProblem(nil))
	assert.True(t, errors.Is(nvmeapst.NewProblem(fmt.Errorf("x: %w", ioctl.ErrUnsupported)), ioctl.ErrUnsupported))
}
