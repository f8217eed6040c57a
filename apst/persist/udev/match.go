package udev

import (
	"fmt"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
)

// ToleranceAttr is the attribute that sets a controller's latency
// tolerance, relative to its directory /sys/class/nvme/nvmeN: the path a
// rule writes to make a bound last.
const ToleranceAttr = "power/pm_qos_latency_tolerance_us"

// Drive is what a udev rule sees of one NVMe controller: the class device
// /sys/class/nvme/NAME and, above it, its PCI function.
//
// The zero Drive is controller nvme0 with empty attributes, no PCI ID and
// no pm_qos_latency_tolerance_us (as with APST disabled), answered from
// these fields (Exists nil).
type Drive struct {
	// Name is the controller's name ("nvme0"); "" is taken as "nvme0",
	// since a capture does not say it.
	Name string
	// Model, Serial and Firmware are the model, serial and firmware_rev
	// attributes (Identify MN, SN, FR without their padding).
	Model, Serial, Firmware string
	// PCI is the PCI function's vendor:device ID, when HasPCI.
	PCI    apst.PCIID
	HasPCI bool
	// HasTolerance reports that power/pm_qos_latency_tolerance_us exists:
	// the kernel has APST enabled for the controller.
	HasTolerance bool
	// Exists, when set, reports whether a path relative to the controller's
	// directory exists (a sysfs tree); nil answers from the fields above.
	Exists func(rel string) bool
}

// ControllerName is the controller's name: Name, or "nvme0" when it is
// empty.
func (d *Drive) ControllerName() string { return d.name() }

func (d *Drive) name() string {
	if d.Name == "" {
		return "nvme0"
	}
	return d.Name
}

// exists reports whether rel exists under the controller's directory.
func (d *Drive) exists(rel string) bool {
	rel = strings.Trim(rel, "/")
	if d.Exists != nil {
		return d.Exists(rel)
	}
	switch rel {
	case ToleranceAttr:
		return d.HasTolerance
	case "model", "serial", "firmware_rev", "power", "device":
		return true
	case "device/vendor", "device/device":
		return d.HasPCI
	}
	return false
}

// attr returns the value of a controller attribute, and whether it is
// known.
func (d *Drive) attr(name string) (string, bool) {
	switch strings.Trim(name, "/") {
	case "model":
		return d.Model, true
	case "serial":
		return d.Serial, true
	case "firmware_rev":
		return d.Firmware, d.Firmware != ""
	case "transport":
		if d.HasPCI {
			return "pcie", true
		}
	}
	return "", false
}

// Write is one attribute a rule writes on a drive.
//
// The zero Write writes an empty value to no attribute at no event
// (IsTolerance false), and Tolerance passes over it.
type Write struct {
	// Line is the line of the rule that writes it.
	Line int
	// Attr is the attribute as the rule names it, relative to the
	// controller's directory ("power/pm_qos_latency_tolerance_us").
	Attr string
	// Value is the value written.
	Value string
	// Exists reports whether that path exists on the drive: a write to a
	// path that does not fails (udev logs an error).
	Exists bool
	// Actions are the events at which the rule fires: "add", "change".
	Actions []string
	// Conditions are the keys of the rule this package cannot decide
	// (PROGRAM, RESULT, ENV{...} and the like): the write happens only when
	// they hold.
	Conditions []string
}

// IsTolerance reports whether the write is to the controller's
// pm_qos_latency_tolerance_us.
func (w Write) IsTolerance() bool { return strings.Trim(w.Attr, "/") == ToleranceAttr }

// Apply runs the rules on drive d for the two events that reach an NVMe
// controller, "add" and "change" (the connected event of Linux 5.18 and
// later, ENV{NVME_EVENT}=="connected"), and returns the attributes the
// matching rules write on it, in rule order, GOTO and LABEL followed. Keys
// it cannot decide (PROGRAM, RESULT, ENV other than NVME_EVENT, TAG,
// CONST, SYSCTL, DEVPATH, NAME, SYMLINK) are taken as holding and listed in
// Write.Conditions.
func (rs Rules) Apply(d Drive) []Write {
	var out []Write
	for _, action := range []string{"add", "change"} {
		for _, w := range rs.run(&d, action) {
			merged := false
			for i := range out {
				if out[i].Line == w.Line && out[i].Attr == w.Attr {
					out[i].Actions = append(out[i].Actions, action)
					merged = true
				}
			}
			if !merged {
				w.Actions = []string{action}
				out = append(out, w)
			}
		}
	}
	return out
}

// Tolerance returns the value the rules leave in
// power/pm_qos_latency_tolerance_us at the connected event: the last write
// to it that exists, and whether there is one.
func Tolerance(ws []Write) (Write, bool) {
	var last Write
	found := false
	for _, w := range ws {
		if w.IsTolerance() && w.Exists {
			last, found = w, true
		}
	}
	return last, found
}

func (rs Rules) run(d *Drive, action string) []Write {
	var out []Write
	for i := 0; i < len(rs); i++ {
		r := &rs[i]
		ok, conds := r.matches(d, action)
		if !ok {
			continue
		}
		gotoLabel := ""
		for _, e := range r.Exprs {
			switch {
			case e.Key == "ATTR" && !e.Op.IsMatch():
				out = append(out, Write{Line: r.Line, Attr: e.Attr, Value: e.Value, Exists: d.exists(e.Attr), Conditions: conds})
			case e.Key == "GOTO":
				gotoLabel = e.Value
			}
		}
		if gotoLabel != "" {
			for j := i + 1; j < len(rs); j++ {
				if rs[j].label() == gotoLabel {
					i = j - 1
					break
				}
			}
		}
	}
	return out
}

func (r *Rule) label() string {
	for _, e := range r.Exprs {
		if e.Key == "LABEL" {
			return e.Value
		}
	}
	return ""
}

// device is one device of the chain a rule's parent keys search.
type device struct {
	kernel, subsystem, driver string
	attrs                     map[string]string
}

func (d *Drive) chain() []device {
	self := device{kernel: d.name(), subsystem: "nvme", attrs: map[string]string{"model": d.Model, "serial": d.Serial}}
	if d.Firmware != "" {
		self.attrs["firmware_rev"] = d.Firmware
	}
	ch := []device{self}
	if d.HasPCI {
		ch = append(ch, device{kernel: "0000:00:00.0", subsystem: "pci", driver: "nvme", attrs: map[string]string{
			"vendor": fmt.Sprintf("0x%04x", d.PCI.Vendor), "device": fmt.Sprintf("0x%04x", d.PCI.Device), "class": "0x010802",
		}})
	}
	return ch
}

// attrMatch compares an attribute value as udev does: trailing whitespace
// of the value is ignored unless the pattern ends in whitespace.
func attrMatch(e Expr, value string) bool {
	if !strings.HasSuffix(e.Value, " ") && !strings.HasSuffix(e.Value, "\t") {
		value = strings.TrimRight(value, " \t\n")
	}
	return e.match(value)
}

// match reports whether s matches the expression's value as a pattern
// (Match), without regard to ASCII case for an i"..." value, as udev's
// FNM_CASEFOLD and strcasecmp compare.
func (e Expr) match(s string) bool {
	if e.CaseInsensitive {
		return globMatch(asciiLower(e.Value), asciiLower(s))
	}
	return globMatch(e.Value, s)
}

func asciiLower(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

// matches evaluates the rule's match keys on d at action; conds lists the
// keys taken as holding.
func (r *Rule) matches(d *Drive, action string) (bool, []string) {
	var conds []string
	var parents []Expr
	for _, e := range r.Exprs {
		if !e.Op.IsMatch() {
			continue
		}
		var got bool
		switch e.Key {
		case "ACTION":
			got = e.match(action)
		case "SUBSYSTEM":
			got = e.match("nvme")
		case "KERNEL":
			got = e.match(d.name())
		case "DRIVER":
			got = e.match("")
		case "ATTR":
			v, known := d.attr(e.Attr)
			if !known {
				if !d.exists(e.Attr) {
					got = false
					break
				}
				conds = append(conds, e.String())
				continue
			}
			got = attrMatch(e, v)
		case "TEST":
			p := e.Value
			if strings.HasPrefix(p, "/") {
				rel, ok := strings.CutPrefix(p, "/sys/class/nvme/"+d.name()+"/")
				if !ok {
					conds = append(conds, e.String())
					continue
				}
				p = rel
			}
			got = d.exists(p)
		case "ENV":
			if e.Attr == "NVME_EVENT" {
				ev := ""
				if action == "change" {
					ev = "connected"
				}
				got = e.match(ev)
				break
			}
			conds = append(conds, e.String())
			continue
		case "KERNELS", "SUBSYSTEMS", "DRIVERS", "ATTRS":
			parents = append(parents, e)
			continue
		default:
			conds = append(conds, e.String())
			continue
		}
		if got != (e.Op == OpMatch) {
			return false, nil
		}
	}
	if len(parents) > 0 && !parentsMatch(d.chain(), parents) {
		return false, nil
	}
	return true, conds
}

// parentsMatch reports whether one device of the chain matches every parent
// key, as udev requires.
func parentsMatch(chain []device, keys []Expr) bool {
	for _, dev := range chain {
		all := true
		for _, e := range keys {
			var got bool
			switch e.Key {
			case "KERNELS":
				got = e.match(dev.kernel)
			case "SUBSYSTEMS":
				got = e.match(dev.subsystem)
			case "DRIVERS":
				got = e.match(dev.driver)
			case "ATTRS":
				v, ok := dev.attrs[e.Attr]
				got = ok && attrMatch(e, v)
			}
			if got != (e.Op == OpMatch) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}
