package analysis

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"math/big"
	"math/bits"
	"slices"
	"time"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis/trace"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// Errors of the replay engine.
var (
	// ErrReplayConfig: no configuration, or one Build refuses.
	ErrReplayConfig = errors.New("analysis: replay: invalid configuration")
	// ErrReplayEvent: an event that cannot be replayed (no kind, a
	// negative time, earlier than the previous one, another device).
	ErrReplayEvent = errors.New("analysis: replay: invalid event")
	// ErrReplayerNotInitialized: a Replayer that NewReplayer did not create.
	ErrReplayerNotInitialized = errors.New("analysis: replay: Replayer not created with NewReplayer")
)

// ReplayConfig is one configuration a trace is replayed under.
//
// The zero ReplayConfig has no name and the zero apst.Params, which Build
// rejects: NewReplayer refuses it with an error wrapping ErrReplayConfig.
// Its ExitFactor and CPUWake change nothing.
type ReplayConfig struct {
	// Name is the configuration text, as compare's --with reads it (e.g.
	// "ps-max-latency-us=25000"); it labels the result.
	Name string
	// Params are the inputs of apst.Build.
	Params apst.Params
	// ExitFactor scales each state's exit latency (measured/advertised),
	// e.g. ExitFactors{Default: Factor{Num: 39, Den: 50}}; the zero value
	// leaves them as advertised.
	ExitFactor ExitFactors
	// CPUWake is added to every wake penalty, the starting state's
	// included: the CPU's C-state exit latency.
	CPUWake apst.Microseconds
}

// ParseReplayConfig returns the configuration that text s (comma-separated
// key=value pairs, apst.ParseConfig) applies to base, named s.
func ParseReplayConfig(s string, base apst.Params) (ReplayConfig, error) {
	p, err := apst.ParseConfig(s, base)
	if err != nil {
		return ReplayConfig{}, fmt.Errorf("%w %q: %w", ErrReplayConfig, s, err)
	}
	return ReplayConfig{Name: s, Params: p}, nil
}

// EventSource is a stream of trace events in time order, ending with
// io.EOF; *trace.Reader is one. Importers can feed their own.
type EventSource interface {
	Next() (trace.Event, error)
}

// EventBatchSource is an EventSource that also gives its events a batch at
// a time, as trace.Reader.NextEvents does; Replay then takes them so, the
// same events without a call each.
type EventBatchSource interface {
	EventSource
	// NextEvents fills evs with the next events and returns how many: at
	// least one, or none and the error Next would return (io.EOF at the
	// end). A source that returns none without an error is an error
	// (io.ErrNoProgress).
	NextEvents(evs []trace.Event) (int, error)
}

// replayBatch is the number of events Replay takes at a time from an
// EventBatchSource (40 bytes each on 64-bit machines).
const replayBatch = 1024

// ReplayStep is one step of a configuration's idle timeline and what the
// replay met in it.
//
// The zero ReplayStep is a starting step in ps0 at idle time 0 with no
// latency, power, wake or residency, and no break-even.
type ReplayStep struct {
	// State is the power state.
	State uint8
	// From is the idle time at which the controller enters State (ITPT
	// counting idle time in the current state; transitions instantaneous).
	From apst.Microseconds
	// EntryLatency is the state's ENLAT, 0 for the starting step.
	EntryLatency apst.Microseconds
	// ExitLatency is the state's advertised EXLAT, 0 for the starting step.
	ExitLatency apst.Microseconds
	// ScaledExitLatency is ExitLatency scaled by the exit factor, rounded up.
	ScaledExitLatency apst.Microseconds
	// Penalty is ScaledExitLatency plus the CPU wake latency: what the
	// command that ends an idle period in this step waits.
	Penalty apst.Microseconds
	// MaxPower is the state's maximum power (MP).
	MaxPower powerstate.Power
	// Wakes counts the idle periods that ended in this step.
	Wakes uint64
	// Residency is the idle time spent in this step (saturating at the
	// largest Duration).
	Residency time.Duration
	// BreakEven is the break-even idle time of this step against the one
	// before it (BreakEven); valid when HasBreakEven.
	BreakEven apst.Microseconds
	// HasBreakEven is false for the starting step and for a step whose
	// state draws no less than the previous one.
	HasBreakEven bool
}

// ReplayResult is what one configuration's plan does to the trace.
//
// The zero ReplayResult is that of no configuration over no trace: no step
// and no wake, every figure 0 and the zero apst.Plan.
type ReplayResult struct {
	// Config is the configuration as given.
	Config ReplayConfig
	// Plan is what apst.Build returns for it.
	Plan apst.Plan
	// Steps is the idle timeline from ps0, deepest last, with what each
	// step met.
	Steps []ReplayStep
	// Wakes is the number of wakes: one per idle period.
	Wakes uint64
	// StallTotal is the sum of the wake penalties (saturating at
	// apst.NoLimit): the stall if every command were on the critical path.
	StallTotal apst.Microseconds
	// P50, P90, P99 and Max are the wake penalties at nearest rank
	// ceil(p × Wakes / 100) (at least 1) of the sorted penalties; 0 without
	// wakes.
	P50, P90, P99, Max apst.Microseconds
	// Idle is the total idle time (saturating at the largest Duration).
	Idle time.Duration
	// IdleEnergy is the energy of the idle time at each state's maximum
	// power, rounded to the nearest microjoule.
	IdleEnergy apst.MicroJoules
	// AverageIdlePower is IdleEnergy / Idle, from the exact energy,
	// rounded down; ps0's MP when there is no idle time.
	AverageIdlePower apst.MicroWatts
	// TransitionEnergyMax is the upper bound of the transitions' energy,
	// rounded to the nearest microjoule: ps0's MP for each entry's ENLAT
	// and each wake's scaled exit latency from a non-operational state.
	TransitionEnergyMax apst.MicroJoules
}

// WakesByState returns the wakes per power state (index = state).
func (r *ReplayResult) WakesByState() [apst.Entries]uint64 {
	var w [apst.Entries]uint64
	for _, st := range r.Steps {
		w[st.State&(apst.Entries-1)] += st.Wakes
	}
	return w
}

// ReplayDelta is how one configuration's result differs from another's
// (this one minus the base), for the differences from the first
// configuration a report shows.
//
// The zero ReplayDelta is no difference: what Delta returns for two equal
// results.
type ReplayDelta struct {
	// Wakes are the differences in wakes per power state.
	Wakes [apst.Entries]int64
	// StallTotal, P50, P90, P99 and Max are the differences of the wake
	// penalties (microsecond-exact).
	StallTotal, P50, P90, P99, Max time.Duration
	// IdleEnergy and TransitionEnergyMax are differences of energies.
	IdleEnergy, TransitionEnergyMax apst.MicroJoules
	// AverageIdlePower is the difference of the average idle powers.
	AverageIdlePower apst.MicroWatts
}

// Delta returns r minus base, figure by figure (two's-complement
// differences of the unsigned figures).
func (r *ReplayResult) Delta(base *ReplayResult) ReplayDelta {
	sub := func(a, b uint64) int64 { return int64(a - b) }
	us := func(a, b apst.Microseconds) time.Duration {
		return time.Duration(sub(uint64(a), uint64(b))) * time.Microsecond
	}
	d := ReplayDelta{
		StallTotal: us(r.StallTotal, base.StallTotal),
		P50:        us(r.P50, base.P50), P90: us(r.P90, base.P90),
		P99: us(r.P99, base.P99), Max: us(r.Max, base.Max),
		IdleEnergy:          r.IdleEnergy - base.IdleEnergy,
		TransitionEnergyMax: r.TransitionEnergyMax - base.TransitionEnergyMax,
		AverageIdlePower:    r.AverageIdlePower - base.AverageIdlePower,
	}
	a, b := r.WakesByState(), base.WakesByState()
	for s := range d.Wakes {
		d.Wakes[s] = sub(a[s], b[s])
	}
	return d
}

// ReplayReport is the result of a replay: the trace's figures and one
// result per configuration, in the order given.
//
// The zero ReplayReport reports no event and no configuration: it is what
// Report returns for a zero Replayer, and what the Replay functions return
// with an error found before replaying.
type ReplayReport struct {
	// Device is the device of the events ("" when the trace names none).
	Device string
	// Events is the number of commands: dispatch events.
	Events uint64
	// Completions is the number of completion events (those whose dispatch
	// the trace does not hold included).
	Completions uint64
	// Span is the time from the first dispatch to the last completion; 0
	// when there is none after it.
	Span time.Duration
	// IdlePeriods is the number of idle periods (of non-zero length).
	IdlePeriods uint64
	// LostCommands counts the dispatches whose completion did not come
	// within ReplayOptions.LostAfter: each is replayed as if the trace did
	// not hold it (the idle periods it hid are counted). Commands still
	// outstanding at the end of the trace are not counted.
	LostCommands uint64
	// UnmatchedCompletions counts the completions whose ID no outstanding
	// dispatch has (the dispatch came before the trace began, or was
	// counted lost): they are ignored.
	UnmatchedCompletions uint64
	// ShortestLost is the shortest time from dispatch to completion of the
	// lost commands whose completion came later (counted in
	// UnmatchedCompletions): a ReplayOptions.LostAfter at least this long
	// would have matched one of them. 0 when none came (at most 65536
	// lost commands awaiting their completion are remembered: those lost
	// beyond are not).
	ShortestLost time.Duration
	// Configs holds one result per configuration.
	Configs []ReplayResult
}

// replayCounts are the per-step counters of one configuration: all a
// replay keeps per configuration, whatever the trace's length.
type replayCounts struct {
	n      int
	fromNs [apst.Entries]uint64
	count  [apst.Entries]uint64
	sumG   [apst.Entries]uint64 // sum of the lengths (ns) of the periods ending in the step
}

// Replayer replays a stream of events, fed one at a time with Add, under
// one or more configurations at once. Create one with NewReplayer. Its
// memory does not depend on the number of events (it holds at most 65536
// outstanding commands, see ReplayOptions), and Add does not allocate once
// its table of outstanding commands has grown to the trace's queue depth.
// A Replayer belongs to one goroutine.
//
// The zero Replayer is not initialised: Add refuses every event with
// ErrReplayerNotInitialized and Report returns the zero ReplayReport.
type Replayer struct {
	ok      bool
	results []ReplayResult // skeletons: Config, Plan, Steps
	counts  []replayCounts

	n           uint64
	last        int64
	device      string
	outstanding uint64
	idle        bool
	idleStart   int64
	dispatches  uint64
	completions uint64
	periods     uint64
	firstD      int64
	haveD       bool
	lastC       int64
	haveC       bool
	err         error
	lost        lostState
}

// NewReplayer builds each configuration's plan for controller c and
// returns a Replayer of them. Errors: a nil controller, no configuration,
// a configuration Build refuses.
func NewReplayer(c *powerstate.Controller, configs ...ReplayConfig) (*Replayer, error) {
	return NewReplayerWithOptions(c, ReplayOptions{}, configs...)
}

// NewReplayerWithOptions is NewReplayer with options; an option out of its
// range is an error wrapping ErrReplayConfig.
func NewReplayerWithOptions(c *powerstate.Controller, opts ReplayOptions, configs ...ReplayConfig) (*Replayer, error) {
	if c == nil {
		return nil, fmt.Errorf("analysis: replay: %w", apst.ErrNilController)
	}
	if len(configs) == 0 {
		return nil, fmt.Errorf("%w: none given", ErrReplayConfig)
	}
	r := &Replayer{ok: true, results: make([]ReplayResult, len(configs)), counts: make([]replayCounts, len(configs))}
	if err := r.lost.init(opts, len(configs)); err != nil {
		return nil, err
	}
	for i, cfg := range configs {
		res := &r.results[i]
		res.Config = cfg
		if err := apst.BuildTo(&res.Plan, c, cfg.Params); err != nil {
			return nil, fmt.Errorf("%w %q: %w", ErrReplayConfig, cfg.Name, err)
		}
		res.Steps = replayTimeline(c, &res.Plan.Table, cfg)
		cs := &r.counts[i]
		cs.n = len(res.Steps)
		for k, st := range res.Steps {
			cs.fromNs[k] = uint64(st.From) * 1000
		}
	}
	return r, nil
}

// replayTimeline returns the idle timeline of table t from ps0, as
// IdleTimeline computes it: ITPT (bits 31:8 of an entry) counts idle time
// in the current state, the table is followed until an entry makes no
// transition or a state repeats.
func replayTimeline(c *powerstate.Controller, t *apst.Table, cfg ReplayConfig) []ReplayStep {
	steps := make([]ReplayStep, 1, 4)
	ps := &c.PowerStates
	steps[0] = ReplayStep{State: 0, MaxPower: ps[0].MaxPower, Penalty: cfg.CPUWake}
	seen := uint32(1)
	from := apst.Microseconds(0)
	for s := uint8(0); ; {
		e := t[s]
		if !e.Transitions() {
			break
		}
		next := e.TargetState()
		if seen&(1<<next) != 0 {
			break
		}
		seen |= 1 << next
		from += apst.Microseconds(e.IdleTime()) * 1000
		d := &ps[next]
		exit := apst.Microseconds(d.ExitLatency)
		scaled := cfg.ExitFactor.Apply(next, exit)
		st := ReplayStep{
			State: next, From: from,
			EntryLatency: apst.Microseconds(d.EntryLatency), ExitLatency: exit,
			ScaledExitLatency: scaled, Penalty: replaySatAdd(scaled, cfg.CPUWake),
			MaxPower: d.MaxPower,
		}
		st.BreakEven, st.HasBreakEven = BreakEven(&ps[0], &ps[steps[len(steps)-1].State], d)
		steps = append(steps, st)
		s = next
	}
	return steps
}

func replaySatAdd(a, b apst.Microseconds) apst.Microseconds {
	if s, carry := bits.Add64(uint64(a), uint64(b), 0); carry == 0 {
		return apst.Microseconds(s)
	}
	return apst.NoLimit
}

// BreakEven returns the break-even idle time of entering state next from
// state prev, the transitions drawing the power of state active (ps0). It
// is the worst-case energy of entering and leaving next, MP(active) ×
// (ENLAT + EXLAT of next), divided by the power saved, MP(prev) − MP(next), in
// microseconds rounded up. It reports false when next draws no less than
// prev (no idle time breaks even). For the step k > 0 of a timeline, prev
// is the state of step k−1 and active the state of step 0.
func BreakEven(active, prev, next *powerstate.Descriptor) (apst.Microseconds, bool) {
	pPrev, pNext := prev.MaxPower.MicroWatts(), next.MaxPower.MicroWatts()
	if pNext >= pPrev {
		return 0, false
	}
	lat := uint64(next.EntryLatency) + uint64(next.ExitLatency) // < 2^33
	hi, lo := bits.Mul64(active.MaxPower.MicroWatts(), lat)
	den := pPrev - pNext
	if hi >= den {
		return apst.NoLimit, true
	}
	q, rem := bits.Div64(hi, lo, den)
	if rem != 0 {
		if q == 1<<64-1 {
			return apst.NoLimit, true
		}
		q++
	}
	return apst.Microseconds(q), true
}

// Add replays one event. Events must come in time order, all for one
// device (the first event's). An invalid event is an error wrapping
// ErrReplayEvent, and every later Add returns it. Add does not allocate.
func (r *Replayer) Add(ev trace.Event) error { return r.add(&ev) }

// add is Add of *ev: the replay's loops pass their events by pointer, not
// copied (a copy of an Event is made 16 bytes at a time and read back 8,
// each read waiting for the copy: a store-forwarding stall).
func (r *Replayer) add(ev *trace.Event) error {
	if r == nil || !r.ok {
		return ErrReplayerNotInitialized
	}
	if r.err != nil {
		return r.err
	}
	t := ev.Time
	if ev.Kind-trace.Dispatch > trace.Completion-trace.Dispatch || t < 0 || r.n > 0 && (t < r.last || ev.Device != r.device) {
		r.err = r.invalid(ev)
		return r.err
	}
	if r.n == 0 {
		r.device = ev.Device
	}
	r.n++
	r.last = t
	if r.lost.tracked > 0 && r.lost.due(t) {
		r.expire(t)
	}
	if ev.Kind == trace.Dispatch {
		r.dispatches++
		if !r.haveD {
			r.firstD, r.haveD = t, true
		}
		wasIdle, idleStart := r.idle, r.idleStart
		var g uint64
		ended := false
		if r.idle {
			r.idle = false
			if d := t - r.idleStart; d > 0 {
				g, ended = uint64(d), true
				r.period(g)
			}
		}
		if ev.ID != 0 {
			r.dispatchTracked(ev.ID, t, wasIdle, idleStart, g, ended)
			return nil
		}
		if r.lost.tracked > 0 && r.lost.shadowIdle {
			if d := t - r.lost.shadowStart; d > 0 {
				r.pendingPeriod(uint64(d))
			}
			r.lost.shadowIdle = false
		}
		r.outstanding++ // without an ID: counted, never lost
		return nil
	}
	r.completions++
	r.lastC, r.haveC = t, true
	if ev.ID != 0 {
		if !r.completeTracked(ev.ID, t) {
			return nil
		}
	} else {
		if r.outstanding == 0 {
			return nil // its dispatch came before the trace began
		}
		r.outstanding--
		if r.lost.tracked > 0 && r.outstandingAll() == 1 {
			r.lost.shadowIdle, r.lost.shadowStart = true, t
		}
	}
	if r.outstandingAll() == 0 {
		r.idle, r.idleStart = true, t
	}
	return nil
}

// invalid returns the error of an event add refuses.
func (r *Replayer) invalid(ev *trace.Event) error {
	switch {
	case ev.Kind != trace.Dispatch && ev.Kind != trace.Completion:
		return fmt.Errorf("%w %d: kind %s, want dispatch or completion", ErrReplayEvent, r.n+1, ev.Kind)
	case ev.Time < 0:
		return fmt.Errorf("%w %d: negative time %d ns", ErrReplayEvent, r.n+1, ev.Time)
	case r.n > 0 && ev.Time < r.last:
		return fmt.Errorf("%w %d: time %d ns before the previous event's %d ns", ErrReplayEvent, r.n+1, ev.Time, r.last)
	}
	return fmt.Errorf("%w %d: device %q, the replay is of %q", ErrReplayEvent, r.n+1, ev.Device, r.device)
}

// period counts an idle period of g ns in every configuration: the command
// that ends it meets the last step whose From × 1000 ≤ g.
func (r *Replayer) period(g uint64) {
	r.periods++
	for i := range r.counts {
		cs := &r.counts[i]
		k := cs.step(g)
		cs.count[k]++
		cs.sumG[k] += g
	}
}

// Report returns the results of the events added so far; it can be called
// at any time and does not change the Replayer.
func (r *Replayer) Report() ReplayReport {
	if r == nil || !r.ok {
		return ReplayReport{}
	}
	rep := ReplayReport{
		Device: r.device, Events: r.dispatches, Completions: r.completions,
		IdlePeriods: r.periods, Configs: make([]ReplayResult, len(r.results)),
		LostCommands: r.lost.lost, UnmatchedCompletions: r.lost.stray,
		ShortestLost: time.Duration(r.lost.shortestLate),
	}
	if r.haveD && r.haveC && r.lastC > r.firstD {
		rep.Span = time.Duration(r.lastC - r.firstD)
	}
	for i := range r.results {
		rep.Configs[i] = r.result(i)
	}
	return rep
}

func (r *Replayer) result(i int) ReplayResult {
	res := r.results[i]
	res.Steps = slices.Clone(res.Steps)
	cs := &r.counts[i]
	n := cs.n
	steps := res.Steps
	mp0 := new(big.Int).SetUint64(steps[0].MaxPower.MicroWatts())
	energy := new(big.Int) // ns × µW
	trans := new(big.Int)  // µs × µW
	stall := new(big.Int)
	var tmp big.Int
	var beyond uint64 // periods ending after step k
	var idle uint64   // ns
	for k := n - 1; k >= 0; k-- {
		st := &steps[k]
		st.Wakes = cs.count[k]
		// Idle time in step k: the part past From of the periods ending in
		// it, and the full step for those ending later.
		residency := cs.sumG[k] - cs.count[k]*cs.fromNs[k]
		if k < n-1 {
			residency += (cs.fromNs[k+1] - cs.fromNs[k]) * beyond
		}
		st.Residency = nanos(residency)
		idle += cs.sumG[k]
		energy.Add(energy, tmp.Mul(replayBig(residency), replayBig(st.MaxPower.MicroWatts())))
		stall.Add(stall, tmp.Mul(replayBig(st.Wakes), replayBig(uint64(st.Penalty))))
		beyond += cs.count[k]
		if k > 0 {
			// beyond is now the number of periods that reached step k.
			trans.Add(trans, tmp.Mul(replayBig(beyond), replayBig(uint64(st.EntryLatency))))
			trans.Add(trans, tmp.Mul(replayBig(st.Wakes), replayBig(uint64(st.ScaledExitLatency))))
		}
	}
	res.Wakes = beyond
	trans.Mul(trans, mp0)
	res.Idle = nanos(idle)
	res.IdleEnergy = replayRound(energy, 1e9)
	res.TransitionEnergyMax = replayRound(trans, 1e6)
	if stall.IsUint64() {
		res.StallTotal = apst.Microseconds(stall.Uint64())
	} else {
		res.StallTotal = apst.NoLimit
	}
	if idle == 0 {
		res.AverageIdlePower = apst.MicroWatts(steps[0].MaxPower.MicroWatts())
	} else {
		res.AverageIdlePower = apst.MicroWatts(tmp.Quo(energy, replayBig(idle)).Uint64()) // at most MP's
	}
	if res.Wakes > 0 {
		var penalties [apst.Entries + 1]apst.Microseconds
		var wakes [apst.Entries + 1]uint64
		for k := range steps {
			penalties[k], wakes[k] = steps[k].Penalty, steps[k].Wakes
		}
		res.P50, res.P90, res.P99, res.Max = countedPercentiles(penalties[:n], wakes[:n], res.Wakes)
	}
	return res
}

func replayBig(v uint64) *big.Int { return new(big.Int).SetUint64(v) }

// replayRound returns v / d rounded to nearest (halves up), saturating at
// 2^63-1.
func replayRound(v *big.Int, d uint64) apst.MicroJoules {
	q := new(big.Int).Add(v, replayBig(d/2))
	q.Quo(q, replayBig(d))
	if !q.IsInt64() {
		return math.MaxInt64
	}
	return apst.MicroJoules(q.Int64())
}

// nanos is a count of nanoseconds as a Duration, saturating.
func nanos(ns uint64) time.Duration {
	if ns > math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(ns)
}

// Replay reads src to its end (io.EOF) and replays it under each
// configuration: the one pass of a Replayer. An error of the source is
// returned wrapped, with the report of the events before it.
func Replay(c *powerstate.Controller, src EventSource, configs ...ReplayConfig) (ReplayReport, error) {
	return ReplayWithOptions(c, src, ReplayOptions{}, configs...)
}

// ReplayWithOptions is Replay with options (NewReplayerWithOptions).
func ReplayWithOptions(c *powerstate.Controller, src EventSource, opts ReplayOptions, configs ...ReplayConfig) (ReplayReport, error) {
	if src == nil {
		return ReplayReport{}, fmt.Errorf("%w: nil event source", ErrReplayEvent)
	}
	r, err := NewReplayerWithOptions(c, opts, configs...)
	if err != nil {
		return ReplayReport{}, err
	}
	if bs, ok := src.(EventBatchSource); ok {
		return replayBatches(r, bs)
	}
	for {
		ev, err := src.Next()
		if err == io.EOF {
			return r.Report(), nil
		}
		if err != nil {
			return r.Report(), fmt.Errorf("analysis: replay: %w", err)
		}
		if err := r.Add(ev); err != nil {
			return r.Report(), err
		}
	}
}

// replayBatches is the loop of ReplayWithOptions over an
// EventBatchSource.
func replayBatches(r *Replayer, src EventBatchSource) (ReplayReport, error) {
	evs := make([]trace.Event, replayBatch)
	for {
		n, err := src.NextEvents(evs)
		n = min(max(n, 0), len(evs))
		for i := range evs[:n] {
			if err := r.add(&evs[i]); err != nil {
				return r.Report(), err
			}
		}
		switch {
		case err == io.EOF:
			return r.Report(), nil
		case err != nil:
			return r.Report(), fmt.Errorf("analysis: replay: %w", err)
		case n == 0:
			return r.Report(), fmt.Errorf("analysis: replay: %w", io.ErrNoProgress)
		}
	}
}

// ReplaySeq is Replay over an iterator of events (trace.Reader.All, or an
// importer's own): it stops at the first error. A nil iterator is refused
// as Replay refuses a nil source.
func ReplaySeq(c *powerstate.Controller, events iter.Seq2[trace.Event, error], configs ...ReplayConfig) (ReplayReport, error) {
	if events == nil {
		return ReplayReport{}, fmt.Errorf("%w: nil event iterator", ErrReplayEvent)
	}
	r, err := NewReplayer(c, configs...)
	if err != nil {
		return ReplayReport{}, err
	}
	for ev, err := range events {
		if err != nil {
			return r.Report(), fmt.Errorf("analysis: replay: %w", err)
		}
		if err := r.Add(ev); err != nil {
			return r.Report(), err
		}
	}
	return r.Report(), nil
}
