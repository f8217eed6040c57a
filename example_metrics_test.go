package nvmeapst_test

import (
	"context"
	"fmt"
	"log"

	nvmeapst "github.com/nvmeapst/nvmeapst"
)

// Scrape a bundle the way an exporter scrapes a machine: a MetricsReader
// reads every source again on each Read, reusing its buffers. nvme2 holds
// the 100 ms table under its 25 ms bound; nvme1's APST is disabled by a
// quirk, so it has no bound to publish.
func ExampleMetricsReader() {
	sys, err := nvmeapst.OpenRoot("testdata/bundle")
	if err != nil {
		log.Fatal(err)
	}
	r := sys.NewMetricsReader()
	defer r.Close()
	var snap nvmeapst.MetricsSnapshot
	if err := r.Read(context.Background(), &snap); err != nil {
		log.Fatal(err)
	}
	for _, c := range snap.Controllers {
		bound := "none"
		if c.ToleranceSeconds.Present {
			bound = fmt.Sprint(c.ToleranceSeconds.Value, "s")
		}
		fmt.Printf("%s: APST enabled %v, bound %s, deepest ps%v, holds the kernel's table: %s\n",
			c.Name, c.APSTEnabled.Value == 1, bound, c.DeepestState.Value, c.Holding)
	}
	// Output:
	// nvme0: APST enabled true, bound 0.1s, deepest ps3, holds the kernel's table: match
	// nvme1: APST enabled false, bound none, deepest ps0, holds the kernel's table: match
	// nvme2: APST enabled true, bound 0.025s, deepest ps3, holds the kernel's table: mismatch
}
