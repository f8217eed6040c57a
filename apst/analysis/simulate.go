package analysis

import (
	"errors"
	"fmt"
	"math/bits"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// Sentinel errors of the simulation.
var (
	// ErrInvalidFactor: an exit-latency factor that is not a non-negative
	// decimal, percentage or fraction.
	ErrInvalidFactor = errors.New("analysis: invalid exit-latency factor")
	// ErrInvalidGaps: an idle-gap distribution that cannot be sampled, or
	// gaps whose total overflows 2^64-1 µs.
	ErrInvalidGaps = errors.New("analysis: invalid idle gaps")
	// ErrNoGaps: Simulate was given no idle gaps.
	ErrNoGaps = errors.New("analysis: no idle gaps to simulate")
)

// SimOptions are the knobs of a simulation.
//
// The zero SimOptions is the default: idle from ps0, exit latencies as
// advertised and no CPU wake latency.
type SimOptions struct {
	// Start is the state the controller idles from (usually 0).
	Start uint8
	// ExitFactor scales each state's exit latency (measured/advertised),
	// one factor for every state or one per state; the zero value leaves
	// them as advertised.
	ExitFactor ExitFactors
	// CPUWake is added to every wake, the starting state's included: the
	// CPU's C-state exit latency, which a CPU latency QoS limit removes
	// (about 150 µs on the Ice Lake laptops of the 25 ms patch's
	// measurements).
	CPUWake apst.Microseconds
}

// Simulation summarises a run of idle gaps through a timeline.
//
// The zero Simulation ran no gap: its Timeline is empty, so WakeAfter
// meets ps0 with no penalty, and every count, residency, percentile and
// power is 0.
type Simulation struct {
	// Timeline is the idle timeline of the table.
	Timeline Timeline
	// Options are the simulation's knobs.
	Options SimOptions
	// Count is the number of gaps.
	Count uint64
	// TotalIdle is the sum of the gaps.
	TotalIdle apst.Microseconds
	// Wakes counts, per state, the commands that found the controller in it.
	Wakes [apst.Entries]uint64
	// Residency is, per state, the idle time spent in it.
	Residency [apst.Entries]apst.Microseconds
	// P50, P90, P99 and Max are percentiles of the wake penalty (scaled exit
	// latency plus CPU wake latency) over the gaps, by nearest rank: the
	// smallest penalty that at least p% of the wakes do not exceed.
	P50, P90, P99, Max apst.Microseconds
	// AverageIdlePower is the time-weighted average of the states' maximum
	// power (MP) over the idle time, rounded down to the microwatt; the
	// starting state's MP when the total idle time is 0.
	AverageIdlePower apst.MicroWatts
}

// WakeAfter returns what the first command after a gap of length gap meets
// (Timeline.WakeAfter with the simulation's options).
func (s *Simulation) WakeAfter(gap apst.Microseconds) Wake {
	return s.Timeline.WakeAfter(gap, s.Options)
}

// Simulate runs a list of idle gaps through the timeline that table t
// produces on controller c (IdleTimeline from opt.Start). It finds for each
// gap the state the next command meets and its wake penalty, the time spent
// in each state and the energy at each state's maximum power. It reports the p50,
// p90, p99 and maximum penalty and the average idle power. Integer
// arithmetic throughout: penalties are exact microseconds, energy is summed
// in 128 bits.
//
// The model: transitions take no time (ENLAT is not charged, so a command
// that arrives during an entry may in reality wait up to ENLAT longer), a
// command always finds the controller in the state the timeline says,
// power in a state is its MP (an upper bound; IDLP is optional in NVMe), and
// after the command the controller starts the next gap from opt.Start
// again. Gaps come from a list (a trace) or from GapDistribution.Sample.
//
// Errors: a nil controller, an opt.Start above 31 (no controller has such
// a state, and Wakes and Residency have none), no gaps, or gaps whose total
// overflows 2^64-1 µs.
func Simulate(c *powerstate.Controller, t *apst.Table, gaps []apst.Microseconds, opt SimOptions) (Simulation, error) {
	sim := Simulation{Options: opt}
	if c == nil {
		return sim, fmt.Errorf("analysis: simulate: %w", apst.ErrNilController)
	}
	if opt.Start >= apst.Entries {
		return sim, fmt.Errorf("analysis: simulate: start state %d is not a power state (ps0 to ps31)", opt.Start)
	}
	if len(gaps) == 0 {
		return sim, ErrNoGaps
	}
	tl := IdleTimeline(c, t, opt.Start)
	sim.Timeline = tl
	n := len(tl)
	var counts [apst.Entries]uint64 // per step
	penalty := make([]apst.Microseconds, n)
	power := make([]uint64, n)
	for i, st := range tl {
		penalty[i] = satAdd(opt.ExitFactor.Apply(st.State, st.ExitLatency), opt.CPUWake)
		power[i] = st.MaxPower.MicroWatts()
	}
	var eHi, eLo uint64 // energy in µW·µs, 128 bits
	var total uint64
	for _, g := range gaps {
		var carry uint64
		total, carry = bits.Add64(total, uint64(g), 0)
		if carry != 0 {
			return Simulation{Options: opt}, fmt.Errorf("%w: total idle time above 2^64-1 us", ErrInvalidGaps)
		}
		k := tl.index(g)
		counts[k]++
		for i := 0; i <= k; i++ {
			end := g
			if i < k {
				end = tl[i+1].From
			}
			d := end - tl[i].From
			sim.Residency[tl[i].State] += d
			hi, lo := bits.Mul64(uint64(d), power[i])
			var cy uint64
			eLo, cy = bits.Add64(eLo, lo, 0)
			eHi += hi + cy
		}
	}
	sim.Count = uint64(len(gaps))
	sim.TotalIdle = apst.Microseconds(total)
	for i, st := range tl {
		sim.Wakes[st.State] += counts[i]
	}
	if total == 0 {
		sim.AverageIdlePower = apst.MicroWatts(power[0])
	} else {
		avg, _ := bits.Div64(eHi, eLo, total) // at most the largest MP
		sim.AverageIdlePower = apst.MicroWatts(avg)
	}

	sim.P50, sim.P90, sim.P99, sim.Max = countedPercentiles(penalty, counts[:n], sim.Count)
	return sim, nil
}
