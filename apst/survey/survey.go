package survey

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// Options tunes a Survey.
type Options struct {
	// KernelQuirks gives every drive the APST quirks the kernel's quirk
	// tables assign it at probe time (DriveQuirks): they are added to the
	// quirks of each configuration, as the kernel adds them to whatever the
	// user configured. force_apst in a configuration overrides them as it
	// does in the kernel. When false, each configuration's Params.Quirks
	// apply to every drive as given.
	KernelQuirks bool
}

// Survey answers "what does a configuration change do to a whole fleet of
// drives": it runs every drive through two or more configurations, as
// Compare does for one, and keeps per drive only a few numbers (no
// controller, no plan), so that memory grows by a constant per drive
// however many are added: 48 bytes, 24 per configuration after the first
// and 24 per step of the drive's worst stall as a function of the bound
// (for StallBudget; 2 or 3 on every drive of the shipped corpus), besides
// the bytes of its name.
//
// Each configuration after the first is compared with the first. Summary and
// StallBudget depend only on the set of drives added, not on the order of
// the Add calls, so their results are deterministic. A Survey is safe for
// concurrent use; its zero value is not usable (use New).
type Survey struct {
	configs []analysis.Config
	opts    Options

	mu      sync.Mutex
	drives  []drive
	changes []change     // len(configs)-1 per drive, drive-major
	sweeps  []budgetStep // the drives' compact bound sweeps, back to back
	vendors []string
	vendorN map[string]int32
}

// drive is what a Survey keeps of one drive.
type drive struct {
	name     string
	vendor   int32
	changed  bool // under some configuration the programmed table differs from the first's
	sweepOff uint32
	sweepLen uint32
	// Under the first configuration: the reachable states, the worst wake
	// stall (EXLAT, µs) and the maximum power of the deepest reachable
	// state (µW).
	reach0 apst.States
	stall0 uint32
	power0 uint32
}

// change is what a Survey keeps of one drive under one comparison.
type change struct {
	stall   int64 // stall reduction, µs
	power   int64 // idle power delta, µW
	changed bool
	gained  bool
	bars    BarClass
}

// New returns an empty survey of the given configurations (two or
// more; the first is the reference, e.g. the current default) with each
// configuration's quirks applied to every drive as given.
func New(configs ...analysis.Config) (*Survey, error) {
	return NewWithOptions(Options{}, configs...)
}

// NewWithOptions is New with options. Fewer than two
// configurations is an error wrapping ErrTooFewConfigs; a configuration
// with an invalid generation one wrapping ErrUnknownGeneration.
func NewWithOptions(opts Options, configs ...analysis.Config) (*Survey, error) {
	if len(configs) < 2 {
		return nil, fmt.Errorf("%w: got %d", analysis.ErrTooFewConfigs, len(configs))
	}
	for i, cfg := range configs {
		if !cfg.Params.Generation.Valid() {
			return nil, fmt.Errorf("apst: survey configuration %d (%s): %w: %d", i+1, cfg.Name, apst.ErrUnknownGeneration, uint8(cfg.Params.Generation))
		}
	}
	return &Survey{
		configs: slices.Clone(configs),
		opts:    opts,
		vendorN: map[string]int32{},
	}, nil
}

// Configs returns the survey's configurations (a fresh copy).
func (s *Survey) Configs() []analysis.Config { return slices.Clone(s.configs) }

// Options returns the survey's options.
func (s *Survey) Options() Options { return s.opts }

// Len returns the number of drives added.
func (s *Survey) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.drives)
}

// Row is one drive's result, as Add returns it. The Survey keeps only
// a few numbers of it; the caller may print it and drop it.
type Row struct {
	// Name is the drive's name as given to Add (apstctl: the capture's path).
	Name string
	// Vendor is DriveVendor(Name, c).
	Vendor string
	// VendorID, Model and Firmware are the controller's VID, MN and FR.
	VendorID uint16
	Model    string
	Firmware string
	// Quirks are the APST quirks the kernel's tables assign the drive
	// (DriveQuirks) when the survey applies them, 0 otherwise.
	Quirks apst.Quirks
	// Results holds, per configuration in the survey's order, what Compare's
	// Configs would hold: the configuration (with the drive's quirks
	// added), its plan, the reach and the maximum power of the deepest
	// reachable state.
	Results []analysis.ConfigResult
	// Changes holds, for each configuration after the first, how the drive
	// fares compared with the first.
	Changes []Change
	// Changed reports whether some Changes[i].Changed is true.
	Changed bool
}

// Change is how one drive's outcome under one configuration differs
// from its outcome under the survey's first configuration.
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
// keeps only a few numbers of it, never c. Errors: a nil controller
// (ErrNilController).
func (s *Survey) Add(name string, c *powerstate.Controller) (Row, error) {
	var row Row
	err := s.AddInto(&row, name, c)
	return row, err
}

// AddInto is Add writing the row into *row, reusing the capacity of its
// Results and Changes slices, so that a caller that streams rows need not
// allocate per drive. Concurrent calls need rows of their own.
func (s *Survey) AddInto(row *Row, name string, c *powerstate.Controller) error {
	if c == nil {
		return fmt.Errorf("apst: survey drive %q: %w", name, apst.ErrNilController)
	}
	n := len(s.configs)
	*row = Row{
		Name: name, Vendor: DriveVendor(name, c), VendorID: c.VendorID,
		Model: c.Model, Firmware: c.Firmware,
		Results: slices.Grow(row.Results[:0], n)[:n],
		Changes: slices.Grow(row.Changes[:0], n-1)[:n-1],
	}
	var dq apst.Quirks
	if s.opts.KernelQuirks {
		dq = apst.DriveQuirks(c)
		row.Quirks = dq
	}
	for i, cfg := range s.configs {
		cfg.Params.Quirks |= dq
		plan, err := apst.Build(c, cfg.Params)
		if err != nil { // not reached: New checked the generations
			return fmt.Errorf("apst: survey drive %q, configuration %d (%s): %w", name, i+1, cfg.Name, err)
		}
		r := &row.Results[i]
		r.Config, r.Plan = cfg, plan
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
			PowerDelta: apst.MicroWatts(r.DeepestMaxPower.MicroWatts()) - apst.MicroWatts(first.DeepestMaxPower.MicroWatts()),
			Barred:         first.Reach.States &^ r.Reach.States &^ 1,
			Gained:         r.Reach.States &^ first.Reach.States &^ 1,
			Bars:           barClass(first.Reach.States, r.Reach.States),
		}
		row.Changes[k-1] = ch
		row.Changed = row.Changed || ch.Changed
	}
	var buf [apst.Entries + 2]budgetStep
	steps := budgetSteps(c, &first.Plan, buf[:0])

	d := drive{
		name: name, changed: row.Changed, reach0: first.Reach.States,
		stall0: uint32(min(uint64(first.Reach.WorstExitLatency), math.MaxUint32)),
		power0: uint32(first.DeepestMaxPower.MicroWatts()),
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.vendorN[row.Vendor]
	if !ok {
		v = int32(len(s.vendors))
		vendor := strings.Clone(row.Vendor)
		s.vendors = append(s.vendors, vendor)
		s.vendorN[vendor] = v
	}
	d.vendor = v
	d.sweepOff, d.sweepLen = uint32(len(s.sweeps)), uint32(len(steps))
	s.sweeps = append(s.sweeps, steps...)
	s.drives = append(s.drives, d)
	for _, ch := range row.Changes {
		s.changes = append(s.changes, change{
			stall: ch.StallReduction, power: int64(ch.PowerDelta),
			changed: ch.Changed, gained: ch.Gained != 0, bars: ch.Bars,
		})
	}
	return nil
}

// sameCommand reports whether two plans make the kernel send the same Set
// Features command: both or neither sent, the same APSTE and table.
func sameCommand(a, b *apst.Plan) bool {
	return a.Sent == b.Sent && a.Enabled == b.Enabled && a.Table == b.Table
}
