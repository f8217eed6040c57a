package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/analysis/trace"
)

// readAheadTrace is a plain trace of n events (several batches) followed,
// when bad, by a line that is not a time.
func readAheadTrace(n int, bad bool) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%d.%06d\n", i/1000, i%1000)
	}
	if bad {
		b.WriteString("not-a-time\n")
	}
	return b.String()
}

// drain reads src to its first error.
func drain(t *testing.T, next func() (trace.Event, error)) ([]trace.Event, error) {
	t.Helper()
	var evs []trace.Event
	for {
		ev, err := next()
		if err != nil {
			return evs, err
		}
		evs = append(evs, ev)
	}
}

func TestReadAheadSameAsReader(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int
		bad  bool
	}{
		{"empty-batch-boundary", 0, true},
		{"one", 1, false},
		{"exact-batches", 2 * readAheadBatch, false},
		{"many-batches", 3*readAheadBatches*readAheadBatch + 17, false},
		{"error-after-events", readAheadBatch + 5, true},
		{"error-at-boundary", readAheadBatch, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := readAheadTrace(tc.n, tc.bad)
			want, err := trace.NewReader(strings.NewReader(text), trace.Options{Format: trace.FormatPlain})
			require.NoError(t, err)
			wantEvs, wantErr := drain(t, want.Next)

			r, err := trace.NewReader(strings.NewReader(text), trace.Options{Format: trace.FormatPlain})
			require.NoError(t, err)
			s := readAhead(context.Background(), r, nil)
			defer s.stop()
			gotEvs, gotErr := drain(t, s.Next)
			assert.Equal(t, wantEvs, gotEvs)
			assert.Equal(t, wantErr, gotErr)
			if tc.bad {
				var se *trace.SyntaxError
				require.ErrorAs(t, gotErr, &se)
				assert.Equal(t, tc.n+1, se.Line)
			} else {
				assert.Equal(t, io.EOF, gotErr)
			}
			_, again := s.Next()
			assert.Equal(t, gotErr, again, "the error is final")

			// The same a batch at a time.
			r2, err := trace.NewReader(strings.NewReader(text), trace.Options{Format: trace.FormatPlain})
			require.NoError(t, err)
			s2 := readAhead(context.Background(), r2, nil)
			defer s2.stop()
			batchEvs, batchErr := drainBatches(t, s2.NextEvents, 1000)
			assert.Equal(t, wantEvs, batchEvs)
			assert.Equal(t, wantErr, batchErr)
		})
	}
}

// drainBatches reads NextEvents in batches of n to its first error.
func drainBatches(t *testing.T, next func([]trace.Event) (int, error), n int) ([]trace.Event, error) {
	t.Helper()
	var evs []trace.Event
	buf := make([]trace.Event, n)
	for {
		k, err := next(buf)
		if err != nil {
			require.Zero(t, k)
			return evs, err
		}
		require.Positive(t, k)
		evs = append(evs, buf[:k]...)
	}
}

// blockingReader signals entered at its first read, then blocks until
// unblock is closed.
type blockingReader struct{ entered, unblock chan struct{} }

func (b blockingReader) Read([]byte) (int, error) {
	select {
	case b.entered <- struct{}{}:
	default:
	}
	<-b.unblock
	return 0, io.ErrClosedPipe
}

// A canceled context ends Next while the trace read blocks; stop then
// waits for the goroutine, which ends once the read returns.
func TestReadAheadCanceled(t *testing.T) {
	br := blockingReader{entered: make(chan struct{}, 1), unblock: make(chan struct{})}
	r, err := trace.NewReader(io.MultiReader(strings.NewReader("0.5\n"), br), trace.Options{Format: trace.FormatPlain})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	s := readAhead(ctx, r, nil)
	<-br.entered
	cancel()
	_, err = drain(t, s.Next) // the reader is blocked: Next must not be
	require.True(t, errors.Is(err, context.Canceled), "%v", err)
	close(br.unblock)
	s.stop()
	select {
	case <-s.ended:
	default:
		t.Fatal("stop returned before the reading goroutine ended")
	}
}

// directSource gives exactly the Reader's events and error, and ends with
// the context's error once it is done.
func TestDirectSource(t *testing.T) {
	var b strings.Builder
	for i := range 3*directCheck + 5 {
		fmt.Fprintf(&b, "259,0 0 %d %d.%09d 1 %c R %d + 8\n", i+1, i/1000, i%1000*1000, "DC"[i%2], 8*(i/2))
	}
	b.WriteString("not a line\n")
	want, err := trace.NewReader(strings.NewReader(b.String()), trace.Options{})
	require.NoError(t, err)
	wantEvs, wantErr := drain(t, want.Next)
	r, err := trace.NewReader(strings.NewReader(b.String()), trace.Options{Workers: 2})
	require.NoError(t, err)
	defer r.Close()
	s := &directSource{ctx: context.Background(), r: r}
	gotEvs, gotErr := drain(t, s.Next)
	assert.Equal(t, wantEvs, gotEvs)
	assert.Equal(t, wantErr, gotErr)
	r3, err := trace.NewReader(strings.NewReader(b.String()), trace.Options{Workers: 2})
	require.NoError(t, err)
	defer r3.Close()
	batchEvs, batchErr := drainBatches(t, (&directSource{ctx: context.Background(), r: r3}).NextEvents, 1000)
	assert.Equal(t, wantEvs, batchEvs)
	assert.Equal(t, wantErr, batchErr)
	require.ErrorIs(t, gotErr, trace.ErrSyntax)
	_, again := s.Next()
	assert.Equal(t, gotErr, again, "the error is final")

	ctx, cancel := context.WithCancel(context.Background())
	r2, err := trace.NewReader(strings.NewReader(b.String()), trace.Options{Workers: 2, ReorderWindow: 1})
	require.NoError(t, err)
	defer r2.Close()
	s = &directSource{ctx: ctx, r: r2}
	for range directCheck + 1 {
		_, err := s.Next()
		require.NoError(t, err)
	}
	cancel()
	evs, err := drain(t, s.Next)
	require.ErrorIs(t, err, context.Canceled)
	assert.Less(t, len(evs), directCheck, "ended within directCheck events")
}
