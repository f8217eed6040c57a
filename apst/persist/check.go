package persist

import (
	"fmt"
	"github.com/nvmeapst/nvmeapst/apst/persist/udev"
	"strings"
)

// Mistake is a common mistake in a setting meant to make a bound last.
type Mistake uint8

// The mistakes Check recognises.
const (
	// MistakeDevicePath: writing device/power/pm_qos_latency_tolerance_us
	// under an NVMe controller, the PCI function's power directory, which
	// has no such file.
	MistakeDevicePath Mistake = iota + 1
	// MistakeDeeperStates: a default below the kernel's, set in the belief
	// that it allows deeper power states; a bound can only remove states.
	MistakeDeeperStates
	// MistakeGlobalZero: APST turned off for every drive (a default of 0,
	// or a rule without a model, PCI ID or serial key writing 0), where
	// usually one model misbehaves.
	MistakeGlobalZero
	// MistakeSerialOnly: a rule keyed on one serial number, which reaches
	// one drive and never a second one of the same model.
	MistakeSerialOnly
	// MistakeNoGuard: a rule that writes the attribute without
	// TEST=="power/pm_qos_latency_tolerance_us", so it fails (and logs) on
	// a controller where the kernel has APST disabled.
	MistakeNoGuard
	// MistakeAddOnly: a rule that fires only at ACTION=="add", when the
	// attribute may not exist yet.
	MistakeAddOnly
	// MistakePCIeOff: a kernel argument that turns PCIe power management
	// off for every device (pcie_aspm=off, pcie_aspm.policy=performance,
	// pcie_port_pm=off) beside, or instead of, the APST setting: it costs
	// idle power on every link, and it is the fix of another layer (ASPM,
	// the link, runtime PM), not of APST.
	MistakePCIeOff
	// MistakeLeavesController: a sysfs write (a tmpfiles w line, a tuned
	// [sysfs] line) whose path under /sys/class/nvme/nvmeN holds a ".."
	// component, so that it writes outside the controller's directory.
	MistakeLeavesController
	// MistakeAssignForMatch: a rule meant for one model (or serial,
	// firmware) that keys it with = instead of ==: ATTR{model}="..."
	// assigns, so udev tries to write the read-only file (and logs the
	// failure) instead of comparing, and the rule reaches every NVMe drive.
	MistakeAssignForMatch
)

var mistakeNames = [...]string{
	MistakeDevicePath:       "device-power-path",
	MistakeDeeperStates:     "deeper-states",
	MistakeGlobalZero:       "global-zero",
	MistakeSerialOnly:       "serial-only",
	MistakeNoGuard:          "no-guard",
	MistakeAddOnly:          "add-only",
	MistakePCIeOff:          "pcie-power-off",
	MistakeLeavesController: "leaves-controller",
	MistakeAssignForMatch:   "assign-for-match",
}

// String names the mistake: "device-power-path", "deeper-states",
// "global-zero", "serial-only", "no-guard", "add-only", "pcie-power-off",
// "leaves-controller", "assign-for-match".
func (m Mistake) String() string {
	if m >= MistakeDevicePath && int(m) < len(mistakeNames) {
		return mistakeNames[m]
	}
	return fmt.Sprintf("Mistake(%d)", uint8(m))
}

// Serious reports whether the mistake defeats the setting's purpose (the
// first four, MistakeLeavesController and MistakeAssignForMatch); the
// others are weaknesses.
func (m Mistake) Serious() bool {
	return m >= MistakeDevicePath && m <= MistakeSerialOnly || m == MistakeLeavesController || m == MistakeAssignForMatch
}

// Finding is one mistake found in a setting.
//
// The zero Finding is no finding: its Mistake is none of the Mistake values
// and its Line 0.
type Finding struct {
	// Mistake is which mistake.
	Mistake Mistake
	// Line is the 1-based line it is on.
	Line int
	// Text is the rule, argument or line.
	Text string
	// Explanation says what is wrong and what to do instead.
	Explanation string
}

const explainDevicePath = "device/power/ under an NVMe controller is the PCI function's power directory, and it has no pm_qos_latency_tolerance_us: the write fails (udev logs \"Failed to write ATTR\", a shell loop \"No such file\") and the bound never changes. The file lives on the controller: /sys/class/nvme/nvmeN/power/pm_qos_latency_tolerance_us (in a rule with SUBSYSTEM==\"nvme\": ATTR{power/pm_qos_latency_tolerance_us})"

// CheckRules looks for the mistakes in udev rules. text is the file they
// were parsed from: its RUN programs and other lines are searched for the
// PCI function's path too.
func CheckRules(rs udev.Rules, text string) []Finding {
	var out []Finding
	for _, r := range rs {
		out = append(out, checkRule(&r)...)
	}
	for i, line := range strings.Split(text, "\n") {
		if isDevicePath(line) && !ruleWritesDevicePath(rs, i+1) {
			out = append(out, Finding{Mistake: MistakeDevicePath, Line: i + 1, Text: strings.TrimSpace(line), Explanation: explainDevicePath})
		}
	}
	return out
}

// CheckText looks for the PCI function's path in any text (a tmpfiles
// line, a tuned profile, a shell script), and for the kernel arguments
// that turn PCIe power management off (CheckPCIeArgs).
func CheckText(text string) []Finding {
	var out []Finding
	for i, line := range strings.Split(text, "\n") {
		if isDevicePath(line) {
			out = append(out, Finding{Mistake: MistakeDevicePath, Line: i + 1, Text: strings.TrimSpace(line), Explanation: explainDevicePath})
		}
	}
	return append(out, CheckPCIeArgs(text)...)
}

// pcieOff are the kernel arguments that turn PCIe power management off for
// every device, with what each does (Documentation/admin-guide/
// kernel-parameters.txt).
var pcieOff = map[string]string{
	"pcie_aspm=off":                "stops the kernel managing ASPM on every PCIe link (what the firmware enabled stays on)",
	"pcie_aspm.policy=performance": "keeps every PCIe link out of its ASPM low-power states",
	"pcie_port_pm=off":             "turns runtime power management of every PCIe port off",
}

// CheckPCIeArgs finds the kernel arguments in text (a command line, a GRUB,
// systemd-boot or NixOS line: the forms of ParseArguments) that turn PCIe
// power management off for every device: MistakePCIeOff, one finding for
// each. A commented line and init's arguments after -- set nothing.
func CheckPCIeArgs(text string) []Finding {
	args, err := ParseArguments(text)
	if err != nil {
		return nil // longer than any settings file
	}
	var out []Finding
	for _, a := range args {
		f := a.Name + "=" + a.Value
		what := pcieOff[strings.ToLower(normName(a.Name)+"="+a.Value)]
		if a.Source != SourceCmdline || a.NoValue || what == "" {
			continue
		}
		out = append(out, Finding{Mistake: MistakePCIeOff, Line: a.Line, Text: f, Explanation: f + " " + what +
			", not only the NVMe drive's: it costs idle power on every device and is the fix of the ASPM, link or runtime-PM layer, not of APST (apstctl diagnose tells which layer a drop-out is). Keep it only where diagnose, or a test without it, shows that layer at fault; for the drive alone, set its own power/control or a udev rule instead"})
	}
	return out
}

// isDevicePath reports whether line names an NVMe controller's
// device/power/pm_qos_latency_tolerance_us by its absolute path.
func isDevicePath(line string) bool {
	t := strings.TrimSpace(line)
	if strings.HasPrefix(t, "#") {
		return false
	}
	i := strings.Index(t, "/device/power/pm_qos_latency_tolerance_us")
	return i >= 0 && strings.Contains(t[:i], "/sys/class/nvme/")
}

func ruleWritesDevicePath(rs udev.Rules, line int) bool {
	for _, r := range rs {
		if r.Line == line {
			for _, e := range r.Exprs {
				if e.Key == "ATTR" && !e.Op.IsMatch() && isDeviceAttr(e.Attr) {
					return true
				}
			}
		}
	}
	return false
}

// identityAttr reports whether a is a read-only attribute of an NVMe
// controller a rule keys on: assigned (=) rather than compared (==), it
// keys nothing.
func identityAttr(a string) bool {
	switch a {
	case "model", "serial", "firmware_rev", "cntlid", "subsysnqn", "transport", "address":
		return true
	}
	return false
}

func isDeviceAttr(a string) bool {
	return strings.Trim(a, "/") == "device/"+ToleranceAttr
}

func checkRule(r *udev.Rule) []Finding {
	var out []Finding
	text := r.String()
	add := func(m Mistake, why string) {
		out = append(out, Finding{Mistake: m, Line: r.Line, Text: text, Explanation: why})
	}
	var writes, assignedKeys []udev.Expr
	keyed, serial, guarded, addOnly, nvme := false, false, false, false, false
	for _, e := range r.Exprs {
		switch {
		case e.Key == "ATTR" && !e.Op.IsMatch():
			if strings.Trim(e.Attr, "/") == ToleranceAttr || isDeviceAttr(e.Attr) {
				writes = append(writes, e)
			} else if identityAttr(e.Attr) {
				assignedKeys = append(assignedKeys, e)
			}
		case e.Key == "ATTR" && e.Op == udev.OpMatch && e.Attr == "serial", e.Key == "ATTRS" && e.Op == udev.OpMatch && e.Attr == "serial":
			serial, keyed = true, true
		case e.Key == "ATTR" && e.Op == udev.OpMatch && (e.Attr == "model" || e.Attr == "firmware_rev"),
			e.Key == "ATTRS" && e.Op == udev.OpMatch && (e.Attr == "vendor" || e.Attr == "device" || e.Attr == "model"),
			e.Key == "KERNEL" && e.Op == udev.OpMatch && !strings.ContainsAny(e.Value, "*?[|"):
			keyed = true
		case e.Key == "TEST" && e.Op == udev.OpMatch && strings.Trim(e.Value, "/") == ToleranceAttr:
			guarded = true
		case e.Key == "ACTION" && e.Op == udev.OpMatch && !udev.Match(e.Value, "change"):
			addOnly = true
		case e.Key == "SUBSYSTEM" && e.Op == udev.OpMatch && udev.Match(e.Value, "nvme"):
			nvme = true
		}
	}
	if len(writes) == 0 {
		return nil
	}
	for _, e := range assignedKeys {
		meant := e
		meant.Op = udev.OpMatch
		add(MistakeAssignForMatch, e.String()+" assigns: udev tries to write the read-only "+e.Attr+
			" file (and logs the failure) instead of comparing, so the rule reaches every NVMe drive, not the "+e.Attr+" it names. Compare with ==: "+meant.String())
	}
	for _, w := range writes {
		if isDeviceAttr(w.Attr) {
			add(MistakeDevicePath, explainDevicePath)
			continue
		}
		if w.Value == "0" && !keyed {
			add(MistakeGlobalZero, explainGlobalZero("this rule"))
		}
	}
	if serial {
		add(MistakeSerialOnly, "keyed on one serial number, the rule reaches that one drive: a second drive of the same model (or a replacement) keeps the default. Key it on the model instead (ATTR{model}==\"...\", a glob such as \"Samsung SSD 990 EVO Plus *\" covers every capacity): apstctl persist --scope model")
	}
	if nvme && !guarded {
		add(MistakeNoGuard, "without TEST==\""+ToleranceAttr+"\" the rule also fires on a controller where the kernel has APST disabled (the file is absent there) and the write fails with an error in the journal")
	}
	if addOnly {
		add(MistakeAddOnly, "ACTION==\"add\" alone fires before the controller is live, when power/pm_qos_latency_tolerance_us may not exist yet (it appears once the kernel enables APST); match \"add|change\" to catch the connected event (Linux 5.18 and later)")
	}
	return out
}

func explainGlobalZero(what string) string {
	return what + " turns APST off on every NVMe drive: each then idles in its operational state (watts instead of milliwatts on most drives). When one model misbehaves, key the setting on that model (a udev rule, apstctl persist --scope model) or rely on the kernel's quirk for it, and keep APST on the others"
}

// CheckDefaults looks for the mistakes in module defaults: a global 0 and a
// value below the kernel's default taken for deeper states.
func CheckDefaults(ds []Default) []Finding {
	var out []Finding
	for _, d := range ds {
		switch {
		case d.Bound == 0:
			out = append(out, Finding{Mistake: MistakeGlobalZero, Line: d.Line, Text: d.Text, Explanation: explainGlobalZero("a default of 0")})
		case d.Bound < DefaultBound:
			out = append(out, Finding{Mistake: MistakeDeeperStates, Line: d.Line, Text: d.Text, Explanation: fmt.Sprintf(
				"a bound can only remove states: the kernel lets a drive enter a non-operational state only when its exit latency is at most the bound, so %s admits fewer (and shallower) states than the default %s, never more or deeper ones. It trades idle power for shorter wake stalls; for the deepest states keep the default (or raise it)",
				d.Bound, DefaultBound)})
		}
	}
	return out
}
