package sysfs_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/nvmeapst/nvmeapst/sysfs"
)

// Read the controllers of the module's fixture tree, the bound the kernel uses for each,
// and where it has APST disabled.
func Example() {
	fs, err := sysfs.NewFS("../testdata/sys")
	if err != nil {
		log.Fatal(err)
	}
	m, err := fs.ModuleParams()
	if err != nil {
		log.Fatal(err)
	}
	ctrls, err := fs.Controllers()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("kernel:", m.Generation())
	for _, c := range ctrls {
		if !c.APSTEnabled() {
			fmt.Printf("%s %s (%s): APST disabled by the kernel\n", c.Name, c.Model, c.PCI)
			continue
		}
		p := sysfs.Params(m, c)
		fmt.Printf("%s %s (%s): tolerance %s, bound %s, %s mode\n",
			c.Name, c.Model, c.PCI, c.Tolerance, p.Bound, p.Mode())
	}
	// Output:
	// kernel: current
	// nvme0 INTEL SSDPEKKW256G7 (8086:f1a5): tolerance 100000, bound 100000us, tolerance mode
	// nvme1 Samsung SSD 960 EVO 500GB (144d:a804): APST disabled by the kernel
	// nvme2 Samsung SSD 990 EVO Plus 1TB (144d:a80d): tolerance 25000, bound 25000us, tolerance mode
}

// Set a controller's latency tolerance on a copy of the fixture: the value
// is validated, written and read back.
func ExampleFS_SetLatencyTolerance() {
	root, cleanup := copyOfFixture("../testdata/sys")
	defer cleanup()
	fs, err := sysfs.NewFS(root)
	if err != nil {
		log.Fatal(err)
	}
	old, now, err := fs.SetLatencyTolerance("nvme0", "25000")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("nvme0: %s -> %s\n", old, now)

	_, _, err = fs.SetLatencyTolerance("nvme0", "-5")
	fmt.Println(err != nil)
	// Output:
	// nvme0: 100000 -> 25000
	// true
}

// copyOfFixture copies the fixture tree at name to a temporary directory, so that the
// example can write to it, and returns its root and a function removing it.
func copyOfFixture(name string) (string, func()) {
	dir, err := os.MkdirTemp("", "sysfs-example-")
	if err != nil {
		log.Fatal(err)
	}
	dst := filepath.Join(dir, filepath.Base(name))
	if err := os.CopyFS(dst, os.DirFS(name)); err != nil {
		log.Fatal(err)
	}
	return dst, func() { os.RemoveAll(dir) }
}

// Read the quirks a Linux 7.0 kernel reports: the nvme.quirks= overrides
// and, per controller, the quirks in force.
func ExampleFS_QuirksParam() {
	fs, err := sysfs.NewFS("testdata/v7")
	if err != nil {
		log.Fatal(err)
	}
	q, err := fs.QuirksParam()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("nvme.quirks=%s: %d override(s), clear %v on %s\n", q.Raw, len(q.Overrides), q.Overrides[0].Clear, q.Overrides[0].ID)
	ctrls, err := fs.Controllers()
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range ctrls {
		fmt.Printf("%s (%s): quirks %q, APST enabled: %v\n", c.Name, c.PCI, c.Quirks, c.APSTEnabled())
	}
	// Output:
	// nvme.quirks=144d:a804:^no_apst: 1 override(s), clear no-apst on 144d:a804
	// nvme0 (8086:f1a5): quirks ["no_deepest_ps" "medium_prio_sq" "no_temp_thresh_change" "disable_write_zeroes"], APST enabled: true
	// nvme1 (144d:a804): quirks [], APST enabled: true
}
