package main

import (
	"bytes"
	"encoding/json"
	"path"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
)

// factsJSON is the JSON of diagnose.Facts: the power-management facts of
// one controller (diagnose's "facts", inspect's "power_management"). The
// facts of the controller's own files (diagnose.ControllerFiles) are
// keyed by their file's base name ("state", "reset_count") in the rows'
// order, so that a new sysfs fact is a field and a row of apst/diagnose
// and nothing here. MarshalJSON writes the tagged keys, with the files'
// facts after address.
type factsJSON struct {
	Controller    string         `json:"controller,omitempty"`
	Address       string         `json:"address,omitempty"`
	Files         []keyedFact    `json:"-"`
	ASPMPolicy    factJSON       `json:"aspm_policy"`
	CommandLine   factJSON       `json:"command_line"`
	KernelRelease factJSON       `json:"kernel_release"`
	Path          []functionJSON `json:"path,omitempty"`
	Health        *healthLogJSON `json:"health,omitempty"`
	HealthError   string         `json:"health_error,omitempty"`
}

// keyedFact is one fact of a sysfs file under its JSON key.
type keyedFact struct {
	Key  string
	Fact factJSON
}

// factJSON is one diagnose.Fact.
type factJSON struct {
	Source string          `json:"source,omitempty"`
	Value  string          `json:"value,omitempty"`
	Status diagnose.Status `json:"status,omitempty"`
	Error  string          `json:"error,omitempty"`
}

// functionJSON is one diagnose.Function of the PCI path: its address and
// role, then the facts of its files (diagnose.FunctionFiles) keyed by the
// row's Key or the file's base name, those of link/ under "link".
type functionJSON struct {
	Address string      `json:"address"`
	Role    string      `json:"role"`
	Files   []keyedFact `json:"-"`
	Link    []keyedFact `json:"link"`
}

// factKey is the JSON key of a sysfs file's fact: the file's base name.
func factKey(file string) string { return path.Base(file) }

// functionKey is the key of a PCI function's fact: the row's Key, else
// its file's base name ("slot_power_limit" for config).
func functionKey(row diagnose.FunctionFile) string {
	if row.Key != "" {
		return row.Key
	}
	return factKey(row.File)
}

func (v *factsJSON) MarshalJSON() ([]byte, error) {
	var o jsonObject
	o.omitEmpty("controller", v.Controller)
	o.omitEmpty("address", v.Address)
	o.facts(v.Files)
	o.field("aspm_policy", v.ASPMPolicy)
	o.field("command_line", v.CommandLine)
	o.field("kernel_release", v.KernelRelease)
	if len(v.Path) > 0 {
		o.field("path", v.Path)
	}
	if v.Health != nil {
		o.field("health", v.Health)
	}
	o.omitEmpty("health_error", v.HealthError)
	return o.done()
}

func (v functionJSON) MarshalJSON() ([]byte, error) {
	var o jsonObject
	o.field("address", v.Address)
	o.field("role", v.Role)
	o.facts(v.Files)
	var link jsonObject
	link.facts(v.Link)
	b, err := link.done()
	if err != nil {
		return nil, err
	}
	o.field("link", json.RawMessage(b))
	return o.done()
}

// jsonObject writes a JSON object's members in the order they are given.
type jsonObject struct {
	b   bytes.Buffer
	err error
}

func (o *jsonObject) field(key string, v any) {
	if o.err != nil {
		return
	}
	val, err := json.Marshal(v)
	if err != nil {
		o.err = err
		return
	}
	if o.b.Len() == 0 {
		o.b.WriteByte('{')
	} else {
		o.b.WriteByte(',')
	}
	k, _ := json.Marshal(key)
	o.b.Write(k)
	o.b.WriteByte(':')
	o.b.Write(val)
}

func (o *jsonObject) omitEmpty(key, v string) {
	if v != "" {
		o.field(key, v)
	}
}

func (o *jsonObject) facts(fs []keyedFact) {
	for _, f := range fs {
		o.field(f.Key, f.Fact)
	}
}

func (o *jsonObject) done() ([]byte, error) {
	if o.err != nil {
		return nil, o.err
	}
	if o.b.Len() == 0 {
		return []byte("{}"), nil
	}
	o.b.WriteByte('}')
	return o.b.Bytes(), nil
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
	v := functionJSON{Address: fn.Address, Role: fn.Role}
	for _, row := range diagnose.FunctionFiles() {
		kf := keyedFact{Key: functionKey(row), Fact: factView(*row.Fact(fn))}
		if strings.HasPrefix(row.File, "link/") {
			v.Link = append(v.Link, kf)
		} else {
			v.Files = append(v.Files, kf)
		}
	}
	return v
}

// factsView is the JSON of f; nil gives nil.
func factsView(f *diagnose.Facts) *factsJSON {
	if f == nil {
		return nil
	}
	v := &factsJSON{
		Controller: f.Controller, Address: f.Address,
		ASPMPolicy: factView(f.ASPMPolicy), CommandLine: factView(f.CommandLine), KernelRelease: factView(f.KernelRelease),
		HealthError: f.HealthError,
	}
	for _, row := range diagnose.ControllerFiles() {
		v.Files = append(v.Files, keyedFact{Key: factKey(row.File), Fact: factView(*row.Fact(f))})
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
