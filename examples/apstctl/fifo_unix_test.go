//go:build unix

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A FIFO named on the command line is what the user asked to read
// (`apstctl plan <(nvme id-ctrl /dev/nvme0)`): every command that takes a
// capture reads it once a writer writes, and ^C ends a wait for a writer
// at once.
func TestNamedFIFOIsRead(t *testing.T) {
	capture, err := os.ReadFile(evoImage)
	require.NoError(t, err)
	feature, err := os.ReadFile(feature100)
	require.NoError(t, err)
	trace, err := os.ReadFile("testdata/replay/interactive.biosnoop")
	require.NoError(t, err)
	klog, err := os.ReadFile("../../apst/diagnose/testdata/apst.log")
	require.NoError(t, err)
	for _, tt := range []struct {
		args func(fifo string) []string
		feed []byte
	}{
		{func(f string) []string { return []string{"plan", f} }, capture},
		{func(f string) []string { return []string{"decode", f} }, feature},
		{func(f string) []string { return []string{"convert", "--to", "nvme-cli-text", f} }, capture},
		{func(f string) []string { return []string{"check", evoImage, f} }, feature},
		{func(f string) []string { return []string{"measure", "--simulate", f, "--trials", "2"} }, capture},
		{func(f string) []string { return []string{"replay", evoImage, f} }, trace},
		{func(f string) []string { return []string{"diagnose", "--log", f} }, klog},
	} {
		fifo := filepath.Join(t.TempDir(), "fifo")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skip("no FIFOs here:", err)
		}
		args := tt.args(fifo)
		go func() {
			f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err == nil {
				f.Write(tt.feed)
				f.Close()
			}
		}()
		var code int
		var out, errOut string
		within(t, 10*time.Second, fmt.Sprint(args), func() { code, out, errOut = apstctl(t, nil, args...) })
		assert.Equal(t, exitOK, code, "%q: %s", args, errOut)
		assert.NotEmpty(t, out, "%q", args)

		cancelEndsWait(t, args) // no writer: ^C ends the wait
	}
}

// A pipe named as /dev/fd/N (what the shell's <(...) gives) is read.
func TestDevFdPipeIsRead(t *testing.T) {
	if _, err := os.Stat("/dev/fd/0"); err != nil {
		t.Skip("no /dev/fd here")
	}
	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer r.Close()
	capture, err := os.ReadFile(evoImage)
	require.NoError(t, err)
	go func() { w.Write(capture); w.Close() }()
	code, out, errOut := apstctl(t, nil, "plan", fmt.Sprintf("/dev/fd/%d", r.Fd()))
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "Samsung")
}

// A socket or a device named as a capture is refused at once, unopened.
func TestSocketOrDeviceCaptureRefused(t *testing.T) {
	for _, p := range []string{"/dev/null", "/dev/zero"} {
		var code int
		var errOut string
		within(t, 5*time.Second, p, func() { code, _, errOut = apstctl(t, nil, "plan", p) })
		assert.Equal(t, exitUsage, code, p)
		assert.Contains(t, errOut, "not a regular file", p)
	}
}

// Standard input that is not a terminal is read when no capture is named;
// "-" on a terminal says how to end the paste; /dev/null is no terminal.
func TestCaptureOnStandardInput(t *testing.T) {
	capture, err := os.ReadFile(evoImage)
	require.NoError(t, err)
	code, out, errOut := apstctl(t, capture, "plan")
	require.Equal(t, exitOK, code, errOut)
	_, want, _ := apstctl(t, nil, "plan", evoImage)
	assert.Equal(t, want, out)

	code, _, errOut = apstctl(t, nil, "plan")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "want 1 argument, got 0", "empty standard input: the usual usage error")

	tty := &terminalBuffer{} // a terminal whose person pastes nothing
	var o, e bytes.Buffer
	code = run([]string{"plan", "-"}, tty, &o, &e)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, e.String(), "paste it, then press ^D")
	o.Reset()
	e.Reset()
	assert.Equal(t, exitUsage, run([]string{"plan"}, tty, &o, &e))
	assert.Contains(t, e.String(), "want 1 argument, got 0", "no argument on a terminal: not read")

	null, err := os.Open("/dev/null")
	require.NoError(t, err)
	defer null.Close()
	o.Reset()
	e.Reset()
	assert.Equal(t, exitUsage, run([]string{"plan", "-"}, null, &o, &e))
	assert.NotContains(t, e.String(), "terminal", "</dev/null is no person typing")
	assert.Contains(t, e.String(), "the capture is empty")
}

// within runs fn and fails the test if it takes longer than d.
func within(t *testing.T, d time.Duration, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { fn(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s: still running after %v", what, d)
	}
}

// cancelEndsWait runs apstctl with args, which name a FIFO no one writes,
// cancels its context after 100 ms (as ^C does) and checks that the wait
// ended, said as an interruption, within 10 s.
func cancelEndsWait(t *testing.T, args []string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	var code int
	var errOut string
	within(t, 10*time.Second, fmt.Sprint(args), func() {
		var o, e bytes.Buffer
		code = runContext(ctx, args, bytes.NewReader(nil), &o, &e)
		errOut = e.String()
	})
	assert.NotEqual(t, exitOK, code, "%q", args)
	assert.Contains(t, errOut, "interrupted", "%q", args)
}
