package diagnose

// ControllerFile is a fact read from one file of a controller's sysfs
// folder (class/nvme/NAME): the file, relative to the folder, and the
// field of Facts it fills. Package sysfs reads every row of
// ControllerFiles, so that a new fact of such a file is a field of Facts
// and a row here (and its JSON key in the command's view).
//
// The zero ControllerFile names no file and fills no field (its Fact is
// nil): ControllerFiles never holds one.
type ControllerFile struct {
	// File is the kernel's file relative to the folder ("state",
	// "diag/reset_count").
	File string
	// Fact returns the field of f the file fills.
	Fact func(f *Facts) *Fact
}

// FunctionFile is a fact read from one file of a PCI function's folder
// (the controller's own, and each bridge's up to the root port), as
// ControllerFile is of the controller's folder.
//
// The zero FunctionFile names no file and fills no field (its Fact is nil):
// FunctionFiles never holds one.
type FunctionFile struct {
	// File is the kernel's file relative to the folder ("d3cold_allowed",
	// "power/control", "link/l1_aspm").
	File string
	// Key names the fact in a view ("slot_power_limit"); "" is the file's
	// base name ("l1_aspm").
	Key string
	// Fact returns the field of fn the file fills.
	Fact func(fn *Function) *Fact
	// Decode, for a binary file (config), makes the fact of its bytes as
	// read, untrimmed: the Value and Status Read, or Status Unknown with
	// the reason in Error; the reader sets Source. A text file (Decode
	// nil) is its trimmed content.
	Decode func(raw []byte) Fact
	// Size bounds a binary file's read: the bytes it may hold (config:
	// 64 bytes read unprivileged, 256 or 4096 as root).
	Size int
}

// configSize is the most a function's config file holds: the 4096 bytes
// of a PCI Express function's extended configuration space.
const configSize = 4096

// ControllerFiles returns the facts read from a controller's folder, in
// the order they are read: state and the diag/ counters of v7.2.
func ControllerFiles() []ControllerFile {
	return []ControllerFile{
		{"state", func(f *Facts) *Fact { return &f.State }},
		{"diag/reset_count", func(f *Facts) *Fact { return &f.ResetCount }},
		{"diag/reconnect_count", func(f *Facts) *Fact { return &f.ReconnectCount }},
		{"diag/command_error_count", func(f *Facts) *Fact { return &f.CommandErrorCount }},
	}
}

// FunctionFiles returns the facts read from a PCI function's folder, in
// the order they are read: d3cold_allowed, power/control,
// power/runtime_status, power_state, the link/ controls (in LinkPM.All's
// order) and last config's slot power limit. A reader reads the binary
// files (Decode set) of every function on the path after the other files
// of all of them: the kernel resumes a runtime-suspended parent bridge,
// and a function in D3cold, to read config, so the power facts are read as
// the path was before.
func FunctionFiles() []FunctionFile {
	text := func(file string, fact func(fn *Function) *Fact) FunctionFile {
		return FunctionFile{File: file, Fact: fact}
	}
	return []FunctionFile{
		text("d3cold_allowed", func(fn *Function) *Fact { return &fn.D3coldAllowed }),
		text("power/control", func(fn *Function) *Fact { return &fn.Control }),
		text("power/runtime_status", func(fn *Function) *Fact { return &fn.RuntimeStatus }),
		text("power_state", func(fn *Function) *Fact { return &fn.PowerState }),
		text("link/l0s_aspm", func(fn *Function) *Fact { return &fn.Link.L0s }),
		text("link/l1_aspm", func(fn *Function) *Fact { return &fn.Link.L1 }),
		text("link/l1_1_aspm", func(fn *Function) *Fact { return &fn.Link.L1_1 }),
		text("link/l1_2_aspm", func(fn *Function) *Fact { return &fn.Link.L1_2 }),
		text("link/l1_1_pcipm", func(fn *Function) *Fact { return &fn.Link.L1_1PCIPM }),
		text("link/l1_2_pcipm", func(fn *Function) *Fact { return &fn.Link.L1_2PCIPM }),
		text("link/clkpm", func(fn *Function) *Fact { return &fn.Link.ClkPM }),
		{File: "config", Key: "slot_power_limit", Fact: func(fn *Function) *Fact { return &fn.SlotPower }, Decode: slotPowerFact, Size: configSize},
	}
}
