package analysis_test

import (
	"cmp"
	"math/big"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/analysis/trace"
	"github.com/nvmeapst/nvmeapst/apst/analysis/trace/tracetest"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// replayGenWorkload draws commands sorted by dispatch; times are multiples
// of grid nanoseconds, gaps up to about 4 s so that every state is met.
func replayGenWorkload(t *rapid.T, grid int64) []tracetest.Command {
	n := rapid.IntRange(0, 40).Draw(t, "commands")
	cs := make([]tracetest.Command, n)
	var at int64
	for i := range cs {
		switch rapid.IntRange(0, 3).Draw(t, "gapKind") {
		case 0:
			at += rapid.Int64Range(0, 10).Draw(t, "tiny") * grid
		case 1:
			at += rapid.Int64Range(0, 200_000_000/grid).Draw(t, "short") * grid
		default:
			at += rapid.Int64Range(0, 4_000_000_000/grid).Draw(t, "long") * grid
		}
		cs[i] = tracetest.Command{Dispatch: at, Completion: at + rapid.Int64Range(0, 3_000_000/grid).Draw(t, "service")*grid}
	}
	return cs
}

// replayEvents turns commands into the event stream a reader gives:
// sorted by time, dispatches first at a tie, relative to the first.
func replayEvents(cs []tracetest.Command) []trace.Event {
	evs := make([]trace.Event, 0, 2*len(cs))
	for _, c := range cs {
		evs = append(evs, trace.Event{Time: c.Dispatch, Kind: trace.Dispatch, Device: "nvme0n1"},
			trace.Event{Time: c.Completion, Kind: trace.Completion, Device: "nvme0n1"})
	}
	slices.SortStableFunc(evs, func(a, b trace.Event) int { return cmp.Or(cmp.Compare(a.Time, b.Time), cmp.Compare(a.Kind, b.Kind)) })
	if len(evs) > 0 {
		o := evs[0].Time
		for i := range evs {
			evs[i].Time -= o
		}
	}
	return evs
}

// replayGaps are the idle periods of a workload, the model way: the gaps in
// the union of the commands' intervals.
func replayGaps(cs []tracetest.Command) []int64 {
	var gaps []int64
	for i, c := range cs {
		if i == 0 {
			continue
		}
		busy := slices.MaxFunc(cs[:i], func(a, b tracetest.Command) int { return cmp.Compare(a.Completion, b.Completion) }).Completion
		if g := c.Dispatch - busy; g > 0 {
			gaps = append(gaps, g)
		}
	}
	return gaps
}

func replayGenConfig(t *rapid.T) analysis.ReplayConfig {
	s := rapid.SampledFrom([]string{
		"ps-max-latency-us=100000", "ps-max-latency-us=25000", "ps-max-latency-us=5000", "ps-max-latency-us=0",
		"kernel=v4.12", "kernel=v4.11", "apst-primary-timeout-ms=7,apst-secondary-timeout-ms=31",
		"quirks=no-deepest-ps", "ps-max-latency-us=unlimited,apst-primary-timeout-ms=0",
	}).Draw(t, "config")
	cfg, err := analysis.ParseReplayConfig(s, apst.DefaultParams(apst.Current))
	if err != nil {
		t.Fatal(err)
	}
	if rapid.Bool().Draw(t, "scaled") {
		cfg.ExitFactor = analysis.ExitFactors{Default: analysis.Factor{Num: rapid.Uint64Range(0, 300).Draw(t, "num"), Den: rapid.Uint64Range(1, 100).Draw(t, "den")}}
	}
	cfg.CPUWake = apst.Microseconds(rapid.Uint64Range(0, 500).Draw(t, "cpu"))
	return cfg
}

// replayModel computes one configuration's figures from the list of idle
// periods, period by period, with the penalties kept in a list.
func replayModel(c *powerstate.Controller, res *analysis.ReplayResult, gaps []int64) replayFigures {
	cfg := res.Config
	tl := analysis.IdleTimeline(c, &res.Plan.Table, 0)
	f := replayFigures{WakesByState: map[uint8]uint64{}, BreakEven: map[uint8]apst.Microseconds{}, ResidencyMicros: map[uint8]uint64{}}
	for k, st := range tl {
		f.WakesByState[st.State] = 0
		if k > 0 {
			if be, ok := analysis.BreakEven(&c.PowerStates[tl[0].State], &c.PowerStates[tl[k-1].State], &c.PowerStates[st.State]); ok {
				f.BreakEven[st.State] = be
			}
		}
	}
	residency := map[uint8]int64{}
	energy, trans := new(big.Int), new(big.Int)
	mp0 := big.NewInt(int64(c.PowerStates[0].MaxPower.MicroWatts()))
	var penalties []apst.Microseconds
	var idle int64
	for _, g := range gaps {
		idle += g
		k := len(tl) - 1
		for int64(tl[k].From)*1000 > g {
			k--
		}
		exit := cfg.ExitFactor.Apply(tl[k].State, tl[k].ExitLatency)
		penalties = append(penalties, exit+cfg.CPUWake)
		f.WakesByState[tl[k].State]++
		for i := 0; i <= k; i++ {
			end := g
			if i < k {
				end = int64(tl[i+1].From) * 1000
			}
			d := end - int64(tl[i].From)*1000
			residency[tl[i].State] += d
			energy.Add(energy, new(big.Int).Mul(big.NewInt(d), big.NewInt(int64(tl[i].MaxPower.MicroWatts()))))
			if i > 0 {
				trans.Add(trans, new(big.Int).Mul(mp0, big.NewInt(int64(c.PowerStates[tl[i].State].EntryLatency))))
			}
		}
		if k > 0 {
			trans.Add(trans, new(big.Int).Mul(mp0, big.NewInt(int64(exit))))
		}
	}
	for s, r := range residency {
		f.ResidencyMicros[s] = uint64(r) / 1000
	}
	for _, st := range tl {
		if _, ok := residency[st.State]; !ok {
			f.ResidencyMicros[st.State] = 0
		}
	}
	f.Wakes = uint64(len(penalties))
	for _, p := range penalties {
		f.StallTotal += p
	}
	slices.Sort(penalties)
	rank := func(p int) apst.Microseconds {
		if len(penalties) == 0 {
			return 0
		}
		k := max((p*len(penalties)+99)/100, 1)
		return penalties[k-1]
	}
	f.P50, f.P90, f.P99, f.Max = rank(50), rank(90), rank(99), rank(100)
	f.IdleMicros = uint64(idle) / 1000
	round := func(v *big.Int, d int64) uint64 {
		return new(big.Int).Quo(new(big.Int).Add(v, big.NewInt(d/2)), big.NewInt(d)).Uint64()
	}
	f.IdleEnergy = round(energy, 1e9)
	f.TransitionEnergyMax = round(trans, 1e6)
	if idle == 0 {
		f.AveragePower = c.PowerStates[0].MaxPower.MicroWatts()
	} else {
		f.AveragePower = new(big.Int).Quo(energy, big.NewInt(idle)).Uint64()
	}
	return f
}

// The stall sum is the sum over the wakes, the percentiles those of the
// sorted list of penalties, the idle and transition energies the sums over
// the periods: the engine's per-step counters give what a period-by-period
// computation gives.
func TestPropertyReplayMatchesPeriodModel(t *testing.T) {
	ctrls := []*powerstate.Controller{replayController(t, replay990), replayController(t, replay600p)}
	rapid.Check(t, func(t *rapid.T) {
		c := ctrls[rapid.IntRange(0, 1).Draw(t, "controller")]
		cs := replayGenWorkload(t, rapid.SampledFrom([]int64{1, 1000, 1_000_000}).Draw(t, "grid"))
		cfgs := rapid.SliceOfN(rapid.Custom(replayGenConfig), 1, 4).Draw(t, "configs")
		rep, err := analysis.Replay(c, &sliceSource{evs: replayEvents(cs)}, cfgs...)
		require.NoError(t, err)
		gaps := replayGaps(cs)
		require.Equal(t, uint64(len(gaps)), rep.IdlePeriods)
		require.Equal(t, uint64(len(cs)), rep.Events)
		for i := range rep.Configs {
			res := &rep.Configs[i]
			require.Equal(t, replayModel(c, res, gaps), figures(res), "config %d %q", i, res.Config.Name)
		}
	})
}

// Replaying the configurations one pass each gives what one pass over all
// of them gives.
func TestPropertyReplaySplitConfigs(t *testing.T) {
	c := replayController(t, replay990)
	rapid.Check(t, func(t *rapid.T) {
		evs := replayEvents(replayGenWorkload(t, 1000))
		cfgs := rapid.SliceOfN(rapid.Custom(replayGenConfig), 1, 5).Draw(t, "configs")
		all, err := analysis.Replay(c, &sliceSource{evs: evs}, cfgs...)
		require.NoError(t, err)
		for i, cfg := range cfgs {
			one, err := analysis.Replay(c, &sliceSource{evs: evs}, cfg)
			require.NoError(t, err)
			require.Equal(t, one.Configs[0], all.Configs[i])
			one.Configs = all.Configs
			require.Equal(t, all, one)
		}
	})
}

// With gaps of whole microseconds, replay agrees with Simulate on the same
// gaps: wakes per state, residency, percentiles and average power.
func TestPropertyReplayAgreesWithSimulate(t *testing.T) {
	c := replayController(t, replay990)
	rapid.Check(t, func(t *rapid.T) {
		cs := replayGenWorkload(t, 1000)
		gaps := replayGaps(cs)
		if len(gaps) == 0 {
			return
		}
		cfg := replayGenConfig(t)
		rep, err := analysis.Replay(c, &sliceSource{evs: replayEvents(cs)}, cfg)
		require.NoError(t, err)
		res := rep.Configs[0]
		us := make([]apst.Microseconds, len(gaps))
		for i, g := range gaps {
			us[i] = apst.Microseconds(g / 1000)
		}
		sim, err := analysis.Simulate(c, &res.Plan.Table, us, analysis.SimOptions{ExitFactor: cfg.ExitFactor, CPUWake: cfg.CPUWake})
		require.NoError(t, err)
		require.Equal(t, sim.Wakes, res.WakesByState())
		for _, st := range res.Steps {
			require.Equal(t, uint64(sim.Residency[st.State]), uint64(st.Residency/1000))
		}
		require.Equal(t, [4]apst.Microseconds{sim.P50, sim.P90, sim.P99, sim.Max}, [4]apst.Microseconds{res.P50, res.P90, res.P99, res.Max})
		require.Equal(t, sim.AverageIdlePower, res.AverageIdlePower)
		require.Equal(t, uint64(sim.TotalIdle), uint64(res.Idle.Microseconds()))
	})
}
