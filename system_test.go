package nvmeapst_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	nvmeapst "github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/ioctl"
)

func TestDevOpener(t *testing.T) {
	o := nvmeapst.DevOpener(t.TempDir())
	c, err := o.OpenController(context.Background(), "nvme0")
	assert.Nil(t, c)
	if runtime.GOOS == "linux" {
		assert.ErrorIs(t, err, os.ErrNotExist)
	} else {
		assert.ErrorIs(t, err, ioctl.ErrUnsupported)
	}
	for _, name := range []string{"nvme0n1", "../nvme0", "sda", "nvme"} {
		c, err := o.OpenController(context.Background(), name)
		assert.Nil(t, c)
		assert.ErrorContains(t, err, "not an NVMe controller name", name)
	}
}

func TestFileRelease(t *testing.T) {
	p := filepath.Join(t.TempDir(), "osrelease")
	require.NoError(t, os.WriteFile(p, []byte("6.18.44-test\n"), 0o644))
	rel, err := nvmeapst.FileRelease(p)()
	require.NoError(t, err)
	assert.Equal(t, "6.18.44-test", rel)

	require.NoError(t, os.WriteFile(p, []byte(strings.Repeat("x", 5000)), 0o644))
	_, err = nvmeapst.FileRelease(p)()
	assert.ErrorContains(t, err, "longer than")

	_, err = nvmeapst.FileRelease(filepath.Join(t.TempDir(), "missing"))()
	assert.ErrorIs(t, err, os.ErrNotExist)
}

func TestKernelReleaseSelectsV411(t *testing.T) {
	s := system(t, fixtureRoot, consistentDrives(t))
	s.KernelRelease = func() (string, error) { return "4.11.12-generic", nil }
	r := inspect(t, s, "nvme2")
	assert.Equal(t, "v4.11", r.Generation.String())
	assert.Equal(t, "v4.11", r.Controllers[0].Params.Generation.String())
}

// TestProcRelease: the live path reads the stable base a distribution
// records beside uname -r (Debian's uname -v, Ubuntu's version_signature),
// so that the quirk tables of the right stable update apply; Fedora's and
// Arch's uname -r carry it already.
func TestProcRelease(t *testing.T) {
	for _, tc := range []struct {
		osrelease, version, signature string
		want                          string
		rel                           apst.Release
	}{
		{"5.10.0-28-amd64", "#1 SMP Debian 5.10.209-2 (2024-01-31)", "", "5.10.0-28-amd64 (Debian 5.10.209-2)", apst.Release{Major: 5, Minor: 10, Patch: 209}},
		{"5.15.0-91-generic", "#101-Ubuntu SMP Tue Nov 14 13:30:08 UTC 2023", "Ubuntu 5.15.0-91.101-generic 5.15.131", "5.15.0-91-generic (Ubuntu 5.15.131)", apst.Release{Major: 5, Minor: 15, Patch: 131}},
		{"6.8.9-300.fc40.x86_64", "#1 SMP PREEMPT_DYNAMIC Thu May  2 18:44:19 UTC 2024", "", "6.8.9-300.fc40.x86_64", apst.Release{Major: 6, Minor: 8, Patch: 9}},
		{"7.1.5-arch1-1", "#1 SMP PREEMPT_DYNAMIC", "", "7.1.5-arch1-1", apst.Release{Major: 7, Minor: 1, Patch: 5}},
		{"5.14.0-427.13.1.el9_4.x86_64", "#1 SMP PREEMPT_DYNAMIC", "", "5.14.0-427.13.1.el9_4.x86_64", apst.Release{Major: 5, Minor: 14, BaseUnknown: true}},
	} {
		dir := t.TempDir()
		require.NoError(t, os.MkdirAll(filepath.Join(dir, "sys/kernel"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "sys/kernel/osrelease"), []byte(tc.osrelease+"\n"), 0o644))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "sys/kernel/version"), []byte(tc.version+"\n"), 0o644))
		if tc.signature != "" {
			require.NoError(t, os.WriteFile(filepath.Join(dir, "version_signature"), []byte(tc.signature+"\n"), 0o644))
		}
		got, err := nvmeapst.ProcRelease(dir)()
		require.NoError(t, err)
		assert.Equal(t, tc.want, got)
		r, err := apst.ParseRelease(got)
		require.NoError(t, err)
		assert.Equal(t, tc.rel, r, tc.osrelease)
	}
	_, err := nvmeapst.ProcRelease(t.TempDir())()
	require.Error(t, err)
}

// The errors of the functions that read a machine's files name the package
// and what was read, and keep their cause (they were the os or sysfs
// error as is: "open /proc/cmdline: permission denied", "sysfs: mount
// point ... is not a directory").
func TestFileReadersNameThePackage(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing")
	notDir := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(notDir, nil, 0o644))
	for name, call := range map[string]func() error{
		"FileRelease": func() error { _, err := nvmeapst.FileRelease(missing)(); return err },
		"ProcRelease": func() error { _, err := nvmeapst.ProcRelease(missing)(); return err },
		"FileCmdline": func() error { _, err := nvmeapst.FileCmdline(missing)(); return err },
		"OpenRoot":    func() error { _, err := nvmeapst.OpenRoot(missing); return err },
	} {
		err := call()
		require.ErrorIs(t, err, os.ErrNotExist, name)
		assert.Regexp(t, `^nvmeapst: (kernel release|command line|open root): `, err.Error(), name)
	}
	_, err := nvmeapst.OpenRoot(notDir)
	assert.Regexp(t, `^nvmeapst: open root: sysfs: .*not a directory`, err.Error())
}
