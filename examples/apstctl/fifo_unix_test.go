//go:build unix

package main

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// A FIFO given as a capture is refused at once, never read.
func TestFIFOCaptureDoesNotBlock(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	for _, args := range [][]string{{"plan", fifo}, {"decode", fifo}, {"convert", "--to", "binary", fifo}, {"check", fifo, feature100}, {"check", evoImage, fifo}, {"measure", "--simulate", fifo}} {
		done := make(chan struct{})
		var code int
		var errOut string
		go func() {
			code, _, errOut = apstctl(t, nil, args...)
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("%q blocks on a FIFO", args)
		}
		assert.Equal(t, 2, code, "%q", args)
		assert.Contains(t, errOut, "not a regular file", "%q", args)
	}
}
