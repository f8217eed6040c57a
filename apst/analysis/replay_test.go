package analysis_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/analysis/trace"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// The captures of the replay tests, from the module's testdata.
const (
	replay990  = testfixture.Samsung990EVOPlus
	replay600p = testfixture.IntelSSDPEKKW256G7
)

func replayController(t testing.TB, name string) *powerstate.Controller {
	t.Helper()
	c, err := powerstate.DecodeIdentify(testfixture.ReadFile(t, name))
	require.NoError(t, err)
	return &c
}

func replayConfig(t testing.TB, s string) analysis.ReplayConfig {
	t.Helper()
	cfg, err := analysis.ParseReplayConfig(s, apst.DefaultParams(apst.Current))
	require.NoError(t, err)
	return cfg
}

func replayFile(t testing.TB, c *powerstate.Controller, name string, opt trace.Options, configs ...analysis.ReplayConfig) analysis.ReplayReport {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "replay", name))
	require.NoError(t, err)
	defer f.Close()
	r, err := trace.NewReader(f, opt)
	require.NoError(t, err)
	rep, err := analysis.Replay(c, r, configs...)
	require.NoError(t, err)
	return rep
}

// replayFigures are the figures of one configuration, for comparisons.
type replayFigures struct {
	Wakes                                uint64
	StallTotal, P50, P90, P99, Max       apst.Microseconds
	WakesByState                         map[uint8]uint64
	IdleMicros, IdleEnergy, AveragePower uint64
	TransitionEnergyMax                  uint64
	BreakEven                            map[uint8]apst.Microseconds
	ResidencyMicros                      map[uint8]uint64
}

func figures(r *analysis.ReplayResult) replayFigures {
	f := replayFigures{
		Wakes: r.Wakes, StallTotal: r.StallTotal, P50: r.P50, P90: r.P90, P99: r.P99, Max: r.Max,
		WakesByState: map[uint8]uint64{}, IdleMicros: uint64(r.Idle.Microseconds()), IdleEnergy: uint64(r.IdleEnergy),
		AveragePower: uint64(r.AverageIdlePower), TransitionEnergyMax: uint64(r.TransitionEnergyMax),
		BreakEven: map[uint8]apst.Microseconds{}, ResidencyMicros: map[uint8]uint64{},
	}
	for _, st := range r.Steps {
		f.WakesByState[st.State] = st.Wakes
		f.ResidencyMicros[st.State] = uint64(st.Residency / 1000)
		if st.HasBreakEven {
			f.BreakEven[st.State] = st.BreakEven
		}
	}
	return f
}

// The basic workload, in four formats (testdata/replay/basic.*), on the
// Samsung 990 EVO Plus: ps0 6.00 W; ps3 0.0800 W, ENLAT 1600, EXLAT 4600;
// ps4 0.0070 W, ENLAT 1600, EXLAT 43000. Seven commands (ms):
//
//	dispatch  completion
//	   0          1
//	  51         52      idle  50 ms before it
//	 152        154      idle 100 ms
//	2254       2255      idle 2100 ms
//	5255       5258      idle 3000 ms
//	5256       5259      dispatched while the previous one is outstanding
//	5259       5260      dispatched when the previous one completes: idle 0, no period
//
// Four idle periods, 5250 ms of idle time; span 0..5260 ms.
//
// Default bound (100 ms): ps0 from 0, ps3 from 100 ms, ps4 from 2100 ms.
// The wakes meet ps0 (50), ps3 (100: exactly at From), ps4 (2100), ps4
// (3000): penalties 0, 4600, 43000, 43000; sum 90600; nearest rank over 4:
// p50 rank 2 = 4600, p90 rank 4 = 43000, p99 rank 4, max 43000.
// Residency: ps0 50+100+100+100 = 350 ms, ps3 0+2000+2000 = 4000 ms, ps4
// 900 ms. Idle energy: 0.35 s × 6 W = 2.1 J, 4 s × 0.08 W = 0.32 J, 0.9 s
// × 0.007 W = 0.0063 J: 2426300 µJ; average 2.4263 J / 5.25 s = 462152.38
// µW, 462152 rounded down. Transition maximum: entries into ps3 (3 periods)
// and ps4 (2) at ENLAT 1600 = 8000 µs, wakes from ps3 (4600) and ps4
// (2 × 43000) = 90600 µs; 98600 µs × 6 W = 591600 µJ. Break-even: ps3
// against ps0 6 W × 6200 µs / 5.92 W = 6283.8 → 6284 µs; ps4 against ps3
// 6 W × 44600 µs / 0.073 W = 3665753.4 → 3665754 µs.
//
// Bound 25 ms: ps0, ps3 from 100 ms. Wakes ps0 1, ps3 3: penalties 0,
// 4600 ×3; sum 13800; p50 rank 2 = 4600, the others 4600. Residency ps0 350
// ms, ps3 0+2000+2900 = 4900 ms: 2.1 J + 0.392 J = 2492000 µJ; average
// 2.492/5.25 W = 474666.67 → 474666 µW. Transitions: 3 × 1600 + 3 × 4600 =
// 18600 µs × 6 W = 111600 µJ.
//
// Default bound, exit factor 2/3 and a CPU wake of 150 µs: scaled exits
// 4600 × 2/3 = 3066.67 → 3067 and 43000 × 2/3 = 28666.67 → 28667;
// penalties 150, 3217, 28817, 28817; sum 61001; p50 3217, p90..max 28817.
// Transitions: 8000 + 3067 + 2 × 28667 = 68401 µs × 6 W = 410406 µJ; the
// idle energy is that of the default bound.
func basicConfigs(t testing.TB) []analysis.ReplayConfig {
	scaled := replayConfig(t, "ps-max-latency-us=100000")
	scaled.Name = "ps-max-latency-us=100000 (exit 2/3, cpu 150us)"
	scaled.ExitFactor = analysis.ExitFactors{Default: analysis.Factor{Num: 2, Den: 3}}
	scaled.CPUWake = 150
	return []analysis.ReplayConfig{replayConfig(t, "ps-max-latency-us=100000"), replayConfig(t, "ps-max-latency-us=25000"), scaled}
}

var basicWant = []replayFigures{
	{
		Wakes: 4, StallTotal: 90600, P50: 4600, P90: 43000, P99: 43000, Max: 43000,
		WakesByState: map[uint8]uint64{0: 1, 3: 1, 4: 2}, IdleMicros: 5250000, IdleEnergy: 2426300, AveragePower: 462152,
		TransitionEnergyMax: 591600, BreakEven: map[uint8]apst.Microseconds{3: 6284, 4: 3665754},
		ResidencyMicros: map[uint8]uint64{0: 350000, 3: 4000000, 4: 900000},
	},
	{
		Wakes: 4, StallTotal: 13800, P50: 4600, P90: 4600, P99: 4600, Max: 4600,
		WakesByState: map[uint8]uint64{0: 1, 3: 3}, IdleMicros: 5250000, IdleEnergy: 2492000, AveragePower: 474666,
		TransitionEnergyMax: 111600, BreakEven: map[uint8]apst.Microseconds{3: 6284},
		ResidencyMicros: map[uint8]uint64{0: 350000, 3: 4900000},
	},
	{
		Wakes: 4, StallTotal: 61001, P50: 3217, P90: 28817, P99: 28817, Max: 28817,
		WakesByState: map[uint8]uint64{0: 1, 3: 1, 4: 2}, IdleMicros: 5250000, IdleEnergy: 2426300, AveragePower: 462152,
		TransitionEnergyMax: 410406, BreakEven: map[uint8]apst.Microseconds{3: 6284, 4: 3665754},
		ResidencyMicros: map[uint8]uint64{0: 350000, 3: 4000000, 4: 900000},
	},
}

func TestReplayBasicEveryFormat(t *testing.T) {
	c := replayController(t, replay990)
	for _, tc := range []struct {
		file   string
		opt    trace.Options
		device string
	}{
		{"basic.plain", trace.Options{}, ""},
		// A leading C whose D is before the trace is ignored; 8,0 is
		// another device.
		{"basic.blkparse", trace.Options{Device: "259,0"}, "259,0"},
		{"basic.biosnoop", trace.Options{Disk: "nvme0n1"}, "nvme0n1"},
		{"basic.bpftrace", trace.Options{}, "nvme0n1"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			rep := replayFile(t, c, tc.file, tc.opt, basicConfigs(t)...)
			assert.Equal(t, tc.device, rep.Device)
			assert.Equal(t, uint64(7), rep.Events)
			assert.Equal(t, int64(5260000), rep.Span.Microseconds())
			assert.Equal(t, uint64(4), rep.IdlePeriods)
			require.Len(t, rep.Configs, 3)
			for i, want := range basicWant {
				assert.Equal(t, want, figures(&rep.Configs[i]), "config %d", i)
				assert.Equal(t, rep.IdlePeriods, rep.Configs[i].Wakes)
			}
		})
	}
}

// The 25 ms configuration against the default: ps4's two wakes move to
// ps3; 13800 − 90600 µs of stall; 2492000 − 2426300 µJ of idle energy.
func TestReplayDelta(t *testing.T) {
	c := replayController(t, replay990)
	rep := replayFile(t, c, "basic.plain", trace.Options{}, basicConfigs(t)[:2]...)
	d := rep.Configs[1].Delta(&rep.Configs[0])
	assert.Equal(t, analysis.ReplayDelta{
		Wakes:      [apst.Entries]int64{3: 2, 4: -2},
		StallTotal: (13800 - 90600) * time.Microsecond, P50: 0, P90: (4600 - 43000) * time.Microsecond,
		P99: (4600 - 43000) * time.Microsecond, Max: (4600 - 43000) * time.Microsecond,
		IdleEnergy: 2492000 - 2426300, TransitionEnergyMax: 111600 - 591600, AverageIdlePower: 474666 - 462152,
	}, d)
	assert.Equal(t, analysis.ReplayDelta{}, rep.Configs[0].Delta(&rep.Configs[0]))
}

// testdata/replay/zero.fio: fio commands take no time (completion =
// dispatch), at 1000, 1050, 1150, 3250, 6250, 6250 and 6251 ms. Idle
// periods 50, 100, 2100, 3000 and 1 ms (the two commands at 6250 leave an
// idle time of 0): 5 periods, 5251 ms; span 1000..6251 = 5251 ms.
// Default bound: wakes ps0 2 (50, 1), ps3 1, ps4 2; penalties 0, 0, 4600,
// 43000, 43000: p50 rank 3 = 4600, p90 rank 5 = 43000. Residency ps0 351
// ms, ps3 4000, ps4 900: 2.106 + 0.32 + 0.0063 J = 2432300 µJ; average
// 2.4323 J / 5.251 s = 463207.008 → 463207 µW; transitions as for the
// basic workload, 591600 µJ.
func TestReplayFio(t *testing.T) {
	c := replayController(t, replay990)
	rep := replayFile(t, c, "zero.fio", trace.Options{}, replayConfig(t, "ps-max-latency-us=100000"))
	assert.Equal(t, "/dev/nvme0n1", rep.Device)
	assert.Equal(t, uint64(7), rep.Events)
	assert.Equal(t, int64(5251000), rep.Span.Microseconds())
	assert.Equal(t, uint64(5), rep.IdlePeriods)
	assert.Equal(t, replayFigures{
		Wakes: 5, StallTotal: 90600, P50: 4600, P90: 43000, P99: 43000, Max: 43000,
		WakesByState: map[uint8]uint64{0: 2, 3: 1, 4: 2}, IdleMicros: 5251000, IdleEnergy: 2432300, AveragePower: 463207,
		TransitionEnergyMax: 591600, BreakEven: map[uint8]apst.Microseconds{3: 6284, 4: 3665754},
		ResidencyMicros: map[uint8]uint64{0: 351000, 3: 4000000, 4: 900000},
	}, figures(&rep.Configs[0]))
}

func TestBreakEven(t *testing.T) {
	mk := func(units uint16, enlat, exlat powerstate.Microseconds) *powerstate.Descriptor {
		return &powerstate.Descriptor{MaxPower: powerstate.MaxPowerOf(units, false), EntryLatency: enlat, ExitLatency: exlat}
	}
	ps0 := mk(600, 0, 0) // 6 W
	for _, tc := range []struct {
		name       string
		prev, next *powerstate.Descriptor
		want       apst.Microseconds
		ok         bool
	}{
		// 6 W × 200 µs / (6 − 3 W) = 400 µs exactly.
		{"exact", ps0, mk(300, 100, 100), 400, true},
		// 6 W × 1 µs / (6 − 1 W) = 1.2 → 2.
		{"rounded up", ps0, mk(100, 1, 0), 2, true},
		{"no saving", mk(100, 0, 0), mk(100, 5, 5), 0, false},
		{"more power", mk(100, 0, 0), mk(200, 5, 5), 0, false},
		{"free transition", ps0, mk(0, 0, 0), 0, true},
	} {
		got, ok := analysis.BreakEven(ps0, tc.prev, tc.next)
		assert.Equal(t, tc.ok, ok, tc.name)
		assert.Equal(t, tc.want, got, tc.name)
	}
	// The 990 EVO Plus at the default bound (see basicWant).
	c := replayController(t, replay990)
	got, ok := analysis.BreakEven(&c.PowerStates[0], &c.PowerStates[3], &c.PowerStates[4])
	assert.True(t, ok)
	assert.Equal(t, apst.Microseconds(3665754), got)
	// Largest values do not overflow: 655.35 W × (2^32−1)·2 µs / 0.0001 W.
	big := &powerstate.Descriptor{MaxPower: powerstate.MaxPowerOf(65535, false)}
	got, ok = analysis.BreakEven(big, mk(1, 0, 0), &powerstate.Descriptor{MaxPower: powerstate.MaxPowerOf(99, true), EntryLatency: 1<<32 - 1, ExitLatency: 1<<32 - 1})
	assert.True(t, ok)
	assert.Equal(t, apst.Microseconds(65535*10000*(2*(1<<32-1))/(10000-9900)), got)
}

// The timeline the engine computes is the one IdleTimeline computes.
func TestReplayTimelineIsIdleTimeline(t *testing.T) {
	for _, name := range []string{replay990, replay600p} {
		c := replayController(t, name)
		for _, s := range []string{"ps-max-latency-us=100000", "ps-max-latency-us=25000", "kernel=v4.12", "ps-max-latency-us=0", "kernel=v4.11,ps-max-latency-us=unlimited"} {
			r, err := analysis.NewReplayer(c, replayConfig(t, s))
			require.NoError(t, err)
			res := r.Report().Configs[0]
			tl := analysis.IdleTimeline(c, &res.Plan.Table, 0)
			require.Len(t, res.Steps, len(tl), "%s %s", name, s)
			for k, st := range tl {
				assert.Equal(t, st.State, res.Steps[k].State)
				assert.Equal(t, st.From, res.Steps[k].From)
				assert.Equal(t, st.ExitLatency, res.Steps[k].ExitLatency)
				assert.Equal(t, st.MaxPower, res.Steps[k].MaxPower)
			}
		}
	}
}

type sliceSource struct {
	evs []trace.Event
	err error
}

func (s *sliceSource) Next() (trace.Event, error) {
	if len(s.evs) == 0 {
		if s.err != nil {
			return trace.Event{}, s.err
		}
		return trace.Event{}, io.EOF
	}
	ev := s.evs[0]
	s.evs = s.evs[1:]
	return ev, nil
}

func TestReplayErrors(t *testing.T) {
	c := replayController(t, replay990)
	cfg := replayConfig(t, "ps-max-latency-us=25000")
	_, err := analysis.NewReplayer(nil, cfg)
	require.ErrorIs(t, err, apst.ErrNilController)
	assert.True(t, strings.HasPrefix(err.Error(), "analysis: "), err.Error())
	_, err = analysis.NewReplayer(c)
	require.ErrorIs(t, err, analysis.ErrReplayConfig)
	bad := cfg
	bad.Params.Generation = 99
	_, err = analysis.NewReplayer(c, bad)
	require.ErrorIs(t, err, analysis.ErrReplayConfig)
	require.ErrorIs(t, err, apst.ErrUnknownGeneration)
	_, err = analysis.ParseReplayConfig("kernel=v9", apst.DefaultParams(apst.Current))
	require.ErrorIs(t, err, analysis.ErrReplayConfig)

	var zero analysis.Replayer
	require.ErrorIs(t, zero.Add(trace.Event{Kind: trace.Dispatch}), analysis.ErrReplayerNotInitialized)
	assert.Equal(t, analysis.ReplayReport{}, zero.Report())

	for _, tc := range []struct {
		name string
		evs  []trace.Event
		msg  string
	}{
		{"no kind", []trace.Event{{Time: 1}}, "analysis: replay: invalid event 1: kind Kind(0), want dispatch or completion"},
		{"unknown kind", []trace.Event{{Time: 1, Kind: trace.Dispatch}, {Time: 2, Kind: 3}}, "analysis: replay: invalid event 2: kind Kind(3), want dispatch or completion"},
		{"negative", []trace.Event{{Time: -1, Kind: trace.Dispatch}}, "analysis: replay: invalid event 1: negative time -1 ns"},
		{"order", []trace.Event{{Time: 5, Kind: trace.Dispatch}, {Time: 4, Kind: trace.Completion}}, "analysis: replay: invalid event 2: time 4 ns before the previous event's 5 ns"},
		{"device", []trace.Event{{Time: 5, Kind: trace.Dispatch, Device: "a"}, {Time: 6, Kind: trace.Completion, Device: "b"}}, `analysis: replay: invalid event 2: device "b", the replay is of "a"`},
	} {
		r, err := analysis.NewReplayer(c, cfg)
		require.NoError(t, err)
		var last error
		for _, ev := range tc.evs {
			last = r.Add(ev)
		}
		require.ErrorIs(t, last, analysis.ErrReplayEvent, tc.name)
		assert.Equal(t, tc.msg, last.Error())
		assert.Equal(t, last, r.Add(trace.Event{Time: 100, Kind: trace.Dispatch}), "final")

		_, err = analysis.Replay(c, &sliceSource{evs: tc.evs}, cfg)
		require.ErrorIs(t, err, analysis.ErrReplayEvent)
	}

	// A source's error is wrapped; the report holds the events before it.
	boom := errors.New("boom")
	rep, err := analysis.Replay(c, &sliceSource{evs: []trace.Event{{Time: 0, Kind: trace.Dispatch}}, err: boom}, cfg)
	require.ErrorIs(t, err, boom)
	assert.Equal(t, "analysis: replay: boom", err.Error())
	assert.Equal(t, uint64(1), rep.Events)
	_, err = analysis.Replay(c, nil, cfg)
	require.ErrorIs(t, err, analysis.ErrReplayEvent)
	_, err = analysis.Replay(nil, &sliceSource{}, cfg)
	require.ErrorIs(t, err, apst.ErrNilController)

	// A trace error through ReplaySeq.
	r, err := trace.NewReader(strings.NewReader("1\n2\nx\n"), trace.Options{})
	require.NoError(t, err)
	rep, err = analysis.ReplaySeq(c, r.All(), cfg)
	require.ErrorIs(t, err, trace.ErrSyntax)
	assert.True(t, strings.HasPrefix(err.Error(), "analysis: replay: trace: plain line 3"), err.Error())
	_, err = analysis.ReplaySeq(nil, r.All(), cfg)
	require.ErrorIs(t, err, apst.ErrNilController)
	_, err = analysis.ReplaySeq(c, func(yield func(trace.Event, error) bool) { yield(trace.Event{Time: 1}, nil) }, cfg)
	require.ErrorIs(t, err, analysis.ErrReplayEvent)
}

// No events: no periods, percentiles 0, ps0's power as the average.
func TestReplayEmpty(t *testing.T) {
	c := replayController(t, replay990)
	rep, err := analysis.Replay(c, &sliceSource{}, replayConfig(t, "ps-max-latency-us=100000"))
	require.NoError(t, err)
	res := rep.Configs[0]
	assert.Zero(t, rep.Events)
	assert.Zero(t, rep.Span)
	assert.Zero(t, res.Wakes)
	assert.Zero(t, res.Max)
	assert.Zero(t, res.IdleEnergy)
	assert.Equal(t, apst.MicroWatts(6000000), res.AverageIdlePower)
	require.Len(t, res.Steps, 3, "the timeline is there without events")
	for _, st := range res.Steps {
		assert.Zero(t, st.Wakes, "ps%d", st.State)
	}

	// Dispatches only: no completion, no idle period, no span.
	rep, err = analysis.Replay(c, &sliceSource{evs: []trace.Event{{Time: 0, Kind: trace.Dispatch}, {Time: 9, Kind: trace.Dispatch}}}, replayConfig(t, "ps-max-latency-us=100000"))
	require.NoError(t, err)
	assert.Equal(t, uint64(2), rep.Events)
	assert.Zero(t, rep.Span)
	assert.Zero(t, rep.IdlePeriods)
}

// Add does not allocate.
func TestReplayAddDoesNotAllocate(t *testing.T) {
	c := replayController(t, replay990)
	cfgs := basicConfigs(t)
	r, err := analysis.NewReplayer(c, append(cfgs, cfgs...)...)
	require.NoError(t, err)
	var now int64
	allocs := testing.AllocsPerRun(10000, func() {
		now += 1e6
		_ = r.Add(trace.Event{Time: now, Kind: trace.Dispatch, Device: "nvme0n1"})
		now += 1e5 + now%3e9
		_ = r.Add(trace.Event{Time: now, Kind: trace.Completion, Device: "nvme0n1"})
	})
	assert.Zero(t, allocs)
	require.NoError(t, r.Add(trace.Event{Time: now + 1, Kind: trace.Dispatch, Device: "nvme0n1"}))
}

// Replaying through a Reader, its iterator and Add gives the same report.
func TestReplayEntryPoints(t *testing.T) {
	c := replayController(t, replay990)
	in, err := os.ReadFile(filepath.Join("testdata", "replay", "basic.biosnoop"))
	require.NoError(t, err)
	cfgs := basicConfigs(t)
	opt := trace.Options{Disk: "nvme0n1"}

	r1, err := trace.NewReader(bytes.NewReader(in), opt)
	require.NoError(t, err)
	a, err := analysis.Replay(c, r1, cfgs...)
	require.NoError(t, err)

	r2, err := trace.NewReader(bytes.NewReader(in), opt)
	require.NoError(t, err)
	b, err := analysis.ReplaySeq(c, r2.All(), cfgs...)
	require.NoError(t, err)

	r3, err := trace.NewReader(bytes.NewReader(in), opt)
	require.NoError(t, err)
	p, err := analysis.NewReplayer(c, cfgs...)
	require.NoError(t, err)
	for ev, err := range r3.All() {
		require.NoError(t, err)
		require.NoError(t, p.Add(ev))
	}
	assert.Equal(t, a, b)
	assert.Equal(t, a, p.Report())
	assert.Equal(t, a, p.Report(), "Report does not change the Replayer")
	ws := a.Configs[0].WakesByState()
	assert.Equal(t, [apst.Entries]uint64{0: 1, 3: 1, 4: 2}, ws)
}
