package nvmeapst_test

import (
	"context"
	"fmt"
	"log"

	nvmeapst "github.com/nvmeapst/nvmeapst"
)

// Inspect a bundle collected on a machine whose Samsung 990 EVO Plus (nvme2)
// was set to a 25 ms bound, but still holds the table of the 100 ms module
// default. On a live machine, use nvmeapst.Live() instead of OpenRoot.
func ExampleSystem_Inspect() {
	sys, err := nvmeapst.OpenRoot("testdata/bundle")
	if err != nil {
		log.Fatal(err)
	}
	report, err := sys.Inspect(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("kernel", report.KernelRelease, "algorithm", report.Generation)
	for _, c := range report.Controllers {
		fmt.Printf("%s %s: quirks %s, bound %s (%s), verdict %s\n",
			c.Name, c.Sysfs.Model, c.Quirks.APST(), c.Bound, c.BoundSource, c.Verdict.Status)
		for _, d := range c.Verdict.Differences {
			fmt.Printf("  ps%d: kernel %s, drive %s\n", d.State, d.Expected, d.Drive)
		}
		if len(c.Verdict.Causes) > 0 {
			fmt.Println("  likely cause:", c.Verdict.Causes[0].Kind)
		}
	}
	// Output:
	// kernel 6.8.0-fixture algorithm current
	// nvme0 INTEL SSDPEKKW256G7: quirks no-deepest-ps, bound 100000us (module-default), verdict match
	// nvme1 Samsung SSD 960 EVO 500GB: quirks no-apst, bound 0us (apst-disabled), verdict match
	// nvme2 Samsung SSD 990 EVO Plus 1TB: quirks none, bound 25000us (pm-qos), verdict mismatch
	//   ps3: kernel -, drive ->ps4@2000ms
	//   likely cause: bound-changed
}
