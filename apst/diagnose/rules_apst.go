package diagnose

import (
	"fmt"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// deepSleep is the exit latency from which a state counts as deep (µs).
const deepSleep = 10000

// apstOff are the settings that turn APST off.
var apstOff = []string{"nvme_core.default_ps_max_latency_us"}

func apstCause(s *signals) builder {
	b := newBuilder(s, LayerAPST)
	name := s.name()
	offTried := b.weighTried(s, s.apstOffTried(), 8, 6, "APST off stopped the failures")
	var deepest uint8
	var reach analysis.Reach
	p := s.plan
	old := s.beforeAPST()
	switch {
	case old != "":
		// The kernel sends no table at all: a plan built for it says
		// what a later kernel would send, which is no evidence here.
		b.con(3, "kernel release "+s.releaseText, old)
	case p == nil:
	case !p.Enabled:
		b.con(5, "APST plan", apstOffText(p))
	default:
		reach = analysis.Reachability(s.in.Identify, &p.Table)
		deepest = reach.Deepest
		d := state(s.in.Identify, deepest)
		b.setting(1, "APST plan", fmt.Sprintf("the table takes an idle drive to ps%d (entry %d us, exit %d us) under the bound %s", deepest, d.EntryLatency, d.ExitLatency, s.in.Params.Bound))
		if d.ExitLatency >= deepSleep {
			b.setting(1, "Identify ps"+fmt.Sprint(deepest), fmt.Sprintf("ps%d advertises an exit latency of %d us: a deep state, the kind a drive can fail to leave", deepest, d.ExitLatency))
		}
	}
	if q, ok := newerQuirk(s); ok && old == "" {
		b.sign(4, Line{Source: "apst quirk tables", Text: q})
	}
	switch {
	case s.mmioDead() && s.aspmExcluded() != "":
		b.sign(2, logLine(s.down, "the controller stopped answering while its config space still did, as a drive that fails to leave a non-operational state does; the other layer that reads like this, ASPM, is out: "+s.aspmExcluded()))
	case s.mmioDead():
		b.proLine(2, logLine(s.down, "the controller stopped answering while its config space still did, as a drive that fails to leave a non-operational state does (an ASPM exit that loses the link reads the same)"))
	case s.gone() && s.onResume == nil:
		b.proLine(2, logLine(s.down, "config space reads all ones: the device is gone from the bus; drives that fail to leave a deep APST state drop off the bus like this (so do lost links and lost power)"))
	case s.down == nil && len(s.timeouts) > 0 && (s.reset == nil || s.raced()) && len(s.polled) == 0 && s.onResume == nil && len(s.pmErrors) == 0 && s.probeOnly() == nil:
		b.proLine(1, logLine(&s.timeouts[0], "commands timed out and the controller recovered: a stall, as after a wake from a deep state (lost interrupts and firmware stalls read the same)"))
	case s.resetENODEV() != nil && s.onResume == nil:
		b.proLine(2, logLine(s.resetENODEV(), "the controller read all ones when the driver reset it (-ENODEV): it had stopped answering, as a drive that fails to leave a deep APST state does (an ASPM exit that loses the link reads the same)"))
	case s.hungReady() && s.onResume == nil:
		b.proLine(1, logLine(s.reset, "the controller still reported itself ready when the reset asked it to stop: it no longer acted on its registers, as a drive stuck in a power state does (a firmware hang reads the same)"))
	}
	if s.resume != nil && !s.removedFirst {
		b.conLine(1, logLine(s.resume, "the device failed to leave a PCI power state, not an NVMe one"))
	}
	if e := s.apstRefused; e != nil && transferError(e) {
		b.conLine(1, logLine(e, fmt.Sprintf("the drive could not fetch the kernel's APST table (NVMe status 0x%x, Data Transfer Error): the kernel's table was not in force, only what the drive's firmware enables by itself", e.Errno)))
	} else if e != nil {
		b.conLine(1, logLine(e, fmt.Sprintf("the drive refused the kernel's APST table (NVMe status 0x%x): the kernel's table was not in force, only what the drive's firmware enables by itself", e.Errno)))
	}
	if s.onResume != nil {
		b.conLine(1, logLine(s.onResume, "the failure came with a system sleep transition, which APST has no part in"))
	}
	if s.hint != nil {
		b.Against = append(b.Against, logLine(s.hint, "the kernel prints this after every controller-down with CSTS all ones: it names APST without testing it"))
	}
	refuses, known := RefusesAPSTPassthrough(s.release)
	if refuses {
		b.Against = append(b.Against, Line{Source: "kernel release " + s.releaseText, Text: "this kernel refuses Set Features 0Ch from user space (\"nvme: reject passthrough of driver-managed Set Features\"): no tool rewrote the table after boot, and nvme set-feature -f 0x0c is no workaround"})
	}

	// Tests, cheapest first; none that already failed, and none on a
	// kernel that has no APST to turn off.
	if offTried || old != "" {
		return b
	}
	if p != nil && p.Enabled && deepest > 0 {
		barTest(&b, s, deepest, reach)
	}
	if !refuses && known && p != nil {
		b.test("read the table the drive holds and compare it with the plan (a tool may have rewritten it)", "sudo nvme get-feature /dev/"+name+" -f 0x0c -H", "free")
	}
	if p != nil && !p.Enabled {
		b.test("confirm the kernel left APST off (the latency file is absent for a drive without APST or quirked NO_APST, and reads 0 where the bound is 0)", "cat /sys/module/nvme_core/parameters/default_ps_max_latency_us; ls /sys/class/nvme/"+name+"/power/", "free")
		return b
	}
	if helpedAny(s.apstOffTried()) {
		// APST off helped (or partly): what is left is keeping it, for
		// every drive or for this model alone.
		b.argTest(s, "", "nvme_core.default_ps_max_latency_us=0", "every NVMe drive idles in an operational state; this one: "+offCost(s, deepest))
		b.test("or keep APST for the other drives: a udev rule that turns it off for this model alone (give the drive's Identify capture: sudo nvme id-ctrl /dev/"+name+" -b > id.bin)", "apstctl persist id.bin --bound 0 --scope model", offCost(s, deepest))
		return b
	}
	b.test("turn APST off for this controller only, until reboot, and wait as long as the drive used to last", "echo 0 | sudo tee /sys/class/nvme/"+name+"/power/pm_qos_latency_tolerance_us", offCost(s, deepest))
	if b.Score <= 0 {
		return b // a global switch only where the evidence points here
	}
	b.argTest(s, "or from boot, for every drive (ASPM and runtime PM left as they are, so the test separates APST from them)", "nvme_core.default_ps_max_latency_us=0", "every NVMe drive idles in an operational state; this one: "+offCost(s, deepest))
	return b
}

// apstExcluded says why APST cannot have acted ("" when it can): it was
// off (the plan sends APSTE=0, or the drive failed with
// default_ps_max_latency_us=0).
func (s *signals) apstExcluded() string {
	if s.plan != nil && !s.plan.Enabled {
		return apstOffWhy(s.plan)
	}
	if failed := didNotHelp(s.apstOffTried()); len(failed) > 0 {
		return "the drive failed with " + failed[0].Setting + "=" + failed[0].Value + " too"
	}
	return s.beforeAPST()
}

// apstOffWhy says why a plan leaves APST off: only a disabled plan sends
// APSTE=0; with APSTA 0 or NPSS above 31 the kernel sends no table at all
// (kernel-apst.md §4.1, §10.6).
func apstOffWhy(p *apst.Plan) string {
	switch p.Outcome {
	case apst.OutcomeUnsupported:
		return "the drive does not support APST (APSTA=0), so the kernel sends it no table"
	case apst.OutcomeInvalidNPSS:
		return "the kernel sends this drive no APST table (NPSS above 31)"
	}
	return "the kernel sends APSTE=0 to this drive"
}

// apstOffText is the evidence against APST of a plan that leaves it off.
func apstOffText(p *apst.Plan) string {
	if p.Outcome == apst.OutcomeInvalidNPSS {
		return "the kernel sends this drive no APST table (invalid-npss: NPSS above 31): it keeps whatever its firmware set"
	}
	return fmt.Sprintf("%s (%s): it never enters a non-operational state on its own", apstOffWhy(p), p.Outcome)
}

// beforeAPST says why the log's kernel never programmed APST ("" when it
// may have): mainline Linux sends the drive an APST table only since v4.11
// (c5552fde102f "nvme: Enable autonomous power state transitions"), and
// the one distribution backport known is Ubuntu's to its 4.10 kernels
// (LP: #1664602), so releases before 4.10 never did. A drive whose own
// firmware enables APST without the host is not what the kernel's
// settings change either.
func (s *signals) beforeAPST() string {
	if s.release.IsZero() || s.release.Major > 4 || s.release.Major == 4 && s.release.Minor >= 10 {
		return ""
	}
	rel, _, _ := strings.Cut(s.releaseText, " ")
	return fmt.Sprintf("the log's kernel (%s) is older than Linux's APST support (v4.11, c5552fde102f; the one backport known, Ubuntu's, is to 4.10): it never sent the drive an APST table, and has no nvme_core.default_ps_max_latency_us", rel)
}

// newerQuirk reports a quirk that a later kernel than the log's applies to
// the drive (NO_APST, NO_DEEPEST_PS): the kernel that failed lacked it.
// The drive is known by its Identify data (with its PCI ID when given or
// taken from the log), else by the PCI ID the log's enumeration line gives
// (the PCI quirk table alone then).
func newerQuirk(s *signals) (string, bool) {
	if s.release.IsZero() {
		return "", false
	}
	var id apst.Identity
	what := "this drive"
	switch c := s.in.Identify; {
	case c != nil:
		mn, fr := c.ModelBytes(), c.FirmwareBytes()
		id = apst.Identity{VendorID: c.VendorID, Model: string(mn[:]), Firmware: string(fr[:])}
		if c.PCIDeviceID != 0 { // given, or the log's (logPCIID)
			id.PCI = apst.PCIID{Vendor: c.PCIVendor(), Device: c.PCIDeviceID}
		}
	case s.pciID != "":
		if err := id.PCI.UnmarshalText([]byte(s.pciID)); err != nil {
			return "", false
		}
		what = "this drive (PCI ID " + s.pciID + ", from the log)"
	default:
		return "", false
	}
	id.Release = s.release
	then := apst.LookupQuirks(id).APST()
	id.Release = apst.Release{}
	now := apst.LookupQuirks(id).APST()
	added := now &^ then
	if added == 0 {
		return "", false
	}
	return fmt.Sprintf("the newest kernels quirk %s with %s, which %s does not have: the kernel that failed let it use states later releases bar", what, added, s.releaseText), true
}

// barTest adds the test that bars only the deepest reachable state.
func barTest(b *builder, s *signals, deepest uint8, reach analysis.Reach) {
	name := s.name()
	rec, err := analysis.Recommend(s.in.Identify, s.in.Params, analysis.BarGoal(deepest))
	if err != nil || !rec.Possible || len(rec.Recommended) == 0 {
		why := "no bound bars it without barring every non-operational state"
		if err == nil && len(rec.Why) > 0 {
			why = rec.Why[0]
		}
		b.Against = append(b.Against, Line{Source: "analysis.Recommend", Text: fmt.Sprintf("ps%d cannot be barred alone: %s", deepest, why)})
		return
	}
	_ = reach
	bound := rec.Recommended[0].Max
	kept := rec.Reach.Deepest
	b.test(fmt.Sprintf("bar only ps%d: a bound of %d us keeps ps%d (until reboot; nvme_core.default_ps_max_latency_us=%d on the kernel command line keeps it)", deepest, uint64(bound), kept, uint64(bound)),
		fmt.Sprintf("echo %d | sudo tee /sys/class/nvme/%s/power/pm_qos_latency_tolerance_us", uint64(bound), name),
		idleCost(s.in.Identify, kept, deepest))
}

// state returns descriptor n, or the zero descriptor.
func state(c *powerstate.Controller, n uint8) powerstate.Descriptor {
	if c == nil || int(n) >= len(c.PowerStates) {
		return powerstate.Descriptor{}
	}
	return c.PowerStates[n]
}

// idleCost is the idle power of resting in state to instead of from.
func idleCost(c *powerstate.Controller, to, from uint8) string {
	pt, pf := state(c, to).MaxPower, state(c, from).MaxPower
	if !pt.Reported() || !pf.Reported() {
		return fmt.Sprintf("the drive idles in ps%d instead of ps%d (the drive does not advertise their power)", to, from)
	}
	dw := float64(pt.MicroWatts())/1000 - float64(pf.MicroWatts())/1000
	return fmt.Sprintf("the drive idles in ps%d (%s) instead of ps%d (%s): about %+.0f mW while idle", to, pt, from, pf, dw)
}

// offCost is the idle power of APST off.
func offCost(s *signals, deepest uint8) string {
	if s.in.Identify == nil || deepest == 0 {
		return "its idle power rises to an operational state's (ps0 unless the host picks another)"
	}
	return idleCost(s.in.Identify, 0, deepest)
}
