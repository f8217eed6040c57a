package survey

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/nvmeapst/nvmeapst/apst"
)

// ErrBadRecord is matched (errors.Is) by the error of AddRecord for a record
// that cannot come from a drive: see Record for what is checked.
var ErrBadRecord = errors.New("survey: invalid record")

// Record is everything a Survey keeps of one drive, and all that Summary
// and StallBudget read: the survey's state is the multiset of its records.
// A record is what a shard of a fleet hands on so that the shards' surveys
// merge into exactly the survey of the whole fleet (apstctl writes it in
// each drive's row of its JSON report and reads it back with --merge).
//
// AddRecord checks that it has one Outcome per configuration of the survey,
// the first with Changed false; latencies of at most 2^32-1 µs (EXLAT is 32
// bits) and powers from 0 to 655350000 µW (MP); and a Sweep that starts at
// bound 0 and has strictly increasing Min.
//
// The zero Record has no outcomes and no sweep: AddRecord refuses it with
// an error wrapping ErrBadRecord (ErrNotCreated for a zero Survey).
type Record struct {
	// Name is the drive's name (apstctl: the capture's path).
	Name string
	// Vendor is the name the drive is grouped under (DriveVendor).
	Vendor string
	// Outcomes holds the drive's outcome under each configuration, in the
	// survey's order.
	Outcomes []Outcome
	// Sweep is the drive's bound sweep under the first configuration's
	// parameters: the worst stall and the deepest state's power as
	// functions of the bound, in steps.
	Sweep []Step
}

// Outcome is one drive's outcome under one configuration.
//
// The zero Outcome is an unchanged one that reaches no state, with no stall
// and no power; AddRecord accepts it.
type Outcome struct {
	// Changed reports whether the Set Features command (sent, APSTE or any
	// table entry) differs from the one under the first configuration;
	// false for the first.
	Changed bool
	// Reach is the set of states the table reaches from state 0
	// (analysis.Reach.States).
	Reach apst.States
	// WorstExitLatency is the worst wake stall, the largest EXLAT among the
	// reachable states (analysis.Reach.WorstExitLatency).
	WorstExitLatency apst.Microseconds
	// DeepestMaxPower is the maximum power (MP) of the deepest reachable
	// state.
	DeepestMaxPower apst.MicroWatts
}

// Step is one piece of a drive's bound sweep: for every bound
// (ps_max_latency_us) from Min up to the next step's Min minus 1 (the last
// step: up to apst.NoLimit), the plan under the survey's first
// configuration's parameters with that bound has these figures.
//
// The zero Step is a valid first step (Min 0): no stall, no power, no
// reachable state, and Same false.
type Step struct {
	// Min is the least bound of the step.
	Min apst.Microseconds
	// WorstExitLatency is the worst wake stall at these bounds.
	WorstExitLatency apst.Microseconds
	// DeepestMaxPower is the deepest reachable state's MP at these bounds.
	DeepestMaxPower apst.MicroWatts
	// Reach is the set of reachable states at these bounds.
	Reach apst.States
	// Same reports whether the plan at these bounds sends the Set Features
	// command the first configuration (with its own bound) sends.
	Same bool
}

// Record returns the row's record (with fresh slices): what AddInto records
// of the drive.
func (r *Row) Record() Record {
	rec := Record{Name: r.Name, Vendor: r.Vendor, Outcomes: make([]Outcome, len(r.Results))}
	r.fillOutcomes(rec.Outcomes)
	rec.Sweep = append([]Step(nil), r.Sweep...)
	return rec
}

// fillOutcomes writes the row's outcomes into out (len(r.Results) long).
func (r *Row) fillOutcomes(out []Outcome) {
	for i := range r.Results {
		res := &r.Results[i]
		out[i] = Outcome{
			Reach:            res.Reach.States,
			WorstExitLatency: res.Reach.WorstExitLatency,
			DeepestMaxPower:  apst.MicroWatts(res.DeepestMaxPower.MicroWatts()),
		}
		if i > 0 {
			out[i].Changed = r.Changes[i-1].Changed
		}
	}
}

// AddRecord records a drive from its record, as AddInto would have recorded
// the drive the record came from. Errors: a zero Survey (ErrNotCreated), a
// record that does not fit the survey or cannot come from a drive
// (ErrBadRecord, naming the record and what is wrong).
func (s *Survey) AddRecord(rec Record) error {
	if len(s.configs) < 2 {
		return fmt.Errorf("survey: record %q: %w", rec.Name, ErrNotCreated)
	}
	if err := s.checkRecord(&rec); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.add(&rec)
	return nil
}

// checkRecord returns an error wrapping ErrBadRecord when rec does not fit
// the survey.
func (s *Survey) checkRecord(rec *Record) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("survey: record %q: %w: %s", rec.Name, ErrBadRecord, fmt.Sprintf(format, args...))
	}
	if len(rec.Outcomes) != len(s.configs) {
		return bad("%d outcomes for a survey of %d configurations", len(rec.Outcomes), len(s.configs))
	}
	if rec.Outcomes[0].Changed {
		return bad("the first configuration's outcome is marked changed")
	}
	for i, o := range rec.Outcomes {
		if o.WorstExitLatency > math.MaxUint32 || o.DeepestMaxPower < 0 || o.DeepestMaxPower > maxMicroWatts {
			return bad("configuration %d: worst exit latency %dus or power %dµW out of range", i+1, o.WorstExitLatency, o.DeepestMaxPower)
		}
	}
	if len(rec.Sweep) == 0 || rec.Sweep[0].Min != 0 {
		return bad("the bound sweep does not start at bound 0")
	}
	for i, st := range rec.Sweep {
		if i > 0 && st.Min <= rec.Sweep[i-1].Min {
			return bad("bound sweep step %d starts at %dus, not above step %d's %dus", i, st.Min, i-1, rec.Sweep[i-1].Min)
		}
		if st.WorstExitLatency > math.MaxUint32 || st.DeepestMaxPower < 0 || st.DeepestMaxPower > maxMicroWatts {
			return bad("bound sweep step %d: worst exit latency %dus or power %dµW out of range", i, st.WorstExitLatency, st.DeepestMaxPower)
		}
	}
	return nil
}

// step is a Step as a Survey stores it: what StallBudget reads.
type step struct {
	min   uint64
	stall uint32
	power uint32 // µW in bits 29:0; bit 30: same; bit 31: no idle state reachable
}

const (
	stepSame   = 1 << 30
	stepNoIdle = 1 << 31
)

func (st step) microWatts() uint32 { return st.power & powerMask }

// add appends a checked record; neighbouring steps that StallBudget cannot
// tell apart are stored as one.
func (st *store) add(rec *Record) {
	st.names.add(rec.Name)
	v, ok := st.vendorN[rec.Vendor]
	if !ok {
		v = uint32(len(st.vendors))
		st.vendors = append(st.vendors, rec.Vendor)
		st.vendorN[rec.Vendor] = v
	}
	p := &st.p
	p.vendor = v
	p.stall, p.power, p.bars, p.steps = p.stall[:0], p.power[:0], p.bars[:0], p.steps[:0]
	first := &rec.Outcomes[0]
	for k, o := range rec.Outcomes {
		p.stall = append(p.stall, uint32(o.WorstExitLatency))
		pw := uint32(o.DeepestMaxPower)
		if k > 0 {
			if o.Changed {
				pw |= flagChanged
			}
			if o.Reach&^first.Reach&^1 != 0 {
				pw |= flagGained
			}
			p.bars = append(p.bars, barClass(first.Reach, o.Reach))
		}
		p.power = append(p.power, pw)
	}
	var last step
	for i, s := range rec.Sweep {
		q := step{min: uint64(s.Min), stall: uint32(s.WorstExitLatency), power: uint32(s.DeepestMaxPower)}
		if s.Same {
			q.power |= stepSame
		}
		if s.Reach&^1 == 0 {
			q.power |= stepNoIdle
		}
		if i > 0 && q.stall == last.stall && q.power == last.power {
			continue
		}
		p.steps = append(p.steps, q)
		last = q
	}
	st.prof.add(st.intern(p))
}

// addRow records an evaluated row, through a record whose outcomes are
// the store's scratch space.
func (st *store) addRow(row *Row) {
	st.scratch = slices.Grow(st.scratch[:0], len(row.Results))[:len(row.Results)]
	row.fillOutcomes(st.scratch)
	rec := Record{Name: row.Name, Vendor: row.Vendor, Outcomes: st.scratch, Sweep: row.Sweep}
	st.add(&rec)
}

// sweep returns the range of profile i's steps in st.steps.
func (st *store) sweep(i int) (start, end int) {
	if i > 0 {
		start = int(st.sweepEnd.at(i - 1))
	}
	return start, int(st.sweepEnd.at(i))
}
