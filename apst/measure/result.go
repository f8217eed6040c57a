package measure

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
)

// Result is what [Run] found.
//
// The zero Result measured nothing: no row, trial or state
// (ExitFactorByState is ""), its Original is the unset Tolerance and
// Restored is false.
type Result struct {
	// Original is the tolerance file's value before the measurement.
	Original apst.Tolerance
	// Restored reports that Original was written back and read back; false
	// when nothing had been written, or when writing it back failed (the
	// error of Run then wraps ErrNotRestored).
	Restored bool
	// Offsets and Seed are where the reads went.
	Offsets Offsets
	Seed    uint64
	// CountersChecked reports whether the I/O counters were read around
	// each idle wait; without them no trial could be discarded.
	CountersChecked bool
	// Rows holds one row per configuration and idle time, configurations
	// outer, in the setup's order.
	Rows []Row
	// Warm is the latency of the warm reads (a read right after a read),
	// every trial's.
	Warm LatencyStats
	// Trials is every trial, in the order run.
	Trials []Trial
	// Discarded is the number of trials discarded because the I/O counters
	// moved during the idle wait.
	Discarded int
	// States holds, per non-operational state met (by the plans), the
	// measured/advertised exit-latency factor, shallowest first.
	States []StateExit
	// ExitFactor is the measured/advertised exit-latency factor over every
	// kept trial that met a non-operational state (the median ratio), to two
	// decimals, in the form analysis.ParseFactor and the --exit-factor flags
	// read; meaningful only when ExitFactorTrials is positive.
	ExitFactor       analysis.Factor
	ExitFactorTrials int
	// Notes say what the figures assume.
	Notes []string
}

// LatencyStats are percentiles of read latencies, by nearest rank: the
// smallest latency that at least p% of the reads do not exceed.
//
// The zero LatencyStats is that of no read: Count 0 and every figure 0.
type LatencyStats struct {
	// Count is the number of reads behind the figures; the figures are 0
	// when it is 0.
	Count              int
	P50, P90, P99, Max time.Duration
}

// Row is one configuration at one idle time.
//
// The zero Row ran no trial: configuration 0 at no idle time, with the zero
// LatencyStats, in state 0 with no exit latency.
type Row struct {
	// Config is the index of the configuration in Setup.Configs,
	// ConfigText its text.
	Config     int
	ConfigText string
	// Idle is the idle time before each cold read.
	Idle time.Duration
	// Trials is the number of trials run, Kept those not discarded.
	Trials, Kept int
	// Latency are the percentiles of the kept trials' cold reads.
	Latency LatencyStats
	// State is the state the plan of the configuration says the drive is
	// in after Idle, and ExitLatency its advertised exit latency (EXLAT; 0
	// for the starting state, which the drive has not left).
	State       uint8
	ExitLatency apst.Microseconds
	// Shallow counts the kept trials that most likely found the drive in
	// the state before State on the timeline: their cold read exceeded the
	// warm median by less than the geometric mean of the two states' exit
	// latencies (a quarter of ExitLatency when the state before is the
	// starting one). The drive had not finished descending; these trials
	// are left out of State's factor. 0 when ExitLatency is 0.
	Shallow int
}

// Trial is one trial: one idle wait, one cold read, one warm read.
//
// The zero Trial is round 0 of configuration 0 with no idle wait, its reads
// at offset 0 taking no time, and not kept (Kept false).
type Trial struct {
	// Trial is the round (0-based), Config the configuration's index and
	// Idle the idle time.
	Trial, Config int
	Idle          time.Duration
	// State is the state the plan says the drive was in.
	State uint8
	// Offset and WarmOffset are the byte offsets of the cold and the warm
	// read.
	Offset, WarmOffset int64
	// Latency is the cold read's, Warm the warm read's.
	Latency, Warm time.Duration
	// Kept is false when the I/O counters moved during the idle wait.
	Kept bool
}

// StateExit is the measured exit latency of one power state.
//
// The zero StateExit is that of state 0, met by no trial, with the zero
// Factor (which means 1).
type StateExit struct {
	// State is the power state and Advertised its EXLAT.
	State      uint8
	Advertised apst.Microseconds
	// Trials is the number of kept trials that met the state.
	Trials int
	// Measured is the median of their cold reads minus the warm median.
	Measured time.Duration
	// Factor is the median of Measured/Advertised per trial, to two
	// decimals.
	Factor analysis.Factor
}

// ExitFactorByState returns the per-state factors as a comma list
// "ps3=0.78,ps4=0.80", shallowest state first ("" when no state was met):
// the per-state items of analysis.ParseExitFactors (apstctl's --exit-factor
// of simulate and replay).
func (r *Result) ExitFactorByState() string {
	var b strings.Builder
	for i, s := range r.States {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "ps%d=%s", s.State, s.Factor)
	}
	return b.String()
}

// percentiles returns the nearest-rank percentiles of d, which it sorts.
func percentiles(d []time.Duration) LatencyStats {
	if len(d) == 0 {
		return LatencyStats{}
	}
	slices.Sort(d)
	rank := func(p int) time.Duration {
		r := (p*len(d) + 99) / 100
		return d[max(r, 1)-1]
	}
	return LatencyStats{Count: len(d), P50: rank(50), P90: rank(90), P99: rank(99), Max: d[len(d)-1]}
}

// median returns the nearest-rank median of v, which it sorts.
func median[T float64 | time.Duration](v []T) T {
	slices.Sort(v)
	return v[(len(v)+1)/2-1]
}

// factorOf rounds a ratio to two decimals as a Factor.
func factorOf(r float64) analysis.Factor {
	f, err := analysis.ParseFactor(strconv.FormatFloat(max(r, 0), 'f', 2, 64))
	if err != nil { // cannot happen for a finite non-negative ratio
		return analysis.Factor{}
	}
	return f
}

// summarise fills the rows, the warm row, the discards and the factors from
// the trials.
func (r *Result) summarise(s *Setup, plans [][]plannedState) {
	warm := make([]time.Duration, 0, len(r.Trials))
	for _, t := range r.Trials {
		warm = append(warm, t.Warm)
		if !t.Kept {
			r.Discarded++
		}
	}
	r.Warm = percentiles(warm)

	type acc struct {
		exit   apst.Microseconds
		excess []time.Duration
		ratios []float64
	}
	var byState [apst.Entries]*acc
	var all []float64
	for ci, cfg := range s.Configs {
		for ii, idle := range s.Idle {
			ps := plans[ci][ii]
			row := Row{Config: ci, ConfigText: cfg.Text, Idle: idle, State: ps.state, ExitLatency: ps.exit}
			var lat []time.Duration
			for _, t := range r.Trials {
				if t.Config != ci || t.Idle != idle {
					continue
				}
				row.Trials++
				if !t.Kept {
					continue
				}
				lat = append(lat, t.Latency)
				if ps.exit == 0 {
					continue
				}
				excess := max(t.Latency-r.Warm.P50, 0)
				if excess < ps.shallow {
					row.Shallow++
					continue
				}
				a := byState[ps.state]
				if a == nil {
					a = &acc{exit: ps.exit}
					byState[ps.state] = a
				}
				ratio := float64(excess) / float64(ps.exit.Duration())
				a.excess = append(a.excess, excess)
				a.ratios = append(a.ratios, ratio)
				all = append(all, ratio)
			}
			row.Kept = len(lat)
			row.Latency = percentiles(lat)
			r.Rows = append(r.Rows, row)
		}
	}
	for st, a := range byState {
		if a == nil {
			continue
		}
		r.States = append(r.States, StateExit{
			State: uint8(st), Advertised: a.exit, Trials: len(a.ratios),
			Measured: median(a.excess), Factor: factorOf(median(a.ratios)),
		})
	}
	slices.SortStableFunc(r.States, func(a, b StateExit) int { return cmp.Compare(a.Advertised, b.Advertised) })
	if len(all) > 0 {
		r.ExitFactor, r.ExitFactorTrials = factorOf(median(all)), len(all)
	}
	r.notes(s)
}

// notes says what the figures assume and where they are thin.
func (r *Result) notes(s *Setup) {
	add := func(format string, args ...any) { r.Notes = append(r.Notes, fmt.Sprintf(format, args...)) }
	add("state is what the plan of each configuration says: the drive starts each idle period in ps0 and follows its table from its Identify data exactly, transitions taken as instantaneous")
	add("exit factor = (cold read - warm p50) / advertised exit latency, the median over the kept trials that met the state; a cold read also waits for the CPU to leave its idle state, which a warm read does not, so up to a few hundred µs of CPU wake count as exit latency")
	if !r.CountersChecked {
		add("the I/O counters were not read: trials where other I/O touched the drive could not be discarded")
	} else if r.Discarded > 0 {
		add("%d of %d trials discarded: other I/O touched the drive during the idle wait (it resets the drive's idle timer)", r.Discarded, len(r.Trials))
	}
	for _, row := range r.Rows {
		if row.Kept == 0 && row.Trials > 0 {
			add("%s, idle %s: every trial was discarded, no figures", row.ConfigText, row.Idle)
		}
		if row.Shallow > 0 {
			add("%s, idle %s: %d of %d kept trials woke too fast for ps%d (exit latency %s): the drive had not finished descending to it; they are left out of its factor",
				row.ConfigText, row.Idle, row.Shallow, row.Kept, row.State, row.ExitLatency)
		}
	}
	if r.ExitFactorTrials == 0 && len(r.Trials) > 0 {
		add("no kept trial met a non-operational state: no exit factor (give an idle time beyond the first idle time prescribed by the plan)")
	}
}
