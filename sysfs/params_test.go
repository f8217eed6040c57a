package sysfs_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/sysfs"
)

func u64(v uint64) *uint64 { return &v }
func boolp(v bool) *bool   { return &v }

func TestModuleParams(t *testing.T) {
	tests := []struct {
		root string
		want sysfs.ModuleParams
		gen  apst.Generation
	}{
		{"../testdata/sys", sysfs.ModuleParams{
			DefaultPSMaxLatencyUS: u64(100000),
			ForceAPST:             boolp(false),
			PrimaryTimeoutMS:      u64(100),
			SecondaryTimeoutMS:    u64(2000),
			PrimaryLatencyTolUS:   u64(15000),
			SecondaryLatencyTolUS: u64(100000),
		}, apst.Current},
		{"testdata/v5.10", sysfs.ModuleParams{
			DefaultPSMaxLatencyUS: u64(5500),
			ForceAPST:             boolp(false),
		}, apst.V4_12},
	}
	for _, tt := range tests {
		t.Run(tt.root, func(t *testing.T) {
			m, err := newFS(t, tt.root).ModuleParams()
			require.NoError(t, err)
			assert.Equal(t, tt.want, m)
			assert.Equal(t, tt.gen, m.Generation())
		})
	}
}

func TestModuleParamsValues(t *testing.T) {
	tests := []struct {
		name, file, content string
		check               func(t *testing.T, m sysfs.ModuleParams)
		err                 error
	}{
		{"force Y", "force_apst", "Y\n", func(t *testing.T, m sysfs.ModuleParams) {
			require.NotNil(t, m.ForceAPST)
			assert.True(t, *m.ForceAPST)
		}, nil},
		{"u64 max", "default_ps_max_latency_us", "18446744073709551615\n", func(t *testing.T, m sysfs.ModuleParams) {
			assert.Equal(t, u64(1<<64-1), m.DefaultPSMaxLatencyUS)
		}, nil},
		{"bad bool", "force_apst", "maybe\n", nil, sysfs.ErrInvalidAttribute},
		{"negative", "apst_primary_timeout_ms", "-1\n", nil, sysfs.ErrInvalidAttribute},
		{"hex", "default_ps_max_latency_us", "0x10\n", nil, sysfs.ErrInvalidAttribute},
	}
	root := sysfs.CopyFixture(t, "../testdata/sys")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			patchFile(t, root, "module/nvme_core/parameters/"+tt.file, tt.content, false)
			m, err := newFS(t, root).ModuleParams()
			if tt.err != nil {
				require.ErrorIs(t, err, tt.err)
				assert.Contains(t, err.Error(), tt.file)
				assert.Equal(t, []string{tt.file}, m.Unreadable, "one bad parameter is one unreadable parameter")
				read := 0
				for _, p := range []*uint64{m.DefaultPSMaxLatencyUS, m.PrimaryTimeoutMS, m.SecondaryTimeoutMS, m.PrimaryLatencyTolUS, m.SecondaryLatencyTolUS} {
					if p != nil {
						read++
					}
				}
				if m.ForceAPST != nil {
					read++
				}
				assert.Equal(t, 5, read, "the other five are still read")
				assert.Equal(t, apst.Current, m.Generation())
				return
			}
			require.NoError(t, err)
			tt.check(t, m)
		})
	}
}

func TestModuleParamsMissing(t *testing.T) {
	_, err := newFS(t, t.TempDir()).ModuleParams()
	require.ErrorIs(t, err, os.ErrNotExist)
	assert.Contains(t, err.Error(), "module/nvme_core/parameters")

	// Only some apst_* present still means Current.
	root := t.TempDir()
	writeFile(t, root, "module/nvme_core/parameters/apst_secondary_timeout_ms", "0\n")
	m, err := newFS(t, root).ModuleParams()
	require.NoError(t, err)
	assert.Equal(t, apst.Current, m.Generation())
	assert.Nil(t, m.DefaultPSMaxLatencyUS)
	assert.Equal(t, apst.V4_12, sysfs.ModuleParams{}.Generation())
}

func TestModuleParamsUnreadable(t *testing.T) {
	skipIfRoot(t)
	root := sysfs.CopyFixture(t, "../testdata/sys")
	makeUnreadable(t, root, "module/nvme_core/parameters/apst_primary_latency_tol_us")
	_, err := newFS(t, root).ModuleParams()
	require.ErrorIs(t, err, os.ErrPermission)
	assert.Contains(t, err.Error(), "apst_primary_latency_tol_us")
}

func TestDMI(t *testing.T) {
	tests := []struct {
		root string
		want apst.DMI
	}{
		{"../testdata/sys", apst.DMI{
			SysVendor:   "System manufacturer",
			ProductName: "System Product Name",
			BoardVendor: "ASUSTeK COMPUTER INC.",
			BoardName:   "PRIME B350M-A",
		}},
		{"testdata/v5.10", apst.DMI{SysVendor: "LENOVO", ProductName: "20QDCTO1WW", BoardVendor: "LENOVO", BoardName: "20QDCTO1WW"}},
	}
	for _, tt := range tests {
		t.Run(tt.root, func(t *testing.T) {
			d, err := newFS(t, tt.root).DMI()
			require.NoError(t, err)
			assert.Equal(t, tt.want, d)
		})
	}
}

func TestDMIMissingAndExact(t *testing.T) {
	d, err := newFS(t, t.TempDir()).DMI()
	require.NoError(t, err)
	assert.Equal(t, apst.DMI{}, d)

	root := t.TempDir()
	writeFile(t, root, "class/dmi/id/board_name", " LXKT-ZXEG-N6 \n")
	d, err = newFS(t, root).DMI()
	require.NoError(t, err)
	assert.Equal(t, apst.DMI{BoardName: " LXKT-ZXEG-N6 "}, d, "only the newline is trimmed")
}

func TestDMIUnreadable(t *testing.T) {
	skipIfRoot(t)
	root := sysfs.CopyFixture(t, "../testdata/sys")
	makeUnreadable(t, root, "devices/virtual/dmi/id/board_name")
	_, err := newFS(t, root).DMI()
	require.ErrorIs(t, err, os.ErrPermission)
	assert.Contains(t, err.Error(), "board_name")
}

func TestParams(t *testing.T) {
	def := apst.DefaultParams(apst.Current)
	withBound := func(p apst.Params, b apst.Microseconds) apst.Params {
		p.Bound = b
		return p
	}
	sys, err := newFS(t, "../testdata/sys").ModuleParams()
	require.NoError(t, err)
	v510, err := newFS(t, "testdata/v5.10").ModuleParams()
	require.NoError(t, err)
	tol := func(s string) sysfs.Controller {
		t.Helper()
		tt, err := apst.ParseTolerance(s)
		require.NoError(t, err)
		return sysfs.Controller{Tolerance: tt, HasTolerance: true}
	}
	custom := sysfs.ModuleParams{
		DefaultPSMaxLatencyUS: u64(2147483647),
		ForceAPST:             boolp(true),
		PrimaryTimeoutMS:      u64(0),
		SecondaryTimeoutMS:    u64(500),
		PrimaryLatencyTolUS:   u64(1),
		SecondaryLatencyTolUS: u64(2),
	}
	tests := []struct {
		name string
		m    sysfs.ModuleParams
		c    sysfs.Controller
		want apst.Params
	}{
		{"sys nvme0", sys, wantSysNvme0, def},
		{"sys nvme1 without tolerance", sys, wantSysNvme1, def},
		{"v5.10", v510, wantV510Nvme0, withBound(apst.DefaultParams(apst.V4_12), 5500)},
		{"v5.10 without tolerance", v510, sysfs.Controller{}, withBound(apst.DefaultParams(apst.V4_12), 5500)},
		{"tolerance wins", sys, tol("25000"), withBound(def, 25000)},
		{"auto", sys, tol("auto"), withBound(def, apst.NoLimit)},
		{"any", sys, tol("any"), withBound(def, apst.NoLimit)},
		{"zero", sys, tol("0"), withBound(def, 0)},
		{"no parameters", sysfs.ModuleParams{}, sysfs.Controller{}, apst.DefaultParams(apst.V4_12)},
		{"custom", custom, sysfs.Controller{}, apst.Params{
			Generation:         apst.Current,
			Bound:              apst.NoLimit,
			PrimaryTimeout:     0,
			SecondaryTimeout:   500,
			PrimaryTolerance:   1,
			SecondaryTolerance: 2,
			ForceAPST:          true,
		}},
		{"module default 0", sysfs.ModuleParams{DefaultPSMaxLatencyUS: u64(0)}, sysfs.Controller{},
			withBound(apst.DefaultParams(apst.V4_12), 0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, sysfs.Params(tt.m, tt.c))
		})
	}
}

// Malformed names the parameters that were read but do not parse; one that
// cannot be read at all (a link loop) is only in Unreadable.
func TestModuleParamsMalformedOrUnreadable(t *testing.T) {
	root := sysfs.CopyFixture(t, "../testdata/sys")
	dir := filepath.Join(root, "module/nvme_core/parameters")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "force_apst"), []byte("maybe\n"), 0o644))
	require.NoError(t, os.Remove(filepath.Join(dir, "apst_primary_timeout_ms")))
	require.NoError(t, os.Symlink("apst_primary_timeout_ms", filepath.Join(dir, "apst_primary_timeout_ms")))
	m, err := newFS(t, root).ModuleParams()
	require.ErrorIs(t, err, sysfs.ErrInvalidAttribute)
	assert.Equal(t, []string{"force_apst", "apst_primary_timeout_ms"}, m.Unreadable)
	assert.Equal(t, []string{"force_apst"}, m.Malformed)
}
