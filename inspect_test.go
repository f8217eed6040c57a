package nvmeapst_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	nvmeapst "github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
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
	d["nvme0"] = fake(intelImage(t), apst.Feature{APSTE: apst.APSTEEnabled, Table: intelNoQuirkTable}, ioctl.PowerManagement{}, nil)
	d["nvme2"] = fake(samsung990Image(t), apst.Feature{APSTE: apst.APSTEEnabled, Table: samsung100000Table}, ioctl.PowerManagement{}, nil)
	r := inspect(t, system(t, fixtureRoot, d))

	intel := r.Controllers[0].Verdict
	assert.Equal(t, nvmeapst.StatusMismatch, intel.Status)
	// Each entry is explained by the kernel's decision on ps4 (the quirk).
	const noDeepest = "the kernel does not target ps4: deepest state excluded by the NO_DEEPEST_PS quirk"
	assert.Equal(t, []analysis.EntryDiff{
		{State: 0, Expected: 0x6418, Drive: 0x6420, Decision: apst.Decision{State: 4, Reason: apst.ReasonNoDeepestPS}, Reason: noDeepest},
		{State: 1, Expected: 0x6418, Drive: 0x6420, Decision: apst.Decision{State: 4, Reason: apst.ReasonNoDeepestPS}, Reason: noDeepest},
		{State: 2, Expected: 0x6418, Drive: 0x6420, Decision: apst.Decision{State: 4, Reason: apst.ReasonNoDeepestPS}, Reason: noDeepest},
		{State: 3, Expected: 0, Drive: 0x6420, Decision: apst.Decision{State: 4, Reason: apst.ReasonNoDeepestPS}, Reason: noDeepest},
	}, intel.Differences)
	require.NotEmpty(t, intel.Causes)
	assert.Equal(t, nvmeapst.CauseQuirk, intel.Causes[0].Kind)
	assert.Contains(t, intel.Causes[0].Detail, "without the no-deepest-ps quirk")
	assert.Contains(t, kinds(intel.Causes), nvmeapst.CauseForceAPST, "force_apst=Y also cancels NO_DEEPEST_PS")
	assert.Equal(t, "4 entries differ (states 0, 1, 2, 3)", intel.Summary)

	assert.Equal(t, nvmeapst.StatusMatch, r.Controllers[1].Verdict.Status)

	samsung := r.Controllers[2].Verdict
	assert.Equal(t, nvmeapst.StatusMismatch, samsung.Status)
	assert.Equal(t, []analysis.EntryDiff{{State: 3, Expected: 0, Drive: 0x7d020,
		Decision: apst.Decision{State: 4, Reason: apst.ReasonExitAboveBound},
		Reason:   "the kernel does not target ps4: exit latency 43000us > bound 25000us"}}, samsung.Differences)
	require.NotEmpty(t, samsung.Causes)
	assert.Equal(t, nvmeapst.CauseBoundChanged, samsung.Causes[0].Kind)
	assert.Contains(t, samsung.Causes[0].Detail, "at least 43000us")
	assert.Contains(t, samsung.Causes[0].Detail, "the module default 100000us")
	assert.Contains(t, samsung.Causes[0].Detail, "the bound is now 25000us")
	assert.Equal(t, nvmeapst.CauseUserSetFeature, samsung.Causes[len(samsung.Causes)-1].Kind)

	assert.Equal(t, "1 entry differs (state 3)", samsung.Summary)
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
		{"user-space table", apst.Feature{APSTE: apst.APSTEEnabled, Table: custom},
			[]nvmeapst.CauseKind{nvmeapst.CauseUserSetFeature, nvmeapst.CauseFirmware}, 4},
		{"APST switched off", apst.Feature{APSTE: apst.APSTEDisabled, Table: samsung25000Table},
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

	assert.Contains(t, nvme2.DriveProblem.Message, "get features (APST)")
	assert.Contains(t, nvme2.DriveProblem.Message, "CAP_SYS_ADMIN")
}

func TestInspectNamedAndUnknownControllers(t *testing.T) {
	s := system(t, fixtureRoot, consistentDrives(t))
	r := inspect(t, s, "nvme2", "nvme0")
	require.Len(t, r.Controllers, 2)
	assert.Equal(t, "nvme2", r.Controllers[0].Name)

	// A controller named twice is reported once, where it is first named.
	r = inspect(t, s, "nvme2", "nvme0", "nvme2")
	require.Len(t, r.Controllers, 2)
	assert.Equal(t, "nvme2", r.Controllers[0].Name)
	assert.Equal(t, "nvme0", r.Controllers[1].Name)

	for _, name := range []string{"nvme7", "nvme0n1", "../nvme0"} {
		_, err := s.Inspect(context.Background(), name)
		assert.ErrorIs(t, err, nvmeapst.ErrNoController, name)
	}
}

func TestInspectInfersUnknownNoAPSTQuirk(t *testing.T) {
	// A drive the model has no quirk for, on a machine whose kernel hides
	// pm_qos_latency_tolerance_us: the kernel knows a NO_APST quirk.
	root := testfixture.CopyTree(t, fixtureRoot)
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

func TestErrNoControllerIsNotExist(t *testing.T) {
	assert.ErrorIs(t, nvmeapst.ErrNoController, fs.ErrNotExist)
	_, err := system(t, fixtureRoot, consistentDrives(t)).Inspect(context.Background(), "nvme9")
	assert.ErrorIs(t, err, nvmeapst.ErrNoController)
	assert.ErrorIs(t, err, fs.ErrNotExist)
	assert.Equal(t, "nvmeapst: no such NVMe controller", nvmeapst.ErrNoController.Error())

	var p *nvmeapst.Problem
	assert.NoError(t, p.Err(), "a nil *Problem is a nil error")
	assert.Error(t, nvmeapst.NewProblem(os.ErrPermission).Err())
}

// TestInspectVerdictUsesCheck: the pure comparison is analysis.Check, with
// the configurations that reproduce the drive's table.
func TestInspectVerdictUsesCheck(t *testing.T) {
	d := consistentDrives(t)
	d["nvme2"] = fake(samsung990Image(t), apst.Feature{APSTE: apst.APSTEEnabled, Table: samsung100000Table}, ioctl.PowerManagement{}, nil)
	r := inspect(t, system(t, fixtureRoot, d), "nvme2")
	v := r.Controllers[0].Verdict
	require.NotNil(t, v.Check)
	assert.False(t, v.Check.Match)
	require.NotEmpty(t, v.Check.ReproducedBy)
	rep := v.Check.ReproducedBy[0]
	assert.Equal(t, apst.Microseconds(43000), rep.Min)
	assert.Equal(t, apst.NoLimit, rep.Max)
	assert.Equal(t, "kernel=6.8,ps-max-latency-us=100000,quirks=none", rep.Params.String())
	assert.Equal(t, "ps_max_latency_us 43000us..unlimited instead of 25000us", rep.Reason)

	// A raw buffer without APSTE matches on the table alone, and says so.
	d["nvme2"] = fake(samsung990Image(t), apst.Feature{Table: samsung25000Table}, ioctl.PowerManagement{}, nil)
	r = inspect(t, system(t, fixtureRoot, d), "nvme2")
	v = r.Controllers[0].Verdict
	assert.Equal(t, nvmeapst.StatusMatch, v.Status)
	assert.Equal(t, apst.APSTEUnknown, v.DriveAPSTE)
	assert.Contains(t, v.Summary, "APSTE not recorded")
	assert.Contains(t, strings.Join(v.Notes, "\n"), "APSTE (bit 0 of completion dword 0) is unknown")
}

// TestInspectUnreadableIsNotAbsent: a tolerance file that exists but cannot
// be read (here a named pipe) leaves the bound unknown; it does not mean the
// kernel has APST disabled, and the verdict says which causes that leaves
// uncertain.
func TestInspectUnreadableIsNotAbsent(t *testing.T) {
	root := testfixture.CopyTree(t, fixtureRoot)
	tol := root + "/class/nvme/nvme2/power/pm_qos_latency_tolerance_us"
	require.NoError(t, os.Remove(tol))
	testfixture.Mkfifo(t, tol)
	r := inspect(t, system(t, root, consistentDrives(t)), "nvme2")
	require.Len(t, r.Controllers, 1)
	c := r.Controllers[0]
	assert.False(t, c.APSTDisabled)
	assert.Equal(t, nvmeapst.BoundUnreadable, c.BoundSource)
	assert.Equal(t, apst.Microseconds(100000), c.Bound, "the module default, assumed")
	require.NotEmpty(t, c.SysfsProblems)
	require.NotEmpty(t, r.Problems)
	assert.Contains(t, strings.Join(c.Verdict.Notes, "\n"), "bound-changed and whether the kernel has APST enabled")
	assert.Empty(t, c.Quirks.Sources, "no NO_APST inferred from a file that was not read")
}

// TestInspectBadModuleParameter: one malformed nvme_core parameter is one
// unknown parameter; the others are used.
func TestInspectBadModuleParameter(t *testing.T) {
	root := testfixture.CopyTree(t, fixtureRoot)
	require.NoError(t, os.WriteFile(root+"/module/nvme_core/parameters/apst_secondary_timeout_ms", []byte("12abc\n"), 0o644))
	r := inspect(t, system(t, root, consistentDrives(t)), "nvme2")
	assert.Equal(t, []string{"apst_secondary_timeout_ms"}, r.Module.Unreadable)
	require.NotNil(t, r.ModuleProblem)
	assert.Equal(t, apst.Current, r.Generation, "the other apst_* parameters still say v5.14+")
	require.NotNil(t, r.Module.DefaultPSMaxLatencyUS)
	c := r.Controllers[0]
	assert.Equal(t, nvmeapst.StatusMatch, c.Verdict.Status)
	assert.Contains(t, strings.Join(c.Verdict.Notes, "\n"), "nvme_core parameter apst_secondary_timeout_ms could not be read")
}

// TestInspectMissingPCIVendorIsAGap: without device/vendor the PCI quirks
// are not silently dropped: the report says so (and the 600p's ID is
// inferred from its model).
func TestInspectMissingPCIVendorIsAGap(t *testing.T) {
	root := testfixture.CopyTree(t, fixtureRoot)
	dev, err := filepath.EvalSymlinks(root + "/class/nvme/nvme0/device")
	require.NoError(t, err)
	require.NoError(t, os.Remove(filepath.Join(dev, "vendor")))
	r := inspect(t, system(t, root, consistentDrives(t)), "nvme0")
	c := r.Controllers[0]
	assert.False(t, c.Sysfs.HasPCI)
	assert.Contains(t, strings.Join(c.QuirkNotes, "\n"), "PCI ID unknown")
	assert.Equal(t, apst.QuirkNoDeepestPS, c.Quirks.APST(), "inferred from the model")
	assert.Equal(t, apst.PCIID{Vendor: 0x8086, Device: 0xf1a5}, c.Quirks.InferredPCI)
	assert.Equal(t, nvmeapst.StatusMatch, c.Verdict.Status)
}

// TestInspectBoundZeroWhenAPSTDisabled: the DMI-quirked controller of the
// bundle (NO_APST: the tolerance file is absent) reports no bound, not the
// module default an exporter would publish as if it applied.
func TestInspectBoundZeroWhenAPSTDisabled(t *testing.T) {
	sys, err := nvmeapst.OpenRoot("testdata/bundle")
	require.NoError(t, err)
	rep, err := sys.Inspect(context.Background())
	require.NoError(t, err)
	found := false
	for _, c := range rep.Controllers {
		if c.BoundSource == nvmeapst.BoundAPSTDisabled {
			found = true
			assert.Zero(t, c.Bound, c.Name)
			assert.Equal(t, apst.Microseconds(100000), c.Params.Bound, "the request's value stays in Params")
		}
	}
	require.True(t, found)
}

// TestInspectReach: each controller says where the kernel's table and the
// drive's take it, with the deepest state's exit latency and max power
// (the figures of the deepest state itself, not ps0's: a drive that never
// leaves ps0 is the case that tells them apart). nvme2 of the bundle holds the 100 ms table
// (ps4: 43 ms, 7 mW) while the kernel programs the 25 ms one (ps3: 4.6 ms,
// 80 mW); the DMI-quirked nvme1 has APST disabled: both tables stay in ps0,
// whose exit latency is then 0.
func TestInspectReach(t *testing.T) {
	sys, err := nvmeapst.OpenRoot("testdata/bundle")
	require.NoError(t, err)
	rep, err := sys.Inspect(context.Background())
	require.NoError(t, err)
	byName := map[string]*nvmeapst.ControllerReport{}
	for i := range rep.Controllers {
		byName[rep.Controllers[i].Name] = &rep.Controllers[i]
	}
	for _, tc := range []struct {
		name                 string
		expected, held       uint8
		expExit, heldExit    apst.Microseconds
		expPowerMW, heldPwMW float64
	}{
		{"nvme2", 3, 4, 4600, 43000, 80, 7},
		{"nvme1", 0, 0, 0, 0, 6000, 6000},
		{"nvme0", 3, 3, 300, 300, 70, 70},
	} {
		c := byName[tc.name]
		require.NotNil(t, c, tc.name)
		require.NotNil(t, c.ExpectedReach, tc.name)
		require.NotNil(t, c.HeldReach, tc.name)
		assert.Equal(t, tc.expected, c.ExpectedReach.Deepest, tc.name)
		assert.Equal(t, tc.expExit, c.ExpectedReach.DeepestExitLatency, tc.name)
		assert.InDelta(t, tc.expPowerMW, float64(c.ExpectedReach.DeepestMaxPower.MicroWatts())/1000, 0.01, tc.name)
		assert.Equal(t, tc.held, c.HeldReach.Deepest, tc.name)
		assert.Equal(t, tc.heldExit, c.HeldReach.DeepestExitLatency, tc.name)
		assert.InDelta(t, tc.heldPwMW, float64(c.HeldReach.DeepestMaxPower.MicroWatts())/1000, 0.01, tc.name)
	}
	var z nvmeapst.ControllerReport
	a := z.Assumptions()
	assert.True(t, a.IsZero(), "the zero report assumed nothing")
}

// TestInspectHonoursContext: a context done before or during Inspect is
// an error wrapping its cause, never a report of unknown drives.
func TestInspectHonoursContext(t *testing.T) {
	s := system(t, fixtureRoot, consistentDrives(t))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err := s.Inspect(ctx)
	assert.Nil(t, r)
	require.ErrorIs(t, err, context.Canceled)
	assert.Contains(t, err.Error(), "nvmeapst: inspect")
	ctx, cancel = context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer cancel()
	_, err = s.Inspect(ctx, "nvme2")
	require.ErrorIs(t, err, context.DeadlineExceeded)
}

// TestEveryCallHonoursADoneContext: each System call that takes a context
// refuses to start once it is done, with an error wrapping its cause.
func TestEveryCallHonoursADoneContext(t *testing.T) {
	s := system(t, fixtureRoot, consistentDrives(t))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := s.Collect(ctx, t.TempDir()+"/bundle")
	assert.ErrorIs(t, err, context.Canceled, "Collect")
	_, err = s.Diagnose(ctx, nvmeapst.DiagnoseOptions{})
	assert.ErrorIs(t, err, context.Canceled, "Diagnose")
	_, err = s.OpenTarget(ctx, "nvme0n1", nvmeapst.TargetOptions{})
	assert.ErrorIs(t, err, context.Canceled, "OpenTarget")
	_, err = s.Inspect(ctx)
	assert.ErrorIs(t, err, context.Canceled, "Inspect")
}
