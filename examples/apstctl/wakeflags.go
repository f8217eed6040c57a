package main

import (
	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
)

// wakeFlags are --exit-factor and --cpu-wake-us, which simulate and
// recommend share: how a measured wake differs from the advertised exit
// latency.
type wakeFlags struct {
	factor  *string
	cpuWake *string
}

func addWakeFlags(fs *flagSet) *wakeFlags {
	return &wakeFlags{
		factor:  fs.String("exit-factor", "FACTOR", "1", "measured/advertised factor scaling exit latencies: 0.78, 78% or 39/50"),
		cpuWake: fs.String("cpu-wake-us", "US", "0", "CPU wake latency added to every wake, in us (or a duration: 150us)"),
	}
}

// options parses the flags into simulation options.
func (wf *wakeFlags) options() (analysis.SimOptions, error) {
	factor, err := analysis.ParseFactor(*wf.factor)
	if err != nil {
		return analysis.SimOptions{}, usagef("--exit-factor %s: %v", quoteArg(*wf.factor), err)
	}
	cpu, err := apst.ParseMicroseconds(*wf.cpuWake)
	if err != nil {
		return analysis.SimOptions{}, usagef("--cpu-wake-us %s: %v", quoteArg(*wf.cpuWake), err)
	}
	return analysis.SimOptions{ExitFactor: factor, CPUWake: cpu}, nil
}

// stall is the wake stall of a state with advertised exit latency exlat:
// exlat scaled by the factor plus the CPU wake, as simulate counts a wake's
// penalty.
func stall(opt analysis.SimOptions, exlat apst.Microseconds) apst.Microseconds {
	s := opt.ExitFactor.Apply(exlat)
	if s > apst.NoLimit-opt.CPUWake {
		return apst.NoLimit
	}
	return s + opt.CPUWake
}

// exitLatencyLimit is the largest advertised exit latency whose stall is
// at most limit: the goal analysis.Recommend compares exit latencies with.
// stall is monotonic, so a binary search over the u64 range is exact. The
// caller checks stall(opt, 0) <= limit first.
func exitLatencyLimit(opt analysis.SimOptions, limit apst.Microseconds) apst.Microseconds {
	if opt.ExitFactor.IsOne() && opt.CPUWake == 0 || limit == apst.NoLimit {
		return limit
	}
	lo, hi := apst.Microseconds(0), apst.NoLimit // stall(lo) <= limit holds for lo = 0
	for lo < hi {
		mid := lo + (hi-lo)/2 + 1
		if stall(opt, mid) <= limit {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}
