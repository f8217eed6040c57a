package apst_test

import (
	"os"
	"testing"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// npss31Controller has 32 non-operational states with varied latencies, the
// longest walk Build can make.
func npss31Controller() powerstate.Controller {
	var c powerstate.Controller
	c.NPSS, c.APSTA = 31, 1
	for i := range c.PowerStates {
		d := &c.PowerStates[i]
		d.NonOperational = true
		d.EntryLatency = powerstate.Microseconds(i * 700)
		d.ExitLatency = powerstate.Microseconds((i * 3100) % 97000)
	}
	return c
}

// BenchmarkBuild measures the kernel replica. The plain sub-benchmarks build
// into a Plan the caller keeps (BuildTo), as a C implementation writes into
// a caller's struct; the "-by-value" ones call Build, whose result (several
// hundred bytes) the caller copies. Both allocate nothing.
func BenchmarkBuild(b *testing.B) {
	img, err := os.ReadFile(testfixture.Path("identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin"))
	if err != nil {
		b.Fatal(err)
	}
	evo, err := powerstate.DecodeIdentify(img)
	if err != nil {
		b.Fatal(err)
	}
	img, err = os.ReadFile(testfixture.Path(testfixture.IntelSSDPEKKW256G7))
	if err != nil {
		b.Fatal(err)
	}
	intel, err := powerstate.DecodeIdentify(img)
	if err != nil {
		b.Fatal(err)
	}
	wide := npss31Controller()
	for _, bc := range []struct {
		name  string
		c     *powerstate.Controller
		gen   apst.Generation
		given bool // quirks given: no lookup, the replica alone
	}{
		{"990-evo-plus", &evo, apst.Current, false},
		{"npss31", &wide, apst.Current, false},
		{"990-evo-plus-v4.12", &evo, apst.V4_12, false},
		{"npss31-v4.12", &wide, apst.V4_12, false},
		{"600p-inferred-quirk", &intel, apst.Current, false},
		{"990-evo-plus-quirks-given", &evo, apst.Current, true},
		{"npss31-quirks-given", &wide, apst.Current, true},
	} {
		p := apst.DefaultParams(bc.gen)
		p.QuirksGiven = bc.given
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			var plan apst.Plan
			for b.Loop() {
				if err := apst.BuildTo(&plan, bc.c, p); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(bc.name+"-by-value", func(b *testing.B) {
			b.ReportAllocs()
			var sink int
			for b.Loop() {
				plan, err := apst.Build(bc.c, p)
				if err != nil {
					b.Fatal(err)
				}
				sink += plan.MaxPS
			}
			_ = sink
		})
	}
}

// TestBuildDoesNotAllocate: the quirk lookup Build makes (an inferred PCI
// ID, unchecked candidates, raw fields) allocates nothing either.
func TestBuildDoesNotAllocate(t *testing.T) {
	img, err := os.ReadFile(testfixture.Path(testfixture.IntelSSDPEKKW256G7))
	if err != nil {
		t.Fatal(err)
	}
	intel, err := powerstate.DecodeIdentify(img)
	if err != nil {
		t.Fatal(err)
	}
	// A Controller built in code (no raw fields) of a vendor with unchecked IDs.
	smi := powerstate.Controller{VendorID: 0x126f, Model: "SM2262EN", Firmware: "1.0", NPSS: 4, APSTA: 1}
	// Models whose family rules the vendor's quirked ID out (pciExclusions).
	optane := powerstate.Controller{VendorID: 0x8086, Model: "INTEL SSDPE21D480GA", Firmware: "1.0", NPSS: 4, APSTA: 1}
	wd := powerstate.Controller{VendorID: 0x15b7, Model: "WD Blue SN570 1TB", Firmware: "1.0", NPSS: 4, APSTA: 1}
	p := apst.DefaultParams(apst.Current)
	for _, c := range []*powerstate.Controller{&intel, &smi, &optane, &wd} {
		if allocs := testing.AllocsPerRun(100, func() {
			if _, err := apst.Build(c, p); err != nil {
				t.Fatal(err)
			}
		}); allocs != 0 {
			t.Fatalf("Build of %s allocates %v times per call, want 0", c.Model, allocs)
		}
	}
	c := npss31Controller()
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := apst.Build(&c, p); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("Build allocates %v times per call, want 0", allocs)
	}
	var plan apst.Plan
	allocs = testing.AllocsPerRun(100, func() {
		if err := apst.BuildTo(&plan, &c, p); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("BuildTo allocates %v times per call, want 0", allocs)
	}
}
