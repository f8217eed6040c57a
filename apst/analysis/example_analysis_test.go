package analysis_test

import (
	"fmt"
	"math/rand/v2"
	"os"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// exampleController decodes an Identify Controller image of the test corpus.
func exampleController(path string) *powerstate.Controller {
	img, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	c, err := powerstate.DecodeIdentify(img)
	if err != nil {
		panic(err)
	}
	return &c
}

// Every bound a Samsung SSD 990 EVO Plus can be given, in four intervals:
// any value from 4600 to 42999 us behaves identically.
func ExampleSweep() {
	c := exampleController("../../testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin")
	sw, err := analysis.Sweep(c, apst.DefaultParams(apst.Current))
	if err != nil {
		panic(err)
	}
	for _, iv := range sw.Intervals {
		fmt.Printf("%-16s max_ps %2d  worst exit %7s  ps0 %s\n",
			analysis.BoundRange{Min: iv.Min, Max: iv.Max}, iv.MaxPS(), iv.Reach.WorstExitLatency, iv.Plan.Table[0])
	}
	// Output:
	// 0..0             max_ps -1  worst exit     0us  ps0 -
	// 1..4599          max_ps -1  worst exit     0us  ps0 -
	// 4600..42999      max_ps  3  worst exit  4600us  ps0 ->ps3@100ms
	// 43000..unlimited max_ps  4  worst exit 43000us  ps0 ->ps3@100ms
}

// The question of docs/should-the-default-be-25ms.md on the 990 EVO Plus: 100 ms against 25 ms.
func ExampleCompare() {
	c := exampleController("../../testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin")
	var configs []analysis.Config
	for _, s := range []string{"ps-max-latency-us=100000", "policy=linux-25ms"} {
		p, err := apst.ParseConfig(s, apst.DefaultParams(apst.Current))
		if err != nil {
			panic(err)
		}
		configs = append(configs, analysis.Config{Name: s, Params: p})
	}
	cmp, err := analysis.Compare(c, configs...)
	if err != nil {
		panic(err)
	}
	for _, r := range cmp.Configs {
		fmt.Printf("%s: deepest ps%d (%s), worst wake stall %s\n",
			r.Config.Name, r.Reach.Deepest, r.DeepestMaxPower, r.Reach.WorstExitLatency)
	}
	fmt.Printf("idle power delta: %+.1f mW\n", cmp.PowerDelta.MilliWatts())
	for _, d := range cmp.Differences {
		fmt.Println(d)
	}
	// Output:
	// ps-max-latency-us=100000: deepest ps4 (0.0070W), worst wake stall 43000us
	// policy=linux-25ms: deepest ps3 (0.0800W), worst wake stall 4600us
	// idle power delta: +73.0 mW
	// max-ps: 4 -> 3
	// max-round-trip-latency: 44600us -> 6200us
	// deepest-state: ps4 -> ps3
	// deepest-state-max-power: 0.0070W -> 0.0800W
	// worst-exit-latency: 43000us -> 4600us
	// entry 3: ->ps4@2000ms -> -
}

// The idle timeline of the 990 EVO Plus at the default bound, and what
// exponentially distributed idle gaps (mean 500 ms) cost, with the exit
// factor 0.78 measured on that drive and a 150 us CPU wake.
func ExampleSimulate() {
	c := exampleController("../../testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin")
	plan, err := apst.Build(c, apst.DefaultParams(apst.Current))
	if err != nil {
		panic(err)
	}
	for _, st := range analysis.IdleTimeline(c, &plan.Table, 0) {
		fmt.Printf("ps%d from %s\n", st.State, st.From.Duration())
	}
	factor, err := analysis.ParseFactor("0.78")
	if err != nil {
		panic(err)
	}
	opt := analysis.SimOptions{ExitFactor: analysis.ExitFactors{Default: factor}, CPUWake: 150}
	gaps, err := analysis.GapDistribution{Kind: analysis.GapExponential, Mean: 500000}.
		Sample(rand.New(rand.NewPCG(1, 2)), 10000)
	if err != nil {
		panic(err)
	}
	sim, err := analysis.Simulate(c, &plan.Table, gaps, opt)
	if err != nil {
		panic(err)
	}
	fmt.Println("after 3s:", sim.WakeAfter(3000000).Penalty, "penalty")
	fmt.Printf("p50 %s p90 %s p99 %s max %s\n", sim.P50, sim.P90, sim.P99, sim.Max)
	fmt.Printf("wakes in ps0/ps3/ps4: %d/%d/%d\n", sim.Wakes[0], sim.Wakes[3], sim.Wakes[4])
	fmt.Printf("average idle power %.4f W\n", float64(sim.AverageIdlePower)/1e6)
	// Output:
	// ps0 from 0s
	// ps3 from 100ms
	// ps4 from 2.1s
	// after 3s: 33690us penalty
	// p50 3738us p90 3738us p99 33690us max 33690us
	// wakes in ps0/ps3/ps4: 1757/8100/143
	// average idle power 1.1531 W
}

// A host configuration chose 5500 us for an SK hynix PC401 to bar ps4
// (ENLAT+EXLAT 1000+5000 us). The kernel compares the bound with the exit
// latency alone.
func ExampleRecommend() {
	c := exampleController("../../testdata/corpus/binary/synthetic/SKhynix_PC401_NVMe_512GB_80003E00.id-ctrl.bin")
	p := apst.DefaultParams(apst.Current)
	p.Bound = 5500
	rec, err := analysis.Recommend(c, p, analysis.BarGoal(4))
	if err != nil {
		panic(err)
	}
	fmt.Println("bar ps4 with any bound in", rec.Recommended, "keeping", rec.Kept.String())
	fmt.Println("5500 meets the goal:", rec.Current.Meets)
	for _, why := range rec.Current.Why {
		fmt.Println(why)
	}
	// Output:
	// bar ps4 with any bound in [1000..4999] keeping ps3
	// 5500 meets the goal: false
	// ps4 is reachable at bound 5500us: its exit latency 5000us is within the bound (the kernel compares the bound with EXLAT alone; ENLAT+EXLAT is 6000us)
}

// A Samsung SSD 990 EVO Plus believed to run with a bound of 25000 us holds
// the 100 ms default's table (ps3 ->ps4 after 2000 ms): one entry differs,
// and the given parameters reproduce it for every bound from 43000 us on.
func ExampleCheck() {
	c := exampleController("../../testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin")
	p := apst.DefaultParams(apst.Current)
	p.Bound = 25000
	drive := apst.Feature{APSTE: apst.APSTEEnabled, Table: apst.Table{
		apst.NewEntry(3, 100), apst.NewEntry(3, 100), apst.NewEntry(3, 100), apst.NewEntry(4, 2000),
	}}
	v, err := analysis.Check(c, p, drive)
	if err != nil {
		panic(err)
	}
	fmt.Println("match:", v.Match)
	for _, d := range v.Differences {
		fmt.Printf("ps%d: expected %s, drive %s\n", d.State, d.Expected, d.Drive)
	}
	for _, r := range v.ReproducedBy {
		fmt.Printf("%s..%s %s (%s)\n", r.Min, r.Max, r.Params, r.Reason)
	}
	// Output:
	// match: false
	// ps3: expected -, drive ->ps4@2000ms
	// 43000us..unlimited kernel=current,ps-max-latency-us=100000 (ps_max_latency_us 43000us..unlimited instead of 25000us)
}
