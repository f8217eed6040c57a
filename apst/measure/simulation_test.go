package measure_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/measure"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// evoPlus is the 990 EVO Plus capture.
func evoPlus(t testing.TB) *powerstate.Controller {
	t.Helper()
	b := testfixture.ReadFile(t, testfixture.Samsung990EVOPlus)
	c, err := powerstate.DecodeIdentify(b)
	require.NoError(t, err)
	return &c
}

// patchConfigs are the two settings the 25 ms patch interleaved.
func patchConfigs(t testing.TB) []measure.Config {
	t.Helper()
	var out []measure.Config
	for _, s := range []string{"ps-max-latency-us=100000", "ps-max-latency-us=25000"} {
		p, err := apst.ParseConfig(s, apst.DefaultParams(apst.Current))
		require.NoError(t, err)
		out = append(out, measure.Config{Text: s, Params: p})
	}
	return out
}

// simulation is the 990 EVO Plus at factor 0.78 with the tolerance at 100000.
func simulation(t testing.TB, seed uint64, foreign float64) *measure.Simulation {
	t.Helper()
	f, err := analysis.ParseFactor("0.78")
	require.NoError(t, err)
	sim, err := measure.NewSimulation(evoPlus(t), apst.DefaultParams(apst.Current), measure.SimulationOptions{
		ExitFactor: f, Seed: seed, Noise: 0.005, ForeignIO: foreign,
		Initial: apst.Tolerance{Kind: apst.ToleranceValue, Value: 100000},
	})
	require.NoError(t, err)
	return sim
}

func TestMeasureSimulatedPatchShape(t *testing.T) {
	start := time.Now()
	sim := simulation(t, 1, 0)
	s := patchSetup(t, sim, 0)
	res, err := measure.Run(context.Background(), s)
	require.NoError(t, err)
	require.Len(t, res.Rows, 2)

	// The 25 ms patch: p90 of the 100 ms row about 33.5 ms (ps4, 43 ms
	// advertised, x 0.78), of the 25 ms row about 3.6 ms (ps3, 4.6 ms).
	r100, r25 := res.Rows[0], res.Rows[1]
	assert.Equal(t, "ps-max-latency-us=100000", r100.ConfigText)
	assert.Equal(t, uint8(4), r100.State)
	assert.Equal(t, uint8(3), r25.State)
	assert.InEpsilon(t, 33.5, ms(r100.Latency.P90), 0.02)
	assert.InEpsilon(t, 3.6, ms(r25.Latency.P90), 0.03)
	for _, r := range res.Rows {
		assert.Equal(t, measure.DefaultTrials, r.Trials)
		assert.Equal(t, r.Trials, r.Kept)
	}
	assert.Equal(t, 2*measure.DefaultTrials, res.Warm.Count)
	assert.InDelta(t, 0.06, ms(res.Warm.P50), 0.001)

	// Both non-operational states exit at 78% of their advertised latency.
	require.Len(t, res.States, 2)
	for i, want := range []struct {
		state uint8
		exit  apst.Microseconds
	}{{3, 4600}, {4, 43000}} {
		st := res.States[i]
		assert.Equal(t, want.state, st.State)
		assert.Equal(t, want.exit, st.Advertised)
		assert.Equal(t, "0.78", st.Factor.String())
		assert.Equal(t, 60, st.Trials)
	}
	assert.Equal(t, "0.78", res.ExitFactor.String())
	assert.Equal(t, 120, res.ExitFactorTrials)
	f, err := analysis.ParseFactor(res.ExitFactor.String())
	require.NoError(t, err, "simulate --exit-factor reads it as it is")
	assert.Equal(t, res.ExitFactor, f)

	assert.True(t, res.Restored)
	assert.Zero(t, res.Discarded)
	assert.Greater(t, sim.Elapsed(), 6*time.Minute, "two settings x 60 trials x 3 s of virtual idle time")
	assert.Less(t, time.Since(start), time.Second)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func itoa(n int) string { return strconv.Itoa(n) }

// The patch's own table: five trials in six had not finished descending to
// ps4 inside the idle window, so the 100 ms row's median is a ps3 wake and
// its p90 a ps4 one; the trials that reached ps4 still give 0.78.
func TestMeasureSimulatedLateDescent(t *testing.T) {
	f, err := analysis.ParseFactor("0.78")
	require.NoError(t, err)
	sim, err := measure.NewSimulation(evoPlus(t), apst.DefaultParams(apst.Current), measure.SimulationOptions{
		ExitFactor: f, Seed: 1, Noise: 0.005, LateDescent: 5.0 / 6,
		Initial: apst.Tolerance{Kind: apst.ToleranceValue, Value: 100000},
	})
	require.NoError(t, err)
	res, err := measure.Run(context.Background(), patchSetup(t, sim, 0))
	require.NoError(t, err)
	r100, r25 := res.Rows[0], res.Rows[1]
	assert.InEpsilon(t, 3.6, ms(r100.Latency.P50), 0.03, "most wakes are from ps3")
	assert.InEpsilon(t, 33.5, ms(r100.Latency.P90), 0.02)
	assert.InEpsilon(t, 3.6, ms(r25.Latency.P90), 0.03)
	assert.InDelta(t, 50, r100.Shallow, 8, "about five in six")
	assert.Zero(t, r25.Shallow, "ps3 follows ps0 directly: never late")
	require.Len(t, res.States, 2)
	assert.Equal(t, 60-r100.Shallow, res.States[1].Trials, "the shallow trials are left out of ps4")
	assert.Equal(t, "0.78", res.States[1].Factor.String())
	assert.Equal(t, "0.78", res.ExitFactor.String())
	assert.Contains(t, res.Notes[len(res.Notes)-1], "woke too fast for ps4 (exit latency 43000us): the drive had not finished descending to it")
}
