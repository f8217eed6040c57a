package analysis_test

import (
	"bytes"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/analysis/trace"
	"github.com/nvmeapst/nvmeapst/apst/analysis/trace/tracetest"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// replayRendered renders a workload in format f and replays the trace.
func replayRendered(t testing.TB, c *powerstate.Controller, f trace.Format, cmds []tracetest.Command, cfgs ...analysis.ReplayConfig) analysis.ReplayReport {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, tracetest.Render(&b, f, tracetest.Commands(cmds...), tracetest.Options{Summary: true}))
	r, err := trace.NewReader(&b, trace.Options{})
	require.NoError(t, err)
	require.Equal(t, f, r.Format())
	rep, err := analysis.Replay(c, r, cfgs...)
	require.NoError(t, err)
	rep.Device = "" // differs by format: "", "259,0", "nvme0n1"
	return rep
}

// Ten writeback bursts 5 s apart, 8 writes 50 µs apart of 200 µs each:
// each burst is busy 7 × 50 + 200 = 550 µs, so 9 idle periods of
// 4999450 µs. At the default bound every wake meets ps4: stall 9 × 43000 =
// 387000 µs. Per period 100 ms in ps0 (0.6 J), 2000 ms in ps3 (0.16 J),
// 2899.45 ms in ps4 (0.02029615 J): 780296.15 µJ, 9 × = 7022665.35 →
// 7022665 µJ. At 25 ms: ps3 for 4899.45 ms (0.391956 J) after ps0's 0.6 J:
// 9 × 991956 = 8927604 µJ and a stall of 9 × 4600 = 41400 µs.
func TestReplayWriteback(t *testing.T) {
	c := replayController(t, replay990)
	cmds := slices.Collect(tracetest.Writeback(10, 5*time.Second, 8))
	for _, f := range []trace.Format{trace.FormatPlain, trace.FormatBlkparse, trace.FormatBiosnoop} {
		rep := replayRendered(t, c, f, cmds, replayConfig(t, "ps-max-latency-us=100000"), replayConfig(t, "ps-max-latency-us=25000"))
		assert.Equal(t, uint64(80), rep.Events, f)
		assert.Equal(t, uint64(9), rep.IdlePeriods, f)
		assert.Equal(t, int64(45000550), rep.Span.Microseconds(), f)
		a, b := rep.Configs[0], rep.Configs[1]
		assert.Equal(t, int64(9*4999450), a.Idle.Microseconds())
		assert.Equal(t, [apst.Entries]uint64{4: 9}, a.WakesByState())
		assert.Equal(t, apst.Microseconds(387000), a.StallTotal)
		assert.Equal(t, apst.Microseconds(43000), a.P50)
		assert.Equal(t, apst.MicroJoules(7022665), a.IdleEnergy)
		assert.Equal(t, [apst.Entries]uint64{3: 9}, b.WakesByState())
		assert.Equal(t, apst.Microseconds(41400), b.StallTotal)
		assert.Equal(t, apst.MicroJoules(8927604), b.IdleEnergy)
	}
}

// An interactive reader (exponential gaps of mean 400 ms, seeded): every
// format that records the commands exactly gives the same report, and it
// agrees with Simulate on the workload's gaps.
func TestReplayInteractive(t *testing.T) {
	c := replayController(t, replay990)
	cmds := slices.Collect(tracetest.Interactive(42, 3000, 400*time.Millisecond, 150*time.Microsecond))
	scaled := replayConfig(t, "ps-max-latency-us=100000")
	scaled.ExitFactor, scaled.CPUWake = analysis.ExitFactors{Default: analysis.Factor{Num: 39, Den: 50}}, 150
	cfgs := []analysis.ReplayConfig{replayConfig(t, "ps-max-latency-us=100000"), replayConfig(t, "ps-max-latency-us=25000"), scaled}
	want := replayRendered(t, c, trace.FormatPlain, cmds, cfgs...)
	assert.Equal(t, uint64(2999), want.IdlePeriods, "the gaps are never 0 µs with this seed")
	for _, f := range []trace.Format{trace.FormatBlkparse, trace.FormatBiosnoop} {
		assert.Equal(t, want, replayRendered(t, c, f, cmds, cfgs...), f)
	}
	gaps := replayGaps(cmds)
	us := make([]apst.Microseconds, len(gaps))
	for i, g := range gaps {
		require.Zero(t, g%1000)
		us[i] = apst.Microseconds(g / 1000)
	}
	for i, res := range want.Configs {
		sim, err := analysis.Simulate(c, &res.Plan.Table, us, analysis.SimOptions{ExitFactor: res.Config.ExitFactor, CPUWake: res.Config.CPUWake})
		require.NoError(t, err)
		assert.Equal(t, sim.Wakes, res.WakesByState(), "config %d", i)
		assert.Equal(t, [4]apst.Microseconds{sim.P50, sim.P90, sim.P99, sim.Max}, [4]apst.Microseconds{res.P50, res.P90, res.P99, res.Max}, "config %d", i)
		assert.Equal(t, sim.AverageIdlePower, res.AverageIdlePower, "config %d", i)
		assert.Equal(t, replayModel(c, &res, gaps), figures(&res), "config %d", i)
	}
}

// The 13-second run on the Intel 600p (ps3: 0.07 W, ENLAT 10000, EXLAT
// 300; ps4: 0.005 W, ENLAT 2000, EXLAT 10000). Its idle periods: 199 of
// 0.7 ms in the start-up burst, then (ms) 50, 99, 100, 101, 150, 300, 514,
// 515, 516, 600, 1000, 844.7 (to the writeback at 5 s), 1114, 1115, 1116,
// 1500, 143 (to the writeback at 10 s), 2000, 990: 218 periods.
//
//   - current, no quirk (ps4 from 100 ms): ps0 199 + 2 (50, 99), ps4 17;
//   - current with NO_DEEPEST_PS, as Linux runs the 600p (ps3 from 100 ms):
//     ps0 201, ps3 17;
//   - v4.12 (ps3 from 515 ms, ps4 from 1115 ms): ps0 199 + 8, ps3 7 (515,
//     516, 600, 1000, 844.7, 1114, 990), ps4 4 (1115, 1116, 1500, 2000);
//   - v4.12 with NO_DEEPEST_PS: ps0 207, ps3 11.
func TestReplayIntel600pRun(t *testing.T) {
	c := replayController(t, replay600p)
	cmds := slices.Collect(tracetest.Intel600pRun())
	cfgs := []analysis.ReplayConfig{
		replayConfig(t, "ps-max-latency-us=100000,quirks=none"), replayConfig(t, "quirks=no-deepest-ps"),
		replayConfig(t, "kernel=v4.12,quirks=none"), replayConfig(t, "kernel=v4.12,quirks=no-deepest-ps"),
	}
	rep := replayRendered(t, c, trace.FormatBlkparse, cmds, cfgs...)
	assert.Equal(t, int64(13e6), rep.Span.Microseconds())
	assert.Equal(t, uint64(218), rep.IdlePeriods)
	assert.Equal(t, uint64(200+16+16+1), rep.Events)
	for i, want := range [][apst.Entries]uint64{{0: 201, 4: 17}, {0: 201, 3: 17}, {0: 207, 3: 7, 4: 4}, {0: 207, 3: 11}} {
		assert.Equal(t, want, rep.Configs[i].WakesByState(), cfgs[i].Name)
		assert.Equal(t, replayModel(c, &rep.Configs[i], replayGaps(cmds)), figures(&rep.Configs[i]), cfgs[i].Name)
	}
	// Under v4.12 the worst wake is ps4's 10 ms and p99 of 218 (rank 216)
	// is ps4 too; with the quirk the worst is ps3's 300 µs.
	assert.Equal(t, apst.Microseconds(10000), rep.Configs[2].P99)
	assert.Equal(t, apst.Microseconds(300), rep.Configs[3].Max)
	for _, f := range []trace.Format{trace.FormatPlain, trace.FormatBiosnoop} {
		assert.Equal(t, rep, replayRendered(t, c, f, cmds, cfgs...), f)
	}
}
