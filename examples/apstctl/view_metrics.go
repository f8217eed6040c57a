package main

import (
	"math"
	"unicode/utf8"

	nvmeapst "github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/internal/promtext"
	"github.com/nvmeapst/nvmeapst/internal/safeio"
)

// The metrics of apstctl metrics. One prefix, base units (seconds, watts),
// counters end in _total, info metrics in _info with the value 1.
//
// Labels join node_exporter's: device is the controller as node_nvme_info
// names it (the class/nvme entry, "nvme0", in prometheus/node_exporter's
// collector/nvme_linux.go), and nvmeapst_pcidevice_info carries the PCI
// function under the labels of the node_pcidevice_* metrics, segment, bus,
// device and function ("pcideviceLabelNames" in collector/pcidevice_linux.go,
// formatted %04x, %02x, %02x and %x by prometheus/procfs
// PciDeviceLocation.Strings), with the controller in controller: the two
// meanings of device cannot share a series.
const metricPrefix = "nvmeapst_"

// metricFamily is one family of the exposition, with how to take its
// samples from a controller.
type metricFamily struct {
	name, typ, help string
	value           func(*nvmeapst.ControllerMetrics) nvmeapst.Reading
}

// controllerGauges are the families with one sample per controller that has
// the value.
var controllerGauges = []metricFamily{
	{"apst_enabled", promtext.Gauge, "1 when the kernel has APST enabled for the controller (power/pm_qos_latency_tolerance_us exists and is not 0), 0 when it has it disabled (NO_APST quirk, APSTA = 0, a bound of 0).",
		func(c *nvmeapst.ControllerMetrics) nvmeapst.Reading { return c.APSTEnabled }},
	{"latency_tolerance_seconds", promtext.Gauge, "The latency bound in effect (ps_max_latency_us) in seconds, +Inf for no limit (auto, any), 0 for a bound of 0 (APST disabled); absent while the file is.",
		func(c *nvmeapst.ControllerMetrics) nvmeapst.Reading { return c.ToleranceSeconds }},
	{"deepest_state", promtext.Gauge, "The deepest power state the kernel's APST table takes the controller to from state 0 (0 when it makes no transition).",
		func(c *nvmeapst.ControllerMetrics) nvmeapst.Reading { return c.DeepestState }},
	{"deepest_state_exit_latency_seconds", promtext.Gauge, "Exit latency (EXLAT) of the deepest state of the kernel's table, in seconds.",
		func(c *nvmeapst.ControllerMetrics) nvmeapst.Reading { return c.DeepestExitLatencySeconds }},
	{"deepest_state_max_power_watts", promtext.Gauge, "Maximum power (MP) of the deepest state of the kernel's table in watts: an upper bound on what the drive draws idle there, not a measurement.",
		func(c *nvmeapst.ControllerMetrics) nvmeapst.Reading { return c.DeepestMaxPowerWatts }},
	{"holds_kernel_table", promtext.Gauge, "1 when the drive holds the APST table the kernel programs, 0 when it holds another; absent when the kernel programs none or either table is unknown (see nvmeapst_holds_kernel_table_info).",
		func(c *nvmeapst.ControllerMetrics) nvmeapst.Reading { return c.HoldsKernelTable }},
	{"pci_d3cold_allowed", promtext.Gauge, "d3cold_allowed of the controller's PCI function (1 allowed, 0 not).",
		func(c *nvmeapst.ControllerMetrics) nvmeapst.Reading { return c.D3coldAllowed }},
	{"pci_runtime_pm_enabled", promtext.Gauge, "1 when power/control of the controller's PCI function reads auto (runtime PM allowed), 0 for on.",
		func(c *nvmeapst.ControllerMetrics) nvmeapst.Reading { return c.RuntimePMAuto }},
	{"pci_link_aspm_l1_enabled", promtext.Gauge, "link/l1_aspm of the controller's PCI function (1 when ASPM L1 is enabled on its link).",
		func(c *nvmeapst.ControllerMetrics) nvmeapst.Reading { return c.ASPML1 }},
	{"controller_resets_total", promtext.Counter, "Controller resets since it was probed (diag/reset_count, Linux 7.2 and later).",
		func(c *nvmeapst.ControllerMetrics) nvmeapst.Reading { return c.Resets }},
	{"controller_reconnects_total", promtext.Counter, "Fabrics reconnects since the controller was probed (diag/reconnect_count, Linux 7.2 and later).",
		func(c *nvmeapst.ControllerMetrics) nvmeapst.Reading { return c.Reconnects }},
	{"controller_command_errors_total", promtext.Counter, "Commands that completed with an error (diag/command_error_count, Linux 7.2 and later).",
		func(c *nvmeapst.ControllerMetrics) nvmeapst.Reading { return c.CommandErrors }},
	{"unsafe_shutdowns_total", promtext.Counter, "Unsafe shutdowns over the drive's life (SMART / Health log).",
		func(c *nvmeapst.ControllerMetrics) nvmeapst.Reading { return c.UnsafeShutdowns }},
	{"error_log_entries_total", promtext.Counter, "Error information log entries over the drive's life (SMART / Health log).",
		func(c *nvmeapst.ControllerMetrics) nvmeapst.Reading { return c.ErrorLogEntries }},
}

// quirkNames are the APST quirks as the kernel's quirks file names them.
var quirkNames = []struct {
	name string
	q    apst.Quirks
}{{"no_apst", apst.QuirkNoAPST}, {"no_deepest_ps", apst.QuirkNoDeepestPS}}

// metricsView renders snapshots, reusing its buffers.
type metricsView struct {
	w      promtext.Writer
	labels []promtext.Label
}

// render writes snap as the Prometheus text exposition format into v's
// buffer and returns it (valid until the next render).
func (v *metricsView) render(snap *nvmeapst.MetricsSnapshot) ([]byte, error) {
	w := &v.w
	w.Reset()
	name := func(n string) string { return metricPrefix + n }

	w.Family(name("kernel_info"), promtext.Gauge, "The kernel release (uname -r) and the APST algorithm the plans assume; value 1. No release label when the release could not be read.")
	if snap.KernelRelease != "" {
		v.sample(name("kernel_info"), 1, promtext.Label{Name: "release", Value: snap.KernelRelease}, promtext.Label{Name: "generation", Value: snap.Generation.String()})
	} else {
		// An empty label is no label (the data model): say so plainly.
		v.sample(name("kernel_info"), 1, promtext.Label{Name: "generation", Value: snap.Generation.String()})
	}

	w.Family(name("pcie_aspm_policy_info"), promtext.Gauge, "The pcie_aspm policy in force (module/pcie_aspm/parameters/policy); value 1.")
	if snap.ASPMPolicy != "" {
		v.sample(name("pcie_aspm_policy_info"), 1, promtext.Label{Name: "policy", Value: snap.ASPMPolicy})
	}

	w.Family(name("controller_info"), promtext.Gauge, "An NVMe controller as sysfs names it (class/nvme/DEVICE); value 1. Absent for a controller none of whose attributes could be read.")
	for i := range snap.Controllers {
		c := &snap.Controllers[i]
		if c.Model == "" && c.Firmware == "" && c.Transport == "" && c.State == "" {
			// Nothing read: a series of empty labels would be a new
			// controller_info that joins on model no longer match.
			continue
		}
		v.sample(name("controller_info"), 1, v.device(c,
			promtext.Label{Name: "model", Value: c.Model},
			promtext.Label{Name: "firmware", Value: c.Firmware},
			promtext.Label{Name: "transport", Value: c.Transport},
			promtext.Label{Name: "state", Value: c.State})...)
	}

	w.Family(name("pcidevice_info"), promtext.Gauge, "The PCI function of a controller, labelled as node_exporter's node_pcidevice_* metrics (segment, bus, device, function), the controller in controller; value 1.")
	for i := range snap.Controllers {
		c := &snap.Controllers[i]
		loc, ok := nvmeapst.ParsePCILocation(c.PCIAddress)
		if !ok {
			continue
		}
		v.sample(name("pcidevice_info"), 1,
			promtext.Label{Name: "controller", Value: c.Name},
			promtext.Label{Name: "segment", Value: loc.Segment},
			promtext.Label{Name: "bus", Value: loc.Bus},
			promtext.Label{Name: "device", Value: loc.Device},
			promtext.Label{Name: "function", Value: loc.Function})
	}

	for _, f := range controllerGauges {
		w.Family(name(f.name), f.typ, f.help)
		for i := range snap.Controllers {
			c := &snap.Controllers[i]
			if r := f.value(c); r.Present {
				v.sample(name(f.name), r.Value, v.device(c)...)
			}
		}
	}

	w.Family(name("holds_kernel_table_info"), promtext.Gauge, "Why nvmeapst_holds_kernel_table is what it is: match, mismatch, not-programmed (the kernel sends no APST configuration), no-identify, no-drive-table, no-bound (the tolerance file could not be read) or no-sysfs (the controller's folder could not be read); value 1.")
	for i := range snap.Controllers {
		c := &snap.Controllers[i]
		v.sample(name("holds_kernel_table_info"), 1, v.device(c, promtext.Label{Name: "why", Value: string(c.Holding)})...)
	}

	w.Family(name("quirk_applied"), promtext.Gauge, "1 when the kernel applies the APST quirk (as its quirks file names it) to the controller, 0 when not.")
	for i := range snap.Controllers {
		c := &snap.Controllers[i]
		if !c.QuirksKnown {
			continue
		}
		for _, q := range quirkNames {
			v.sample(name("quirk_applied"), b2f(c.Quirks&q.q != 0), v.device(c, promtext.Label{Name: "quirk", Value: q.name})...)
		}
	}

	w.Family(name("scrape_source_success"), promtext.Gauge, "1 when the source was read or is not exposed here, 0 when it exists but could not be read (a permission, a file that does not parse, a failed admin command).")
	for _, s := range snap.Sources {
		// device="" keeps the family's label names the same on every
		// series (a registry that re-exposes it requires that); an empty
		// label is no label to Prometheus.
		v.sample(name("scrape_source_success"), b2f(s.OK), promtext.Label{Name: "device"}, promtext.Label{Name: "source", Value: s.Source})
	}
	for i := range snap.Controllers {
		c := &snap.Controllers[i]
		for _, s := range c.Sources {
			v.sample(name("scrape_source_success"), b2f(s.OK), v.device(c, promtext.Label{Name: "source", Value: s.Source})...)
		}
	}
	return w.Bytes(), w.Err()
}

// sample writes one sample with the control characters of its label
// values written as text: a model or firmware revision from sysfs can hold
// ESC or BEL, which the exposition would carry raw (it escapes only
// backslash, double quote and newline). See labelValue. It rewrites labels
// in place.
func (v *metricsView) sample(name string, val float64, labels ...promtext.Label) {
	for i := range labels {
		labels[i].Value = labelValue(labels[i].Value)
	}
	v.w.Sample(name, val, labels...)
}

// labelValue returns s with each control character that the exposition
// would carry raw, a C0 control other than newline, DEL, a C1 or
// bidirectional control (safeio.HasControl), replaced by its terminal
// escape as text ("\x1b", "\u202e": the exposition writes its backslash
// as "\\"). Newline, backslash and double quote are left to the
// exposition's own escapes, and a byte that is not UTF-8 to its U+FFFD, so
// that a value without a control reads back exactly. A value without one is
// returned as it is.
func labelValue(s string) string {
	if !safeio.HasControl(s) {
		return s
	}
	b := make([]byte, 0, len(s)+16)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r != '\n' && !(r == utf8.RuneError && n == 1) && safeio.HasControl(s[i:i+n]) {
			b = safeio.AppendEscapeTerminal(b, s[i:i+n])
		} else {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return string(b)
}

// device returns the labels of a sample of c: device first, then more, in
// a slice v reuses.
func (v *metricsView) device(c *nvmeapst.ControllerMetrics, more ...promtext.Label) []promtext.Label {
	v.labels = append(v.labels[:0], promtext.Label{Name: "device", Value: c.Name})
	return append(v.labels, more...)
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// metricsJSON is apstctl metrics -o json: the values of one scrape. A value
// the machine does not expose is null; an unlimited tolerance is null with
// latency_tolerance_unlimited (JSON has no infinity).
type metricsJSON struct {
	KernelRelease string                  `json:"kernel_release"`
	Generation    string                  `json:"generation"`
	ASPMPolicy    string                  `json:"aspm_policy"`
	Sources       []sourceJSON            `json:"sources"`
	Controllers   []controllerMetricsJSON `json:"controllers"`
}

type sourceJSON struct {
	Source string `json:"source"`
	OK     bool   `json:"ok"`
	Error  string `json:"error,omitempty"`
}

type controllerMetricsJSON struct {
	Device                    string       `json:"device"`
	Model                     string       `json:"model"`
	Firmware                  string       `json:"firmware"`
	Transport                 string       `json:"transport"`
	State                     string       `json:"state"`
	PCIAddress                string       `json:"pci_address"`
	APSTEnabled               *float64     `json:"apst_enabled"`
	LatencyToleranceSeconds   *float64     `json:"latency_tolerance_seconds"`
	LatencyToleranceUnlimited bool         `json:"latency_tolerance_unlimited"`
	DeepestState              *float64     `json:"deepest_state"`
	DeepestExitLatencySeconds *float64     `json:"deepest_state_exit_latency_seconds"`
	DeepestMaxPowerWatts      *float64     `json:"deepest_state_max_power_watts"`
	HoldsKernelTable          *float64     `json:"holds_kernel_table"`
	Holding                   string       `json:"holds_kernel_table_why"`
	Quirks                    []string     `json:"quirks_applied"`
	D3coldAllowed             *float64     `json:"pci_d3cold_allowed"`
	RuntimePMEnabled          *float64     `json:"pci_runtime_pm_enabled"`
	ASPML1Enabled             *float64     `json:"pci_link_aspm_l1_enabled"`
	Resets                    *float64     `json:"controller_resets_total"`
	Reconnects                *float64     `json:"controller_reconnects_total"`
	CommandErrors             *float64     `json:"controller_command_errors_total"`
	UnsafeShutdowns           *float64     `json:"unsafe_shutdowns_total"`
	ErrorLogEntries           *float64     `json:"error_log_entries_total"`
	Sources                   []sourceJSON `json:"sources"`
}

func metricsJSONView(s *nvmeapst.MetricsSnapshot) metricsJSON {
	v := metricsJSON{KernelRelease: s.KernelRelease, Generation: s.Generation.String(), ASPMPolicy: s.ASPMPolicy,
		Sources: sourcesJSON(s.Sources), Controllers: []controllerMetricsJSON{}}
	num := func(r nvmeapst.Reading) *float64 {
		if !r.Present || math.IsInf(r.Value, 0) || math.IsNaN(r.Value) {
			return nil
		}
		x := r.Value
		return &x
	}
	for i := range s.Controllers {
		c := &s.Controllers[i]
		cj := controllerMetricsJSON{
			Device: c.Name, Model: c.Model, Firmware: c.Firmware, Transport: c.Transport, State: c.State, PCIAddress: c.PCIAddress,
			APSTEnabled: num(c.APSTEnabled), LatencyToleranceSeconds: num(c.ToleranceSeconds),
			LatencyToleranceUnlimited: c.ToleranceSeconds.Present && math.IsInf(c.ToleranceSeconds.Value, 1),
			DeepestState:              num(c.DeepestState), DeepestExitLatencySeconds: num(c.DeepestExitLatencySeconds), DeepestMaxPowerWatts: num(c.DeepestMaxPowerWatts),
			HoldsKernelTable: num(c.HoldsKernelTable), Holding: string(c.Holding),
			D3coldAllowed: num(c.D3coldAllowed), RuntimePMEnabled: num(c.RuntimePMAuto), ASPML1Enabled: num(c.ASPML1),
			Resets: num(c.Resets), Reconnects: num(c.Reconnects), CommandErrors: num(c.CommandErrors),
			UnsafeShutdowns: num(c.UnsafeShutdowns), ErrorLogEntries: num(c.ErrorLogEntries),
			Sources: sourcesJSON(c.Sources),
		}
		if c.QuirksKnown {
			cj.Quirks = []string{}
			for _, q := range quirkNames {
				if c.Quirks&q.q != 0 {
					cj.Quirks = append(cj.Quirks, q.name)
				}
			}
		}
		v.Controllers = append(v.Controllers, cj)
	}
	return v
}

func sourcesJSON(ss []nvmeapst.SourceStatus) []sourceJSON {
	out := make([]sourceJSON, len(ss))
	for i, s := range ss {
		out[i] = sourceJSON{Source: s.Source, OK: s.OK}
		if s.Err != nil {
			out[i].Error = s.Err.Error()
		}
	}
	return out
}
