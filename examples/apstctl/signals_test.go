package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
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
