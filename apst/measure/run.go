package measure

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"time"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/internal/errlist"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// Errors of a measurement, for errors.Is.
var (
	// ErrSetup: a Setup that cannot run (no drive, no
	// configuration, an idle time of 0, configurations that differ in more
	// than the bound). Nothing is changed.
	ErrSetup = errors.New("measure: invalid measurement")
	// ErrNotRestored: the original pm_qos_latency_tolerance_us could not be
	// written back; the message gives the value to restore by hand.
	ErrNotRestored = errors.New("measure: pm_qos_latency_tolerance_us not restored")
)

// DefaultTrials is the number of trials per configuration and idle
// time when Setup.Trials is 0: the 60 of the 25 ms patch.
const DefaultTrials = 60

// MaxTrials bounds Setup.Trials.
const MaxTrials = 100000

// MaxTotalTrials bounds the trials of a whole run (Trials x configurations
// x idle times): each is kept in the Result (about 100 bytes) and takes at
// least its idle time on a live drive.
const MaxTotalTrials = 100000

// Offsets says where the reads of a measurement go.
type Offsets uint8

const (
	// OffsetsRandom (the zero value) reads at offsets drawn uniformly from
	// the namespace with the setup's seed, aligned to the logical block
	// size, so that the drive's own cache rarely answers.
	OffsetsRandom Offsets = iota
	// OffsetsFixed reads at Setup.FixedOffset every time.
	OffsetsFixed
)

// String returns "random" or "fixed"; "Offsets(N)" for a value outside the
// enumeration, which Run refuses.
func (o Offsets) String() string {
	switch o {
	case OffsetsRandom:
		return "random"
	case OffsetsFixed:
		return "fixed"
	}
	return fmt.Sprintf("Offsets(%d)", uint8(o))
}

// Config is one configuration a measurement interleaves: the
// parameters whose bound (Params.Bound, the controller's ps_max_latency_us)
// is written to pm_qos_latency_tolerance_us before each of its trials.
//
// The zero Config has no kernel generation: Tolerance refuses it with an
// error wrapping ErrSetup rather than give bound 0 (APST off), and Run
// refuses a Setup that holds it before changing anything.
type Config struct {
	// Text is the configuration as given (the text --with reads, e.g.
	// "ps-max-latency-us=25000").
	Text string
	// Params are the parameters the plan of the configuration is built
	// with. Configurations of one measurement differ only in Bound: the
	// tolerance file changes nothing else.
	Params apst.Params
}

// Tolerance returns the pm_qos_latency_tolerance_us value that gives the
// configuration's bound: "any" for no limit, the number of microseconds
// otherwise. A bound the attribute cannot hold (2147483647 µs or more, but
// not unlimited) is an error wrapping ErrSetup, and so are parameters
// without a kernel generation (the zero Config, whose bound 0 would turn
// APST off).
func (c Config) Tolerance() (apst.Tolerance, error) {
	if !c.Params.Generation.Valid() {
		return apst.Tolerance{}, fmt.Errorf("%w: configuration %q: its parameters have no kernel generation (the zero Config): start from apst.DefaultParams (or a Target's Config)",
			ErrSetup, c.Text)
	}
	switch b := c.Params.Bound; {
	case b == apst.NoLimit:
		return apst.Tolerance{Kind: apst.ToleranceAny}, nil
	case b < apst.LatencyAny:
		return apst.Tolerance{Kind: apst.ToleranceValue, Value: uint32(b)}, nil
	default:
		return apst.Tolerance{}, fmt.Errorf("%w: configuration %q: bound %s cannot be set through pm_qos_latency_tolerance_us (want 0 to %d µs, or unlimited)",
			ErrSetup, c.Text, b, apst.LatencyAny-1)
	}
}

// Setup is everything a measurement needs. The drive, the clock, the
// tolerance file and the I/O counters are interfaces, so that a simulation
// ([Simulation]) runs the same code as a live drive
// (the root package's System.OpenTarget).
//
// The zero Setup has no controller: Run refuses it with an error wrapping
// ErrSetup and changes nothing.
type Setup struct {
	// Controller is the drive's Identify data: the plans, the states and
	// their advertised exit latencies come from it.
	Controller *powerstate.Controller
	// Drive is the namespace read; Clock times the reads and the idle
	// waits; Tolerance is the controller's pm_qos_latency_tolerance_us.
	Drive     Drive
	Clock     Clock
	Tolerance ToleranceFile
	// Counters are the device's I/O counters, read before and after each
	// idle wait; a trial where they moved is discarded. Nil means no check:
	// every trial is kept, and the result says so.
	Counters IOCounters
	// Configs are the configurations, interleaved trial by trial (at
	// least one).
	Configs []Config
	// Idle are the idle times waited before each cold read (at least one,
	// each positive).
	Idle []time.Duration
	// Trials is the number of trials per configuration and idle time; 0
	// means DefaultTrials.
	Trials int
	// Offsets and FixedOffset say where the reads go; FixedOffset must be
	// a multiple of the logical block size.
	Offsets     Offsets
	FixedOffset int64
	// Seed seeds the random offsets.
	Seed uint64
	// OnOriginal, when set, is called with the tolerance file's value
	// before anything is written: the value to restore by hand should the
	// process be killed.
	OnOriginal func(apst.Tolerance)
	// OnTrial, when set, is called after each trial (progress).
	OnTrial func(Trial)
}

// plannedState is what the plan of one configuration says about one idle
// time.
type plannedState struct {
	state uint8
	exit  apst.Microseconds // advertised EXLAT of state, 0 for the start
	// shallow is the excess latency below which a trial most likely
	// did not reach state (see Row.Shallow); 0 for the start.
	shallow time.Duration
}

// shallowThreshold is the excess latency that separates a wake from the
// step at index i of tl from a wake from the step before it: their
// geometric mean, or a quarter of the step's exit latency when the step
// before is the starting state (exit latency 0).
func shallowThreshold(tl analysis.Timeline, i int) time.Duration {
	if i == 0 {
		return 0
	}
	exit, prev := float64(tl[i].ExitLatency.Duration()), float64(tl[i-1].ExitLatency.Duration())
	if prev == 0 {
		return time.Duration(exit / 4)
	}
	return time.Duration(math.Sqrt(exit * prev))
}

// Run runs the measurement s describes: for each trial, each idle time
// and each configuration in turn (interleaved), it writes the
// configuration's tolerance, reads the I/O counters, waits the idle time,
// reads them again, times one cold read, then one warm read right after it.
// It returns the rows per configuration and idle time, the warm row, every
// trial, and the measured/advertised exit-latency factor per state met.
//
// The tolerance file's value is read first (and passed to OnOriginal), and
// written back at the end, after any error and when ctx is cancelled; a
// failure to write it back wraps ErrNotRestored and names the value.
// After an error or cancellation the result holds the trials done so far.
// A setup that cannot run wraps ErrSetup and changes nothing.
func Run(ctx context.Context, s Setup) (res *Result, err error) {
	plans, tols, err := s.check()
	if err != nil {
		return nil, err
	}
	trials := s.trials()
	orig, err := s.Tolerance.Tolerance()
	if err != nil {
		return nil, fmt.Errorf("measure: read pm_qos_latency_tolerance_us: %w; nothing changed", err)
	}
	res = &Result{Original: orig, Offsets: s.Offsets, Seed: s.Seed, CountersChecked: s.Counters != nil}
	if s.OnOriginal != nil {
		s.OnOriginal(orig)
	}
	changed := false
	defer func() {
		if changed {
			if rerr := s.Tolerance.SetTolerance(orig); rerr != nil {
				err = errlist.Join(err, fmt.Errorf("%w: write %s back by hand: %w", ErrNotRestored, orig, rerr))
			} else {
				res.Restored = true
			}
		}
		res.summarise(&s, plans)
	}()

	rng := rand.New(rand.NewPCG(s.Seed, s.Seed^0x6e766d6561707374))
	offset := func() int64 {
		if s.Offsets == OffsetsFixed {
			return s.FixedOffset
		}
		lbs := int64(s.Drive.LogicalBlockSize())
		blocks := (s.Drive.Size()-int64(s.Drive.ReadLength()))/lbs + 1
		return rng.Int64N(blocks) * lbs
	}
	read := func(off int64) (time.Duration, error) {
		t0 := s.Clock.Now()
		if err := s.Drive.ReadAt(off); err != nil {
			return 0, fmt.Errorf("measure: %w", err)
		}
		return s.Clock.Now().Sub(t0), nil
	}
	// One read first, so that the first idle wait starts from a command
	// like every other.
	if _, err := read(offset()); err != nil {
		return res, err
	}
	total := trials * len(s.Idle) * len(s.Configs)
	for n := range trials {
		for ii, idle := range s.Idle {
			for ci := range s.Configs {
				if err := ctx.Err(); err != nil {
					return res, fmt.Errorf("measure: interrupted after %d of %d trials: %w", len(res.Trials), total, err)
				}
				tr := Trial{Trial: n, Config: ci, Idle: idle, State: plans[ci][ii].state, Kept: true}
				changed = true
				if err := s.Tolerance.SetTolerance(tols[ci]); err != nil {
					return res, fmt.Errorf("measure: trial %d: set pm_qos_latency_tolerance_us to %s: %w", len(res.Trials)+1, tols[ci], err)
				}
				var before IOActivity
				if s.Counters != nil {
					if before, err = s.Counters.IOActivity(); err != nil {
						return res, fmt.Errorf("measure: I/O counters: %w", err)
					}
				}
				if err := s.Clock.Sleep(ctx, idle); err != nil {
					return res, fmt.Errorf("measure: interrupted after %d of %d trials: %w", len(res.Trials), total, err)
				}
				if s.Counters != nil {
					after, err := s.Counters.IOActivity()
					if err != nil {
						return res, fmt.Errorf("measure: I/O counters: %w", err)
					}
					tr.Kept = after.Quiet(before)
				}
				tr.Offset = offset()
				if tr.Latency, err = read(tr.Offset); err != nil {
					return res, err
				}
				tr.WarmOffset = offset()
				if tr.Warm, err = read(tr.WarmOffset); err != nil {
					return res, err
				}
				res.Trials = append(res.Trials, tr)
				if s.OnTrial != nil {
					s.OnTrial(tr)
				}
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return res, fmt.Errorf("measure: interrupted after %d of %d trials: %w", len(res.Trials), total, err)
	}
	return res, nil
}

// trials is Trials, or DefaultTrials for 0.
func (s *Setup) trials() int {
	if s.Trials == 0 {
		return DefaultTrials
	}
	return s.Trials
}

// check validates the setup and returns, per configuration, the planned
// state at each idle time and the tolerance to write.
func (s *Setup) check() ([][]plannedState, []apst.Tolerance, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format+"; nothing changed", append([]any{ErrSetup}, args...)...)
	}
	switch {
	case s.Controller == nil:
		return nil, nil, bad("no Identify data")
	case s.Drive == nil || s.Clock == nil || s.Tolerance == nil:
		return nil, nil, bad("a drive, a clock and a tolerance file are all needed")
	case len(s.Configs) == 0:
		return nil, nil, bad("no configuration")
	case len(s.Idle) == 0:
		return nil, nil, bad("no idle time")
	case s.Offsets > OffsetsFixed:
		return nil, nil, bad("offsets %d: want OffsetsRandom or OffsetsFixed", s.Offsets)
	case s.Trials < 0 || s.Trials > MaxTrials:
		return nil, nil, bad("%d trials: want 1 to %d (0 for %d)", s.Trials, MaxTrials, DefaultTrials)
	case len(s.Configs) > 32 || len(s.Idle) > 32:
		return nil, nil, bad("%d configurations and %d idle times: want at most 32 of each", len(s.Configs), len(s.Idle))
	case s.trials()*len(s.Configs)*len(s.Idle) > MaxTotalTrials:
		return nil, nil, bad("%d trials x %d configurations x %d idle times = %d trials: want at most %d in all",
			s.trials(), len(s.Configs), len(s.Idle), s.trials()*len(s.Configs)*len(s.Idle), MaxTotalTrials)
	}
	lbs, n, size := int64(s.Drive.LogicalBlockSize()), int64(s.Drive.ReadLength()), s.Drive.Size()
	if lbs <= 0 || n <= 0 || size < n {
		return nil, nil, bad("drive of %d bytes with logical blocks of %d and reads of %d", size, lbs, n)
	}
	if s.Offsets == OffsetsFixed && (s.FixedOffset < 0 || s.FixedOffset%lbs != 0 || s.FixedOffset > size-n) {
		return nil, nil, bad("fixed offset %d: want a multiple of the logical block size %d from 0 to %d", s.FixedOffset, lbs, size-n)
	}
	for _, d := range s.Idle {
		if d <= 0 {
			return nil, nil, bad("idle time %s: want a positive duration", d)
		}
	}
	shared := s.Configs[0].Params
	shared.Bound = 0
	plans := make([][]plannedState, len(s.Configs))
	tols := make([]apst.Tolerance, len(s.Configs))
	for i, cfg := range s.Configs {
		p := cfg.Params
		p.Bound = 0
		if !reflect.DeepEqual(p, shared) {
			return nil, nil, bad("configuration %q differs from %q in more than the bound: pm_qos_latency_tolerance_us sets only the bound (the module parameters and quirks are the machine's)",
				cfg.Text, s.Configs[0].Text)
		}
		t, err := cfg.Tolerance()
		if err != nil {
			return nil, nil, fmt.Errorf("%w; nothing changed", err)
		}
		tols[i] = t
		plan, err := apst.Build(s.Controller, cfg.Params)
		if err != nil {
			return nil, nil, bad("configuration %q: %v", cfg.Text, err)
		}
		tl := analysis.IdleTimeline(s.Controller, &plan.Table, 0)
		for _, d := range s.Idle {
			idle, k := apst.Microseconds(d/time.Microsecond), 0
			for k+1 < len(tl) && tl[k+1].From <= idle {
				k++
			}
			plans[i] = append(plans[i], plannedState{state: tl[k].State, exit: tl[k].ExitLatency, shallow: shallowThreshold(tl, k)})
		}
	}
	return plans, tols, nil
}
