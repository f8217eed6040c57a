package main

import "github.com/nvmeapst/nvmeapst/apst/diagnose"

// factsJSON is the JSON of diagnose.Facts: the power-management facts of
// one controller (diagnose's "facts", inspect's "power_management").
type factsJSON struct {
	Controller        string         `json:"controller,omitempty"`
	Address           string         `json:"address,omitempty"`
	State             factJSON       `json:"state"`
	ResetCount        factJSON       `json:"reset_count"`
	ReconnectCount    factJSON       `json:"reconnect_count"`
	CommandErrorCount factJSON       `json:"command_error_count"`
	ASPMPolicy        factJSON       `json:"aspm_policy"`
	CommandLine       factJSON       `json:"command_line"`
	KernelRelease     factJSON       `json:"kernel_release"`
	Path              []functionJSON `json:"path,omitempty"`
	Health            *healthLogJSON `json:"health,omitempty"`
	HealthError       string         `json:"health_error,omitempty"`
}

// factJSON is one diagnose.Fact.
type factJSON struct {
	Source string          `json:"source,omitempty"`
	Value  string          `json:"value,omitempty"`
	Status diagnose.Status `json:"status,omitempty"`
	Error  string          `json:"error,omitempty"`
}

// functionJSON is one diagnose.Function of the PCI path.
type functionJSON struct {
	Address       string     `json:"address"`
	Role          string     `json:"role"`
	D3coldAllowed factJSON   `json:"d3cold_allowed"`
	Control       factJSON   `json:"control"`
	RuntimeStatus factJSON   `json:"runtime_status"`
	PowerState    factJSON   `json:"power_state"`
	Link          linkPMJSON `json:"link"`
}

// linkPMJSON is diagnose.LinkPM, keyed by the kernel's file names.
type linkPMJSON struct {
	L0s       factJSON `json:"l0s_aspm"`
	L1        factJSON `json:"l1_aspm"`
	L1_1      factJSON `json:"l1_1_aspm"`
	L1_2      factJSON `json:"l1_2_aspm"`
	L1_1PCIPM factJSON `json:"l1_1_pcipm"`
	L1_2PCIPM factJSON `json:"l1_2_pcipm"`
	ClkPM     factJSON `json:"clkpm"`
}

// healthLogJSON is diagnose.HealthLog.
type healthLogJSON struct {
	CriticalWarning         uint8  `json:"critical_warning"`
	TemperatureK            uint16 `json:"temperature_k"`
	AvailableSpare          uint8  `json:"available_spare"`
	AvailableSpareThreshold uint8  `json:"available_spare_threshold"`
	PercentageUsed          uint8  `json:"percentage_used"`
	PowerCycles             uint64 `json:"power_cycles"`
	PowerOnHours            uint64 `json:"power_on_hours"`
	UnsafeShutdowns         uint64 `json:"unsafe_shutdowns"`
	MediaErrors             uint64 `json:"media_errors"`
	ErrorLogEntries         uint64 `json:"error_log_entries"`
	Saturated               bool   `json:"saturated,omitempty"`
}

func factView(f diagnose.Fact) factJSON {
	return factJSON{Source: f.Source, Value: f.Value, Status: f.Status, Error: f.Error}
}

func functionView(fn *diagnose.Function) functionJSON {
	l := &fn.Link
	return functionJSON{
		Address: fn.Address, Role: fn.Role,
		D3coldAllowed: factView(fn.D3coldAllowed), Control: factView(fn.Control),
		RuntimeStatus: factView(fn.RuntimeStatus), PowerState: factView(fn.PowerState),
		Link: linkPMJSON{
			L0s: factView(l.L0s), L1: factView(l.L1), L1_1: factView(l.L1_1), L1_2: factView(l.L1_2),
			L1_1PCIPM: factView(l.L1_1PCIPM), L1_2PCIPM: factView(l.L1_2PCIPM), ClkPM: factView(l.ClkPM),
		},
	}
}

// factsView is the JSON of f; nil gives nil.
func factsView(f *diagnose.Facts) *factsJSON {
	if f == nil {
		return nil
	}
	v := &factsJSON{
		Controller: f.Controller, Address: f.Address,
		State: factView(f.State), ResetCount: factView(f.ResetCount), ReconnectCount: factView(f.ReconnectCount),
		CommandErrorCount: factView(f.CommandErrorCount), ASPMPolicy: factView(f.ASPMPolicy),
		CommandLine: factView(f.CommandLine), KernelRelease: factView(f.KernelRelease),
		HealthError: f.HealthError,
	}
	if f.Path != nil {
		v.Path = make([]functionJSON, len(f.Path))
		for i := range f.Path {
			v.Path[i] = functionView(&f.Path[i])
		}
	}
	if h := f.Health; h != nil {
		v.Health = &healthLogJSON{
			CriticalWarning: h.CriticalWarning, TemperatureK: h.TemperatureK,
			AvailableSpare: h.AvailableSpare, AvailableSpareThreshold: h.AvailableSpareThreshold, PercentageUsed: h.PercentageUsed,
			PowerCycles: h.PowerCycles, PowerOnHours: h.PowerOnHours, UnsafeShutdowns: h.UnsafeShutdowns,
			MediaErrors: h.MediaErrors, ErrorLogEntries: h.ErrorLogEntries, Saturated: h.Saturated,
		}
	}
	return v
}
