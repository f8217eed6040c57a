package udev_test

import (
	"fmt"
	"log"

	"github.com/nvmeapst/nvmeapst/apst/persist/udev"
)

// Check what a rule meant to keep a 25 ms bound does to two drives: it
// reaches the 990 EVO Plus it names, and not the other model.
func ExampleRules_Apply() {
	rules, err := udev.ParseRules(`ACTION=="add|change", SUBSYSTEM=="nvme", KERNEL=="nvme[0-9]*", ` +
		`ATTR{model}=="Samsung SSD 990 EVO Plus*", ATTR{power/pm_qos_latency_tolerance_us}="25000"`)
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range []udev.Drive{
		{Name: "nvme0", Model: "Samsung SSD 990 EVO Plus 1TB", HasTolerance: true},
		{Name: "nvme1", Model: "INTEL SSDPEKKW256G7", HasTolerance: true},
	} {
		w, ok := udev.Tolerance(rules.Apply(d))
		fmt.Printf("%s %s: writes %v %q\n", d.Name, d.Model, ok, w.Value)
	}
	// Output:
	// nvme0 Samsung SSD 990 EVO Plus 1TB: writes true "25000"
	// nvme1 INTEL SSDPEKKW256G7: writes false ""
}
