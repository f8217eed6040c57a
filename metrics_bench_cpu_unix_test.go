//go:build unix

package nvmeapst_test

import (
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's user and system CPU time so far: a scrape's
// cost measured as CPU time does not count the time a loaded machine's
// other processes hold the CPU, which wall time (ns/op) does.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
