package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A cancelled context (what ^C and SIGTERM give) stops the commands that
// talk to a machine: they fail at once, say so, and leave nothing behind.
func TestCancelledContextStopsCommands(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := filepath.Join(t.TempDir(), "b")
	for _, args := range [][]string{
		{"inspect", "--root", bundleDir},
		{"collect", "--root", bundleDir, dir},
		{"simulate", evoImage, "--gaps", "exp:1s", "--count", "1000000"},
	} {
		var out, errOut bytes.Buffer
		start := time.Now()
		code := runContext(ctx, args, bytes.NewReader(nil), &out, &errOut)
		assert.Less(t, time.Since(start), time.Second, "%q", args)
		assert.NotEqual(t, 0, code, "%q", args)
		assert.Contains(t, errOut.String(), "interrupted", "%q", args)
	}
	_, err := os.Stat(dir)
	assert.True(t, os.IsNotExist(err), "collect leaves no bundle")
	entries, err := os.ReadDir(filepath.Dir(dir))
	require.NoError(t, err)
	assert.Empty(t, entries, "nor a temporary directory")
}

// signalContext is cancelled by the signal and reports its number.
func TestSignalContext(t *testing.T) {
	ctx, signalled, stop := signalContext(context.Background())
	defer stop()
	assert.Equal(t, 0, signalled())
	assert.NoError(t, ctx.Err())
	stop()
	assert.Error(t, ctx.Err(), "stop releases the context")
}

// changedCtx is a context that reports itself cancelled (as a signal
// would) once any of files no longer holds what it held: the signal
// arrives just after the write.
type changedCtx struct {
	context.Context
	files map[string]string
}

func newChangedCtx(t *testing.T, paths ...string) *changedCtx {
	c := &changedCtx{Context: context.Background(), files: map[string]string{}}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		c.files[p] = string(b)
	}
	return c
}

func (c *changedCtx) Err() error {
	for p, was := range c.files {
		if b, err := os.ReadFile(p); err != nil || string(b) != was {
			return context.Canceled
		}
	}
	return nil
}

// set-latency and set-cpu-latency interrupted after writing put the old
// values back: a status of 128+N means nothing changed.
func TestSetLatencyInterruptedRestores(t *testing.T) {
	root := copyBundle(t)
	tol := filepath.Join(root, "class/nvme/nvme2/power/pm_qos_latency_tolerance_us")
	limit := filepath.Join(root, "block/nvme0n1/cpu_lat_limit_us")
	timeout := filepath.Join(root, "block/nvme0n1/cpu_lat_timeout_ms")
	for _, tt := range []struct {
		args  []string
		files []string
	}{
		{[]string{"set-latency", "--root", root, "nvme2", "12345"}, []string{tol}},
		{[]string{"set-cpu-latency", "--root", root, "--timeout-ms", "7", "nvme0n1", "321"}, []string{limit, timeout}},
	} {
		ctx := newChangedCtx(t, tt.files...)
		var out, errOut bytes.Buffer
		code := runContext(ctx, tt.args, bytes.NewReader(nil), &out, &errOut)
		assert.NotEqual(t, exitOK, code, "%q", tt.args)
		assert.Contains(t, errOut.String(), "restored", "%q", tt.args)
		for p, was := range ctx.files {
			b, err := os.ReadFile(p)
			require.NoError(t, err)
			assert.Equal(t, strings.TrimSpace(was), strings.TrimSpace(string(b)), "%s restored", p)
		}
	}
}

// epipeWriter is standard output whose reader is gone.
type epipeWriter struct{}

func (epipeWriter) Write([]byte) (int, error) { return 0, syscall.EPIPE }

// `apstctl plan --help | head -1`: help into a closed pipe ends quietly
// with 128+SIGPIPE, as a report does, never "broken pipe" on stderr.
func TestHelpIntoClosedPipe(t *testing.T) {
	for _, args := range [][]string{{"plan", "--help"}, {"help", "plan"}, {"plan", "-h"}, {"sweep", evoImage}} {
		var errOut bytes.Buffer
		code := run(args, nil, epipeWriter{}, &errOut)
		assert.Equal(t, 128+int(syscall.SIGPIPE), code, args)
		assert.Empty(t, errOut.String(), args)
	}
}
