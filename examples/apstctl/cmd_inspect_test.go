package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	nvmeapst "github.com/nvmeapst/nvmeapst"
)

func copyBundle(t *testing.T) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "bundle")
	require.NoError(t, os.CopyFS(dst, os.DirFS(bundleDir)))
	return dst
}

func TestInspectCommand(t *testing.T) {
	code, out, errOut := runCmd(runInspect, "--root", bundleDir)
	require.Equal(t, exitOK, code, errOut)
	_, golden, _ := runCmd(runInspect, "--root", bundleDir, "nvme0", "nvme1", "nvme2")
	assert.Equal(t, golden, out, "naming every controller is inspecting them all (the text is in testdata/golden)")

	// Flags after the names, and a /dev/ prefix.
	code, out, errOut = runCmd(runInspect, "/dev/nvme2", "--root", bundleDir, "--format", "json")
	require.Equal(t, exitOK, code, errOut)
	var rep struct {
		Controllers []struct {
			Name    string `json:"name"`
			Verdict struct {
				Status      string `json:"status"`
				Differences []struct {
					State    int     `json:"state"`
					Drive    anEntry `json:"drive"`
					Expected anEntry `json:"expected"`
				} `json:"differences"`
			} `json:"verdict"`
			Plan struct {
				MaxPS int `json:"max_ps"`
			} `json:"plan"`
		} `json:"controllers"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	require.Len(t, rep.Controllers, 1)
	c := rep.Controllers[0]
	assert.Equal(t, "nvme2", c.Name)
	assert.Equal(t, "mismatch", c.Verdict.Status)
	assert.Equal(t, 3, c.Plan.MaxPS)
	require.Len(t, c.Verdict.Differences, 1)
	assert.Equal(t, anEntry{3, "0x000000000007d020", 4, 2000}, c.Verdict.Differences[0].Drive)
	assert.Equal(t, anEntry{3, "0x0000000000000000", 0, 0}, c.Verdict.Differences[0].Expected)
}

// A problem's message quotes the value it could not read once: the text
// output escapes a message only when it carries a control character, so a
// two-line attribute shows as "25000\n100", not "25000\\n100"; a raw
// escape in a message is still escaped.
func TestInspectProblemQuotedOnce(t *testing.T) {
	root := copyBundle(t)
	require.NoError(t, os.WriteFile(filepath.Join(root, "class/nvme/nvme0/power/pm_qos_latency_tolerance_us"), []byte("25000\n100\n"), 0o644))
	_, out, errOut := runCmd(runInspect, "--root", root, "nvme0")
	assert.Contains(t, out, `invalid latency tolerance "25000\n100"`, errOut)
	assert.NotContains(t, out, `\\n`)
}

func TestInspectCommandLiveSeam(t *testing.T) {
	saved := liveSystem
	t.Cleanup(func() { liveSystem = saved })
	liveSystem = func() (*nvmeapst.System, error) { return nvmeapst.OpenRoot(bundleDir) }
	code, live, _ := runCmd(runInspect)
	require.Equal(t, exitOK, code)
	_, root, _ := runCmd(runInspect, "--root", bundleDir)
	assert.Equal(t, root, live)
}

func TestInspectCommandErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--root", bundleDir, "nvme9"},
		{"--root", bundleDir, "nvme0n1"},
		{"--root", bundleDir, "--format", "yaml"},
		{"--root", filepath.Join(t.TempDir(), "missing")},
		{"--bogus"},
	} {
		code, _, errOut := runCmd(runInspect, args...)
		assert.Equal(t, exitUsage, code, "%q", args)
		assert.NotEmpty(t, errOut, "%q", args)
	}
	code, _, _ := runCmd(runInspect, "-h")
	assert.Equal(t, exitOK, code)
	// A --root that is no sysfs tree or bundle is an input that cannot be
	// read (exit 2), said as such, not "is the nvme driver loaded?".
	notSysfs := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(notSysfs, "notes.txt"), []byte("hello\n"), 0o644))
	for _, run := range []func([]string, io.Reader, io.Writer, io.Writer) int{runInspect, cmdFunc("metrics")} {
		code, _, errOut := runCmd(run, "--root", notSysfs)
		assert.Equal(t, exitUsage, code, errOut)
		assert.Contains(t, errOut, "no sysfs at "+notSysfs)
		assert.NotContains(t, errOut, "nvme driver loaded")
	}
}

// A sysfs tree without class/nvme (the nvme driver not loaded) is said
// the same way by inspect, metrics and diagnose without --log: exit 1,
// with the question that tells what to check.
func TestNoNVMeClassSaidAlike(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sys")
	require.NoError(t, os.CopyFS(root, os.DirFS("../../sysfs/testdata/laptop-tlp")))
	require.NoError(t, os.RemoveAll(filepath.Join(root, "class", "nvme")))
	for _, name := range []string{"inspect", "metrics", "diagnose"} {
		code, _, errOut := runCmd(cmdFunc(name), "--root", root)
		assert.Equal(t, exitFailure, code, "%s: %s", name, errOut)
		assert.Contains(t, errOut, "no NVMe controllers (is the nvme driver loaded?)", name)
	}
}

func TestCollectCommandThenInspect(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "b")
	code, out, errOut := runCmd(runCollect, "--root", bundleDir, dir)
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "wrote "+dir+": 3 controller(s)")
	assert.Contains(t, out, "kernel 6.8.0-fixture")

	_, want, _ := runCmd(runInspect, "--root", bundleDir, "--format", "json")
	code, got, errOut := runCmd(runInspect, "--root", dir, "--format", "json")
	require.Equal(t, exitOK, code, errOut)
	assert.JSONEq(t, want, got)

	code, _, errOut = runCmd(runCollect, "--root", bundleDir, dir)
	assert.Equal(t, exitUsage, code, "an existing bundle is not overwritten")
	assert.Contains(t, errOut, "not empty")
	code, _, _ = runCmd(runCollect, "--root", bundleDir)
	assert.Equal(t, exitUsage, code)
}

func TestSetLatencyCommand(t *testing.T) {
	root := copyBundle(t)
	file := filepath.Join(root, "class/nvme/nvme2/power/pm_qos_latency_tolerance_us")

	code, out, errOut := runCmd(runSetLatency, "--root", root, "nvme2", "100000")
	require.Equal(t, exitOK, code, errOut)
	assert.NotEmpty(t, out, "the report (testdata/golden/set-latency.txt)")
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, "100000", string(bytes.TrimSpace(b)))

	// 05000 is octal to the kernel (2560 µs): refused, as nobody means it.
	for _, v := range []string{"-5", "2147483648", "12abc", "auto\nany", "05000"} {
		code, out, errOut := runCmd(runSetLatency, "--root", root, "nvme2", v)
		assert.Equal(t, exitUsage, code, "%q", v)
		assert.Empty(t, out)
		assert.Contains(t, errOut, "nothing written", "%q", v)
		after, err := os.ReadFile(file)
		require.NoError(t, err)
		assert.Equal(t, b, after, "%q", v)
	}

	// A controller the kernel has APST disabled for has no attribute to
	// write: nothing is written, and the controller is the wrong one (2,
	// as the help says), not a failed write (1).
	code, _, errOut = runCmd(runSetLatency, "--root", root, "nvme1", "25000")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "APST disabled")
	assert.NoFileExists(t, filepath.Join(root, "class/nvme/nvme1/power/pm_qos_latency_tolerance_us"))
	code, _, _ = runCmd(runSetLatency, "--root", root, "nvme9", "25000")
	assert.Equal(t, exitUsage, code)
	code, _, _ = runCmd(runSetLatency, "--root", root, "nvme2")
	assert.Equal(t, exitUsage, code)

	code, out, errOut = runCmd(runSetLatency, "--root", root, "--format", "json", "nvme2", "auto")
	require.Equal(t, exitOK, code, errOut)
	var ch struct {
		Old, New  string
		Unlimited bool `json:"unlimited"`
		Persist   struct {
			KernelParameter string `json:"kernel_parameter"`
		} `json:"persist"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &ch))
	assert.Equal(t, "100000", ch.Old)
	assert.Equal(t, "auto", ch.New)
	assert.True(t, ch.Unlimited)
	assert.Equal(t, "nvme_core.default_ps_max_latency_us=2147483647", ch.Persist.KernelParameter)
}

// A bundle whose Identify file is missing is damaged: inspect reports every
// controller and exits 1, naming the file under "unreadable:", as for a
// missing sysfs file (it exited 0, the failure only in the controller's
// lines).
func TestInspectDamagedBundleExits1(t *testing.T) {
	root := copyBundle(t)
	require.NoError(t, os.Remove(filepath.Join(root, "ioctl", "nvme0", "identify.bin")))
	code, out, errOut := apstctl(t, nil, "inspect", "--root", root)
	assert.Equal(t, exitFailure, code, errOut)
	assert.Contains(t, out, "unreadable: nvmeapst: invalid bundle: ")
	assert.Contains(t, out, "identify.bin")
	assert.Contains(t, out, "nvme2:", "the other controllers are reported")
	code, out, _ = apstctl(t, nil, "inspect", "--root", root, "-o", "json")
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, out, `"bundle": true`)
}

// A module parameter that cannot be read (a symbolic link loop) is said
// unreadable, not malformed, in text and JSON; one that reads but does not
// parse is malformed. Either way the plan assumes the default.
func TestInspectModuleParameterUnreadableNotMalformed(t *testing.T) {
	for _, tt := range []struct {
		name, param, want string
		spoil             func(p string) error
	}{
		{"loop", "force_apst", "force_apst=(unreadable: assumed N)", func(p string) error { return os.Symlink(filepath.Base(p), p) }},
		{"loop", "apst_primary_timeout_ms", "apst_primary_timeout_ms=(unreadable: assumed 100)", func(p string) error { return os.Symlink(filepath.Base(p), p) }},
		{"garbage", "force_apst", "force_apst=(malformed: assumed N)", func(p string) error { return os.WriteFile(p, []byte("maybe\n"), 0o644) }},
	} {
		for _, manifest := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/%s/manifest=%v", tt.name, tt.param, manifest), func(t *testing.T) {
				root := copyBundle(t)
				if !manifest {
					require.NoError(t, os.Remove(filepath.Join(root, "manifest.json")))
				}
				p := filepath.Join(root, "module/nvme_core/parameters", tt.param)
				require.NoError(t, os.Remove(p))
				require.NoError(t, tt.spoil(p))
				_, out, _ := runCmd(runInspect, "--root", root)
				assert.Contains(t, out, tt.want)
				_, out, _ = runCmd(runInspect, "--root", root, "-o", "json")
				var v struct {
					Module      map[string]any    `json:"module"`
					ModuleError *nvmeapst.Problem `json:"module_error"`
				}
				require.NoError(t, json.Unmarshal([]byte(out), &v), out)
				assert.Nil(t, v.Module[tt.param])
				require.NotNil(t, v.ModuleError)
				if tt.name == "loop" {
					assert.Contains(t, v.ModuleError.Message, "too many levels of symbolic links")
					assert.NotContains(t, out, "malformed")
				} else {
					assert.Contains(t, v.ModuleError.Message, "malformed")
				}
			})
		}
	}
}
