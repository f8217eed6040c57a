package apst

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// Sentinel errors of the simulation.
var (
	// ErrInvalidFactor: an exit-latency factor that is not a non-negative
	// decimal, percentage or fraction.
	ErrInvalidFactor = errors.New("apst: invalid exit-latency factor")
	// ErrInvalidDuration: a duration that is not a whole, non-negative
	// number of microseconds.
	ErrInvalidDuration = errors.New("apst: invalid duration")
	// ErrInvalidGaps: an idle-gap distribution that cannot be sampled, or
	// gaps whose total overflows 2^64-1 µs.
	ErrInvalidGaps = errors.New("apst: invalid idle gaps")
	// ErrNoGaps: Simulate was given no idle gaps.
	ErrNoGaps = errors.New("apst: no idle gaps to simulate")
)

// Factor is an exact rational factor Num/Den that scales advertised exit
// latencies to measured ones (the seeds measured 0.78 on a Samsung 990 EVO
// Plus: 33.5 ms against the advertised 43 ms). The zero value means 1 (no
// scaling); Den 0 is read as 1/1 whatever Num is.
type Factor struct {
	Num, Den uint64
}

// Apply scales us by the factor, rounding up to a whole microsecond (a stall
// estimate errs long), and saturates at NoLimit.
func (f Factor) Apply(us Microseconds) Microseconds {
	if f.Den == 0 {
		return us
	}
	hi, lo := bits.Mul64(uint64(us), f.Num)
	if hi >= f.Den {
		return NoLimit
	}
	q, r := bits.Div64(hi, lo, f.Den)
	if r != 0 {
		if q == math.MaxUint64 {
			return NoLimit
		}
		q++
	}
	return Microseconds(q)
}

// IsOne reports whether the factor leaves latencies unchanged.
func (f Factor) IsOne() bool { return f.Den == 0 || f.Num == f.Den }

// String formats the factor as a decimal when it has an exact one ("0.78",
// "1"), as a fraction ("2/3") otherwise.
func (f Factor) String() string {
	if f.Den == 0 {
		return "1"
	}
	g := gcd(f.Num, f.Den)
	num, den := f.Num/g, f.Den/g
	if den == 1 {
		return strconv.FormatUint(num, 10)
	}
	p10, k := uint64(1), 0
	for k < 19 {
		p10 *= 10
		k++
		if p10%den == 0 {
			if hi, lo := bits.Mul64(num, p10/den); hi == 0 {
				s := strconv.FormatUint(lo, 10)
				for len(s) <= k {
					s = "0" + s
				}
				s = s[:len(s)-k] + "." + s[len(s)-k:]
				return strings.TrimRight(strings.TrimRight(s, "0"), ".")
			}
			break
		}
	}
	return strconv.FormatUint(num, 10) + "/" + strconv.FormatUint(den, 10)
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	if a == 0 {
		return 1
	}
	return a
}

// ParseFactor parses an exit-latency factor exactly: a decimal ("0.78",
// "1"), a percentage ("78%"), a per-mille value ("780‰") or a fraction
// ("39/50"). Negative values and a zero denominator are errors wrapping
// ErrInvalidFactor.
func ParseFactor(s string) (Factor, error) {
	bad := func() (Factor, error) {
		return Factor{}, fmt.Errorf("%w %q: want a decimal (0.78), a percentage (78%%) or a fraction (39/50)", ErrInvalidFactor, s)
	}
	t := strings.TrimSpace(s)
	scale := uint64(1)
	if v, ok := strings.CutSuffix(t, "%"); ok {
		t, scale = v, 100
	} else if v, ok := strings.CutSuffix(t, "‰"); ok {
		t, scale = v, 1000
	}
	if n, d, ok := strings.Cut(t, "/"); ok {
		num, err1 := strconv.ParseUint(strings.TrimSpace(n), 10, 64)
		den, err2 := strconv.ParseUint(strings.TrimSpace(d), 10, 64)
		if err1 != nil || err2 != nil || den == 0 {
			return bad()
		}
		hi, den := bits.Mul64(den, scale)
		if hi != 0 {
			return bad()
		}
		g := gcd(num, den)
		return Factor{Num: num / g, Den: den / g}, nil
	}
	ip, fp, _ := strings.Cut(t, ".")
	if ip == "" && fp == "" || len(fp) > 18 || !allDigits(ip) || !allDigits(fp) {
		return bad()
	}
	num, err := strconv.ParseUint(ip+fp, 10, 64)
	if err != nil {
		return bad()
	}
	den := scale
	for range len(fp) {
		hi, lo := bits.Mul64(den, 10)
		if hi != 0 {
			return bad()
		}
		den = lo
	}
	g := gcd(num, den)
	return Factor{Num: num / g, Den: den / g}, nil
}

func allDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// ParseMicroseconds parses a duration as a whole number of microseconds: a
// bare integer is microseconds ("150"); otherwise a Go duration ("25ms",
// "4.6ms", "150us", "150µs", "2s"). Negative durations and fractions of a
// microsecond are errors wrapping ErrInvalidDuration.
func ParseMicroseconds(s string) (Microseconds, error) {
	t := strings.TrimSpace(s)
	if allDigits(t) && t != "" {
		v, err := strconv.ParseUint(t, 10, 64)
		if err == nil {
			return Microseconds(v), nil
		}
	}
	d, err := time.ParseDuration(t)
	switch {
	case err != nil:
		return 0, fmt.Errorf("%w %q: want microseconds (150) or a duration (25ms, 4.6ms, 2s)", ErrInvalidDuration, s)
	case d < 0:
		return 0, fmt.Errorf("%w %q: negative", ErrInvalidDuration, s)
	case d%time.Microsecond != 0:
		return 0, fmt.Errorf("%w %q: not a whole number of microseconds", ErrInvalidDuration, s)
	}
	return Microseconds(d / time.Microsecond), nil
}

// formatMicros formats a duration compactly: "2s", "100ms" or "4600us".
func formatMicros(us Microseconds) string {
	switch {
	case us == NoLimit:
		return "unlimited"
	case us != 0 && us%1000000 == 0:
		return strconv.FormatUint(uint64(us/1000000), 10) + "s"
	case us != 0 && us%1000 == 0:
		return strconv.FormatUint(uint64(us/1000), 10) + "ms"
	}
	return strconv.FormatUint(uint64(us), 10) + "us"
}

// Step is one stretch of an idle timeline: the controller is in State from
// From (idle time since the last command completed) until the next step's
// From, or forever for the last step.
type Step struct {
	// State is the power state.
	State uint8
	// From is the idle time at which the controller enters State.
	// Transitions are taken as instantaneous: ENLAT is not added.
	From Microseconds
	// ExitLatency is the advertised EXLAT a command meets in this step: the
	// state's EXLAT, or 0 for the starting state, which the controller has
	// not left.
	ExitLatency Microseconds
	// MaxPower is the state's maximum power (MP), exact.
	MaxPower powerstate.Power
}

// Timeline is the sequence of states an APST table takes an idle controller
// through, deepest last.
type Timeline []Step

// IdleTimeline returns the timeline table t produces for controller c idle
// in state start. The controller's ITPT counts idle time in the current
// state (kernel-apst.md §4.3), so each step starts the idle time of its
// entry after the previous one: for the 990 EVO Plus at the default bound,
// ps0 from 0, ps3 from 100 ms, ps4 from 2100 ms. The controller reads ITPT
// as the 24 bits 31:8 of an entry (Entry.IdleTime), so bits the kernel
// spills above bit 31 are not idle time. The table is followed as
// Table.Reachable follows it, until an entry makes no transition or a state
// repeats.
func IdleTimeline(c *powerstate.Controller, t *Table, start uint8) Timeline {
	start &= Entries - 1
	tl := make(Timeline, 0, 4)
	tl = append(tl, Step{State: start, MaxPower: c.PowerStates[start].MaxPower})
	var seen uint32 = 1 << start
	from := Microseconds(0)
	for s := start; ; {
		e := t[s]
		if !e.Transitions() {
			break
		}
		next := e.TargetState()
		if seen&(1<<next) != 0 {
			break
		}
		seen |= 1 << next
		from += Microseconds(e.IdleTime()) * 1000
		d := &c.PowerStates[next]
		tl = append(tl, Step{State: next, From: from, ExitLatency: Microseconds(d.ExitLatency), MaxPower: d.MaxPower})
		s = next
	}
	return tl
}

// index returns the index of the step the controller is in after idle time
// idle: the last step whose From is at most idle.
func (tl Timeline) index(idle Microseconds) int {
	i := len(tl) - 1
	for i > 0 && tl[i].From > idle {
		i--
	}
	return i
}

// At returns the step the controller is in after an idle time of idle. At
// exactly a step's From the controller has entered that step's state.
func (tl Timeline) At(idle Microseconds) Step { return tl[tl.index(idle)] }

// States returns the set of states on the timeline (bit n = state n).
func (tl Timeline) States() uint32 {
	var set uint32
	for _, st := range tl {
		set |= 1 << st.State
	}
	return set
}

// SimOptions are the knobs of a simulation.
type SimOptions struct {
	// Start is the state the controller idles from (usually 0).
	Start uint8
	// ExitFactor scales every exit latency (measured/advertised); the zero
	// value leaves them as advertised.
	ExitFactor Factor
	// CPUWake is added to every wake, the starting state's included: the
	// CPU's C-state exit latency, which a CPU latency QoS limit removes
	// (about 150 µs on the Ice Lake measurements in the seeds).
	CPUWake Microseconds
}

// Wake is what the first command after an idle gap meets.
type Wake struct {
	// Gap is the idle time before the command.
	Gap Microseconds
	// State is the power state the controller is in when the command comes.
	State uint8
	// ExitLatency is the state's exit latency scaled by ExitFactor (0 for the
	// starting state).
	ExitLatency Microseconds
	// Penalty is ExitLatency plus CPUWake: the extra latency of the command.
	Penalty Microseconds
}

func satAdd(a, b Microseconds) Microseconds {
	if s, carry := bits.Add64(uint64(a), uint64(b), 0); carry == 0 {
		return Microseconds(s)
	}
	return NoLimit
}

// WakeAfter returns what the first command after an idle gap of length gap
// meets, with the options' exit factor and CPU wake latency.
func (tl Timeline) WakeAfter(gap Microseconds, opt SimOptions) Wake {
	st := tl.At(gap)
	exit := opt.ExitFactor.Apply(st.ExitLatency)
	return Wake{Gap: gap, State: st.State, ExitLatency: exit, Penalty: satAdd(exit, opt.CPUWake)}
}

// Simulation summarises a run of idle gaps through a timeline.
type Simulation struct {
	// Timeline is the idle timeline of the table.
	Timeline Timeline
	// Options are the simulation's knobs.
	Options SimOptions
	// Count is the number of gaps.
	Count uint64
	// TotalIdle is the sum of the gaps.
	TotalIdle Microseconds
	// Wakes counts, per state, the commands that found the controller in it.
	Wakes [Entries]uint64
	// Residency is, per state, the idle time spent in it.
	Residency [Entries]Microseconds
	// P50, P90, P99 and Max are percentiles of the wake penalty (scaled exit
	// latency plus CPU wake latency) over the gaps, by nearest rank: the
	// smallest penalty that at least p% of the wakes do not exceed.
	P50, P90, P99, Max Microseconds
	// AverageIdlePower is the time-weighted average of the states' maximum
	// power (MP) over the idle time, in microwatts, rounded down; the
	// starting state's MP when the total idle time is 0.
	AverageIdlePower uint64
}

// WakeAfter returns what the first command after a gap of length gap meets
// (Timeline.WakeAfter with the simulation's options).
func (s *Simulation) WakeAfter(gap Microseconds) Wake { return s.Timeline.WakeAfter(gap, s.Options) }

// Simulate runs a list of idle gaps through the timeline that table t
// produces on controller c (IdleTimeline from opt.Start): for each gap the
// state the next command meets and its wake penalty, the time spent in each
// state and the energy at each state's maximum power. It reports the p50,
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
// Errors: a nil controller, no gaps, or gaps whose total overflows 2^64-1 µs.
func Simulate(c *powerstate.Controller, t *Table, gaps []Microseconds, opt SimOptions) (Simulation, error) {
	sim := Simulation{Options: opt}
	if c == nil {
		return sim, ErrNilController
	}
	if len(gaps) == 0 {
		return sim, ErrNoGaps
	}
	tl := IdleTimeline(c, t, opt.Start)
	sim.Timeline = tl
	n := len(tl)
	var counts [Entries]uint64 // per step
	penalty := make([]Microseconds, n)
	power := make([]uint64, n)
	for i, st := range tl {
		penalty[i] = satAdd(opt.ExitFactor.Apply(st.ExitLatency), opt.CPUWake)
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
	sim.TotalIdle = Microseconds(total)
	for i, st := range tl {
		sim.Wakes[st.State] += counts[i]
	}
	if total == 0 {
		sim.AverageIdlePower = power[0]
	} else {
		sim.AverageIdlePower, _ = bits.Div64(eHi, eLo, total)
	}

	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case penalty[a] < penalty[b]:
			return -1
		case penalty[a] > penalty[b]:
			return 1
		}
		return 0
	})
	rank := func(p uint64) Microseconds {
		// nearest rank: ceil(p*count/100), at least 1
		hi, lo := bits.Mul64(p, sim.Count)
		k, r := bits.Div64(hi, lo, 100)
		if r != 0 {
			k++
		}
		if k == 0 {
			k = 1
		}
		var cum uint64
		for _, i := range order {
			cum += counts[i]
			if cum >= k {
				return penalty[i]
			}
		}
		return penalty[order[n-1]]
	}
	sim.P50, sim.P90, sim.P99, sim.Max = rank(50), rank(90), rank(99), rank(100)
	return sim, nil
}

// GapKind is the shape of an idle-gap distribution.
type GapKind uint8

const (
	// GapFixed: every gap is Mean.
	GapFixed GapKind = iota
	// GapUniform: gaps uniform over [Min, Max], both included.
	GapUniform
	// GapExponential: exponentially distributed gaps with mean Mean (a
	// Poisson arrival process), rounded to the nearest microsecond.
	GapExponential
)

// GapDistribution describes idle gaps to sample.
type GapDistribution struct {
	// Kind is the shape.
	Kind GapKind
	// Min and Max bound a GapUniform distribution.
	Min, Max Microseconds
	// Mean is the value of a GapFixed distribution and the mean of a
	// GapExponential one.
	Mean Microseconds
}

// String formats the distribution as ParseGapDistribution reads it, e.g.
// "exp:500ms".
func (d GapDistribution) String() string {
	switch d.Kind {
	case GapFixed:
		return "fixed:" + formatMicros(d.Mean)
	case GapUniform:
		return "uniform:" + formatMicros(d.Min) + ".." + formatMicros(d.Max)
	case GapExponential:
		return "exp:" + formatMicros(d.Mean)
	}
	return "GapKind(" + strconv.Itoa(int(d.Kind)) + ")"
}

// Sample draws n gaps from the distribution with r, which the caller seeds
// (rand.New(rand.NewPCG(seed1, seed2))): the same seed gives the same gaps.
// It errors (ErrInvalidGaps) for an unknown kind, Min above Max or a
// negative n.
func (d GapDistribution) Sample(r *rand.Rand, n int) ([]Microseconds, error) {
	if n < 0 || r == nil {
		return nil, fmt.Errorf("%w: need a source and a non-negative count", ErrInvalidGaps)
	}
	switch d.Kind {
	case GapFixed, GapExponential:
	case GapUniform:
		if d.Min > d.Max {
			return nil, fmt.Errorf("%w: uniform minimum %s above maximum %s", ErrInvalidGaps, formatMicros(d.Min), formatMicros(d.Max))
		}
	default:
		return nil, fmt.Errorf("%w: unknown distribution kind %d", ErrInvalidGaps, d.Kind)
	}
	out := make([]Microseconds, n)
	for i := range out {
		switch d.Kind {
		case GapFixed:
			out[i] = d.Mean
		case GapUniform:
			span := uint64(d.Max - d.Min)
			if span == math.MaxUint64 {
				out[i] = Microseconds(r.Uint64())
			} else {
				out[i] = d.Min + Microseconds(r.Uint64N(span+1))
			}
		case GapExponential:
			v := math.Round(r.ExpFloat64() * float64(d.Mean))
			if v >= 1<<64 {
				out[i] = NoLimit
			} else {
				out[i] = Microseconds(v)
			}
		}
	}
	return out, nil
}

// ParseGapDistribution parses "fixed:D", "uniform:D1..D2" or "exp:D"
// ("exponential:D" too), each D as ParseMicroseconds reads it, e.g.
// "exp:500ms" or "uniform:10ms..5s".
func ParseGapDistribution(s string) (GapDistribution, error) {
	kind, arg, ok := strings.Cut(strings.TrimSpace(s), ":")
	bad := func(err error) (GapDistribution, error) {
		if err != nil {
			return GapDistribution{}, fmt.Errorf("%w %q: %w", ErrInvalidGaps, s, err)
		}
		return GapDistribution{}, fmt.Errorf("%w %q: want fixed:D, uniform:D1..D2 or exp:D (D like 500ms)", ErrInvalidGaps, s)
	}
	if !ok {
		return bad(nil)
	}
	switch strings.ToLower(kind) {
	case "fixed":
		v, err := ParseMicroseconds(arg)
		if err != nil {
			return bad(err)
		}
		return GapDistribution{Kind: GapFixed, Mean: v}, nil
	case "uniform":
		a, b, ok := strings.Cut(arg, "..")
		if !ok {
			return bad(nil)
		}
		lo, err := ParseMicroseconds(a)
		if err != nil {
			return bad(err)
		}
		hi, err := ParseMicroseconds(b)
		if err != nil {
			return bad(err)
		}
		if lo > hi {
			return bad(errors.New("minimum above maximum"))
		}
		return GapDistribution{Kind: GapUniform, Min: lo, Max: hi}, nil
	case "exp", "exponential":
		v, err := ParseMicroseconds(arg)
		if err != nil {
			return bad(err)
		}
		return GapDistribution{Kind: GapExponential, Mean: v}, nil
	}
	return bad(nil)
}
