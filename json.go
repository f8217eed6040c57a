package nvmeapst

import (
	"encoding/json"
	"fmt"

	"github.com/nvmeapst/nvmeapst/apst"
)

// The JSON forms below are for scripts: snake_case keys, stable names for
// enumerations, 64-bit APST entries as "0x" and 16 hex digits, and null for
// what is unknown. Plans, parameters and tables use the JSON of package apst,
// so a plan object has the keys of apstctl plan (sent, enabled, max_ps,
// max_round_trip_us, entries).

type jsonReport struct {
	KernelRelease  string           `json:"kernel_release"`
	Generation     string           `json:"generation"`
	GenerationNote string           `json:"generation_note"`
	Module         jsonModule       `json:"module"`
	ModuleError    *Problem         `json:"module_error"`
	DMI            jsonDMI          `json:"dmi"`
	DMIError       *Problem         `json:"dmi_error"`
	Controllers    []jsonController `json:"controllers"`
	Problems       []*Problem       `json:"problems"`
}

type jsonModule struct {
	DefaultPSMaxLatencyUS *uint64 `json:"default_ps_max_latency_us"`
	ForceAPST             *bool   `json:"force_apst"`
	PrimaryTimeoutMS      *uint64 `json:"apst_primary_timeout_ms"`
	SecondaryTimeoutMS    *uint64 `json:"apst_secondary_timeout_ms"`
	PrimaryLatencyTolUS   *uint64 `json:"apst_primary_latency_tol_us"`
	SecondaryLatencyTolUS *uint64 `json:"apst_secondary_latency_tol_us"`
}

type jsonDMI struct {
	SysVendor   string `json:"sys_vendor"`
	ProductName string `json:"product_name"`
	BoardVendor string `json:"board_vendor"`
	BoardName   string `json:"board_name"`
}

type jsonPCI struct {
	ID              string `json:"id"`
	SubsystemVendor string `json:"subsystem_vendor"`
	SubsystemDevice string `json:"subsystem_device"`
}

type jsonController struct {
	Name          string        `json:"name"`
	Model         string        `json:"model"`
	Serial        string        `json:"serial"`
	FirmwareRev   string        `json:"firmware_rev"`
	Transport     string        `json:"transport"`
	State         string        `json:"state"`
	Address       string        `json:"address"`
	ControllerID  *uint16       `json:"cntlid"`
	PCI           *jsonPCI      `json:"pci"`
	CPULatencyUS  *int64        `json:"cpu_latency_us"`
	DeviceError   *Problem      `json:"device_error"`
	Identify      *jsonIdentify `json:"identify"`
	IdentifyError *Problem      `json:"identify_error"`
	Quirks        jsonQuirks    `json:"quirks"`
	APSTDisabled  bool          `json:"apst_disabled_by_kernel"`
	Tolerance     *string       `json:"pm_qos_latency_tolerance_us"`
	Bound         jsonBound     `json:"bound"`
	Params        apst.Params   `json:"params"`
	Plan          *apst.Plan    `json:"plan"`
	Drive         *jsonFeature  `json:"drive"`
	DriveError    *Problem      `json:"drive_error"`
	Power         *jsonPower    `json:"power"`
	PowerError    *Problem      `json:"power_error"`
	Verdict       jsonVerdict   `json:"verdict"`
}

type jsonIdentify struct {
	VendorID    string           `json:"vid"`
	Model       string           `json:"model"`
	Serial      string           `json:"serial"`
	Firmware    string           `json:"firmware"`
	NPSS        uint8            `json:"npss"`
	APSTA       uint8            `json:"apsta"`
	PowerStates []jsonPowerState `json:"power_states"`
}

type jsonPowerState struct {
	State          int    `json:"state"`
	MaxPower       string `json:"max_power"`
	NonOperational bool   `json:"non_operational"`
	EntryLatencyUS uint32 `json:"entry_latency_us"`
	ExitLatencyUS  uint32 `json:"exit_latency_us"`
}

type jsonQuirks struct {
	APST    string            `json:"apst"`
	All     string            `json:"all"`
	Sources []jsonQuirkSource `json:"sources"`
	Notes   []string          `json:"notes"`
}

type jsonQuirkSource struct {
	Table  string `json:"table"`
	Rule   string `json:"rule"`
	Quirks string `json:"quirks"`
}

type jsonBound struct {
	US              uint64 `json:"us"`
	Unlimited       bool   `json:"unlimited"`
	Source          string `json:"source"`
	Note            string `json:"note"`
	ModuleDefaultUS uint64 `json:"module_default_us"`
}

type jsonFeature struct {
	Enabled bool       `json:"enabled"`
	Entries apst.Table `json:"entries"`
}

type jsonPower struct {
	State          uint8 `json:"state"`
	WorkloadHint   uint8 `json:"workload_hint"`
	NonOperational *bool `json:"non_operational"`
}

type jsonVerdict struct {
	Status        string          `json:"status"`
	Summary       string          `json:"summary"`
	KernelEnabled bool            `json:"kernel_enabled"`
	DriveEnabled  bool            `json:"drive_enabled"`
	Differences   []jsonEntryDiff `json:"differences"`
	Causes        []jsonCause     `json:"causes"`
	Notes         []string        `json:"notes"`
}

type jsonEntryDiff struct {
	State  uint8  `json:"state"`
	Kernel string `json:"kernel"`
	Drive  string `json:"drive"`
}

type jsonCause struct {
	Kind   string `json:"kind"`
	Detail string `json:"detail"`
}

// MarshalJSON encodes the report for scripts (snake_case keys).
func (r Report) MarshalJSON() ([]byte, error) {
	v := jsonReport{
		KernelRelease:  r.KernelRelease,
		Generation:     r.Generation.String(),
		GenerationNote: r.GenerationNote,
		Module: jsonModule{
			DefaultPSMaxLatencyUS: r.Module.DefaultPSMaxLatencyUS,
			ForceAPST:             r.Module.ForceAPST,
			PrimaryTimeoutMS:      r.Module.PrimaryTimeoutMS,
			SecondaryTimeoutMS:    r.Module.SecondaryTimeoutMS,
			PrimaryLatencyTolUS:   r.Module.PrimaryLatencyTolUS,
			SecondaryLatencyTolUS: r.Module.SecondaryLatencyTolUS,
		},
		ModuleError: r.ModuleProblem,
		DMI:         jsonDMI{r.DMI.SysVendor, r.DMI.ProductName, r.DMI.BoardVendor, r.DMI.BoardName},
		DMIError:    r.DMIProblem,
		Controllers: make([]jsonController, 0, len(r.Controllers)),
		Problems:    r.Problems,
	}
	if v.Problems == nil {
		v.Problems = []*Problem{}
	}
	for i := range r.Controllers {
		v.Controllers = append(v.Controllers, r.Controllers[i].view())
	}
	return json.Marshal(v)
}

// MarshalJSON encodes the controller report for scripts.
func (c ControllerReport) MarshalJSON() ([]byte, error) { return json.Marshal(c.view()) }

func (c *ControllerReport) view() jsonController {
	s := c.Sysfs
	v := jsonController{
		Name: c.Name, Model: s.Model, Serial: s.Serial, FirmwareRev: s.FirmwareRev,
		Transport: s.Transport, State: s.State, Address: s.Address,
		CPULatencyUS:  s.CPULatency,
		DeviceError:   c.DeviceProblem,
		IdentifyError: c.IdentifyProblem,
		Quirks: jsonQuirks{
			APST: c.Quirks.APST().String(), All: c.Quirks.Quirks.String(),
			Sources: []jsonQuirkSource{}, Notes: nonNil(c.QuirkNotes),
		},
		APSTDisabled: c.APSTDisabled,
		Bound: jsonBound{
			US: uint64(c.Bound), Unlimited: c.Bound == apst.NoLimit,
			Source: string(c.BoundSource), Note: c.BoundNote,
			ModuleDefaultUS: uint64(c.ModuleDefaultBound),
		},
		Params:     c.Params,
		Plan:       c.Plan,
		DriveError: c.DriveProblem,
		PowerError: c.PowerProblem,
		Verdict:    verdictView(c.Verdict),
	}
	if s.HasControllerID {
		id := s.ControllerID
		v.ControllerID = &id
	}
	if s.HasPCI {
		v.PCI = &jsonPCI{ID: s.PCI.String(), SubsystemVendor: fmt.Sprintf("%04x", s.SubsystemVendor), SubsystemDevice: fmt.Sprintf("%04x", s.SubsystemDevice)}
	}
	if s.HasTolerance {
		t := s.Tolerance.String()
		v.Tolerance = &t
	}
	for _, src := range c.Quirks.Sources {
		v.Quirks.Sources = append(v.Quirks.Sources, jsonQuirkSource{src.Table, src.Rule, src.Quirks.String()})
	}
	if id := c.Identify; id != nil {
		ji := &jsonIdentify{
			VendorID: fmt.Sprintf("%#04x", id.VendorID), Model: id.Model, Serial: id.Serial,
			Firmware: id.Firmware, NPSS: id.NPSS, APSTA: id.APSTA,
		}
		for i, d := range id.States() {
			ji.PowerStates = append(ji.PowerStates, jsonPowerState{
				State: i, MaxPower: d.MaxPower.String(), NonOperational: d.NonOperational,
				EntryLatencyUS: uint32(d.EntryLatency), ExitLatencyUS: uint32(d.ExitLatency),
			})
		}
		v.Identify = ji
	}
	if c.Drive != nil {
		v.Drive = &jsonFeature{Enabled: c.Drive.Enabled, Entries: c.Drive.Table}
	}
	if c.Power != nil {
		v.Power = &jsonPower{State: c.Power.State, WorkloadHint: c.Power.WorkloadHint}
		if c.Identify != nil && int(c.Power.State) < c.Identify.StateCount() {
			nop := c.Identify.PowerStates[c.Power.State].NonOperational
			v.Power.NonOperational = &nop
		}
	}
	return v
}

func hexEntry(e apst.Entry) string { return fmt.Sprintf("0x%016x", uint64(e)) }

// MarshalJSON encodes the verdict with snake_case keys.
func (v Verdict) MarshalJSON() ([]byte, error) { return json.Marshal(verdictView(v)) }

func verdictView(v Verdict) jsonVerdict {
	out := jsonVerdict{
		Status: string(v.Status), Summary: v.Summary,
		KernelEnabled: v.KernelEnabled, DriveEnabled: v.DriveEnabled,
		Differences: []jsonEntryDiff{}, Causes: []jsonCause{}, Notes: nonNil(v.Notes),
	}
	for _, d := range v.Differences {
		out.Differences = append(out.Differences, jsonEntryDiff{d.State, hexEntry(d.Kernel), hexEntry(d.Drive)})
	}
	for _, c := range v.Causes {
		out.Causes = append(out.Causes, jsonCause{string(c.Kind), c.Detail})
	}
	return out
}

func nonNil(ss []string) []string {
	if ss == nil {
		return []string{}
	}
	return ss
}

type jsonLatencyChange struct {
	Controller string         `json:"controller"`
	Old        string         `json:"old"`
	New        string         `json:"new"`
	BoundUS    uint64         `json:"bound_us"`
	Unlimited  bool           `json:"unlimited"`
	Report     jsonController `json:"report"`
	Persist    jsonPersist    `json:"persist"`
}

type jsonPersist struct {
	UdevFile        string   `json:"udev_file"`
	UdevRule        string   `json:"udev_rule"`
	UdevReload      string   `json:"udev_reload"`
	KernelParameter string   `json:"kernel_parameter"`
	ModprobeOption  string   `json:"modprobe_option"`
	Notes           []string `json:"notes"`
}

// MarshalJSON encodes the change for scripts: old and new values, the
// controller report after the write (its plan is the table the kernel now
// builds) and the persistence advice.
func (l LatencyChange) MarshalJSON() ([]byte, error) {
	p := l.Persist
	return json.Marshal(jsonLatencyChange{
		Controller: l.Controller, Old: l.Old.String(), New: l.New.String(),
		BoundUS: uint64(l.Bound), Unlimited: l.Bound == apst.NoLimit,
		Report: l.Report.view(),
		Persist: jsonPersist{
			UdevFile: p.UdevFile, UdevRule: p.UdevRule, UdevReload: p.UdevReload,
			KernelParameter: p.KernelParameter, ModprobeOption: p.ModprobeOption, Notes: nonNil(p.Notes),
		},
	})
}
