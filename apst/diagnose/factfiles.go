package diagnose

// ControllerFile is a fact read from one file of a controller's sysfs
// folder (class/nvme/NAME): the file, relative to the folder, and the
// field of Facts it fills. Package sysfs reads every row of
// ControllerFiles, so that a new fact of such a file is a field of Facts
// and a row here (and its JSON key in the command's view).
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
type FunctionFile struct {
	// File is the kernel's file relative to the folder ("d3cold_allowed",
	// "power/control", "link/l1_aspm").
	File string
	// Fact returns the field of fn the file fills.
	Fact func(fn *Function) *Fact
}

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
// power/runtime_status, power_state and the link/ controls (in
// LinkPM.All's order).
func FunctionFiles() []FunctionFile {
	return []FunctionFile{
		{"d3cold_allowed", func(fn *Function) *Fact { return &fn.D3coldAllowed }},
		{"power/control", func(fn *Function) *Fact { return &fn.Control }},
		{"power/runtime_status", func(fn *Function) *Fact { return &fn.RuntimeStatus }},
		{"power_state", func(fn *Function) *Fact { return &fn.PowerState }},
		{"link/l0s_aspm", func(fn *Function) *Fact { return &fn.Link.L0s }},
		{"link/l1_aspm", func(fn *Function) *Fact { return &fn.Link.L1 }},
		{"link/l1_1_aspm", func(fn *Function) *Fact { return &fn.Link.L1_1 }},
		{"link/l1_2_aspm", func(fn *Function) *Fact { return &fn.Link.L1_2 }},
		{"link/l1_1_pcipm", func(fn *Function) *Fact { return &fn.Link.L1_1PCIPM }},
		{"link/l1_2_pcipm", func(fn *Function) *Fact { return &fn.Link.L1_2PCIPM }},
		{"link/clkpm", func(fn *Function) *Fact { return &fn.Link.ClkPM }},
	}
}
