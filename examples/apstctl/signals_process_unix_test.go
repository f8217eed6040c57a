//go:build unix

package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/measure"
	"github.com/nvmeapst/nvmeapst/examples/apstctl/internal/earlysignal"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
)

// helperEnv, set in the environment of this test binary, makes it run
// apstctl (runMain) on its arguments instead of the tests: a real process
// for the tests to signal. Its value is the fake sysfs root that measure
// uses in place of /sys, with a simulated drive whose every idle wait also
// takes 20 ms of real time.
const helperEnv = "APSTCTL_TEST_HELPER_ROOT"

func TestMain(m *testing.M) {
	if root := os.Getenv(helperEnv); root != "" {
		measureTestHook = helperMeasureHook(root)
		if at := os.Getenv(pauseAtEnv); at != "" {
			liveChangeHook = helperPause(at, os.Getenv(pauseMarkEnv))
		}
		if at := os.Getenv(pauseAtEnv); at == "start" {
			// A slow start: the signal arrives before main runs.
			helperPause(at, os.Getenv(pauseMarkEnv))(at)
		}
		i := 0
		for i < len(os.Args) && os.Args[i] != "--" {
			i++
		}
		os.Exit(runMain(os.Args[i+1:]))
	}
	earlysignal.Release() // not apstctl: ^C and go test's SIGQUIT act as usual
	os.Exit(m.Run())
}

// pauseAtEnv names the point of a live change (liveChangeHook's, or
// "start" for before main) where the helper pauses, after creating the
// file pauseMarkEnv names, so that a test signals it there.
const (
	pauseAtEnv   = "APSTCTL_TEST_PAUSE_AT"
	pauseMarkEnv = "APSTCTL_TEST_PAUSE_MARK"
)

// helperPause returns a liveChangeHook that pauses at point at: until a
// signal of the policy arrives (the test sends it once it sees the mark),
// and then pausePastSignal more, for apstctl's own handler to act on it.
// A fixed pause lost the race on a loaded machine: the test had not seen
// the mark before the pause ended, and apstctl finished (status 0) before
// the signal came.
func helperPause(at, mark string) func(string) {
	return func(point string) {
		if point != at {
			return
		}
		c := make(chan os.Signal, 1)
		signal.Notify(c, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGPIPE)
		defer signal.Stop(c)
		if err := os.WriteFile(mark, nil, 0o600); err != nil {
			panic(err)
		}
		select {
		case <-c:
			time.Sleep(pausePastSignal)
		case <-time.After(30 * time.Second):
		}
	}
}

// pausePastSignal is how long a paused helper goes on pausing after the
// signal: apstctl's handler runs in a goroutine of its own.
const pausePastSignal = 200 * time.Millisecond

// helperMeasureHook points measure at the fake root and a simulated drive.
func helperMeasureHook(root string) func(*measureHooks) {
	return func(o *measureHooks) {
		identify, err := os.ReadFile(testfixture.Path(testfixture.Samsung990EVOPlus))
		if err != nil {
			panic(err)
		}
		var sim *measure.Simulation
		o.liveSystem = fakeLiveSystem(root, identify)
		o.openOptions.OpenDrive = func(string) (measure.Drive, error) {
			so := &measureOptions{simulate: testfixture.Path(testfixture.Samsung990EVOPlus), exitFactor: "0.78", seed: 1}
			s, _, _, err := so.simulation()
			sim = s
			return s, err
		}
		o.setup = func(s *measure.Setup) { s.Clock = realSleep{sim} }
	}
}

// realSleep is a simulated clock whose waits also take real time, so that
// a signal finds the measurement running.
type realSleep struct{ measure.Clock }

func (c realSleep) Sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(20 * time.Millisecond):
	}
	return c.Clock.Sleep(ctx, d)
}

// startApstctl starts this test binary as apstctl with args, measure
// pointed at root.
func startApstctl(t *testing.T, root string, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe, append([]string{"-test.run=^$", "--"}, args...)...)
	cmd.Env = append(os.Environ(), helperEnv+"="+root)
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd, &errOut
}

// Every signal of the policy, sent to a real apstctl process in the middle
// of a live measurement, restores pm_qos_latency_tolerance_us to the value
// it held and ends apstctl with 128+N (SIGPIPE quietly).
func TestMeasureSignalRestoresTolerance(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGPIPE} {
		t.Run(sig.String(), func(t *testing.T) {
			root := copyFixture(t)
			tolPath := filepath.Join(root, "class/nvme/nvme2/power/pm_qos_latency_tolerance_us")
			cmd, errOut := startApstctl(t, root, "measure", "nvme2n1", "--trials", "50",
				"--with", "pm-qos=100000", "--with", "pm-qos=30000")
			// Wait until the measurement has changed the tolerance.
			deadline := time.Now().Add(20 * time.Second)
			for {
				b, err := os.ReadFile(tolPath)
				require.NoError(t, err)
				if v := strings.TrimSpace(string(b)); v != "25000" {
					break
				}
				require.True(t, time.Now().Before(deadline), "the measurement never set the tolerance: %s", errOut)
				time.Sleep(5 * time.Millisecond)
			}
			time.Sleep(30 * time.Millisecond)
			require.NoError(t, cmd.Process.Signal(sig))
			err := cmd.Wait()
			var ee *exec.ExitError
			require.True(t, errors.As(err, &ee), "exit: %v; %s", err, errOut)
			assert.Equal(t, 128+int(sig), ee.ExitCode(), "%s", errOut)
			b, err := os.ReadFile(tolPath)
			require.NoError(t, err)
			assert.Equal(t, "25000", strings.TrimSpace(string(b)), "restored; %s", errOut)
			if sig == syscall.SIGPIPE {
				return
			}
			assert.Contains(t, errOut.String(), "restored to 25000")
			assert.Contains(t, errOut.String(), "interrupted")
		})
	}
}

// A survey whose standard output is closed (`survey --svg p.svg | head -1`)
// exits quietly with 128+SIGPIPE and leaves no temporary file beside --svg.
func TestSurveyBrokenPipeLeavesNoTemporaryFile(t *testing.T) {
	dir := t.TempDir()
	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe, "-test.run=^$", "--", "survey", "-o", "csv", "--svg", filepath.Join(dir, "p.svg"), surveySmartctl)
	cmd.Env = append(os.Environ(), helperEnv+"="+dir)
	r, w, err := os.Pipe()
	require.NoError(t, err)
	r.Close() // no reader: the first write gets SIGPIPE and EPIPE
	cmd.Stdout = w
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	err = cmd.Run()
	w.Close()
	var ee *exec.ExitError
	require.True(t, errors.As(err, &ee), "%v", err)
	assert.Equal(t, 128+int(syscall.SIGPIPE), ee.ExitCode())
	assert.Empty(t, errOut.String(), "quiet")
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range ents {
		assert.NotContains(t, e.Name(), ".tmp-", "temporary file left")
	}
}

// replay of a trace on standard input whose writer stays idle (`biosnoop |
// apstctl replay CAP -` before the first event) ends on SIGINT with 130:
// the read waiting for the pipe does not swallow the signal. A blkparse
// trace, read by the Reader's own goroutines (directSource), too.
func TestReplayStdinSignal(t *testing.T) {
	for name, first := range map[string]string{
		"plain":    "0.5\n",
		"blkparse": "259,0 0 1 0.000000000 1 D R 8 + 8\n",
	} {
		t.Run(name, func(t *testing.T) {
			exe, err := os.Executable()
			require.NoError(t, err)
			cmd := exec.Command(exe, "-test.run=^$", "--", "replay", evoImage, "-")
			cmd.Env = append(os.Environ(), helperEnv+"="+t.TempDir())
			r, w, err := os.Pipe()
			require.NoError(t, err)
			defer w.Close()
			w.WriteString(first) // the format is known; the next line never comes
			cmd.Stdin = r
			var errOut bytes.Buffer
			cmd.Stderr = &errOut
			require.NoError(t, cmd.Start())
			r.Close()
			t.Cleanup(func() { cmd.Process.Kill() })
			time.Sleep(300 * time.Millisecond)
			require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			select {
			case err := <-exited:
				var ee *exec.ExitError
				require.True(t, errors.As(err, &ee), "exit: %v; %s", err, errOut.String())
				assert.Equal(t, 128+int(syscall.SIGINT), ee.ExitCode(), "%s", errOut.String())
			case <-time.After(20 * time.Second):
				t.Fatalf("replay did not end on SIGINT while waiting for standard input; %s", errOut.String())
			}
		})
	}
}
