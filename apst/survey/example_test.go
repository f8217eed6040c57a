package survey_test

import (
	"fmt"
	"os"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/survey"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// A small fleet of four real drives (smartctl reports from the corpus), the
// Linux default bound against 25 ms: what changes, by how much, and the
// largest default that keeps every worst wake stall within 25 ms.
func ExampleSurvey() {
	var configs []analysis.Config
	for _, s := range []string{"ps-max-latency-us=100000", "ps-max-latency-us=25000"} {
		p, err := apst.ParseConfig(s, apst.DefaultParams(apst.Current))
		if err != nil {
			panic(err)
		}
		configs = append(configs, analysis.Config{Name: s, Params: p})
	}
	s, err := survey.NewWithOptions(survey.Options{KernelQuirks: true}, configs...)
	if err != nil {
		panic(err)
	}
	for _, name := range []string{
		"Samsung_SSD_990_EVO_Plus_1TB_2B2QKXG7.txt",
		"SKhynix_PC401_NVMe_512GB_80003E00.txt",
		"Kingston_SNV3S1000G_ERFK1N.3.txt",
		"Netac_NVMe_SSD_2TB_VB431D66.txt",
	} {
		f, err := os.Open("../../testdata/corpus/smartctl/" + name)
		if err != nil {
			panic(err)
		}
		c, err := capture.Parse(f) // any capture format
		f.Close()
		if err != nil {
			panic(err)
		}
		row, err := s.Add(name, &c) // the survey keeps a few numbers, not c
		if err != nil {
			panic(err)
		}
		a, b, ch := row.Results[0], row.Results[1], row.Changes[0]
		fmt.Printf("%-9s ps%d %5s -> ps%d %5s  %+7.1f mW  bars %s\n", row.Vendor,
			a.Reach.Deepest, a.Reach.WorstExitLatency, b.Reach.Deepest, b.Reach.WorstExitLatency, ch.PowerDelta.MilliWatts(), ch.Bars)
	}

	sum := s.Summary().Comparisons[0]
	fmt.Printf("%d of %d drives change; stall cut median %dus; idle power increase median %+.1f mW, max %+.1f mW\n",
		sum.Changed, sum.Drives, sum.StallReduction.Median, float64(sum.PowerIncrease.Median)/1000, float64(sum.PowerIncrease.Max)/1000)
	fmt.Println("left with no idle state:", sum.BarsAll)

	budget := s.StallBudget(25000)
	fmt.Printf("largest default within 25000us: %s, set by %v\n", budget.Bound, budget.Binding)
	// Output:
	// Samsung   ps4 43000us -> ps3 4600us    +73.0 mW  bars some
	// SK hynix  ps4 5000us -> ps4 5000us     +0.0 mW  bars none
	// Kingston  ps3 50000us -> ps0   0us  +4700.0 mW  bars all
	// Netac     ps4 30000us -> ps3 8000us   +491.0 mW  bars some
	// 3 of 4 drives change; stall cut median 38400us; idle power increase median +491.0 mW, max +4700.0 mW
	// left with no idle state: [Kingston_SNV3S1000G_ERFK1N.3.txt]
	// largest default within 25000us: 29999us, set by [Netac_NVMe_SSD_2TB_VB431D66.txt]
}

// Two shards of a fleet, surveyed apart (say on two machines), merge into
// exactly the survey of the whole fleet: here the shards' rows travel as
// records, as apstctl's JSON report carries them.
func ExampleSurvey_Merge() {
	var configs []analysis.Config
	for _, s := range []string{"ps-max-latency-us=100000", "ps-max-latency-us=25000"} {
		p, err := apst.ParseConfig(s, apst.DefaultParams(apst.Current))
		if err != nil {
			panic(err)
		}
		configs = append(configs, analysis.Config{Name: s, Params: p})
	}
	shard := func(names ...string) []survey.Record {
		s, err := survey.New(configs...)
		if err != nil {
			panic(err)
		}
		var recs []survey.Record
		for _, name := range names {
			b, err := os.ReadFile("../../testdata/corpus/smartctl/" + name)
			if err != nil {
				panic(err)
			}
			c, err := capture.ParseBytes(b)
			if err != nil {
				panic(err)
			}
			row, err := s.Add(name, &c)
			if err != nil {
				panic(err)
			}
			recs = append(recs, row.Record())
		}
		return recs
	}
	a := shard("Samsung_SSD_990_EVO_Plus_1TB_2B2QKXG7.txt", "SKhynix_PC401_NVMe_512GB_80003E00.txt")
	b := shard("Kingston_SNV3S1000G_ERFK1N.3.txt", "Netac_NVMe_SSD_2TB_VB431D66.txt")

	fleet, err := survey.New(configs...)
	if err != nil {
		panic(err)
	}
	for _, rec := range append(a, b...) {
		if err := fleet.AddRecord(rec); err != nil {
			panic(err)
		}
	}
	sum := fleet.Summary().Comparisons[0]
	fmt.Printf("%d drives, %d change; stall cut median %dus; power increase total %+.1f mW\n",
		sum.Drives, sum.Changed, sum.StallReduction.Median, float64(sum.PowerIncrease.Sum)/1000)
	budget := fleet.StallBudget(25000)
	fmt.Printf("largest default within 25000us: %s\n", budget.Bound)
	// Output:
	// 4 drives, 3 change; stall cut median 38400us; power increase total +5264.0 mW
	// largest default within 25000us: 29999us
}

// What a drive's answers assumed, by kind: a smartctl report records
// neither APSTA nor the PCI ID (inferred from the model), no kernel release
// was given (it decides the Intel 600p's quirk entry) and the machine is
// unknown (only the Lenovo N60z rule, which takes every drive of that
// machine, could apply: no caveat of this drive). A fleet report counts
// these kinds; Plan.Assumptions says them in sentences.
func ExampleRow_assumed() {
	configs := []analysis.Config{
		{Name: "default", Params: apst.DefaultParams(apst.Current)},
		{Name: "25ms", Params: apst.Params{Generation: apst.Current, Bound: 25000}},
	}
	s, err := survey.NewWithOptions(survey.Options{KernelQuirks: true}, configs...)
	if err != nil {
		panic(err)
	}
	b, err := os.ReadFile("../../testdata/corpus/smartctl/Intel_SSDPEKKW256G7_PSF109C.txt")
	if err != nil {
		panic(err)
	}
	c, err := capture.ParseBytes(b)
	if err != nil {
		panic(err)
	}
	row, err := s.Add("intel-600p", &c)
	if err != nil {
		panic(err)
	}
	for _, k := range []struct {
		kind survey.Assumed
		name string
	}{{survey.AssumedAPSTA, "APSTA"}, {survey.AssumedRelease, "release"}, {survey.AssumedBase, "stable base"}, {survey.AssumedDMI, "DMI"}} {
		fmt.Printf("%s assumed: %v\n", k.name, row.Assumed&k.kind != 0)
	}
	fmt.Println(row.QuirksInferredFrom)
	// Output:
	// APSTA assumed: true
	// release assumed: true
	// stable base assumed: false
	// DMI assumed: false
	// PCI ID 8086:f1a5 inferred from the model "INTEL SSDPEKKW256G7" (Intel 600p, VID 0x8086, model "INTEL SSDPEKKW*" ending in G7 or T7; high confidence)
}
