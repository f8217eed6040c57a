package nvmeapst_test

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/analysis/trace"
	"github.com/nvmeapst/nvmeapst/apst/measure"
	"github.com/nvmeapst/nvmeapst/apst/survey"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// The pure packages are safe for concurrent use: 32 goroutines call every
// pure API on the same inputs (one capture's bytes, one Controller, one
// Params, one Survey) at once. Run with -race (CI does); without it, the
// test still checks that every goroutine gets the same answers.
func TestPureAPIsConcurrently(t *testing.T) {
	img := testfixture.ReadFile(t, testfixture.Samsung990EVOPlus)
	ctl, err := capture.ParseBytes(img)
	require.NoError(t, err)
	var text bytes.Buffer
	require.NoError(t, capture.WriteNVMeCLIText(&text, &ctl))
	textBytes := text.Bytes()
	params := apst.DefaultParams(apst.Current)
	plan, err := apst.Build(&ctl, params)
	require.NoError(t, err)
	drive := apst.Feature{APSTE: apst.APSTEOf(plan.Enabled), Table: plan.Table}
	configs := []analysis.Config{{Name: "100ms", Params: params}, {Name: "25ms", Params: params}}
	configs[1].Params.Bound = 25000
	shared, err := survey.New(configs...)
	require.NoError(t, err)
	const traceText = "0.0\n0.5\n3.0\n9.0 0.0002\n"
	gaps := []apst.Microseconds{50_000, 500_000, 3_000_000}

	type answer struct {
		plan  apst.Plan
		maxPS int
		stall apst.Microseconds
		match bool
	}
	work := func(i int) (answer, error) {
		var a answer
		c, err := capture.Parse(bytes.NewReader(img))
		if err != nil {
			return a, err
		}
		if _, err := capture.ParseBytes(textBytes); err != nil {
			return a, err
		}
		if _, err := powerstate.DecodeIdentify(img); err != nil {
			return a, err
		}
		_ = capture.DetectFormat(textBytes)
		var w bytes.Buffer
		for _, write := range []func(*bytes.Buffer, *powerstate.Controller) error{
			func(b *bytes.Buffer, c *powerstate.Controller) error { return capture.WriteNVMeCLIText(b, c) },
			func(b *bytes.Buffer, c *powerstate.Controller) error { return capture.WriteNVMeCLIJSON(b, c) },
			func(b *bytes.Buffer, c *powerstate.Controller) error { return capture.WriteSmartctlText(b, c) },
		} {
			w.Reset()
			if err := write(&w, &ctl); err != nil {
				return a, err
			}
		}
		if _, err := ctl.MarshalBinary(); err != nil {
			return a, err
		}
		p, err := apst.Build(&ctl, params)
		if err != nil {
			return a, err
		}
		a.plan, a.maxPS = p, p.MaxPS
		if _, err := apst.ParseConfig("ps-max-latency-us=25000,kernel=6.8", params); err != nil {
			return a, err
		}
		_ = apst.DriveQuirks(&c, apst.Release{})
		if _, err := apst.ParseTolerance("auto"); err != nil {
			return a, err
		}
		if _, err := analysis.Sweep(&ctl, params); err != nil {
			return a, err
		}
		if _, err := analysis.Compare(&ctl, configs...); err != nil {
			return a, err
		}
		sim, err := analysis.Simulate(&ctl, &plan.Table, gaps, analysis.SimOptions{})
		if err != nil {
			return a, err
		}
		_ = sim
		_ = analysis.Reachability(&ctl, &plan.Table)
		_ = analysis.IdleTimeline(&ctl, &plan.Table, 0)
		if _, err := analysis.Recommend(&ctl, params, analysis.StallGoal(10_000)); err != nil {
			return a, err
		}
		v, err := analysis.Check(&ctl, params, drive)
		if err != nil {
			return a, err
		}
		a.match = v.Match
		r, err := trace.NewReader(strings.NewReader(traceText), trace.Options{})
		if err != nil {
			return a, err
		}
		rep, err := analysis.Replay(&ctl, r, analysis.ReplayConfig{Name: "default", Params: params})
		if err != nil {
			return a, err
		}
		a.stall = rep.Configs[0].StallTotal
		if _, err := shared.Add("drive", &ctl); err != nil {
			return a, err
		}
		_ = shared.Summary()
		_ = shared.StallBudget(10_000)
		ms, err := measure.NewSimulation(&ctl, params, measure.SimulationOptions{Seed: uint64(i), ExitFactor: analysis.Factor{Num: 1, Den: 1},
			Initial: apst.Tolerance{Kind: apst.ToleranceValue, Value: 100000}})
		if err != nil {
			return a, err
		}
		setup := ms.Setup()
		setup.Configs = []measure.Config{{Text: "default", Params: params}}
		setup.Idle, setup.Trials = []time.Duration{3 * time.Second}, 2
		if _, err := measure.Run(context.Background(), setup); err != nil {
			return a, err
		}
		return a, nil
	}

	const n = 32
	answers := make([]answer, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i], errs[i] = work(i)
		}()
	}
	wg.Wait()
	for i := range n {
		require.NoError(t, errs[i], "goroutine %d", i)
		require.Equal(t, answers[0], answers[i], "goroutine %d", i)
	}
	require.Equal(t, n, shared.Len(), "every Add counted once")
}
