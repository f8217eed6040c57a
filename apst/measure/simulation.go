package measure

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// Defaults of a simulated drive.
const (
	// DefaultSimReadLatency is the service time of a 4 KiB read from an
	// awake simulated drive.
	DefaultSimReadLatency = 60 * time.Microsecond
	// DefaultSimSize is the size of a simulated namespace: a 1 TB drive's
	// 1,953,525,168 sectors of 512 bytes.
	DefaultSimSize = 1953525168 * 512
	// DefaultSimLogicalBlockSize is the logical block size of a simulated
	// namespace.
	DefaultSimLogicalBlockSize = 512
)

// SimulationOptions are the knobs of a [Simulation].
//
// The zero SimulationOptions is refused by NewSimulation (ErrSetup), since
// its Initial tolerance is unset; its other fields are the defaults: exit
// latencies as advertised, no noise, foreign I/O or late descent, and the
// default read latency, size and block size.
type SimulationOptions struct {
	// ExitFactor scales every advertised exit latency to the simulated
	// one (the 25 ms patch measured 0.78 on a 990 EVO Plus); the zero
	// value leaves them as advertised.
	ExitFactor analysis.Factor
	// Seed seeds the noise and the foreign I/O.
	Seed uint64
	// ReadLatency is the service time of a read from an awake drive; 0
	// means DefaultSimReadLatency.
	ReadLatency time.Duration
	// Noise is the relative noise of each read: its latency is scaled by
	// a factor drawn uniformly from [1-Noise, 1+Noise]. 0 means none; at
	// most 0.5.
	Noise float64
	// ForeignIO is the probability (0 to 1) that something else does I/O
	// on the drive during an idle wait: the I/O counters move and the
	// drive's idle timer restarts at a random point of the wait.
	ForeignIO float64
	// LateDescent is the probability (0 to 1) that a read finds the drive
	// one step short of where the timeline puts it (the step before, when
	// that is not the start): a drive that descends later than its ITPT,
	// as the 25 ms patch saw in five trials of six.
	LateDescent float64
	// Size and LogicalBlockSize are the namespace's, in bytes; 0 means
	// DefaultSimSize and DefaultSimLogicalBlockSize.
	Size             int64
	LogicalBlockSize int
	// Initial is the value the simulated tolerance file holds at the start.
	// Its zero value is unset, which NewSimulation refuses (ErrSetup): give
	// one, e.g. apst.Tolerance{Kind: apst.ToleranceAuto} or the 100000 µs
	// module default as apst.Tolerance{Kind: apst.ToleranceValue, Value: 100000}.
	Initial apst.Tolerance
}

// Simulation is a simulated drive on a virtual clock, for [Run] without
// hardware. It follows the idle timeline of the plan for the bound in force
// (analysis.IdleTimeline of apst.Build for the controller, base parameters
// and the bound the tolerance file gives), and answers a read after an idle
// time with the exit latency of the state it is in, scaled by the exit
// factor, plus the read's service time and a little seeded noise. It
// implements Drive, Clock, ToleranceFile and IOCounters at once; time passes only when it reads or
// sleeps, so a measurement of minutes runs in milliseconds and gives the
// same trials for the same seed.
//
// Like the kernel, it sends the drive a new table (an admin command, which
// restarts the idle timer) only when a written tolerance changes the bound.
// A Simulation is not safe for concurrent use.
//
// The zero Simulation has no drive: its methods that return an error
// return one wrapping ErrSetup, Elapsed is 0 and Setup has no controller
// (Run refuses it); build one with NewSimulation.
type Simulation struct {
	c     *powerstate.Controller
	base  apst.Params
	opt   SimulationOptions
	rng   *rand.Rand
	tl    map[apst.Microseconds]analysis.Timeline
	now   time.Time
	last  time.Time // completion of the last command
	tol   apst.Tolerance
	reqs  uint64
	wrote int
}

// simEpoch is the virtual clock's start.
var simEpoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// NewSimulation returns a simulated drive for controller c under
// base (whose Bound the tolerance file replaces). Options out of range
// (a negative size or latency, Noise above 0.5, ForeignIO outside 0 to 1,
// a logical block size that is not a power of two from 512 to 65536) are an
// error wrapping ErrSetup, as is a nil c or base parameters that
// apst.Build rejects.
func NewSimulation(c *powerstate.Controller, base apst.Params, opt SimulationOptions) (*Simulation, error) {
	bad := func(format string, args ...any) (*Simulation, error) {
		return nil, fmt.Errorf("%w: simulated drive: "+format, append([]any{ErrSetup}, args...)...)
	}
	if opt.ReadLatency == 0 {
		opt.ReadLatency = DefaultSimReadLatency
	}
	if opt.Size == 0 {
		opt.Size = DefaultSimSize
	}
	if opt.LogicalBlockSize == 0 {
		opt.LogicalBlockSize = DefaultSimLogicalBlockSize
	}
	switch lbs := opt.LogicalBlockSize; {
	case c == nil:
		return bad("no Identify data")
	case opt.ReadLatency < 0:
		return bad("read latency %s", opt.ReadLatency)
	case !(opt.Noise >= 0 && opt.Noise <= 0.5):
		return bad("noise %v: want 0 to 0.5", opt.Noise)
	case !(opt.ForeignIO >= 0 && opt.ForeignIO <= 1):
		return bad("foreign I/O probability %v: want 0 to 1", opt.ForeignIO)
	case !(opt.LateDescent >= 0 && opt.LateDescent <= 1):
		return bad("late descent probability %v: want 0 to 1", opt.LateDescent)
	case lbs < 512 || lbs > 1<<16 || lbs&(lbs-1) != 0:
		return bad("logical block size %d: want a power of two from 512 to 65536", lbs)
	case opt.Size < int64(max(lbs, 4096)):
		return bad("size %d bytes: smaller than one read", opt.Size)
	}
	if _, err := apst.Build(c, base); err != nil {
		return nil, fmt.Errorf("%w: simulated drive: %w", ErrSetup, err)
	}
	if _, err := apst.ParseTolerance(opt.Initial.String()); err != nil {
		return nil, fmt.Errorf("%w: simulated drive: initial tolerance: %w", ErrSetup, err)
	}
	return &Simulation{
		c: c, base: base, opt: opt,
		rng: rand.New(rand.NewPCG(opt.Seed, opt.Seed^0x73696d756c617465)),
		tl:  map[apst.Microseconds]analysis.Timeline{},
		now: simEpoch, last: simEpoch, tol: opt.Initial,
	}, nil
}

// Setup returns a Setup whose controller, drive, clock, tolerance
// file and I/O counters are the simulation's; the caller adds the
// configurations and idle times.
func (m *Simulation) Setup() Setup {
	return Setup{Controller: m.c, Drive: m, Clock: m, Tolerance: m, Counters: m}
}

// Elapsed returns the virtual time since the simulation started.
func (m *Simulation) Elapsed() time.Duration {
	if m.c == nil {
		return 0
	}
	return m.now.Sub(simEpoch)
}

// ready refuses the zero Simulation.
func (m *Simulation) ready() error {
	if m.c == nil {
		return fmt.Errorf("%w: simulated drive: the zero Simulation has no drive: build one with NewSimulation", ErrSetup)
	}
	return nil
}

// ToleranceWrites returns how many times the tolerance file was written.
func (m *Simulation) ToleranceWrites() int { return m.wrote }

// Size returns the namespace size in bytes.
func (m *Simulation) Size() int64 { return m.opt.Size }

// LogicalBlockSize returns the logical block size in bytes.
func (m *Simulation) LogicalBlockSize() int { return m.opt.LogicalBlockSize }

// ReadLength returns 4096, or the logical block size when larger.
func (m *Simulation) ReadLength() int { return max(4096, m.opt.LogicalBlockSize) }

// ReadAt simulates one read at off: the drive wakes from the state the
// timeline of the bound in force puts it in after the idle time since the
// last command, and the virtual clock advances by the read's latency. An
// offset that is not aligned or not inside the namespace is an error.
func (m *Simulation) ReadAt(off int64) error {
	if err := m.ready(); err != nil {
		return err
	}
	lbs, n := int64(m.opt.LogicalBlockSize), int64(m.ReadLength())
	if off < 0 || off%lbs != 0 || off > m.opt.Size-n {
		return fmt.Errorf("measure: simulated drive: offset %d: want a multiple of %d from 0 to %d", off, lbs, m.opt.Size-n)
	}
	tl, err := m.timeline()
	if err != nil {
		return err
	}
	idle, k := apst.Microseconds(m.now.Sub(m.last)/time.Microsecond), 0
	for k+1 < len(tl) && tl[k+1].From <= idle {
		k++
	}
	if k > 1 && m.opt.LateDescent > 0 && m.rng.Float64() < m.opt.LateDescent {
		k--
	}
	st := tl[k]
	lat := m.opt.ReadLatency + m.opt.ExitFactor.Apply(st.ExitLatency).Duration()
	if m.opt.Noise > 0 {
		lat = time.Duration(float64(lat) * (1 + m.opt.Noise*(2*m.rng.Float64()-1)))
	}
	m.now = m.now.Add(lat)
	m.last = m.now
	m.reqs++
	return nil
}

// timeline returns the idle timeline of the plan for the bound in force.
func (m *Simulation) timeline() (analysis.Timeline, error) {
	b := m.tol.Bound()
	if tl, ok := m.tl[b]; ok {
		return tl, nil
	}
	p := m.base
	p.Bound = b
	plan, err := apst.Build(m.c, p)
	if err != nil {
		return nil, fmt.Errorf("measure: simulated drive: %w", err)
	}
	tl := analysis.IdleTimeline(m.c, &plan.Table, 0)
	m.tl[b] = tl
	return tl, nil
}

// Now returns the virtual time.
func (m *Simulation) Now() time.Time { return m.now }

// Sleep advances the virtual clock by d at once; with probability
// ForeignIO something else reads the drive at a random point of the wait.
// A done ctx returns its error and the clock does not move.
func (m *Simulation) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := m.ready(); err != nil {
		return err
	}
	if m.opt.ForeignIO > 0 && m.rng.Float64() < m.opt.ForeignIO {
		m.last = m.now.Add(time.Duration(m.rng.Int64N(int64(d) + 1)))
		m.reqs++
	}
	m.now = m.now.Add(d)
	return nil
}

// Tolerance returns the value the simulated tolerance file holds.
func (m *Simulation) Tolerance() (apst.Tolerance, error) {
	if err := m.ready(); err != nil {
		return apst.Tolerance{}, err
	}
	return m.tol, nil
}

// SetTolerance writes t to the simulated file, validated as the kernel
// does; a changed bound sends the drive a new table, which restarts its
// idle timer.
func (m *Simulation) SetTolerance(t apst.Tolerance) error {
	if err := m.ready(); err != nil {
		return err
	}
	back, err := apst.ParseTolerance(t.String())
	if err != nil {
		return fmt.Errorf("measure: simulated tolerance file: nothing written: %w", err)
	}
	m.wrote++
	if back.Bound() != m.tol.Bound() {
		m.last = m.now
	}
	m.tol = back
	return nil
}

// IOActivity returns the simulated drive's I/O counters: every read, this
// measurement's and the foreign ones.
func (m *Simulation) IOActivity() (IOActivity, error) {
	if err := m.ready(); err != nil {
		return IOActivity{}, err
	}
	return IOActivity{Requests: m.reqs}, nil
}
