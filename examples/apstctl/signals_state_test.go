package main

import (
	"context"
	"errors"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newTestChange is a live change under a signal state of its own, as
// signalContext makes one, and the function that delivers a signal to it.
func newTestChange(t *testing.T) (*liveChange, *signalState, context.Context) {
	t.Helper()
	st := &signalState{}
	ctx, cancel := context.WithCancelCause(context.WithValue(context.Background(), signalStateKey{}, st))
	st.cancel = cancel
	t.Cleanup(func() { cancel(nil) })
	return newLiveChange(ctx), st, ctx
}

// The outcomes of a live change under signals, decided whichever
// goroutine comes first: a signal during the writes waits for them and
// undoes them; one after the outcome is decided is swallowed; an undo
// that fails leaves the status to the command (signalled is 0) and keeps
// the signals caught.
func TestLiveChangeOutcomes(t *testing.T) {
	t.Run("signal during the writes", func(t *testing.T) {
		c, st, ctx := newTestChange(t)
		value := "old"
		delivered := make(chan bool, 1)
		err := c.write(func(wctx context.Context, record func(func() error)) error {
			value = "new"
			record(func() error { value = "old"; return nil })
			go func() { delivered <- st.deliver(syscall.SIGHUP) }()
			select { // the write's context sees the signal at once
			case <-wctx.Done():
			case <-time.After(5 * time.Second):
				t.Error("the write's context was not cancelled")
			}
			assert.Equal(t, "new", value, "nothing undone while writing")
			assert.NoError(t, ctx.Err(), "the command's context waits for the writes")
			return nil
		})
		require.NoError(t, err)
		assert.True(t, <-delivered, "the default action may come back: the old value is back")
		assert.Equal(t, "old", value)
		assert.Error(t, ctx.Err())
		interrupted, uerr := c.finish(nil)
		assert.True(t, interrupted)
		assert.NoError(t, uerr)
		assert.Equal(t, int(syscall.SIGHUP), st.signalled())
	})
	t.Run("signal pending at finish", func(t *testing.T) {
		c, st, _ := newTestChange(t)
		value := "old"
		require.NoError(t, c.write(func(_ context.Context, record func(func() error)) error {
			value = "new"
			record(func() error { value = "old"; return nil })
			return nil
		}))
		st.pending.Store(int32(syscall.SIGTERM)) // arrived; its handler has not run
		interrupted, _ := c.finish(nil)
		assert.True(t, interrupted)
		assert.Equal(t, "old", value)
		assert.Equal(t, int(syscall.SIGTERM), st.signalled())
		assert.True(t, st.deliver(syscall.SIGTERM))
	})
	t.Run("signal after the outcome", func(t *testing.T) {
		c, st, ctx := newTestChange(t)
		value := "old"
		require.NoError(t, c.write(func(_ context.Context, record func(func() error)) error {
			value = "new"
			record(func() error { value = "old"; return nil })
			return nil
		}))
		interrupted, _ := c.finish(nil)
		assert.False(t, interrupted)
		assert.False(t, st.deliver(syscall.SIGINT), "swallowed: the signals stay caught")
		assert.Equal(t, "new", value)
		assert.Equal(t, 0, st.signalled(), "status 0: the new value")
		assert.NoError(t, ctx.Err())
	})
	t.Run("undo fails", func(t *testing.T) {
		c, st, _ := newTestChange(t)
		require.NoError(t, c.write(func(_ context.Context, record func(func() error)) error {
			record(func() error { return errors.New("read-only") })
			return nil
		}))
		assert.False(t, st.deliver(syscall.SIGINT), "a change is left: the signals stay caught")
		interrupted, err := c.finish(nil)
		assert.True(t, interrupted)
		assert.ErrorContains(t, err, "read-only")
		assert.Equal(t, 0, st.signalled(), "the command's status (1) says what is left")
	})
	t.Run("signal before the writes", func(t *testing.T) {
		c, st, _ := newTestChange(t)
		assert.True(t, st.deliver(syscall.SIGQUIT))
		ran := false
		err := c.write(func(context.Context, func(func() error)) error { ran = true; return nil })
		assert.False(t, ran, "nothing is written")
		var es errSignal
		assert.ErrorAs(t, err, &es)
	})
}
