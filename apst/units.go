package apst

import (
	"math"
	"strconv"
	"time"
)

// Microseconds is a 64-bit count of microseconds, the unit of the kernel's
// ps_max_latency_us bound and of the apst_*_latency_tol_us module parameters.
type Microseconds uint64

// NoLimit is the bound U64_MAX, which the kernel stores for "auto", "any" and
// 2147483647: no exit latency is too large.
const NoLimit Microseconds = 1<<64 - 1

// Duration returns the value as a time.Duration, saturating at the largest
// Duration (about 292 years) instead of overflowing: NoLimit too, so a
// caller that means "no limit" checks for NoLimit or uses Seconds.
func (us Microseconds) Duration() time.Duration {
	const max = Microseconds(1<<63-1) / Microseconds(time.Microsecond)
	if us > max {
		return time.Duration(1<<63 - 1)
	}
	return time.Duration(us) * time.Microsecond
}

// Seconds returns the value in seconds; NoLimit, which means no limit, is
// +Inf.
func (us Microseconds) Seconds() float64 {
	if us == NoLimit {
		return math.Inf(1)
	}
	return float64(us) / 1e6
}

// String formats the value as "25000us", or "unlimited" for NoLimit.
//
//go:noinline
func (us Microseconds) String() string {
	if us == NoLimit {
		return "unlimited"
	}
	return strconv.FormatUint(uint64(us), 10) + "us"
}

// Milliseconds is a 64-bit count of milliseconds, the unit of ITPT and of the
// apst_*_timeout_ms module parameters.
type Milliseconds uint64

// Duration returns the value as a time.Duration, saturating at the largest
// Duration instead of overflowing.
func (ms Milliseconds) Duration() time.Duration {
	const max = Milliseconds(1<<63-1) / Milliseconds(time.Millisecond)
	if ms > max {
		return time.Duration(1<<63 - 1)
	}
	return time.Duration(ms) * time.Millisecond
}

// String formats the value as "100ms".
func (ms Milliseconds) String() string {
	return strconv.FormatUint(uint64(ms), 10) + "ms"
}

// MicroWatts is a signed power in microwatts: a state's maximum power (MP)
// as the analyses use it, or the difference between two such powers.
type MicroWatts int64

// MilliWatts returns the value in milliwatts.
func (w MicroWatts) MilliWatts() float64 { return float64(w) / 1000 }

// String formats the value in milliwatts with one decimal, "73.0mW", with a
// sign only when negative.
func (w MicroWatts) String() string {
	return strconv.FormatFloat(w.MilliWatts(), 'f', 1, 64) + "mW"
}

// MicroJoules is a signed energy in microjoules: the energy of idle time or
// transitions at the states' maximum power, or the difference between two
// such energies.
type MicroJoules int64

// Joules returns the value in joules.
func (e MicroJoules) Joules() float64 { return float64(e) / 1e6 }

// String formats the value in joules with four decimals, "65.6642J", with a
// sign only when negative.
func (e MicroJoules) String() string {
	return strconv.FormatFloat(e.Joules(), 'f', 4, 64) + "J"
}
