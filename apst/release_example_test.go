package apst_test

import (
	"fmt"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

func ExampleParseRelease() {
	for _, s := range []string{"5.15.0-91-generic", "v7.1", "4.12", "4.4"} {
		r, err := apst.ParseRelease(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		g, err := r.Generation()
		fmt.Println(s, "->", r, g, err)
	}
	// Output:
	// 5.15.0-91-generic -> 5.15.0-distro current <nil>
	// v7.1 -> 7.1 current <nil>
	// 4.12 -> 4.12 v4.12 <nil>
	// 4.4 -> 4.4 unset apst: unknown kernel generation: Linux 4.4 has no APST (it arrived in v4.11)
}

// A capture of an Intel 600p carries no PCI device ID; the model identifies
// it, so the 8086:f1a5 entry applies, by inference, in every release since
// v4.12.
func ExampleDriveQuirks() {
	c := powerstate.Controller{VendorID: 0x8086, Model: "INTEL SSDPEKKW256G7"}
	copy(c.ModelField[:], "INTEL SSDPEKKW256G7                     ")
	m := apst.DriveQuirks(&c, apst.Release{Major: 6, Minor: 8})
	fmt.Println(m.APST(), m.InferredPCI)
	for _, n := range m.Notes {
		fmt.Println(n)
	}
	// Output:
	// no-deepest-ps 8086:f1a5
	// PCI ID inferred as 8086:f1a5 from model "INTEL SSDPEKKW256G7" (Intel 600p, VID 0x8086, model "INTEL SSDPEKKW*" ending in G7 or T7; high confidence)
	// DMI rules not checked: the machine is unknown (a capture carries no DMI data)
}

// The Solidigm P44 Pro's entry came in v6.15 (5.15.185 for 5.15): kernel=5.15
// and kernel=7.1 plan the drive differently.
func ExampleQuirkTables() {
	for _, s := range []string{"5.15", "5.15.185", "7.1"} {
		r, _ := apst.ParseRelease(s)
		n := 0
		for _, e := range apst.QuirkTables(r) {
			if e.Table == "pci_id_table" {
				n++
			}
		}
		fmt.Printf("Linux %s: %d PCI entries with NO_DEEPEST_PS\n", r, n)
	}
	// Output:
	// Linux 5.15: 4 PCI entries with NO_DEEPEST_PS
	// Linux 5.15.185: 8 PCI entries with NO_DEEPEST_PS
	// Linux 7.1: 10 PCI entries with NO_DEEPEST_PS
}

func ExampleParams_String() {
	p, _ := apst.ParseConfig("kernel=5.15.0-91-generic,pm-qos=25000,quirks=no-deepest-ps", apst.DefaultParams(apst.Current))
	fmt.Println(p)
	fmt.Println(apst.DefaultParams(apst.V4_12))
	// Output:
	// kernel=5.15.0-distro,ps-max-latency-us=25000,quirks=no-deepest-ps
	// kernel=v4.12,ps-max-latency-us=100000
}

func ExampleParseQuirkOverrides() {
	ovs, err := apst.ParseQuirkOverrides("8086:f1a5:^no_deepest_ps-126f:2262:no_apst")
	fmt.Println(ovs, err)
	m := apst.LookupQuirks(apst.Identity{VendorID: 0x8086, PCI: apst.PCIID{Vendor: 0x8086, Device: 0xf1a5},
		Release: apst.Release{Major: 7, Minor: 1}, Override: "8086:f1a5:^no_deepest_ps"})
	fmt.Println(m.APST(), m.Overridden, m.Override)
	// Output:
	// [8086:f1a5:^no_deepest_ps 126f:2262:no_apst] <nil>
	// none true 8086:f1a5:^no_deepest_ps
}
