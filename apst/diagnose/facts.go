package diagnose

import (
	"strconv"
	"strings"
)

// Status says whether a fact could be read.
type Status string

// The statuses of a fact.
const (
	// Read: the value was read.
	Read Status = "read"
	// NotExposed: the running kernel (or the bundle's) does not have the
	// file; not an error.
	NotExposed Status = "not exposed here"
	// Unreadable: the file exists but could not be read (Error says why).
	Unreadable Status = "unreadable"
	// Unknown: nothing was read (no machine, a pasted log alone).
	Unknown Status = ""
)

// Fact is one value read from the machine, with where it came from. The
// zero Fact is unknown.
type Fact struct {
	// Source is the file (or command) the value was read from.
	Source string
	// Value is the value as read, trimmed ("1", "auto", "D3cold",
	// "powersupersave").
	Value string
	// Status says whether it was read.
	Status Status
	// Error says why an unreadable fact could not be read, or why a fact
	// read but not understood is unknown (a decoded file: "needs root").
	Error string
}

// Known reports whether the fact was read.
//
//go:noinline
func (f Fact) Known() bool { return f.Status == Read }

// Is reports whether the fact was read and equals v.
//
//go:noinline
func (f Fact) Is(v string) bool { return f.Known() && f.Value == v }

// Uint returns the fact as an unsigned decimal number.
func (f Fact) Uint() (uint64, bool) {
	if !f.Known() {
		return 0, false
	}
	v, err := strconv.ParseUint(f.Value, 10, 64)
	return v, err == nil
}

// Describe is "SOURCE = VALUE", or what is known about the fact.
func (f Fact) Describe() string {
	switch f.Status {
	case Read:
		return f.Source + " = " + f.Value
	case NotExposed:
		return f.Source + ": not exposed here"
	case Unreadable:
		return f.Source + ": unreadable (" + f.Error + ")"
	}
	if f.Error != "" {
		return f.Source + ": unknown (" + f.Error + ")"
	}
	return f.Source + ": unknown"
}

// LinkPM are the ASPM and clock PM controls of a PCIe link as the kernel
// exposes them in the function's link/ folder (only those the link
// supports; about v5.5).
//
// The zero LinkPM knows nothing of the link: every control is the unknown
// Fact, and Substates lists none.
type LinkPM struct {
	L0s       Fact
	L1        Fact
	L1_1      Fact
	L1_2      Fact
	L1_1PCIPM Fact
	L1_2PCIPM Fact
	ClkPM     Fact
}

// All returns the controls with their file names, in a fixed order.
func (l *LinkPM) All() []struct {
	Name string
	Fact *Fact
} {
	return []struct {
		Name string
		Fact *Fact
	}{
		{"l0s_aspm", &l.L0s}, {"l1_aspm", &l.L1}, {"l1_1_aspm", &l.L1_1}, {"l1_2_aspm", &l.L1_2},
		{"l1_1_pcipm", &l.L1_1PCIPM}, {"l1_2_pcipm", &l.L1_2PCIPM}, {"clkpm", &l.ClkPM},
	}
}

// Substates returns the L1 substate controls that are on ("l1_2_aspm").
func (l *LinkPM) Substates() []Fact {
	var on []Fact
	for _, f := range []Fact{l.L1_1, l.L1_2, l.L1_1PCIPM, l.L1_2PCIPM} {
		if f.Is("1") {
			on = append(on, f)
		}
	}
	return on
}

// Function is one PCI function on the path from the controller to the root
// port, with its power-management files.
//
// The zero Function is no function: no address or role, and every fact
// unknown.
type Function struct {
	// Address is the PCI address ("0000:04:00.0").
	Address string
	// Role is "device" for the controller's own function, "bridge" for a
	// port above it ("root port" for the last one).
	Role string
	// D3coldAllowed is d3cold_allowed (0/1).
	D3coldAllowed Fact
	// Control is power/control (auto: runtime PM allowed; on: kept in D0).
	Control Fact
	// RuntimeStatus is power/runtime_status (active, suspended, ...).
	RuntimeStatus Fact
	// PowerState is power_state (D0, D3hot, D3cold, ...; about v5.14).
	PowerState Fact
	// Link holds the link/ controls.
	Link LinkPM
	// SlotPower is the slot power limit config holds (DecodeSlotPower):
	// the captured limit of the controller's function (and of a switch's
	// upstream port), the slot's of a root or downstream port with a
	// slot, written in watts ("25 W", "8.25 W"). Unknown, with the reason
	// in Error, when it was never set (0), there is no slot, or the read
	// was unprivileged (the first 64 bytes: "needs root").
	SlotPower Fact
}

// Facts are what a machine (or a bundle) says about one controller and the
// power-management layers around it. The zero value knows nothing.
type Facts struct {
	// Controller is the controller's name ("nvme0") and Address its PCI
	// function.
	Controller string
	Address    string
	// State is the controller's state attribute (live, resetting, dead...).
	State Fact
	// ResetCount, ReconnectCount and CommandErrorCount are the diag/
	// counters of v7.2.
	ResetCount        Fact
	ReconnectCount    Fact
	CommandErrorCount Fact
	// ASPMPolicy is the word in force in
	// /sys/module/pcie_aspm/parameters/policy.
	ASPMPolicy Fact
	// CommandLine is /proc/cmdline.
	CommandLine Fact
	// KernelRelease is uname -r.
	KernelRelease Fact
	// Path is the controller's function followed by each bridge up to the
	// root port.
	Path []Function
	// Health is the SMART / Health log, nil when it was not read
	// (HealthError says why).
	Health      *HealthLog
	HealthError string
}

// Device returns the controller's own function, nil when the path is
// unknown.
func (f *Facts) Device() *Function {
	if len(f.Path) == 0 {
		return nil
	}
	return &f.Path[0]
}

// Param returns the value of a kernel command line parameter ("pcie_aspm")
// from CommandLine; ok is false when the command line is unknown or does not
// set it. The last setting wins, as in the kernel.
func Param(cmdline, name string) (value string, ok bool) {
	for _, w := range strings.Fields(cmdline) {
		k, v, _ := strings.Cut(w, "=")
		if k == name {
			value, ok = v, true
		}
	}
	return value, ok
}
