//go:build unix

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every file a command writes is created with the mode the umask leaves, as
// a shell redirection would make it: under umask 077 the converted capture
// (which holds the serial number), the survey's report and plot, the exit
// factor and the bundle (its directory, its manifest, its files) are
// private to their owner.
func TestOutputFilesHonourTheUmask(t *testing.T) {
	for _, umask := range []int{0o077, 0o022} {
		dir := t.TempDir()
		old := syscall.Umask(umask)
		files := map[string][]string{
			"converted":   {"convert", "--to", "nvme-cli-text", "--output", filepath.Join(dir, "converted"), smartctlEVO},
			"report.json": {"survey", "-o", "json", "--file", filepath.Join(dir, "report.json"), "--svg", filepath.Join(dir, "plot.svg"), surveySmartctl},
			"factor":      {"measure", "--simulate", evoImage, "--exit-factor", "0.78", "--trials", "2", "--factor-out", filepath.Join(dir, "factor")},
			"bundle":      {"collect", "--root", bundleDir, filepath.Join(dir, "bundle")},
		}
		for name, args := range files {
			code, _, errOut := apstctl(t, nil, args...)
			if !assert.Equal(t, exitOK, code, "%s: %s", name, errOut) {
				continue
			}
		}
		syscall.Umask(old)
		fileMode, dirMode := os.FileMode(0o666&^umask), os.FileMode(0o777&^umask)
		for _, name := range []string{"converted", "report.json", "plot.svg", "factor", "bundle/manifest.json"} {
			fi, err := os.Stat(filepath.Join(dir, name))
			require.NoError(t, err)
			assert.Equal(t, fileMode, fi.Mode().Perm(), "%s under umask %03o", name, umask)
		}
		require.NoError(t, filepath.Walk(filepath.Join(dir, "bundle"), func(p string, fi os.FileInfo, err error) error {
			require.NoError(t, err)
			want := fileMode
			if fi.IsDir() {
				want = dirMode
			}
			if fi.Mode()&os.ModeSymlink == 0 {
				assert.Equal(t, want, fi.Mode().Perm(), "%s under umask %03o", p, umask)
			}
			return nil
		}))
	}
}

// --output over an existing file (a udev rules file root keeps at 0644, a
// report another user owns) keeps its owner and mode, whatever the umask.
func TestOutputOverExistingFileKeepsOwnerAndMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "60-nvme-apst.rules")
	require.NoError(t, os.WriteFile(path, []byte("# old\n"), 0o600))
	require.NoError(t, os.Chmod(path, 0o604))
	asRoot := os.Geteuid() == 0
	if asRoot {
		require.NoError(t, os.Chown(path, 4321, 8765))
	}
	old := syscall.Umask(0o077)
	code, _, errOut := apstctl(t, nil, "persist", evoImage, "--max-stall", "25ms", "--output", path)
	syscall.Umask(old)
	require.Equal(t, exitOK, code, errOut)
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o604), fi.Mode().Perm())
	if asRoot {
		st := fi.Sys().(*syscall.Stat_t)
		assert.Equal(t, []uint32{4321, 8765}, []uint32{st.Uid, st.Gid})
	}
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(b), "pm_qos_latency_tolerance_us")
}
