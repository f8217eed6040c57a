package main

import (
	"cmp"
	"io"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// planFlags are the kernel-parameter flags that plan, check and the
// analysis commands share (cli.md).
type planFlags struct {
	psMaxLatency   *string
	pmQoS          *string
	defaultPSMax   *string
	primaryTimeout *string
	secondaryTime  *string
	primaryTol     *string
	secondaryTol   *string
	kernel         *string
	quirks         *string
	pciID          *string
	// forceShared: --force serves another capture too (check's), so a
	// text capture here does not refuse it (the command checks both).
	forceShared bool
	// pciIDScopes: --pci-id does more than pick quirks (persist's --scope
	// pci and the rules --check matches), so --quirks beside it is read.
	pciIDScopes bool
	forceAPST   *bool
	// force plans a capture that does not look like an Identify
	// Controller image (powerstate.ErrNotIdentify) anyway.
	force *bool
	// fs tells the flags given from their defaults.
	fs *flagSet

	// match is the quirk lookup of the last params call when the quirks
	// came from the capture (not --quirks).
	match *apst.QuirkMatch
}

// quirkWords are the words of a --quirks list the help names: the quirks
// that change the table, and none (apst.ParseQuirks reads each).
func quirkWords() []string {
	return []string{apst.QuirkNoAPST.String(), apst.QuirkNoDeepestPS.String(), apst.Quirks(0).String()}
}

func addPlanFlags(fs *flagSet) *planFlags {
	pf := &planFlags{
		psMaxLatency:   fs.String("ps-max-latency-us", "US", "", "the controller's bound ps_max_latency_us in µs (u64; unlimited = 2^64-1; 0 = APST off); without it 100000, or 25000 for --kernel v4.11"),
		pmQoS:          fs.String("pm-qos", "VALUE", "", "instead: the string written to power/pm_qos_latency_tolerance_us (auto, any or an integer), mapped as the kernel does"),
		defaultPSMax:   fs.String("default-ps-max-latency-us", "US", "", "instead: nvme_core.default_ps_max_latency_us at probe time (>= 2147483647 = no limit)"),
		primaryTimeout: fs.String("apst-primary-timeout-ms", "MS", "100", "nvme_core.apst_primary_timeout_ms (u64)"),
		secondaryTime:  fs.String("apst-secondary-timeout-ms", "MS", "2000", "nvme_core.apst_secondary_timeout_ms (u64)"),
		primaryTol:     fs.String("apst-primary-latency-tol-us", "US", "15000", "nvme_core.apst_primary_latency_tol_us (u64)"),
		secondaryTol:   fs.String("apst-secondary-latency-tol-us", "US", "100000", "nvme_core.apst_secondary_latency_tol_us (u64)"),
		kernel:         fs.String("kernel", "RELEASE", "current", "the kernel: a release as uname -r prints it (6.8, v5.15, 6.8.9-300.fc40; a distribution's X.Y.0-N with its stable base: '5.10.0-28-amd64 (Debian 5.10.209-2)', Debian's uname -v or Ubuntu's /proc/version_signature) or a generation (current = v5.14+, v4.12 = v4.12-v5.13, v4.11); a release also picks that release's quirk tables"),
		quirks:         fs.String("quirks", "LIST", "", "comma list of "+orList(quirkWords())+"; replaces the quirks derived from the capture"),
		pciID:          fs.String("pci-id", "VVVV:DDDD", "", "the PCI vendor:device ID of config space, for the PCI-ID quirk table; it wins over the Identify VID (a capture carries none; default: inferred from the model where that is certain)"),
		forceAPST:      fs.Bool("force-apst", false, "nvme_core.force_apst=1"),
		force:          addForceFlag(fs),
		fs:             fs,
	}
	fs.Values("quirks", true, quirkWords())
	return pf
}

// params builds the kernel parameters for controller c from the flags: the
// kernel first (it sets its default bound), then at most one bound flag,
// the module parameters, and the quirks (derived from the capture, or
// --quirks).
func (pf *planFlags) params(c *powerstate.Controller) (apst.Params, error) {
	p := apst.DefaultParams(apst.Current)
	if err := p.Set("kernel", *pf.kernel); err != nil {
		if r, rerr := apst.ParseRelease(*pf.kernel); rerr == nil && r.Compare(apst.Release{Major: 4, Minor: 11}) < 0 {
			// A kernel without APST sends nothing whatever the parameters:
			// a flag of them would change nothing.
			if name := pf.fs.firstGiven("ps-max-latency-us", "pm-qos", "default-ps-max-latency-us",
				"apst-primary-timeout-ms", "apst-secondary-timeout-ms", "apst-primary-latency-tol-us",
				"apst-secondary-latency-tol-us", "quirks", "pci-id"); name != "" || *pf.forceAPST {
				name = cmp.Or(name, "force-apst")
				return p, usagef("--kernel %s and --%s contradict each other: Linux %s has no APST (it arrived in v4.11), so --%s changes nothing",
					quoteArg(*pf.kernel), name, r, name)
			}
			return p, &preAPSTKernel{release: r}
		}
		return p, usagef("--kernel: %v", err)
	}
	var bounds []string
	for _, kv := range [][2]string{
		{"ps-max-latency-us", *pf.psMaxLatency},
		{"pm-qos", *pf.pmQoS},
		{"default-ps-max-latency-us", *pf.defaultPSMax},
	} {
		if kv[1] != "" {
			bounds = append(bounds, kv[0])
			if err := p.Set(kv[0], kv[1]); err != nil {
				return p, usagef("--%s: %v", kv[0], err)
			}
		}
	}
	if len(bounds) > 1 {
		return p, usagef("--%s and --%s contradict each other: each sets the bound; give one", bounds[0], bounds[1])
	}
	for _, kv := range [][2]string{
		{"apst-primary-timeout-ms", *pf.primaryTimeout},
		{"apst-secondary-timeout-ms", *pf.secondaryTime},
		{"apst-primary-latency-tol-us", *pf.primaryTol},
		{"apst-secondary-latency-tol-us", *pf.secondaryTol},
	} {
		if err := p.Set(kv[0], kv[1]); err != nil {
			return p, usagef("--%s: %v", kv[0], err)
		}
	}
	pf.match = nil
	// --pci-id is c's PCI ID whether or not --quirks replaces the quirks of
	// the tables: a --with quirks=tables looks them up again on c (and an
	// invalid ID is refused, not ignored).
	if err := setPCIID(c, *pf.pciID); err != nil {
		return p, err
	}
	if *pf.quirks != "" {
		q, err := apst.ParseQuirks(*pf.quirks)
		if err != nil {
			return p, usagef("--quirks %s: %v", quoteArg(*pf.quirks), err)
		}
		p.Quirks, p.QuirksGiven = q, true
	} else {
		m := apst.DriveQuirks(c, p.Release) // with --pci-id's PCI ID, set above
		pf.match = &m
		p.Quirks = m.Quirks // what Build's own lookup finds on c (with --pci-id)
	}
	if p.Generation != apst.Current {
		// The tolerance bands' parameters arrived with them in v5.14: an
		// older kernel has none, and the flag would change nothing.
		if name := pf.fs.firstGiven("apst-primary-timeout-ms", "apst-secondary-timeout-ms",
			"apst-primary-latency-tol-us", "apst-secondary-latency-tol-us"); name != "" {
			return p, usagef("--kernel %s and --%s contradict each other: %s has no nvme_core.%s (it arrived in v5.14)",
				quoteArg(*pf.kernel), name, p.Generation, strings.ReplaceAll(name, "-", "_"))
		}
	}
	// A command with --with (compare, survey) may give each configuration
	// what the flags below do not: they are checked where no other
	// configuration can make them count.
	noWith := pf.fs.fs.Lookup("with") == nil
	if noWith && p.Generation == apst.Current && (p.PrimaryTimeout == 0 || p.PrimaryTolerance == 0) {
		// A primary of 0 selects the 2% heuristic (ITPT from the
		// latencies): the other primary and both secondaries take no
		// part, and a flag of them would change nothing.
		zero := "apst-primary-timeout-ms"
		if p.PrimaryTimeout != 0 {
			zero = "apst-primary-latency-tol-us"
		}
		for _, name := range []string{"apst-primary-timeout-ms", "apst-primary-latency-tol-us", "apst-secondary-timeout-ms", "apst-secondary-latency-tol-us"} {
			if name != zero && pf.fs.firstGiven(name) != "" && (name != "apst-primary-timeout-ms" || p.PrimaryTimeout != 0) && (name != "apst-primary-latency-tol-us" || p.PrimaryTolerance != 0) {
				return p, usagef("--%s 0 and --%s contradict each other: a primary of 0 makes the kernel use the 2%% heuristic, which reads no other of the four, so --%s changes nothing", zero, name, name)
			}
		}
	}
	if noWith && !pf.pciIDScopes && *pf.quirks != "" && *pf.pciID != "" {
		return p, usagef("--quirks and --pci-id contradict each other: --pci-id picks the quirks of the PCI-ID table, which --quirks replaces, so it changes nothing here")
	}
	if *pf.forceAPST && p.Generation == apst.V4_11 {
		return p, usagef("--kernel %s and --force-apst contradict each other: v4.11 has no nvme_core.force_apst (it arrived in v4.12)", quoteArg(*pf.kernel))
	}
	p.ForceAPST = *pf.forceAPST
	return p, nil
}

// setPCIID makes the PCI ID of --pci-id (text; "" leaves c as it is) c's,
// for every plan built from it. The kernel matches the PCI ID of config
// space, whose vendor may differ from the Identify VID (the lookup notes
// it).
func setPCIID(c *powerstate.Controller, text string) error {
	if text == "" {
		return nil
	}
	var pci apst.PCIID
	if err := pci.UnmarshalText([]byte(text)); err != nil {
		return usagef("--pci-id %s: %v", quoteArg(text), err)
	}
	c.PCIDeviceID = pci.Device
	c.PCIVendorID = 0
	if pci.Vendor != c.VendorID {
		c.PCIVendorID = pci.Vendor
	}
	return nil
}

// loadWithParams reads the capture at path and derives the parameters of
// the flags for it: what every command that plans a capture starts with.
func (pf *planFlags) loadWithParams(path string, stdin io.Reader) (*powerstate.Controller, apst.Params, error) {
	c, err := loadController(path, stdin, *pf.force)
	if err != nil {
		return nil, apst.Params{}, err
	}
	if !pf.forceShared {
		if err := forceOnText(*pf.force, c.Format, c.Format == powerstate.FormatBinary); err != nil {
			return nil, apst.Params{}, err
		}
	}
	p, err := pf.params(c)
	return c, p, err
}

// withConfig applies the configuration text of a --with to base for
// controller c, as the kernel of that configuration would see c: the
// quirks base took from the tables of its release are looked up again in
// the tables of the configuration's release (a --with kernel=4.11 has no
// quirk added in 4.12), unless the quirks were given.
func withConfig(c *powerstate.Controller, base apst.Params, text string) (apst.Params, error) {
	b := base
	if !b.QuirksGiven {
		b.Quirks = 0
	}
	p, err := apst.ParseConfig(text, b)
	if err != nil {
		return p, err
	}
	if !p.QuirksGiven {
		p.Quirks |= apst.DriveQuirks(c, p.Release).Quirks
	}
	return p, nil
}

// preAPSTKernel is the answer for a kernel release before v4.11, which has
// no APST code: it sends nothing, whatever the drive. plan prints it as its
// answer; the other commands, which compare tables, refuse it.
type preAPSTKernel struct{ release apst.Release }

func (e *preAPSTKernel) Error() string {
	return "Linux " + e.release.String() + " has no APST (it arrived in v4.11): the kernel sends nothing, and the drive keeps the APST setting it starts with"
}
