//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A named pipe in a surveyed directory is listed as unreadable without
// being opened: nothing waits for a writer. One given as the argument (or
// a link to it, as <(...) gives /dev/fd/N) is a pipe the user named: it is
// read, as plan reads one. The test fails after 10 s instead of hanging.
func TestSurveyCommandFIFO(t *testing.T) {
	dir := t.TempDir()
	copyTo(t, filepath.Join(surveySmartctl, surveyEVOName+".txt"), filepath.Join(dir, "a.txt"))
	fifo := filepath.Join(dir, "b.fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	// A symbolic link to the FIFO is opened, without blocking, and refused.
	require.NoError(t, os.Symlink(fifo, filepath.Join(dir, "c.link")))

	type result struct {
		code        int
		out, errOut string
	}
	run := func(args ...string) result {
		t.Helper()
		done := make(chan result, 1)
		go func() {
			var out, errOut bytes.Buffer
			code := cmdFunc("survey")(args, nil, &out, &errOut)
			done <- result{code, out.String(), errOut.String()}
		}()
		select {
		case r := <-done:
			return r
		case <-time.After(10 * time.Second):
			t.Fatalf("survey %q hangs on a named pipe", args)
			return result{}
		}
	}
	r := run("--format", "json", dir)
	require.Equal(t, exitOK, r.code, r.errOut)
	var v surveyOut
	require.NoError(t, json.Unmarshal([]byte(r.out), &v))
	assert.Len(t, v.Drives, 1)
	require.Len(t, v.Unreadable, 2)
	assert.Equal(t, fifo, v.Unreadable[0].Path)
	assert.Equal(t, "not a regular file: a named pipe (FIFO) (a walk reads regular files only; name a pipe on the command line to read it)", v.Unreadable[0].Error)
	assert.Equal(t, filepath.Join(dir, "c.link"), v.Unreadable[1].Path)
	assert.Equal(t, "not a regular file: a named pipe (FIFO) (a walk reads regular files only; name a pipe on the command line to read it)", v.Unreadable[1].Error)

	capture, err := os.ReadFile(filepath.Join(dir, "a.txt"))
	require.NoError(t, err)
	for _, arg := range []string{fifo, filepath.Join(dir, "c.link")} {
		fed := make(chan error, 1)
		go func() {
			f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err == nil {
				_, err = f.Write(capture)
				if cerr := f.Close(); err == nil {
					err = cerr
				}
			}
			fed <- err
		}()
		r = run("--format", "json", arg)
		require.Equal(t, exitOK, r.code, r.errOut)
		require.NoError(t, <-fed)
		v = surveyOut{}
		require.NoError(t, json.Unmarshal([]byte(r.out), &v))
		require.Len(t, v.Drives, 1, arg)
		assert.Equal(t, arg, v.Drives[0].Path)
		assert.Empty(t, v.Unreadable)
	}
}
