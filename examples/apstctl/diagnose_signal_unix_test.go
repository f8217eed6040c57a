//go:build unix

package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/internal/testfixture"
)

// diagnose --log of a file whose read blocks (a named pipe the user names,
// whose writer never writes; /proc/kmsg behaves alike) ends on the first
// SIGTERM with 143.
func TestDiagnoseLogBlockingReadSignal(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "kmsg")
	testfixture.Mkfifo(t, fifo)
	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe, "-test.run=^$", "--", "diagnose", "--log", fifo)
	cmd.Env = append(os.Environ(), helperEnv+"="+t.TempDir())
	var errOut bytes.Buffer
	cmd.Stderr = &errOut
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill() })
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0) // waits for apstctl to open it
	require.NoError(t, err)
	defer w.Close() // a writer that never writes: the read blocks
	time.Sleep(300 * time.Millisecond)
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		var ee *exec.ExitError
		require.True(t, errors.As(err, &ee), "exit: %v; %s", err, errOut.String())
		assert.Equal(t, 128+int(syscall.SIGTERM), ee.ExitCode(), "%s", errOut.String())
	case <-time.After(10 * time.Second):
		t.Fatalf("diagnose --log did not end on SIGTERM while its read blocked; %s", errOut.String())
	}
}

// A --log regular file whose read blocks in the kernel (/proc/kmsg, which
// only root may read and whose reads consume the log: played here by a
// pipe that openLogFile hands out as the file) does not keep diagnose from
// ending when its context is cancelled, as the first SIGTERM does.
func TestDiagnoseLogBlockingFileCancelled(t *testing.T) {
	r, w, err := os.Pipe()
	require.NoError(t, err)
	defer w.Close() // never written
	saved := openLogFile
	t.Cleanup(func() { openLogFile = saved; r.Close() })
	openLogFile = func(path string) (*os.File, os.FileInfo, error) {
		if path != "/proc/kmsg" {
			return saved(path)
		}
		fi, err := r.Stat()
		return r, fi, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	done := make(chan int, 1)
	var out, errOut bytes.Buffer
	go func() {
		done <- runContext(ctx, []string{"diagnose", "--log", "/proc/kmsg"}, bytes.NewReader(nil), &out, &errOut)
	}()
	select {
	case code := <-done:
		assert.NotEqual(t, exitOK, code)
		assert.Contains(t, errOut.String(), "interrupted")
	case <-time.After(10 * time.Second):
		t.Fatal("diagnose --log /proc/kmsg did not end when its context was cancelled")
	}
}
