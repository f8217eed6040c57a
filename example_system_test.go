package nvmeapst_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	nvmeapst "github.com/nvmeapst/nvmeapst"
)

// Diagnose a controller failure from a kernel log pasted from a bug report:
// the causes are ranked, each with the lines that speak for it and the
// cheapest test that confirms or rules it out. On a live machine, leave
// DiagnoseOptions.Log nil to read the machine's own log (/dev/kmsg).
func ExampleSystem_Diagnose() {
	sys, err := nvmeapst.OpenRoot("testdata/bundle")
	if err != nil {
		log.Fatal(err)
	}
	pasted := "[  120.000001] nvme nvme2: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff\n" +
		"[  120.000002] nvme nvme2: Does your device have a faulty power saving mode enabled?\n" +
		"[  120.000003] nvme nvme2: Try \"nvme_core.default_ps_max_latency_us=0 pcie_aspm=off pcie_port_pm=off\" and report a bug\n" +
		"[  120.100000] nvme 0000:04:00.0: Unable to change power state from D3cold to D0, device inaccessible\n" +
		"[  120.200000] nvme nvme2: Removing after probe failure status: -19\n"
	d, err := sys.Diagnose(context.Background(), nvmeapst.DiagnoseOptions{Controller: "nvme2", Log: strings.NewReader(pasted)})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(d.Controller, "failure:", d.Failure)
	fmt.Println(d.Summary)
	for _, c := range d.Causes[:2] {
		fmt.Printf("%s: %s; test: %s\n", c.Layer, c.Likelihood, c.Tests[0].Action)
	}
	// Output:
	// nvme2 failure: true
	// nvme2: undecided between apst and aspm (line 1 fits both). To tell them apart: boot with nvme_core.default_ps_max_latency_us=0 alone (ASPM and runtime PM as they are) for as long as the drive used to last: another failure rules APST out, none points at it.
	// apst: possible; test: turn APST off for this controller only, until reboot, and wait as long as the drive used to last
	// aspm: possible; test: turn L1.2 off on this link only (where the kernel exposes it), until reboot
}

// Collect a machine into a bundle, a folder to attach to a bug report, and
// open it elsewhere: it inspects as the machine did. The machine here is a
// fixture sysfs tree; on a live one, use nvmeapst.Live().
func ExampleSystem_Collect() {
	sys, err := nvmeapst.OpenRoot("testdata/sys")
	if err != nil {
		log.Fatal(err)
	}
	tmp, err := os.MkdirTemp("", "bundle")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	dir := filepath.Join(tmp, "bundle")
	if _, err := sys.Collect(context.Background(), dir); err != nil {
		log.Fatal(err)
	}
	bundle, man, err := nvmeapst.OpenBundle(dir)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(man.Format, "version", man.Version, "with", len(man.Controllers), "controllers")
	report, err := bundle.Inspect(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range report.Controllers {
		fmt.Printf("%s %s: bound %s (%s)\n", c.Name, c.Sysfs.Model, c.Bound, c.BoundSource)
	}
	// Output:
	// nvmeapst-bundle version 1 with 3 controllers
	// nvme0 INTEL SSDPEKKW256G7: bound 100000us (module-default)
	// nvme1 Samsung SSD 960 EVO 500GB: bound 0us (apst-disabled)
	// nvme2 Samsung SSD 990 EVO Plus 1TB: bound 25000us (pm-qos)
}
