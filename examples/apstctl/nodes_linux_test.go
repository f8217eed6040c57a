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
			func(root string) []string { return []string{"set-latency", "--root", root, "nvme2", "25000"} }, []int{exitFailure, exitUsage}},
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
