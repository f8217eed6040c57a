package nvmeapst_test

import (
	"fmt"
	"log"
	"os"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// The README's Go example, line for line (TestReadmeExample checks that the
// README shows exactly this body): the kernel's plan for the Intel 600p,
// whose NO_DEEPEST_PS quirk the default Params apply, and for the Samsung
// 990 EVO Plus at a 25 ms bound.
func Example_readme() {
	img, err := os.ReadFile("testdata/identify/intel-ssdpekkw256g7-PSF109C.bin") // nvme id-ctrl -b /dev/nvme0 > id-ctrl.bin
	if err != nil {
		log.Fatal(err)
	}
	c, err := powerstate.DecodeIdentify(img)
	if err != nil {
		log.Fatal(err) // e.g. "powerstate: identify controller image is 4000 bytes, want exactly 4096"
	}
	plan, err := apst.Build(&c, apst.DefaultParams(apst.Current)) // v5.14+ defaults and the kernel's quirk tables
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(plan.MaxPS, plan.Quirks.Applied.APST()) // 3 no-deepest-ps: the kernel keeps the 600p out of ps4
	for _, note := range plan.Assumptions(&c).Notes() {
		fmt.Println("note:", note) // what the capture could not say: PCI ID inferred, release, machine
	}

	img, err = os.ReadFile("testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin")
	if err != nil {
		log.Fatal(err)
	}
	if c, err = powerstate.DecodeIdentify(img); err != nil {
		log.Fatal(err)
	}
	p := apst.DefaultParams(apst.Current) // v5.14+: bound 100000 µs, 100 ms/15 ms and 2000 ms/100 ms bands
	p.Bound = 25000                       // what `echo 25000 > power/pm_qos_latency_tolerance_us` sets
	if plan, err = apst.Build(&c, p); err != nil {
		log.Fatal(err)
	}
	fmt.Println(plan.MaxPS, plan.Table[0]) // 3 ->ps3@100ms
	fmt.Println(plan.Explain(&c, 4))       // exit latency 43000us > bound 25000us
	fmt.Println(plan.KernelLog())          // APST enabled: max PS = 3, max round-trip latency = 6200us, table = ...
	// Output:
	// 3 no-deepest-ps
	// note: kernel release unknown: assumed the newest quirk tables (Linux 7.3); the release decides 8086:f1a5 Intel 600P/P3100 (no-deepest-ps; since 4.12)
	// note: PCI ID inferred as 8086:f1a5 from model "INTEL SSDPEKKW256G7" (Intel 600p, VID 0x8086, model "INTEL SSDPEKKW*" ending in G7 or T7; high confidence)
	// 3 ->ps3@100ms
	// exit latency 43000us > bound 25000us
	// APST enabled: max PS = 3, max round-trip latency = 6200us, table = 18640000000000001864000000000000186400000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000
}
