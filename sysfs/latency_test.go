package sysfs_test

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/sysfs"
)

const toleranceFile = "class/nvme/nvme0/power/pm_qos_latency_tolerance_us"

func readFile(t *testing.T, root, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	require.NoError(t, err)
	return string(b)
}

func TestSetLatencyToleranceAccepts(t *testing.T) {
	old := apst.Tolerance{Kind: apst.ToleranceValue, Value: 100000}
	tests := []struct {
		value   string
		want    apst.Tolerance
		written string
	}{
		{"25000", apst.Tolerance{Kind: apst.ToleranceValue, Value: 25000}, "25000"},
		{"auto", apst.Tolerance{Kind: apst.ToleranceAuto}, "auto"},
		{"any", apst.Tolerance{Kind: apst.ToleranceAny}, "any"},
		{"0", apst.Tolerance{Kind: apst.ToleranceValue}, "0"},
		{"2147483647", apst.Tolerance{Kind: apst.ToleranceAny}, "any"},
		{"2147483646", apst.Tolerance{Kind: apst.ToleranceValue, Value: 2147483646}, "2147483646"},
		{"auto\n", apst.Tolerance{Kind: apst.ToleranceAuto}, "auto"},
		{"0x10", apst.Tolerance{Kind: apst.ToleranceValue, Value: 16}, "16"},
		{"+010", apst.Tolerance{Kind: apst.ToleranceValue, Value: 8}, "8"},
		{"-0", apst.Tolerance{Kind: apst.ToleranceValue}, "0"},
	}
	root := sysfs.CopyFixture(t, "../testdata/sys") // one copy: each case puts the old value back first
	original := readFile(t, root, toleranceFile)
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			require.NoError(t, os.WriteFile(filepath.Join(root, filepath.FromSlash(toleranceFile)), []byte(original), 0o644))
			fs := newFS(t, root)
			gotOld, gotNew, err := fs.SetLatencyTolerance("nvme0", tt.value)
			require.NoError(t, err)
			assert.Equal(t, old, gotOld)
			assert.Equal(t, tt.want, gotNew)
			assert.Equal(t, tt.written, readFile(t, root, toleranceFile))

			c, err := fs.Controller("nvme0")
			require.NoError(t, err)
			assert.Equal(t, tt.want, c.Tolerance, "the controller reads the new value")
		})
	}
}

func TestSetLatencyToleranceRefuses(t *testing.T) {
	tests := []struct{ value, why string }{
		{"-5", "negative"},
		{"2147483648", "want auto, any or an integer"},
		{"12abc", "want auto, any or an integer"},
		{"auto\nany", "want auto, any or an integer"},
		{"", "want auto"},
		{" 5", "want auto"},
		{"5\n\n", "want auto"},
		{"Auto", "want auto"},
	}
	root := sysfs.CopyFixture(t, "../testdata/sys") // one copy: no case may write to it
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			p := filepath.Join(root, filepath.FromSlash(toleranceFile))
			before, err := os.Stat(p)
			require.NoError(t, err)
			_, _, err = newFS(t, root).SetLatencyTolerance("nvme0", tt.value)
			require.ErrorIs(t, err, apst.ErrInvalidTolerance)
			assert.Contains(t, err.Error(), tt.why)
			assert.Contains(t, err.Error(), "nothing written")
			assert.True(t, strings.HasPrefix(err.Error(), "sysfs: "), err.Error())
			assert.Equal(t, "100000\n", readFile(t, root, toleranceFile), "file untouched")
			after, err := os.Stat(p)
			require.NoError(t, err)
			assert.Equal(t, before.ModTime(), after.ModTime())
		})
	}
}

func TestSetLatencyToleranceErrors(t *testing.T) {
	root := sysfs.CopyFixture(t, "../testdata/sys")
	fs := newFS(t, root)

	_, _, err := fs.SetLatencyTolerance("nvme1", "25000")
	require.ErrorIs(t, err, sysfs.ErrAPSTDisabled)
	require.ErrorIs(t, err, os.ErrNotExist)
	assert.Contains(t, err.Error(), "pm_qos_latency_tolerance_us")
	_, err = os.Stat(filepath.Join(root, "class/nvme/nvme1/power/pm_qos_latency_tolerance_us"))
	require.ErrorIs(t, err, os.ErrNotExist, "no file created")

	_, _, err = fs.SetLatencyTolerance("nvme7", "25000")
	require.ErrorIs(t, err, os.ErrNotExist)
	require.NotErrorIs(t, err, sysfs.ErrAPSTDisabled)
	assert.Contains(t, err.Error(), "nvme7")

	_, _, err = fs.SetLatencyTolerance("../../module", "25000")
	require.ErrorIs(t, err, sysfs.ErrInvalidName)

	// A current value the kernel would never print: refuse to touch it.
	writeFile(t, root, toleranceFile, "garbage\n")
	_, _, err = fs.SetLatencyTolerance("nvme0", "25000")
	require.ErrorIs(t, err, sysfs.ErrInvalidAttribute)
	assert.Equal(t, "garbage\n", readFile(t, root, toleranceFile))
}

func TestSetLatencyTolerancePermission(t *testing.T) {
	skipIfRoot(t)
	root := sysfs.CopyFixture(t, "../testdata/sys")
	p := filepath.Join(root, filepath.FromSlash(toleranceFile))
	require.NoError(t, os.Chmod(p, 0o444))
	_, _, err := newFS(t, root).SetLatencyTolerance("nvme0", "25000")
	require.ErrorIs(t, err, os.ErrPermission)
	assert.Contains(t, err.Error(), "pm_qos_latency_tolerance_us")
	assert.Equal(t, "100000\n", readFile(t, root, toleranceFile))
}

// TestSetLatencyToleranceReadBack plays kernels that store something other
// than what was written.
func TestSetLatencyToleranceReadBack(t *testing.T) {
	tests := []struct {
		name, value, stored string
		ok                  bool
		want                apst.Tolerance
	}{
		{"normalised any", "2147483647", "any\n", true, apst.Tolerance{Kind: apst.ToleranceAny}},
		{"ignored", "25000", "100000\n", false, apst.Tolerance{Kind: apst.ToleranceValue, Value: 100000}},
		{"unparsable", "25000", "???\n", false, apst.Tolerance{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := sysfs.CopyFixture(t, "../testdata/sys")
			fs := sysfs.WithWriteHook(newFS(t, root), func(path, _ string) error {
				return os.WriteFile(path, []byte(tt.stored), 0o644)
			})
			_, got, err := fs.SetLatencyTolerance("nvme0", tt.value)
			if tt.ok {
				require.NoError(t, err)
			} else {
				require.ErrorIs(t, err, sysfs.ErrReadBack)
				assert.Contains(t, err.Error(), "reads back")
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestSetLatencyToleranceWriteError(t *testing.T) {
	root := sysfs.CopyFixture(t, "../testdata/sys")
	einval := errors.New("write: invalid argument")
	fs := sysfs.WithWriteHook(newFS(t, root), func(string, string) error { return einval })
	old, _, err := fs.SetLatencyTolerance("nvme0", "25000")
	require.ErrorIs(t, err, einval)
	assert.Equal(t, apst.Tolerance{Kind: apst.ToleranceValue, Value: 100000}, old)
}

func TestSetCPULatency(t *testing.T) {
	tests := []struct {
		name     string
		ctrl     string
		us       int64
		old, new int64
	}{
		{"limit", "nvme0", 10, -1, 10},
		{"zero", "nvme0", 0, -1, 0},
		{"max", "nvme0", math.MaxInt32, -1, math.MaxInt32},
		{"off", "nvme1", -1, 50, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := sysfs.CopyFixture(t, "../testdata/sys")
			fs := newFS(t, root)
			old, got, err := fs.SetCPULatency(tt.ctrl, tt.us)
			require.NoError(t, err)
			assert.Equal(t, tt.old, old)
			assert.Equal(t, tt.new, got)
			c, err := fs.Controller(tt.ctrl)
			require.NoError(t, err)
			require.NotNil(t, c.CPULatency)
			assert.Equal(t, tt.new, *c.CPULatency)
		})
	}
}

func TestSetCPULatencyRefuses(t *testing.T) {
	for _, us := range []int64{-5, -2, math.MaxInt32 + 1, math.MinInt64} {
		root := sysfs.CopyFixture(t, "../testdata/sys")
		_, _, err := newFS(t, root).SetCPULatency("nvme0", us)
		require.ErrorIs(t, err, sysfs.ErrInvalidCPULatency, us)
		assert.Contains(t, err.Error(), "nothing written")
		assert.Equal(t, "-1\n", readFile(t, root, "class/nvme/nvme0/cpu_latency_us"))
	}
}

func TestSetCPULatencyUnsupported(t *testing.T) {
	root := sysfs.CopyFixture(t, "testdata/v5.10")
	fs := newFS(t, root)
	c, err := fs.Controller("nvme0")
	require.NoError(t, err)
	assert.Nil(t, c.CPULatency)

	_, _, err = fs.SetCPULatency("nvme0", 10)
	require.ErrorIs(t, err, errors.ErrUnsupported)
	require.ErrorIs(t, err, os.ErrNotExist)
	assert.Contains(t, err.Error(), "not supported by this kernel")
	_, err = os.Stat(filepath.Join(root, "class/nvme/nvme0/cpu_latency_us"))
	require.ErrorIs(t, err, os.ErrNotExist, "no file created")

	_, _, err = fs.SetDiskCPULatencyLimit("nvme0n1", 10)
	require.ErrorIs(t, err, errors.ErrUnsupported)
	assert.Contains(t, err.Error(), "not supported by this kernel")

	_, _, err = fs.SetCPULatency("nvme5", 10)
	require.ErrorIs(t, err, os.ErrNotExist)
	require.NotErrorIs(t, err, errors.ErrUnsupported)
}

func TestSetDiskCPULatency(t *testing.T) {
	root := sysfs.CopyFixture(t, "../testdata/sys")
	fs := newFS(t, root)

	old, got, err := fs.SetDiskCPULatencyLimit("nvme0n1", 10)
	require.NoError(t, err)
	assert.Equal(t, []int64{-1, 10}, []int64{old, got})
	old, got, err = fs.SetDiskCPULatencyTimeout("nvme0n1", 3)
	require.NoError(t, err)
	assert.Equal(t, []int64{0, 3}, []int64{old, got})

	c, err := fs.Controller("nvme0")
	require.NoError(t, err)
	assert.Equal(t, []sysfs.Disk{{Name: "nvme0n1", Entry: "nvme0c0n1", CPULatencyLimit: i64(10), CPULatencyTimeout: i64(3)}}, c.Disks)

	_, _, err = fs.SetDiskCPULatencyTimeout("nvme0n1", -1)
	require.ErrorIs(t, err, sysfs.ErrInvalidCPULatency)
	_, _, err = fs.SetDiskCPULatencyLimit("nvme0n1", -7)
	require.ErrorIs(t, err, sysfs.ErrInvalidCPULatency)
	assert.Equal(t, "10", readFile(t, root, "block/nvme0n1/cpu_lat_limit_us"))

	_, _, err = fs.SetDiskCPULatencyLimit("nvme9n1", 10)
	require.ErrorIs(t, err, os.ErrNotExist)
	_, _, err = fs.SetDiskCPULatencyLimit("..", 10)
	require.ErrorIs(t, err, sysfs.ErrInvalidName)
}

// The block-layer patch ignores what it cannot parse without an error; the
// read-back reports it.
func TestSetDiskCPULatencyIgnored(t *testing.T) {
	root := sysfs.CopyFixture(t, "../testdata/sys")
	fs := sysfs.WithWriteHook(newFS(t, root), func(string, string) error { return nil })
	old, got, err := fs.SetDiskCPULatencyLimit("nvme1n1", 10)
	require.ErrorIs(t, err, sysfs.ErrReadBack)
	assert.Equal(t, []int64{20, 20}, []int64{old, got})
}
