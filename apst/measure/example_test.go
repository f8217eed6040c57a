package measure_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/measure"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// The 25 ms patch's measurement on a simulated 990 EVO Plus whose states
// exit at 78% of their advertised latency: after 3 s idle, the 100 ms bound
// meets ps4 (43 ms advertised, 33.5 ms real) and 25 ms meets ps3 (4.6 ms,
// 3.6 ms); the measured factor is what simulate --exit-factor takes.
func ExampleRun() {
	b, err := os.ReadFile("../../testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin")
	if err != nil {
		panic(err)
	}
	c, err := powerstate.DecodeIdentify(b)
	if err != nil {
		panic(err)
	}
	base := apst.DefaultParams(apst.Current)
	factor, _ := analysis.ParseFactor("0.78")
	sim, err := measure.NewSimulation(&c, base, measure.SimulationOptions{
		ExitFactor: factor, Seed: 1, Noise: 0.005,
		Initial: apst.Tolerance{Kind: apst.ToleranceValue, Value: 100000},
	})
	if err != nil {
		panic(err)
	}
	s := sim.Setup()
	for _, text := range []string{"ps-max-latency-us=100000", "ps-max-latency-us=25000"} {
		p, err := apst.ParseConfig(text, base)
		if err != nil {
			panic(err)
		}
		s.Configs = append(s.Configs, measure.Config{Text: text, Params: p})
	}
	s.Idle = []time.Duration{3 * time.Second}
	res, err := measure.Run(context.Background(), s)
	if err != nil {
		panic(err)
	}
	for _, r := range res.Rows {
		fmt.Printf("%s: ps%d, p90 %.1f ms over %d trials\n", r.ConfigText, r.State, float64(r.Latency.P90)/1e6, r.Kept)
	}
	for _, st := range res.States {
		fmt.Printf("ps%d: %s advertised, factor %s\n", st.State, st.Advertised, st.Factor)
	}
	fmt.Println("--exit-factor", res.ExitFactor, "restored:", res.Restored)
	// Output:
	// ps-max-latency-us=100000: ps4, p90 33.7 ms over 60 trials
	// ps-max-latency-us=25000: ps3, p90 3.7 ms over 60 trials
	// ps3: 4600us advertised, factor 0.78
	// ps4: 43000us advertised, factor 0.78
	// --exit-factor 0.78 restored: true
}
