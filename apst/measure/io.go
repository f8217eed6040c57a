package measure

import (
	"context"
	"time"

	"github.com/nvmeapst/nvmeapst/apst"
)

// Drive is the namespace a measurement reads: one read of
// ReadLength bytes (4 KiB) at a byte offset, which returns once the drive
// has completed it. [Run] never writes to it. The live one is the block
// device opened O_RDONLY|O_DIRECT; [Simulation] provides a simulated
// one.
type Drive interface {
	// ReadAt reads ReadLength bytes at off, a multiple of
	// LogicalBlockSize with the read inside Size.
	ReadAt(off int64) error
	// Size is the namespace size in bytes.
	Size() int64
	// LogicalBlockSize is the namespace's logical block size in bytes.
	LogicalBlockSize() int
	// ReadLength is the size of one read in bytes: 4096, or the logical
	// block size when larger.
	ReadLength() int
}

// Clock is the time a measurement runs on: the wall clock live
// ([RealClock]), a virtual clock in a simulation.
type Clock interface {
	// Now returns the current time; only differences between two calls
	// are used.
	Now() time.Time
	// Sleep waits for d, or until ctx is done, when it returns ctx.Err().
	Sleep(ctx context.Context, d time.Duration) error
}

// ToleranceFile is a controller's power/pm_qos_latency_tolerance_us, the
// only thing [Run] writes.
type ToleranceFile interface {
	// Tolerance reads the value the file holds.
	Tolerance() (apst.Tolerance, error)
	// SetTolerance writes t and reads it back (as the root package's System.SetLatency
	// does); a value that reads back differently is an error.
	SetTolerance(t apst.Tolerance) error
}

// IOCounters gives the I/O counters of every namespace of a controller,
// summed (/sys/block/NAME/stat): the controller's idle timer counts from
// the last command on any of them.
type IOCounters interface {
	IOActivity() (IOActivity, error)
}

// IOActivity is a reading of a device's I/O counters.
//
// The zero IOActivity is a device with no request completed and none in
// flight; Quiet of two zero readings is true.
type IOActivity struct {
	// Requests is the number of requests completed so far (reads, writes,
	// discards and flushes of /sys/block/NAME/stat).
	Requests uint64
	// InFlight is the number of requests issued and not yet completed.
	InFlight uint64
}

// Quiet reports whether nothing touched the device between the reading
// before and a: no request completed, and none was in flight at either
// reading.
func (a IOActivity) Quiet(before IOActivity) bool {
	return a.Requests == before.Requests && a.InFlight == 0 && before.InFlight == 0
}

// RealClock is the wall clock, for live measurements. Its zero value is
// ready to use.
type RealClock struct{}

// Now returns time.Now().
func (RealClock) Now() time.Time { return time.Now() }

// Sleep waits for d or until ctx is done.
func (RealClock) Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
