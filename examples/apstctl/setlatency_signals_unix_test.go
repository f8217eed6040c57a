//go:build unix

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runPaused runs this test binary as apstctl with args, pausing at point
// (pauseAtEnv), sends sigs there one after the other, and returns the exit
// status a shell would see (128+N for a process a signal killed) and the
// standard error.
func runPaused(t *testing.T, root, point string, args []string, sigs ...syscall.Signal) (int, string) {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	mark := filepath.Join(t.TempDir(), "paused")
	cmd := exec.Command(exe, append([]string{"-test.run=^$", "--"}, args...)...)
	cmd.Env = append(os.Environ(), helperEnv+"="+root, pauseAtEnv+"="+point, pauseMarkEnv+"="+mark)
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := os.Stat(mark); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait() // errOut is complete only now
			t.Fatalf("never reached %q; %s", point, errOut.String())
		}
		time.Sleep(2 * time.Millisecond)
	}
	for i, sig := range sigs {
		if i > 0 {
			time.Sleep(30 * time.Millisecond)
		}
		require.NoError(t, cmd.Process.Signal(sig))
	}
	err = cmd.Wait()
	if err == nil {
		return 0, errOut.String()
	}
	var ee *exec.ExitError
	require.True(t, errors.As(err, &ee), "%v", err)
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal()), errOut.String()
	}
	return ee.ExitCode(), errOut.String()
}

// readValues reads each file, trimmed.
func readValues(t *testing.T, files []string) []string {
	t.Helper()
	var vs []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		vs = append(vs, strings.TrimSpace(string(b)))
	}
	return vs
}

// Every signal of the policy, sent at every point of set-latency's and
// set-cpu-latency's writes (before, between and after them, while the
// report is printed, and a second signal on top of the first), leaves the
// settings all old with exit status 128+N, or all new with status 0: never
// a mixture, never the new value with 128+N.
func TestSetLatencySignalAtEveryPoint(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 80 processes")
	}
	type cmdCase struct {
		name   string
		args   func(root string) []string
		files  []string
		new    []string
		points []string
	}
	cases := []cmdCase{
		{
			name:   "set-latency",
			args:   func(root string) []string { return []string{"set-latency", "--root", root, "nvme2", "12345"} },
			files:  []string{"class/nvme/nvme2/power/pm_qos_latency_tolerance_us"},
			new:    []string{"12345"},
			points: []string{"before pm_qos_latency_tolerance_us", "after pm_qos_latency_tolerance_us", "report", "finish"},
		},
		{
			name: "set-cpu-latency",
			args: func(root string) []string {
				return []string{"set-cpu-latency", "--root", root, "--timeout-ms", "7", "nvme0n1", "321"}
			},
			files:  []string{"block/nvme0n1/cpu_lat_limit_us", "block/nvme0n1/cpu_lat_timeout_ms"},
			new:    []string{"321", "7"},
			points: []string{"before cpu_lat_limit_us", "after cpu_lat_limit_us", "before cpu_lat_timeout_ms", "after cpu_lat_timeout_ms", "report", "finish"},
		},
	}
	sigs := []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGPIPE}
	for _, c := range cases {
		for _, point := range c.points {
			for _, sig := range sigs {
				for _, second := range []bool{false, true} {
					name := c.name + "/" + strings.ReplaceAll(point, " ", "_") + "/" + sig.String()
					if second {
						name += "+SIGTERM"
					}
					t.Run(name, func(t *testing.T) {
						t.Parallel()
						root := copyBundle(t)
						files := make([]string, len(c.files))
						for i, f := range c.files {
							files[i] = filepath.Join(root, f)
						}
						old := readValues(t, files)
						send := []syscall.Signal{sig}
						if second {
							send = append(send, syscall.SIGTERM)
						}
						code, errOut := runPaused(t, root, point, c.args(root), send...)
						got := readValues(t, files)
						switch {
						case code == 0:
							assert.Equal(t, c.new, got, "status 0: the new values; %s", errOut)
						case code == 128+int(sig) || second && code == 128+int(syscall.SIGTERM):
							// A second signal once the old values are back
							// ends apstctl at once, with its own 128+N.
							assert.Equal(t, old, got, "status %d: the old values; %s", code, errOut)
						default:
							t.Errorf("status %d (want 0 or %d); values %q (old %q, new %q); %s", code, 128+int(sig), got, old, c.new, errOut)
						}
						// Every pause point comes before the outcome is
						// decided: the signal always wins.
						assert.NotEqual(t, 0, code, "%s", errOut)
						assert.NotContains(t, errOut, "goroutine ", "no stack dump")
					})
				}
			}
		}
	}
}

// A signal that arrives while apstctl is starting, before main (SIGQUIT in
// the first milliseconds), ends it with 128+N, without the Go runtime's
// stack dump and status 2, and nothing runs.
func TestSignalWhileStarting(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGQUIT, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			root := copyBundle(t)
			tol := filepath.Join(root, "class/nvme/nvme2/power/pm_qos_latency_tolerance_us")
			old := readValues(t, []string{tol})
			code, errOut := runPaused(t, root, "start", []string{"set-latency", "--root", root, "nvme2", "12345"}, sig)
			assert.Equal(t, 128+int(sig), code, "%s", errOut)
			assert.NotContains(t, errOut, "goroutine ", "no stack dump")
			assert.Equal(t, old, readValues(t, []string{tol}), "nothing written")
		})
	}
}

// set-latency and set-cpu-latency whose standard output has no reader
// (`apstctl set-latency nvme2 12345 | true`) end quietly with 141, and, as
// for every signal, the old values are back.
func TestSetLatencyBrokenPipeRestores(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		files []string
	}{
		{[]string{"set-latency", "nvme2", "12345"}, []string{"class/nvme/nvme2/power/pm_qos_latency_tolerance_us"}},
		{[]string{"set-cpu-latency", "--timeout-ms", "7", "nvme0n1", "321"}, []string{"block/nvme0n1/cpu_lat_limit_us", "block/nvme0n1/cpu_lat_timeout_ms"}},
	} {
		for _, format := range []string{"text", "json"} {
			root := copyBundle(t)
			files := make([]string, len(tc.files))
			for i, f := range tc.files {
				files[i] = filepath.Join(root, f)
			}
			old := readValues(t, files)
			exe, err := os.Executable()
			require.NoError(t, err)
			cmd := exec.Command(exe, append([]string{"-test.run=^$", "--", tc.args[0], "--root", root, "-o", format}, tc.args[1:]...)...)
			cmd.Env = append(os.Environ(), helperEnv+"="+root)
			r, w, err := os.Pipe()
			require.NoError(t, err)
			r.Close() // no reader
			cmd.Stdout = w
			var errOut bytes.Buffer
			cmd.Stderr = &errOut
			err = cmd.Run()
			w.Close()
			var ee *exec.ExitError
			require.True(t, errors.As(err, &ee), "%q: %v", tc.args, err)
			assert.Equal(t, 128+int(syscall.SIGPIPE), ee.ExitCode(), "%q %s: %s", tc.args, format, errOut.String())
			assert.Equal(t, old, readValues(t, files), "%q %s: the old values", tc.args, format)
			assert.Empty(t, errOut.String(), "quietly")
		}
	}
}

// A stop signal while collect prints its report (the bundle written, its
// reader slow) exits 128+N and removes the bundle, as the help says ("^C
// leaves nothing behind"): a directory collect made goes, an empty one it
// filled is emptied. SIGPIPE, a reader that has read enough, leaves it.
func TestCollectInterruptedRemovesBundle(t *testing.T) {
	src, err := filepath.Abs("../../testdata/bundle")
	require.NoError(t, err)
	for _, tc := range []struct {
		sig    syscall.Signal
		exists bool // the directory existed, empty, before collect
		stands bool
	}{
		{syscall.SIGINT, false, false},
		{syscall.SIGTERM, true, false},
		{syscall.SIGHUP, false, false},
		{syscall.SIGPIPE, false, true},
	} {
		dir := filepath.Join(t.TempDir(), "b")
		if tc.exists {
			require.NoError(t, os.Mkdir(dir, 0o755))
		}
		code, errOut := runPaused(t, t.TempDir(), "collect report", []string{"collect", "--root", src, dir}, tc.sig)
		assert.Equal(t, 128+int(tc.sig), code, "%v: %s", tc.sig, errOut)
		entries, err := os.ReadDir(dir)
		switch {
		case tc.stands:
			require.NoError(t, err)
			assert.NotEmpty(t, entries, "%v: the bundle stands", tc.sig)
		case tc.exists:
			require.NoError(t, err, "%v: the directory given stays", tc.sig)
			assert.Empty(t, entries, "%v: emptied", tc.sig)
		default:
			assert.ErrorIs(t, err, os.ErrNotExist, "%v: removed", tc.sig)
		}
	}
}
