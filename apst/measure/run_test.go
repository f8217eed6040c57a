package measure_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/measure"
)

// recordingTolerance wraps a tolerance file, records every write and fails
// the writes numbered in fail (1-based).
type recordingTolerance struct {
	measure.ToleranceFile
	fail   map[int]error
	writes []apst.Tolerance
	events *[]string
}

func (r *recordingTolerance) SetTolerance(t apst.Tolerance) error {
	r.writes = append(r.writes, t)
	if r.events != nil {
		*r.events = append(*r.events, "write "+t.String())
	}
	if err := r.fail[len(r.writes)]; err != nil {
		return err
	}
	return r.ToleranceFile.SetTolerance(t)
}

// faultyDrive fails the read numbered failAt (1-based).
type faultyDrive struct {
	measure.Drive
	failAt, n int
}

func (d *faultyDrive) ReadAt(off int64) error {
	d.n++
	if d.n == d.failAt {
		return errors.New("I/O error")
	}
	return d.Drive.ReadAt(off)
}

// faultyCounters fail the reading numbered failAt.
type faultyCounters struct {
	measure.IOCounters
	failAt, n int
}

func (c *faultyCounters) IOActivity() (measure.IOActivity, error) {
	c.n++
	if c.n == c.failAt {
		return measure.IOActivity{}, errors.New("stat unreadable")
	}
	return c.IOCounters.IOActivity()
}

// cancellingClock cancels the context at the sleep numbered at.
type cancellingClock struct {
	measure.Clock
	cancel context.CancelFunc
	at, n  int
}

func (c *cancellingClock) Sleep(ctx context.Context, d time.Duration) error {
	c.n++
	if c.n == c.at {
		c.cancel()
	}
	return c.Clock.Sleep(ctx, d)
}

var original = apst.Tolerance{Kind: apst.ToleranceValue, Value: 100000}

// patchSetup is the patch's measurement on the simulated 990 EVO Plus.
func patchSetup(t testing.TB, sim *measure.Simulation, trials int) measure.Setup {
	s := sim.Setup()
	s.Configs = patchConfigs(t)
	s.Idle = []time.Duration{3 * time.Second}
	s.Trials = trials
	s.Seed = 7
	return s
}

func TestMeasureRestoresOnEveryPath(t *testing.T) {
	boom := errors.New("EIO")
	tests := []struct {
		name    string
		mutate  func(*measure.Setup, *recordingTolerance, context.CancelFunc)
		err     string
		is      error
		trials  int // trials recorded before the failure
		restore bool
	}{
		{name: "success", restore: true, trials: 8},
		{
			name: "tolerance write fails",
			mutate: func(_ *measure.Setup, r *recordingTolerance, _ context.CancelFunc) {
				r.fail = map[int]error{3: boom}
			},
			err: "trial 3: set pm_qos_latency_tolerance_us to 100000: EIO", is: boom, trials: 2, restore: true,
		},
		{
			name: "cold read fails",
			mutate: func(s *measure.Setup, _ *recordingTolerance, _ context.CancelFunc) {
				s.Drive = &faultyDrive{Drive: s.Drive, failAt: 4}
			},
			err: "I/O error", trials: 1, restore: true,
		},
		{
			name: "I/O counters fail",
			mutate: func(s *measure.Setup, _ *recordingTolerance, _ context.CancelFunc) {
				s.Counters = &faultyCounters{IOCounters: s.Counters, failAt: 6}
			},
			err: "I/O counters: stat unreadable", trials: 2, restore: true,
		},
		{
			name: "cancelled during an idle wait (^C, SIGTERM)",
			mutate: func(s *measure.Setup, _ *recordingTolerance, cancel context.CancelFunc) {
				s.Clock = &cancellingClock{Clock: s.Clock, cancel: cancel, at: 5}
			},
			err: "interrupted after 4 of 8 trials", is: context.Canceled, trials: 4, restore: true,
		},
		{
			name: "restore fails",
			mutate: func(_ *measure.Setup, r *recordingTolerance, _ context.CancelFunc) {
				r.fail = map[int]error{2: boom, 3: boom}
			},
			err: "write 100000 back by hand", is: measure.ErrNotRestored, trials: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sim := simulation(t, 1, 0)
			s := patchSetup(t, sim, 4)
			var events []string
			rec := &recordingTolerance{ToleranceFile: s.Tolerance, events: &events}
			s.Tolerance = rec
			s.OnOriginal = func(v apst.Tolerance) { events = append(events, "original "+v.String()) }
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.mutate != nil {
				tt.mutate(&s, rec, cancel)
			}
			res, err := measure.Run(ctx, s)
			require.NotNil(t, res)
			if tt.err == "" {
				require.NoError(t, err)
			} else {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				if tt.is != nil {
					assert.ErrorIs(t, err, tt.is)
				}
			}
			assert.Len(t, res.Trials, tt.trials)
			assert.Equal(t, "original 100000", events[0], "the value to restore comes before the first change")
			assert.Equal(t, original, res.Original)
			assert.Equal(t, tt.restore, res.Restored)
			assert.Equal(t, original, rec.writes[len(rec.writes)-1], "the last write is the original value")
			if tt.restore {
				got, err := sim.Tolerance()
				require.NoError(t, err)
				assert.Equal(t, original, got)
			}
		})
	}
}

func TestMeasureInvalidSetupChangesNothing(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*measure.Setup)
		err    string
	}{
		{"no config", func(s *measure.Setup) { s.Configs = nil }, "no configuration"},
		{"no idle", func(s *measure.Setup) { s.Idle = nil }, "no idle time"},
		{"zero idle", func(s *measure.Setup) { s.Idle = []time.Duration{0} }, "idle time 0s"},
		{"negative trials", func(s *measure.Setup) { s.Trials = -1 }, "-1 trials"},
		{"no drive", func(s *measure.Setup) { s.Drive = nil }, "a drive, a clock and a tolerance file"},
		{"no identify", func(s *measure.Setup) { s.Controller = nil }, "no Identify data"},
		{"unaligned fixed offset", func(s *measure.Setup) { s.Offsets, s.FixedOffset = measure.OffsetsFixed, 100 }, "fixed offset 100"},
		{"offsets outside the enumeration", func(s *measure.Setup) { s.Offsets = 7 }, "offsets 7"},
		{"bound beyond the attribute", func(s *measure.Setup) { s.Configs[1].Params.Bound = 1 << 40 }, "cannot be set through pm_qos_latency_tolerance_us"},
		{"more than the bound differs", func(s *measure.Setup) { s.Configs[1].Params.PrimaryTimeout = 50 }, "differs from"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sim := simulation(t, 1, 0)
			s := patchSetup(t, sim, 2)
			called := false
			s.OnOriginal = func(apst.Tolerance) { called = true }
			tt.mutate(&s)
			res, err := measure.Run(context.Background(), s)
			require.ErrorIs(t, err, measure.ErrSetup)
			assert.Contains(t, err.Error(), tt.err)
			assert.Contains(t, err.Error(), "nothing changed")
			assert.Nil(t, res)
			assert.False(t, called)
			assert.Zero(t, sim.ToleranceWrites())
		})
	}
}

func TestMeasureInterleavesConfigurations(t *testing.T) {
	sim := simulation(t, 1, 0)
	s := patchSetup(t, sim, 3)
	s.Idle = []time.Duration{50 * time.Millisecond, 3 * time.Second}
	rec := &recordingTolerance{ToleranceFile: s.Tolerance}
	s.Tolerance = rec
	res, err := measure.Run(context.Background(), s)
	require.NoError(t, err)
	v := func(n uint32) apst.Tolerance { return apst.Tolerance{Kind: apst.ToleranceValue, Value: n} }
	want := []apst.Tolerance{}
	for range 3 * 2 {
		want = append(want, v(100000), v(25000))
	}
	assert.Equal(t, append(want, original), rec.writes, "trial by trial, configuration by configuration, then the original")
	for i, tr := range res.Trials {
		assert.Equal(t, i%2, tr.Config)
		assert.Equal(t, s.Idle[(i/2)%2], tr.Idle)
		assert.Equal(t, i/4, tr.Trial)
	}
}

func TestMeasureDeterministicForASeed(t *testing.T) {
	run := func(seed uint64) *measure.Result {
		sim := simulation(t, seed, 0.1)
		s := patchSetup(t, sim, 20)
		s.Seed = seed
		res, err := measure.Run(context.Background(), s)
		require.NoError(t, err)
		return res
	}
	a, b, c := run(3), run(3), run(4)
	assert.Equal(t, a, b)
	assert.NotEqual(t, a.Trials, c.Trials)
}

func TestMeasureDiscardsTrialsWithForeignIO(t *testing.T) {
	sim := simulation(t, 5, 0.25)
	s := patchSetup(t, sim, 40)
	res, err := measure.Run(context.Background(), s)
	require.NoError(t, err)
	require.Positive(t, res.Discarded)
	kept := 0
	for _, row := range res.Rows {
		kept += row.Kept
		assert.Equal(t, 40, row.Trials)
	}
	assert.Equal(t, 80-res.Discarded, kept)
	assert.Contains(t, res.Notes, itoa(res.Discarded)+" of 80 trials discarded: other I/O touched the drive during the idle wait (it resets the drive's idle timer)")
	// The discarded trials are the ones whose idle timer was reset; the
	// kept ones still show the patch's figures.
	assert.InDelta(t, 33.6, ms(res.Rows[0].Latency.P50), 0.3)
	assert.Equal(t, "0.78", res.ExitFactor.String())

	s = patchSetup(t, simulation(t, 5, 0.25), 4)
	s.Counters = nil
	res, err = measure.Run(context.Background(), s)
	require.NoError(t, err)
	assert.Zero(t, res.Discarded)
	assert.False(t, res.CountersChecked)
	assert.Contains(t, res.Notes, "the I/O counters were not read: trials where other I/O touched the drive could not be discarded")
}

func TestMeasureStatesAlongTheTimeline(t *testing.T) {
	sim := simulation(t, 1, 0)
	s := patchSetup(t, sim, 5)
	s.Idle = []time.Duration{50 * time.Millisecond, 500 * time.Millisecond, 3 * time.Second}
	res, err := measure.Run(context.Background(), s)
	require.NoError(t, err)
	type rowState struct {
		config string
		idle   time.Duration
		state  uint8
		exit   apst.Microseconds
	}
	var got []rowState
	for _, r := range res.Rows {
		got = append(got, rowState{r.ConfigText, r.Idle, r.State, r.ExitLatency})
		assert.Zero(t, r.Shallow)
	}
	assert.Equal(t, []rowState{
		{"ps-max-latency-us=100000", 50 * time.Millisecond, 0, 0},
		{"ps-max-latency-us=100000", 500 * time.Millisecond, 3, 4600},
		{"ps-max-latency-us=100000", 3 * time.Second, 4, 43000},
		{"ps-max-latency-us=25000", 50 * time.Millisecond, 0, 0},
		{"ps-max-latency-us=25000", 500 * time.Millisecond, 3, 4600},
		{"ps-max-latency-us=25000", 3 * time.Second, 3, 4600},
	}, got)
	require.Len(t, res.States, 2)
	assert.Equal(t, 15, res.States[0].Trials, "ps3: three rows of five")
	assert.Equal(t, 5, res.States[1].Trials)
	assert.InDelta(t, 0.06, ms(res.Rows[0].Latency.P90), 0.01, "ps0: a plain read")
}

func TestMeasureFixedOffsets(t *testing.T) {
	s := patchSetup(t, simulation(t, 1, 0), 3)
	s.Offsets, s.FixedOffset = measure.OffsetsFixed, 1<<20
	res, err := measure.Run(context.Background(), s)
	require.NoError(t, err)
	for _, tr := range res.Trials {
		assert.Equal(t, int64(1<<20), tr.Offset)
		assert.Equal(t, int64(1<<20), tr.WarmOffset)
	}
}

// TestMeasureInvariants: for any drive geometry, seed and idle times, the
// reads are aligned and inside the namespace, the percentiles are ordered,
// kept trials never exceed the trials, and the tolerance ends as it began.
func TestMeasureInvariants(t *testing.T) {
	c, cfgs := evoPlus(t), patchConfigs(t)
	rapid.Check(t, func(t *rapid.T) {
		lbs := 512 << rapid.IntRange(0, 4).Draw(t, "lbs shift")
		size := int64(lbs) * rapid.Int64Range(int64(8192/lbs)+1, 1<<30).Draw(t, "blocks")
		initial := apst.Tolerance{Kind: apst.ToleranceValue, Value: rapid.Uint32Range(0, 200000).Draw(t, "initial")}
		sim, err := measure.NewSimulation(c, apst.DefaultParams(apst.Current), measure.SimulationOptions{
			Seed: rapid.Uint64().Draw(t, "sim seed"), Noise: rapid.Float64Range(0, 0.5).Draw(t, "noise"),
			ForeignIO: rapid.Float64Range(0, 1).Draw(t, "foreign"), LateDescent: rapid.Float64Range(0, 1).Draw(t, "late"), Size: size, LogicalBlockSize: lbs, Initial: initial,
		})
		require.NoError(t, err)
		s := sim.Setup()
		s.Configs = cfgs
		s.Trials = rapid.IntRange(1, 8).Draw(t, "trials")
		s.Seed = rapid.Uint64().Draw(t, "seed")
		for range rapid.IntRange(1, 3).Draw(t, "idle times") {
			s.Idle = append(s.Idle, time.Duration(rapid.Int64Range(1, 5e9).Draw(t, "idle")))
		}
		res, err := measure.Run(context.Background(), s)
		require.NoError(t, err)
		for _, tr := range res.Trials {
			for _, off := range []int64{tr.Offset, tr.WarmOffset} {
				require.Zero(t, off%int64(lbs))
				require.GreaterOrEqual(t, off, int64(0))
				require.LessOrEqual(t, off, size-int64(max(lbs, 4096)))
			}
		}
		for _, row := range append([]measure.Row{{Latency: res.Warm}}, res.Rows...) {
			l := row.Latency
			require.True(t, l.P50 <= l.P90 && l.P90 <= l.P99 && l.P99 <= l.Max, "%+v", l)
			require.LessOrEqual(t, row.Kept, row.Trials)
		}
		got, err := sim.Tolerance()
		require.NoError(t, err)
		require.Equal(t, initial, got)
		require.True(t, res.Restored)
	})
}

func TestMeasureConfigTolerance(t *testing.T) {
	tests := []struct {
		bound apst.Microseconds
		want  string
		err   bool
	}{
		{0, "0", false},
		{25000, "25000", false},
		{apst.LatencyAny - 1, "2147483646", false},
		{apst.NoLimit, "any", false},
		{apst.LatencyAny, "", true},
	}
	for _, tt := range tests {
		p := apst.DefaultParams(apst.Current)
		p.Bound = tt.bound
		got, err := measure.Config{Text: "x", Params: p}.Tolerance()
		if tt.err {
			require.ErrorIs(t, err, measure.ErrSetup)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, tt.want, got.String())
	}
}

func TestMeasureCancelledBeforeStartChangesNothing(t *testing.T) {
	sim := simulation(t, 1, 0)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := measure.Run(ctx, patchSetup(t, sim, 2))
	require.ErrorIs(t, err, context.Canceled)
	assert.Contains(t, err.Error(), "interrupted after 0 of 4 trials")
	assert.Zero(t, sim.ToleranceWrites())
	assert.False(t, res.Restored, "nothing to restore")
	assert.Empty(t, res.Trials)
}

func TestExitFactorByState(t *testing.T) {
	f := func(s string) analysis.Factor {
		v, err := analysis.ParseFactor(s)
		require.NoError(t, err)
		return v
	}
	r := &measure.Result{States: []measure.StateExit{{State: 3, Factor: f("0.78")}, {State: 4, Factor: f("0.8")}}}
	assert.Equal(t, "ps3=0.78,ps4=0.8", r.ExitFactorByState())
	assert.Empty(t, (&measure.Result{}).ExitFactorByState())
}
