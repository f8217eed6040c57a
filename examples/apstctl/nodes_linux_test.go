package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/internal/testfixture"
)

// A device node, a FIFO or a socket met where a file was expected (in a
// survey walk, a bundle, a fake sysfs root) is reported as what it is and
// never opened, not even without blocking: opening a watchdog arms it.
// The nodes here are copies of /dev/null (c 1 3); inotify sees any open.
func TestNodesAreReportedNotOpened(t *testing.T) {
	t.Run("survey", func(t *testing.T) {
		dir := t.TempDir()
		dev, fifo := filepath.Join(dir, "dev.bin"), filepath.Join(dir, "fifo.txt")
		testfixture.Mknod(t, dev, 1, 3)
		testfixture.Mkfifo(t, fifo)
		copyTo(t, evoImage, filepath.Join(dir, "evo.bin"))
		require.NoError(t, os.Symlink("dev.bin", filepath.Join(dir, "link-to-dev.bin")))
		require.NoError(t, os.Symlink("/dev/ptmx", filepath.Join(dir, "ptmx.bin")))
		opened := testfixture.WatchOpens(t, dev, fifo)
		v, _ := surveyRunJSON(t, dir)
		assert.Empty(t, opened())
		got := map[string]string{}
		for _, u := range v.Unreadable {
			got[filepath.Base(u.Path)] = u.Error
		}
		assert.Contains(t, got["dev.bin"], "a character device")
		assert.Contains(t, got["link-to-dev.bin"], "a character device")
		assert.Contains(t, got["ptmx.bin"], "a character device")
		assert.Contains(t, got["fifo.txt"], "a named pipe (FIFO)")
	})

	// A bundle and a fake sysfs root whose attribute is a device node.
	for _, tt := range []struct {
		name  string
		attr  string
		args  func(root string) []string
		codes []int
	}{
		{"inspect", "class/nvme/nvme2/power/pm_qos_latency_tolerance_us",
			func(root string) []string { return []string{"inspect", "--root", root} }, []int{exitOK, exitFailure}},
		{"inspect module parameter", "module/nvme_core/parameters/default_ps_max_latency_us",
			func(root string) []string { return []string{"inspect", "--root", root} }, []int{exitOK, exitFailure}},
		{"collect", "class/nvme/nvme2/model",
			func(root string) []string {
				return []string{"collect", "--root", root, filepath.Join(filepath.Dir(root), "out")}
			}, []int{exitOK, exitFailure, exitUsage}},
		{"set-latency", "class/nvme/nvme2/power/pm_qos_latency_tolerance_us",
			func(root string) []string { return []string{"set-latency", "--root", root, "nvme2", "25000"} }, []int{exitFailure}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := copyBundle(t)
			p := filepath.Join(root, filepath.FromSlash(tt.attr))
			require.NoError(t, os.Remove(p))
			testfixture.Mknod(t, p, 1, 3)
			opened := testfixture.WatchOpens(t, p)
			code, out, errOut := apstctl(t, nil, tt.args(root)...)
			assert.Empty(t, opened(), "the node was opened")
			assert.Contains(t, tt.codes, code, "%s%s", out, errOut)
			assert.Contains(t, out+errOut, "character device", "reported as what it is")
		})
	}
}

// set-latency and set-cpu-latency meeting a FIFO or a device node where the
// attribute they write should be agree: the tree (the machine's state) is at
// fault, so the status is 1 (a runtime failure), and the message says what
// the file is and that nothing was written. The node is left as it was.
func TestSetCommandsRefuseNodes(t *testing.T) {
	for _, tt := range []struct {
		attr string
		args []string
	}{
		{"class/nvme/nvme0/power/pm_qos_latency_tolerance_us", []string{"set-latency", "nvme0", "25000"}},
		{"class/nvme/nvme0/cpu_latency_us", []string{"set-cpu-latency", "nvme0", "100"}},
		{"block/nvme0n1/cpu_lat_limit_us", []string{"set-cpu-latency", "nvme0n1", "100"}},
		{"block/nvme0n1/cpu_lat_timeout_ms", []string{"set-cpu-latency", "--timeout-ms", "3", "nvme0n1", "100"}},
	} {
		for kind, mk := range map[string]func(t testing.TB, p string){
			"a named pipe (FIFO)": testfixture.Mkfifo,
			"a character device":  func(t testing.TB, p string) { testfixture.Mknod(t, p, 1, 3) },
		} {
			t.Run(tt.attr+"/"+kind, func(t *testing.T) {
				root := copyBundle(t)
				p := filepath.Join(root, filepath.FromSlash(tt.attr))
				require.NoError(t, os.Remove(p))
				mk(t, p)
				opened := testfixture.WatchOpens(t, p)
				code, out, errOut := apstctl(t, nil, append([]string{tt.args[0], "--root", root}, tt.args[1:]...)...)
				assert.Empty(t, opened(), "the node was opened")
				assert.Equal(t, exitFailure, code, "%s%s", out, errOut)
				assert.Empty(t, out)
				assert.Contains(t, errOut, p+" is "+kind+", not a sysfs attribute")
				assert.Contains(t, errOut, "nothing written")
				if tt.args[0] == "set-cpu-latency" && len(tt.args) > 3 {
					assert.Contains(t, errOut, "put back", "the limit written before is put back")
				}
				fi, err := os.Lstat(p)
				require.NoError(t, err)
				assert.False(t, fi.Mode().IsRegular(), "the node is left in place")
			})
		}
	}
}
