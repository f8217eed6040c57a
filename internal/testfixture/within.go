package testfixture

import (
	"testing"
	"time"
)

// Within runs f and fails the test if it has not returned after d, so that
// an open that blocks (on a FIFO, say) fails the test instead of hanging the
// test binary. f keeps running in its goroutine after a failure.
func Within(tb testing.TB, d time.Duration, f func()) {
	tb.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(d):
		tb.Fatalf("testfixture: still blocked after %v", d)
	}
}
