package survey

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// ErrNotCreated is matched (errors.Is) by the error of every method that
// records drives when called on a Survey that New or NewWithOptions did not
// make: the zero Survey has no configurations to compare.
var ErrNotCreated = errors.New("survey: Survey has no configurations: make it with survey.New or survey.NewWithOptions")

// Options tunes a Survey.
//
// The zero Options is New's: each configuration's Params.Quirks apply to
// every drive as given (KernelQuirks false).
type Options struct {
	// KernelQuirks builds each configuration as apst.Build does by
	// default, as compare and plan do: the quirks the kernel's quirk tables
	// of its Params.Release assign the drive are applied with its
	// Params.Quirks, unless the configuration gives the quirks
	// (Params.QuirksGiven: quirks=none or quirks=LIST), so one
	// configuration gives one table everywhere. When false, each
	// configuration's Params.Quirks apply to every drive as given (no
	// table is consulted).
	KernelQuirks bool
}

// Survey is a fleet survey: it runs every drive through two or more
// configurations, as analysis.Compare does for one. It keeps per drive
// only its [Record], packed: the drive's name and vendor, per configuration
// the worst wake stall, the deepest state's maximum power and a byte of
// flags, and the steps of its bound sweep (for StallBudget). Drives with
// the same outcome (the same model and firmware, as a fleet mostly has)
// share one stored copy of it, so a drive costs 4 bytes and its name,
// front-coded (the bytes it does not share with the name added before it:
// a few for a walk's paths); a drive whose outcome is its own costs about
// 20 bytes plus 9 per configuration plus 16 per step more (about 130
// bytes a drive in all for a two-configuration survey of 46-byte paths,
// the outcome cache below included, TestSurveyMemoryPerDrive). No
// controller and no plan is kept.
//
// A drive whose controller is another's but for the serial number (a copy
// of a model in a fleet) is not built and swept again: the survey
// remembers the outcomes of the first 256 controllers it meets, so that
// its cost per drive is mostly reading and parsing the capture.
//
// Each configuration after the first is compared with the first. Summary and
// StallBudget are functions of the multiset of records added, whatever the
// order and the number of Add, AddRecord and Merge calls, so surveys of
// shards of a fleet merged (Merge, or AddRecord of each shard's records)
// give exactly the survey of the whole fleet.
//
// A Survey is safe for concurrent use. Its zero value holds no
// configurations: the methods that record drives return an error matching
// ErrNotCreated, Summary and StallBudget describe an empty survey. Use New.
type Survey struct {
	configs []analysis.Config
	opts    Options

	mu sync.Mutex
	st store

	quirks   quirkCache
	assumed  assumedCache
	outcomes outcomeCache
}

// store is the packed records of a Survey. Its columns are append-only and
// never change a value once written, so a copy of the struct taken under
// the lock is a consistent snapshot of the first len() records that may be
// read without it.
type store struct {
	// Per drive: its name and its profile (profile.go).
	names arena
	prof  column[uint32]
	// Per profile: the vendor, the end of its steps in steps, and the
	// columns below.
	vendor   column[uint32]
	sweepEnd column[uint64]
	steps    column[step]
	// stall and power hold, per configuration, each drive's worst wake
	// stall (µs) and its deepest reachable state's maximum power (µW, bits
	// 29:0; for configurations after the first, bit 30 set when the
	// command differs from the first's and bit 31 when a state the first
	// does not reach is reached).
	stall, power []column[uint32]
	// bars holds, per configuration after the first, each drive's BarClass.
	bars    []column[BarClass]
	vendors []string
	vendorN map[string]uint32
	// Under the lock, for writers only: the interning table (profile hash
	// to profile), and scratch space.
	profN   map[uint64]uint32
	key     []byte
	p       profile
	scratch []Outcome // addRow's
}

const (
	powerMask = 1<<30 - 1 // µW; MP is at most 65535 × 0.01 W = 655350000 µW
	// maxMicroWatts is that largest MP, the most a record's power may be.
	maxMicroWatts = 655350000
	flagChanged   = 1 << 30
	flagGained    = 1 << 31
)

func (st *store) len() int { return st.prof.len() }

// New returns an empty survey of the given configurations (two or more;
// the first is the reference, e.g. the current default) with each
// configuration's quirks applied to every drive as given.
func New(configs ...analysis.Config) (*Survey, error) {
	return NewWithOptions(Options{}, configs...)
}

// NewWithOptions is New with options. Fewer than two configurations is an
// error wrapping analysis.ErrTooFewConfigs; a configuration with an invalid
// generation one wrapping apst.ErrUnknownGeneration.
func NewWithOptions(opts Options, configs ...analysis.Config) (*Survey, error) {
	if len(configs) < 2 {
		return nil, fmt.Errorf("survey: %w: got %d", analysis.ErrTooFewConfigs, len(configs))
	}
	for i, cfg := range configs {
		if !cfg.Params.Generation.Valid() {
			return nil, fmt.Errorf("survey: configuration %d (%s): %w: %d", i+1, cfg.Name, apst.ErrUnknownGeneration, uint8(cfg.Params.Generation))
		}
	}
	n := len(configs)
	return &Survey{
		configs: slices.Clone(configs),
		opts:    opts,
		st: store{
			stall:   make([]column[uint32], n),
			power:   make([]column[uint32], n),
			bars:    make([]column[BarClass], n-1),
			vendorN: map[string]uint32{},
			profN:   map[uint64]uint32{},
		},
	}, nil
}

// Configs returns the survey's configurations (a fresh copy).
func (s *Survey) Configs() []analysis.Config { return slices.Clone(s.configs) }

// Options returns the survey's options.
func (s *Survey) Options() Options { return s.opts }

// Len returns the number of drives recorded.
func (s *Survey) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st.len()
}

// Row is one drive's result, as Add returns it. The Survey keeps only the
// drive's Record; the caller may print the row and drop it.
//
// The zero Row is an empty row, ready for AddInto, Evaluate or EvaluateWith
// to fill (Add starts from one). Its Record has no outcomes, which
// AddRecord of a survey made by New refuses with an error wrapping
// ErrBadRecord.
type Row struct {
	// Name is the drive's name as given to Add (apstctl: the capture's path).
	Name string
	// Vendor is DriveVendor(Name, c).
	Vendor string
	// VendorID, Model and Firmware are the controller's VID, MN and FR.
	VendorID uint16
	Model    string
	Firmware string
	// Quirks are the APST quirks Build applied under the first
	// configuration (of apst.Plan.Quirks.Applied: those the kernel's quirk tables of its
	// release give the drive, and the configuration's own), 0 when the
	// configuration gives the quirks (quirks=none, quirks=LIST, or a
	// survey without KernelQuirks). A drive evaluated with its machine's
	// parameters (EvaluateWith) has its first parameter set's quirks here,
	// given or not.
	Quirks apst.Quirks
	// QuirksInferredFrom says, when the first configuration's quirk
	// lookup inferred the PCI ID from the model (no capture records the
	// PCI device ID), which and from what; QuirksUncheckedPCI lists the
	// PCI IDs of the drive's vendor that carry quirks in the tables but
	// could not be checked. Both are empty when the quirks were given. The
	// slice is the row's own.
	QuirksInferredFrom string
	QuirksUncheckedPCI []apst.PCIID
	// Assumed holds the kinds of assumption the drive's answers made under
	// any configuration: the union over Results of AssumedOf each plan's
	// Assumptions.
	Assumed Assumed
	// Results holds, per configuration in the survey's order, what Compare's
	// Configs would hold: the configuration, its plan (whose Quirks
	// records the quirk lookup), the reach and the maximum power of the
	// deepest reachable state.
	Results []analysis.ConfigResult
	// Changes holds, for each configuration after the first, how the drive
	// fares compared with the first.
	Changes []Change
	// Changed reports whether some Changes[i].Changed is true.
	Changed bool
	// Sweep is the drive's bound sweep under the first configuration's
	// parameters, as the survey keeps it for StallBudget.
	Sweep []Step
}

// Change is how one drive's outcome under one configuration differs
// from its outcome under the survey's first configuration.
//
// The zero Change is no change and names no configuration after the first
// (Config 0): nothing differs, no state is barred or gained, and its Bars
// is BarsNoIdle.
type Change struct {
	// Config is the index in the survey's configurations (1 or more).
	Config int
	// Changed reports whether the Set Features command differs: whether it
	// is sent, APSTE, or any of the 32 table entries.
	Changed bool
	// StallReduction is, in microseconds, the worst wake stall
	// (Reach.WorstExitLatency) under the first configuration minus the one
	// under this configuration: positive when this configuration shortens
	// the worst stall.
	StallReduction int64
	// PowerDelta is, in microwatts, the maximum power of this
	// configuration's deepest reachable state minus the first's: what
	// Compare reports as Comparison.PowerDelta for the pair. Positive
	// when this configuration costs idle power. It is exact.
	PowerDelta apst.MicroWatts
	// Barred is the set of states (bit n = state n) that the first
	// configuration's table reaches and this one's does not.
	Barred apst.States
	// Gained is the set of states this configuration's table reaches and
	// the first's does not.
	Gained apst.States
	// Bars classifies what the change does to the non-operational states
	// the first configuration reaches.
	Bars BarClass
}

// Add runs controller c, named name, through every configuration of the
// survey and records the result. It returns the drive's row; the survey
// keeps only the drive's Record, never c. Errors: a nil controller
// (apst.ErrNilController), a zero Survey (ErrNotCreated).
func (s *Survey) Add(name string, c *powerstate.Controller) (Row, error) {
	var row Row
	err := s.AddInto(&row, name, c)
	return row, err
}

// AddInto is Add writing the row into *row, reusing the capacity of its
// Results, Changes and Sweep slices, so that a caller that streams rows need
// not allocate per drive. Concurrent calls need rows of their own.
func (s *Survey) AddInto(row *Row, name string, c *powerstate.Controller) error {
	if err := s.Evaluate(row, name, c); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.addRow(row)
	return nil
}

// Evaluate computes drive c's row as AddInto does, without recording it;
// AddRecord(row.Record()) then records it. It lets a caller compute rows on
// several goroutines and record them in an order of its choosing.
func (s *Survey) Evaluate(row *Row, name string, c *powerstate.Controller) error {
	return s.evaluate(row, name, c, nil)
}

// EvaluateWith is Evaluate for a drive whose machine is known (a bundle
// of apstctl collect, read by the caller). Each params[i] replaces the
// Params of the survey's configuration i for this drive alone, each
// configuration applied on top of the machine's own parameters (its module
// parameters, per-device bound, release and quirk set, which the caller
// gives with QuirksGiven). The configurations keep their names; the row's
// Results record the parameters used. Row.Quirks is then the quirk set of
// params[0] even when given. AddRecord(row.Record()) records the drive.
//
// Errors: those of Evaluate, and one wrapping ErrBadParams when params does
// not hold one valid Params per configuration.
func (s *Survey) EvaluateWith(row *Row, name string, c *powerstate.Controller, params []apst.Params) error {
	if len(s.configs) >= 2 && len(params) != len(s.configs) {
		return fmt.Errorf("survey: drive %q: %w: %d parameter sets for %d configurations", name, ErrBadParams, len(params), len(s.configs))
	}
	for i, p := range params {
		if !p.Generation.Valid() {
			return fmt.Errorf("survey: drive %q, configuration %d: %w: %w: %d", name, i+1, ErrBadParams, apst.ErrUnknownGeneration, uint8(p.Generation))
		}
	}
	if params == nil {
		params = []apst.Params{} // not nil: the machine's parameters are given
	}
	return s.evaluate(row, name, c, params)
}

// ErrBadParams is matched (errors.Is) by the error of EvaluateWith for
// parameters that do not fit the survey's configurations.
var ErrBadParams = errors.New("survey: invalid per-drive parameters")

// evaluate is Evaluate, with the drive's own parameters when params is not
// nil (EvaluateWith).
func (s *Survey) evaluate(row *Row, name string, c *powerstate.Controller, params []apst.Params) error {
	if len(s.configs) < 2 {
		return fmt.Errorf("survey: drive %q: %w", name, ErrNotCreated)
	}
	if c == nil {
		return fmt.Errorf("survey: drive %q: %w", name, apst.ErrNilController)
	}
	n := len(s.configs)
	*row = Row{
		Name: name, Vendor: DriveVendor(name, c), VendorID: c.VendorID,
		Model: c.Model, Firmware: c.Firmware,
		Results: slices.Grow(row.Results[:0], n)[:n],
		Changes: slices.Grow(row.Changes[:0], n-1)[:n-1],
		Sweep:   row.Sweep[:0],
	}
	var key *outcomeKey
	if params == nil {
		var k outcomeKey
		if k.fill(c) {
			if s.outcomes.get(&k, row) {
				return nil
			}
			key = &k
		}
	}
	for i, cfg := range s.configs {
		if params != nil {
			cfg.Params = params[i]
		}
		if !s.opts.KernelQuirks {
			cfg.Params.QuirksGiven = true // no quirk table applies: Build looks nothing up
		}
		// One call, as compare and plan make it: Build applies the quirk
		// tables of the configuration's release unless it gives the
		// quirks (quirks=none, quirks=LIST).
		r := &row.Results[i]
		r.Config = cfg
		if err := apst.BuildTo(&r.Plan, c, cfg.Params); err != nil { // not reached: New checked the generations
			return fmt.Errorf("survey: drive %q, configuration %d (%s): %w", name, i+1, cfg.Name, err)
		}
		switch {
		case i > 0:
		case params != nil:
			row.Quirks = r.Plan.Quirks.Applied.APST() // the machine's quirk set
		case !r.Plan.Quirks.Skipped:
			row.Quirks = r.Plan.Quirks.Applied.APST()
			var unchecked []apst.PCIID
			row.QuirksInferredFrom, unchecked = s.quirks.notes(c, &r.Plan.Quirks)
			row.QuirksUncheckedPCI = slices.Clone(unchecked) // the row's own (the notes are the cache's)
		}
		row.Assumed |= s.assumed.of(&r.Plan, c)
		r.Reach = analysis.Reachability(c, &r.Plan.Table)
		r.DeepestMaxPower = c.PowerStates[r.Reach.Deepest].MaxPower
	}
	first := &row.Results[0]
	for k := 1; k < n; k++ {
		r := &row.Results[k]
		ch := Change{
			Config:         k,
			Changed:        !sameCommand(&first.Plan, &r.Plan),
			StallReduction: int64(first.Reach.WorstExitLatency) - int64(r.Reach.WorstExitLatency),
			PowerDelta:     apst.MicroWatts(r.DeepestMaxPower.MicroWatts()) - apst.MicroWatts(first.DeepestMaxPower.MicroWatts()),
			Barred:         first.Reach.States &^ r.Reach.States &^ 1,
			Gained:         r.Reach.States &^ first.Reach.States &^ 1,
			Bars:           barClass(first.Reach.States, r.Reach.States),
		}
		row.Changes[k-1] = ch
		row.Changed = row.Changed || ch.Changed
	}
	row.Sweep = sweepSteps(c, &first.Plan, row.Sweep)
	if key != nil {
		s.outcomes.put(key, row)
	}
	return nil
}

// sameCommand reports whether two plans make the kernel send the same Set
// Features command: both or neither sent, the same APSTE and table.
func sameCommand(a, b *apst.Plan) bool {
	return a.Sent == b.Sent && a.Enabled == b.Enabled && a.Table == b.Table
}
