package analysis_test

import (
	"fmt"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
)

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
