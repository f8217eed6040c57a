package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/stretchr/testify/require"
)

// A contextReader passes its reader's bytes through unchanged, in reads
// of any size.
func TestContextReaderPassesThrough(t *testing.T) {
	want := []byte(strings.Repeat("0.5 0.001\n", 20000)) // several 64 KiB reads
	require.NoError(t, iotest.TestReader(newContextReader(context.Background(), bytes.NewReader(want)), want))
	got, err := io.ReadAll(newContextReader(context.Background(), iotest.OneByteReader(bytes.NewReader(want))))
	require.NoError(t, err)
	require.Equal(t, want, got)
	_, err = io.ReadAll(newContextReader(context.Background(), iotest.ErrReader(io.ErrUnexpectedEOF)))
	require.ErrorIs(t, err, io.ErrUnexpectedEOF)
}

// A read waiting for a writer ends with the context's cause once the
// context is done; the read of the old code never returned.
func TestContextReaderCancelledWhileBlocked(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancelCause(context.Background())
	r := newContextReader(ctx, pr)
	done := make(chan error, 1)
	go func() {
		_, err := r.Read(make([]byte, 10))
		done <- err
	}()
	cause := errors.New("interrupt")
	time.Sleep(10 * time.Millisecond)
	cancel(cause)
	select {
	case err := <-done:
		require.ErrorIs(t, err, cause)
	case <-time.After(10 * time.Second):
		t.Fatal("the read did not end with the context")
	}
	_, err := r.Read(make([]byte, 10))
	require.ErrorIs(t, err, cause, "and every read after it")
}

// An input read from standard input whose writer stays idle ends with ^C
// (the context), as a named FIFO's does, with no word against the input
// (survey --merge - waited for ever and then called it no survey report;
// measure --simulate - did not read standard input at all).
func TestStdinCancelled(t *testing.T) {
	for _, args := range [][]string{
		{"plan", "-"},
		{"decode", "-"},
		{"check", evoImage, "-"},
		{"replay", evoImage, "-"},
		{"diagnose", "--log", "-"},
		{"persist", "--from", "-"},
		{"persist", "--check", "-", "--root", bundleDir},
		{"survey", "--merge", "-"},
		{"measure", "--simulate", "-"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			pr, pw := io.Pipe()
			defer pw.Close()
			ctx, cancel := context.WithCancelCause(context.Background())
			time.AfterFunc(50*time.Millisecond, func() { cancel(errors.New("signal interrupt")) })
			var e bytes.Buffer
			done := make(chan int, 1)
			go func() { done <- runContext(ctx, args, pr, io.Discard, &e) }()
			select {
			case code := <-done:
				require.NotEqual(t, exitOK, code)
				require.Contains(t, e.String(), "interrupted: ")
				require.NotContains(t, e.String(), "not a ", "the input is not at fault")
				require.NotContains(t, e.String(), "empty", "nor empty")
			case <-time.After(10 * time.Second):
				t.Fatalf("%s still waiting for standard input after ^C", strings.Join(args, " "))
			}
		})
	}
}
