package sysfs_test

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/sysfs"
)

// replaceWith replaces the file rel of a fixture copy (following the
// tree's symbolic links) with something that is not a regular file, and
// puts the file back when t ends (restoreAfter): subtests share one copy.
func replaceWith(t *testing.T, root, rel, kind string) {
	t.Helper()
	p, err := filepath.EvalSymlinks(filepath.Join(root, filepath.FromSlash(rel)))
	if errors.Is(err, os.ErrNotExist) {
		dir, derr := filepath.EvalSymlinks(filepath.Join(root, filepath.FromSlash(filepath.Dir(rel))))
		require.NoError(t, derr)
		p, err = filepath.Join(dir, filepath.Base(rel)), nil
	}
	require.NoError(t, err)
	restoreAfter(t, p)
	_ = os.Remove(p)
	switch kind {
	case "fifo":
		testfixture.Mkfifo(t, p)
	case "socket":
		l, err := net.Listen("unix", p)
		if err != nil {
			t.Skipf("no unix socket at %s: %v", p, err)
		}
		t.Cleanup(func() { l.Close() })
	case "escape":
		outside := filepath.Join(t.TempDir(), "outside")
		require.NoError(t, os.WriteFile(outside, []byte("8086\n"), 0o644))
		require.NoError(t, os.Symlink(outside, p))
	case "dir":
		require.NoError(t, os.Mkdir(p, 0o755))
	default:
		t.Fatalf("unknown kind %q", kind)
	}
}

// TestNothingBlocks puts a FIFO (and other non-regular files) where every
// file this package reads is expected: each read reports it as unreadable,
// names the file, and returns at once.
func TestNothingBlocks(t *testing.T) {
	attrs := []string{
		"class/nvme/nvme0/model",
		"class/nvme/nvme0/cntlid",
		"class/nvme/nvme0/device/vendor",
		"class/nvme/nvme0/device/subsystem_device",
		"class/nvme/nvme0/power/pm_qos_latency_tolerance_us",
		"class/nvme/nvme0/cpu_latency_us",
		"class/nvme/nvme0/quirks",
		"block/nvme0n1/cpu_lat_timeout_ms",
	}
	root := sysfs.CopyFixture(t, "testdata/v7")
	for _, kind := range []string{"fifo", "socket", "escape", "dir"} {
		for _, rel := range attrs {
			t.Run(kind+"/"+rel, func(t *testing.T) {
				replaceWith(t, root, rel, kind)
				fs := newFS(t, root)
				var c sysfs.Controller
				var err error
				testfixture.Within(t, 5*time.Second, func() { c, err = fs.Controller("nvme0") })
				require.Error(t, err)
				assert.NotErrorIs(t, err, os.ErrNotExist, "unreadable is not absent")
				if kind != "escape" {
					assert.ErrorIs(t, err, sysfs.ErrNotRegular)
				}
				assert.Contains(t, err.Error(), filepath.Base(rel))
				assert.True(t, strings.HasPrefix(err.Error(), "sysfs: "), err.Error())
				require.Len(t, c.Unreadable, 1)
				assert.Equal(t, rel, c.Unreadable[0].Path)
				assert.Equal(t, "nvme0", c.Name, "the rest of the controller is read")
				if rel != "class/nvme/nvme0/model" {
					assert.Equal(t, "INTEL SSDPEKKW256G7", c.Model)
				}
				if rel == "class/nvme/nvme0/power/pm_qos_latency_tolerance_us" {
					assert.False(t, c.HasTolerance)
				}

				var cs []sysfs.Controller
				testfixture.Within(t, 5*time.Second, func() { cs, err = fs.Controllers() })
				require.Error(t, err)
				assert.NotErrorIs(t, err, os.ErrNotExist)
				require.Len(t, cs, 1)
				assert.Equal(t, "nvme1", cs[0].Name)

				files, err := fs.Files("nvme0")
				require.NoError(t, err)
				assert.Contains(t, files, rel, "an unreadable file is listed, so that a copy records why")
			})
		}
	}
}

func TestNothingBlocksMachineFiles(t *testing.T) {
	root := sysfs.CopyFixture(t, "testdata/v7")
	for _, rel := range []string{
		"module/nvme_core/parameters/force_apst",
		"module/nvme_core/parameters/apst_primary_timeout_ms",
		"module/nvme/parameters/quirks",
		"class/dmi/id/board_name",
	} {
		t.Run(rel, func(t *testing.T) {
			replaceWith(t, root, rel, "fifo")
			fs := newFS(t, root)
			testfixture.Within(t, 5*time.Second, func() {
				m, merr := fs.ModuleParams()
				d, derr := fs.DMI()
				q, qerr := fs.QuirksParam()
				name := filepath.Base(rel)
				switch {
				case strings.HasPrefix(rel, "module/nvme_core"):
					require.ErrorIs(t, merr, sysfs.ErrNotRegular)
					assert.Contains(t, merr.Error(), name)
					assert.Equal(t, []string{name}, m.Unreadable)
					assert.NotNil(t, m.DefaultPSMaxLatencyUS, "the other parameters are still read")
					assert.Equal(t, apst.Current, m.Generation())
				case strings.HasPrefix(rel, "module/nvme/"):
					require.ErrorIs(t, qerr, sysfs.ErrNotRegular)
					assert.False(t, q.Present)
				default:
					require.ErrorIs(t, derr, sysfs.ErrNotRegular)
					assert.Equal(t, "ASUSTeK COMPUTER INC.", d.BoardVendor, "the other strings are still read")
					assert.Empty(t, d.BoardName)
				}
			})
			sys, err := fs.SystemFiles()
			require.NoError(t, err)
			assert.Contains(t, sys, rel)
		})
	}
}

// TestNothingBlocksDirectories puts a FIFO where a directory is listed.
func TestNothingBlocksDirectories(t *testing.T) {
	for _, rel := range []string{"class/nvme", "devices/pci0000_00/0000_00_1d.0/0000_3d_00.0/nvme/nvme0"} {
		t.Run(rel, func(t *testing.T) {
			root := sysfs.CopyFixture(t, "../testdata/sys")
			p := filepath.Join(root, filepath.FromSlash(rel))
			require.NoError(t, os.RemoveAll(p))
			testfixture.Mkfifo(t, p)
			fs := newFS(t, root)
			testfixture.Within(t, 5*time.Second, func() {
				cs, err := fs.Controllers()
				require.ErrorIs(t, err, sysfs.ErrNotRegular)
				assert.Contains(t, err.Error(), "not a directory")
				if rel != "class/nvme" {
					require.Len(t, cs, 2, "the other controllers are read")
					_, err = fs.Files("nvme0")
					require.ErrorIs(t, err, sysfs.ErrNotRegular)
				}
			})
		})
	}
}

func TestSetLatencyToleranceFIFO(t *testing.T) {
	root := sysfs.CopyFixture(t, "../testdata/sys")
	replaceWith(t, root, toleranceFile, "fifo")
	testfixture.Within(t, 5*time.Second, func() {
		_, _, err := newFS(t, root).SetLatencyTolerance("nvme0", "25000")
		require.ErrorIs(t, err, sysfs.ErrNotRegular)
		assert.NotErrorIs(t, err, sysfs.ErrAPSTDisabled)
	})
}

func TestZeroFS(t *testing.T) {
	var fs sysfs.FS
	assert.Empty(t, fs.Root())
	calls := map[string]func() error{
		"Controllers":            func() error { _, err := fs.Controllers(); return err },
		"Controller":             func() error { _, err := fs.Controller("nvme0"); return err },
		"ControllerNames":        func() error { _, err := fs.ControllerNames(); return err },
		"Files":                  func() error { _, err := fs.Files("nvme0"); return err },
		"SystemFiles":            func() error { _, err := fs.SystemFiles(); return err },
		"ModuleParams":           func() error { _, err := fs.ModuleParams(); return err },
		"DMI":                    func() error { _, err := fs.DMI(); return err },
		"QuirksParam":            func() error { _, err := fs.QuirksParam(); return err },
		"ReadFile":               func() error { _, err := fs.ReadFile("class/dmi/id/board_name"); return err },
		"SetLatencyTolerance":    func() error { _, _, err := fs.SetLatencyTolerance("nvme0", "25000"); return err },
		"SetCPULatency":          func() error { _, _, err := fs.SetCPULatency("nvme0", 5); return err },
		"SetDiskCPULatencyLimit": func() error { _, _, err := fs.SetDiskCPULatencyLimit("nvme0n1", 5); return err },
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			err := call()
			require.ErrorIs(t, err, sysfs.ErrZeroFS)
			assert.Contains(t, err.Error(), "sysfs.NewFS")
		})
	}
}

func TestNewFSRefusesIncompleteTrees(t *testing.T) {
	_, err := sysfs.NewFS("")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "empty mount point")

	root := sysfs.CopyFixture(t, "../testdata/sys")
	require.NoError(t, os.WriteFile(filepath.Join(root, sysfs.IncompleteMarker), nil, 0o644))
	_, err = sysfs.NewFS(root)
	require.ErrorIs(t, err, sysfs.ErrIncomplete)
	assert.Contains(t, err.Error(), root)

	tmp := filepath.Join(t.TempDir(), ".bundle.tmp-12345")
	require.NoError(t, os.Mkdir(tmp, 0o755))
	_, err = sysfs.NewFS(tmp)
	require.ErrorIs(t, err, sysfs.ErrIncomplete)

	ok := filepath.Join(t.TempDir(), "bundle.tmp-12345")
	require.NoError(t, os.Mkdir(ok, 0o755))
	_, err = sysfs.NewFS(ok)
	require.NoError(t, err, "only the hidden temporary name of collect is refused")
}

func TestSnapshot(t *testing.T) {
	root := sysfs.CopyFixture(t, "../testdata/sys")
	require.NoError(t, os.Remove(filepath.Join(root, toleranceFile)))
	fs := newFS(t, root).WithSnapshot(sysfs.Snapshot{
		Unreadable: map[string]string{
			toleranceFile:                 "permission denied",
			"module/nvme_core/parameters": "not a regular file: a named pipe (FIFO)",
		},
		Controllers: []string{"nvme0", "nvme1", "nvme7"},
	})

	c, err := fs.Controller("nvme0")
	require.ErrorIs(t, err, sysfs.ErrUnreadableInSnapshot)
	assert.Contains(t, err.Error(), "permission denied")
	assert.Contains(t, err.Error(), "pm_qos_latency_tolerance_us")
	assert.False(t, c.HasTolerance)
	require.Len(t, c.Unreadable, 1, "the recorded failure, not an absent file: not APST disabled")

	_, err = fs.ModuleParams()
	require.ErrorIs(t, err, sysfs.ErrUnreadableInSnapshot, "a recorded directory covers its files")

	names, err := fs.ControllerNames()
	require.NoError(t, err)
	assert.Equal(t, []string{"nvme0", "nvme1", "nvme2", "nvme7"}, names, "the snapshot's names and the tree's")
	cs, err := fs.Controllers()
	require.ErrorIs(t, err, sysfs.ErrMissingController)
	require.ErrorIs(t, err, os.ErrNotExist)
	assert.Contains(t, err.Error(), "nvme7")
	require.Len(t, cs, 2)
	assert.Equal(t, "nvme1", cs[0].Name)
	assert.Equal(t, "nvme2", cs[1].Name)
	_, err = fs.Controller("nvme7")
	require.ErrorIs(t, err, sysfs.ErrMissingController)
	_, err = fs.Files("nvme7")
	require.ErrorIs(t, err, sysfs.ErrMissingController)

	files, err := fs.Files("nvme0")
	require.NoError(t, err)
	assert.Contains(t, files, toleranceFile, "a recorded file is listed though the copy lacks it")

	// Without the snapshot the same tree reads the tolerance as absent.
	c, err = newFS(t, root).Controller("nvme0")
	require.NoError(t, err)
	assert.False(t, c.HasTolerance)
	assert.Empty(t, c.Unreadable)
}

func TestControllersContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cs, err := newFS(t, "../testdata/sys").ControllersContext(ctx)
	require.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, cs)
	cs, err = newFS(t, "../testdata/sys").ControllersContext(context.Background())
	require.NoError(t, err)
	assert.Len(t, cs, 3)
}

func TestReadFile(t *testing.T) {
	fs := newFS(t, "../testdata/sys")
	b, err := fs.ReadFile("class/nvme/nvme0/model")
	require.NoError(t, err)
	assert.Equal(t, "INTEL SSDPEKKW256G7\n", string(b))
	_, err = fs.ReadFile("class/nvme/nvme0/nope")
	require.ErrorIs(t, err, os.ErrNotExist)
	assert.Contains(t, err.Error(), filepath.Join("../testdata/sys", "class/nvme/nvme0/nope"))
	_, err = fs.ReadFile("../../go.mod")
	require.Error(t, err, "no path leaves the tree")
	assert.NotErrorIs(t, err, os.ErrNotExist)
}
