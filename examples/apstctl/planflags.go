package main

import (
	"errors"
	"flag"
	"fmt"
	"strconv"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// planFlags are the kernel-parameter flags that plan and the analysis
// commands share (cli.md).
type planFlags struct {
	psMaxLatency   string
	pmQoS          string
	defaultPSMax   string
	primaryTimeout string
	secondaryTime  string
	primaryTol     string
	secondaryTol   string
	kernel         string
	quirks         string
	pciID          string
	forceAPST      bool
}

func addPlanFlags(fs *flag.FlagSet) *planFlags {
	pf := &planFlags{}
	fs.StringVar(&pf.psMaxLatency, "ps-max-latency-us", "", "the controller's bound ps_max_latency_us in µs (u64; unlimited = 2^64-1; 0 = APST off) (default 100000, 25000 for --kernel v4.11)")
	fs.StringVar(&pf.pmQoS, "pm-qos", "", "instead: the string written to power/pm_qos_latency_tolerance_us (auto, any or an integer), mapped as the kernel does")
	fs.StringVar(&pf.defaultPSMax, "default-ps-max-latency-us", "", "instead: nvme_core.default_ps_max_latency_us at probe time (>= 2147483647 = no limit)")
	fs.StringVar(&pf.primaryTimeout, "apst-primary-timeout-ms", "100", "nvme_core.apst_primary_timeout_ms (u64)")
	fs.StringVar(&pf.secondaryTime, "apst-secondary-timeout-ms", "2000", "nvme_core.apst_secondary_timeout_ms (u64)")
	fs.StringVar(&pf.primaryTol, "apst-primary-latency-tol-us", "15000", "nvme_core.apst_primary_latency_tol_us (u64)")
	fs.StringVar(&pf.secondaryTol, "apst-secondary-latency-tol-us", "100000", "nvme_core.apst_secondary_latency_tol_us (u64)")
	fs.StringVar(&pf.kernel, "kernel", "current", "algorithm generation: current (v5.14+), v4.12 (v4.12-v5.13) or v4.11")
	fs.StringVar(&pf.quirks, "quirks", "", "comma list of no-apst, no-deepest-ps or none; replaces the quirks derived from the capture")
	fs.StringVar(&pf.pciID, "pci-id", "", "PCI vendor:device (VVVV:DDDD) to apply the PCI-ID quirk table (default: from the capture, when it has one)")
	fs.BoolVar(&pf.forceAPST, "force-apst", false, "nvme_core.force_apst=1")
	return pf
}

// identity returns what the kernel's quirk lookup sees of c, with the PCI ID
// from --pci-id or the capture.
func (pf *planFlags) identity(c *powerstate.Controller) (apst.Identity, error) {
	id := apst.Identity{VendorID: c.VendorID, Model: c.Model, Firmware: c.Firmware}
	if pf.pciID != "" {
		pci, err := apst.ParsePCIID(pf.pciID)
		if err != nil {
			return id, err
		}
		id.PCI = pci
	} else if c.Known.Has(powerstate.FieldPCIDeviceID) {
		id.PCI = apst.PCIID{Vendor: c.VendorID, Device: c.PCIDeviceID}
	}
	return id, nil
}

// params builds the kernel parameters for controller c from the flags: the
// generation first (it sets its default bound), then at most one bound flag,
// the module parameters, and the quirks (derived from the capture unless
// --quirks is given).
func (pf *planFlags) params(c *powerstate.Controller) (apst.Params, error) {
	g, err := apst.ParseGeneration(pf.kernel)
	if err != nil {
		return apst.Params{}, err
	}
	p := apst.DefaultParams(g)
	var bounds []string
	for _, kv := range [][2]string{
		{"ps-max-latency-us", pf.psMaxLatency},
		{"pm-qos", pf.pmQoS},
		{"default-ps-max-latency-us", pf.defaultPSMax},
	} {
		if kv[1] != "" {
			bounds = append(bounds, kv[0])
			if err := p.Set(kv[0], kv[1]); err != nil {
				return p, err
			}
		}
	}
	if len(bounds) > 1 {
		return p, fmt.Errorf("give only one of --%s and --%s", bounds[0], bounds[1])
	}
	for _, kv := range [][2]string{
		{"apst-primary-timeout-ms", pf.primaryTimeout},
		{"apst-secondary-timeout-ms", pf.secondaryTime},
		{"apst-primary-latency-tol-us", pf.primaryTol},
		{"apst-secondary-latency-tol-us", pf.secondaryTol},
	} {
		if err := p.Set(kv[0], kv[1]); err != nil {
			return p, err
		}
	}
	if pf.quirks != "" {
		q, err := apst.ParseQuirks(pf.quirks)
		if err != nil {
			return p, err
		}
		p.Quirks = q
	} else {
		id, err := pf.identity(c)
		if err != nil {
			return p, err
		}
		p.Quirks = apst.LookupQuirks(id).Quirks
	}
	p.ForceAPST = pf.forceAPST
	return p, nil
}

// parseFlags parses args and requires exactly nargs positional arguments.
// The flag package reports its own errors; a wrong argument count is
// reported here, followed by the usage.
func parseFlags(fs *flag.FlagSet, args []string, nargs int) ([]string, error) {
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() != nargs {
		fmt.Fprintf(fs.Output(), "apstctl %s: want %d argument(s), got %d %q\n", fs.Name(), nargs, fs.NArg(), fs.Args())
		fs.Usage()
		return nil, errors.New("wrong number of arguments")
	}
	return fs.Args(), nil
}

// exitForParse maps a flag parsing error to an exit status: -h is success.
func exitForParse(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	return exitUsage
}

// formatFlag validates --format.
func formatFlag(s string) error {
	if s != "text" && s != "json" {
		return fmt.Errorf("--format %s: want text or json", strconv.Quote(s))
	}
	return nil
}
