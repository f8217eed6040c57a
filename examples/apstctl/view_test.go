package main

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
	"github.com/nvmeapst/nvmeapst/examples/internal/view"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// The table JSON of cli.md: 32 entry objects, entry 0 first, the value as
// 0x and 16 hex digits, bits above 31 included.
func TestTableView(t *testing.T) {
	var tab apst.Table
	tab[0] = apst.NewEntry(3, 100)
	tab[31] = apst.NewEntry(4, 1<<24)
	b, err := json.Marshal(tableJSON(tab))
	require.NoError(t, err)
	var out []anEntry
	require.NoError(t, json.Unmarshal(b, &out))
	require.Len(t, out, 32)
	assert.Equal(t, anEntry{0, "0x0000000000006418", 3, 100}, out[0])
	assert.Equal(t, anEntry{31, "0x0000000100000020", 4, uint64(tab[31].IdleTime())}, out[31])
	assert.Equal(t, anEntry{1, "0x0000000000000000", 0, 0}, out[1])
}

// The plan JSON of cli.md carries the five stable keys first.
func TestPlanView(t *testing.T) {
	img, err := readCapture(evoImage, nil)
	require.NoError(t, err)
	c, err := capture.ParseBytes(img)
	require.NoError(t, err)
	plan, err := apst.Build(&c, apst.DefaultParams(apst.Current))
	require.NoError(t, err)
	b, err := json.Marshal(planView(&plan))
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	assert.Equal(t, true, m["sent"])
	assert.Equal(t, true, m["enabled"])
	assert.EqualValues(t, 4, m["max_ps"])
	assert.EqualValues(t, 44600, m["max_round_trip_us"])
	entries := m["entries"].([]any)
	require.Len(t, entries, 32)
	assert.Equal(t, map[string]any{"state": 3.0, "value": "0x000000000007d020", "target_state": 4.0, "idle_time_ms": 2000.0}, entries[3])
	params := m["params"].(map[string]any)
	assert.Equal(t, "current", params["kernel"])
	assert.Nil(t, params["release"])
	assert.EqualValues(t, 100000, params["ps_max_latency_us"])
	assert.Equal(t, false, params["ps_max_latency_unlimited"])
	assert.Equal(t, "none", params["quirks"])
	var back apst.Params
	require.NoError(t, back.UnmarshalText([]byte(params["config"].(string))))
	assert.Equal(t, plan.Params, back, "config is the key=value text of the parameters")
}

// The inspect report JSON of the bundle has the keys scripts read (moved
// from the root package with the view).
func TestReportView(t *testing.T) {
	var out struct {
		KernelRelease string `json:"kernel_release"`
		Generation    string `json:"generation"`
		Module        struct {
			Default *uint64 `json:"default_ps_max_latency_us"`
			Force   *bool   `json:"force_apst"`
		} `json:"module"`
		Controllers []struct {
			Name      string  `json:"name"`
			Tolerance *string `json:"pm_qos_latency_tolerance_us"`
			PCI       *struct {
				ID string `json:"id"`
			} `json:"pci"`
			Quirks struct {
				APST    string `json:"apst"`
				Sources []struct {
					Table string `json:"table"`
				} `json:"sources"`
			} `json:"quirks"`
			Bound struct {
				US     uint64 `json:"us"`
				Source string `json:"source"`
			} `json:"bound"`
			Plan struct {
				Sent           bool      `json:"sent"`
				MaxPS          int       `json:"max_ps"`
				MaxRoundTripUS int       `json:"max_round_trip_us"`
				Entries        []anEntry `json:"entries"`
			} `json:"plan"`
			Drive struct {
				APSTE   string `json:"apste"`
				Enabled *bool  `json:"enabled"`
			} `json:"drive"`
			Power struct {
				NonOperational *bool `json:"non_operational"`
			} `json:"power"`
			Verdict struct {
				Status string `json:"status"`
			} `json:"verdict"`
		} `json:"controllers"`
	}
	code, js, errOut := runCmd(runInspect, "--root", bundleDir, "-o", "json")
	require.Equal(t, 0, code, errOut)
	require.NoError(t, json.Unmarshal([]byte(js), &out))
	assert.Equal(t, "6.8.0-fixture", out.KernelRelease)
	assert.Equal(t, "current", out.Generation)
	require.NotNil(t, out.Module.Default)
	assert.Equal(t, uint64(100000), *out.Module.Default)
	require.Len(t, out.Controllers, 3)
	c0 := out.Controllers[0]
	assert.Equal(t, "nvme0", c0.Name)
	require.NotNil(t, c0.Tolerance)
	assert.Equal(t, "100000", *c0.Tolerance)
	assert.Equal(t, "8086:f1a5", c0.PCI.ID)
	assert.Equal(t, "no-deepest-ps", c0.Quirks.APST)
	assert.Equal(t, "pci_id_table", c0.Quirks.Sources[0].Table)
	assert.Equal(t, "module-default", c0.Bound.Source)
	assert.True(t, c0.Plan.Sent)
	assert.Equal(t, 3, c0.Plan.MaxPS)
	assert.Equal(t, 10300, c0.Plan.MaxRoundTripUS)
	require.Len(t, c0.Plan.Entries, 32)
	assert.Equal(t, "0x0000000000006418", c0.Plan.Entries[0].Value)
	assert.Equal(t, "enabled", c0.Drive.APSTE)
	require.NotNil(t, c0.Drive.Enabled)
	require.NotNil(t, c0.Power.NonOperational)
	assert.True(t, *c0.Power.NonOperational)
	assert.Equal(t, "match", c0.Verdict.Status)
	assert.Nil(t, out.Controllers[1].Tolerance)
	assert.Equal(t, "apst-disabled", out.Controllers[1].Bound.Source)
}

// Untrusted strings reach the terminal escaped.
func TestTextEscapesControlCharacters(t *testing.T) {
	img, err := readCapture(evoImage, nil)
	require.NoError(t, err)
	b := append([]byte(nil), img...)
	copy(b[24:64], "EVIL\x1b[2J\r\nforged line              ")
	code, _, errOut := apstctl(t, b, "plan", "-")
	require.Equal(t, 2, code, "a model with control characters is no drive's")
	assert.NotContains(t, errOut, "\x1b")
	code, out, errOut := apstctl(t, b, "plan", "--force", "-")
	require.Equal(t, 0, code, errOut)
	assert.NotContains(t, out, "\x1b")
	assert.NotContains(t, out, "\r")
	assert.Contains(t, out, `EVIL\x1b[2J\r\nforged line`)
}

// The kernel log's JSON is the command's: kernlog's types carry no struct
// tags, and eventJSON has every field of kernlog.Event but the presence
// flags (HasCSTS... are omitempty's job) and Time (written as the log
// wrote it), so that a new field of the library is not left out silently.
func TestEventViewCoversKernlogEvent(t *testing.T) {
	for _, typ := range []reflect.Type{reflect.TypeFor[kernlog.Log](), reflect.TypeFor[kernlog.Incident](), reflect.TypeFor[kernlog.Event]()} {
		for f := range typ.Fields() {
			assert.Empty(t, f.Tag, "%s.%s: the library renders nothing; JSON keys are examples/apstctl's", typ, f.Name)
		}
	}
	view := reflect.TypeFor[eventJSON]()
	for f := range reflect.TypeFor[kernlog.Event]().Fields() {
		if !f.IsExported() || f.Name == "Time" || strings.HasPrefix(f.Name, "Has") {
			continue
		}
		vf, ok := view.FieldByName(f.Name)
		if assert.True(t, ok, "eventJSON lacks kernlog.Event.%s", f.Name) {
			assert.Equal(t, f.Type, vf.Type, f.Name)
		}
	}
}

// The diagnosis's JSON is the command's too: apst/diagnose's types carry no
// struct tags, and each view has every exported field of the library type
// it mirrors, by name (and by type where the field is not itself mirrored),
// so that a new field of the library is not left out silently. Diagnosis's
// Incident is written as incidents (incidentJSON), its Facts from the
// result beside it.
func TestDiagnoseViewsCoverLibrary(t *testing.T) {
	mirrors := []struct{ lib, view reflect.Type }{
		{reflect.TypeFor[diagnose.Diagnosis](), reflect.TypeFor[diagnosisJSON]()},
		{reflect.TypeFor[diagnose.Cause](), reflect.TypeFor[diagCauseJSON]()},
		{reflect.TypeFor[diagnose.Line](), reflect.TypeFor[view.Evidence]()},
		{reflect.TypeFor[diagnose.Test](), reflect.TypeFor[view.Test]()},
		{reflect.TypeFor[diagnose.Facts](), reflect.TypeFor[factsJSON]()},
		{reflect.TypeFor[diagnose.Fact](), reflect.TypeFor[factJSON]()},
		{reflect.TypeFor[diagnose.Function](), reflect.TypeFor[functionJSON]()},
		{reflect.TypeFor[diagnose.HealthLog](), reflect.TypeFor[healthLogJSON]()},
		{reflect.TypeFor[diagnose.Known](), reflect.TypeFor[knownJSON]()},
		{reflect.TypeFor[diagnose.Tried](), reflect.TypeFor[triedJSON]()},
		{reflect.TypeFor[kernlog.UnreadLine](), reflect.TypeFor[view.Unread]()},
	}
	mirrored := map[reflect.Type]reflect.Type{}
	for _, m := range mirrors {
		mirrored[m.lib] = m.view
	}
	// viewOf is the view type of a library type: the same type, or its
	// mirror, under the same slices and pointers.
	var viewOf func(reflect.Type) reflect.Type
	viewOf = func(lt reflect.Type) reflect.Type {
		switch lt.Kind() {
		case reflect.Slice:
			return reflect.SliceOf(viewOf(lt.Elem()))
		case reflect.Pointer:
			return reflect.PointerTo(viewOf(lt.Elem()))
		}
		if v, ok := mirrored[lt]; ok {
			return v
		}
		return lt
	}
	// The facts of sysfs files are rendered from their rows
	// (diagnose.ControllerFiles, FunctionFiles), keyed by the file.
	rows := sysfsRowFields(t)
	for _, m := range mirrors {
		for f := range m.lib.Fields() {
			assert.Empty(t, f.Tag, "%s.%s: the library renders nothing; JSON keys are examples/apstctl's", m.lib, f.Name)
			if !f.IsExported() || (m.lib == reflect.TypeFor[diagnose.Diagnosis]() && f.Name == "Incident") || rows[m.lib][f.Name] {
				continue
			}
			vf, ok := m.view.FieldByName(f.Name)
			if assert.True(t, ok, "%s lacks %s.%s", m.view, m.lib, f.Name) {
				assert.Equal(t, viewOf(f.Type), vf.Type, "%s.%s", m.lib, f.Name)
				assert.NotEmpty(t, vf.Tag.Get("json"), "%s.%s has no JSON key", m.view, f.Name)
			}
		}
	}
}

// sysfsRowFields names, by type, the fields of diagnose.Facts and
// diagnose.Function that a row of diagnose.ControllerFiles or
// FunctionFiles fills (Function's Link when every one of its facts is a
// row), which the views render from the rows. Every row fills a field.
func sysfsRowFields(t *testing.T) map[reflect.Type]map[string]bool {
	t.Helper()
	out := map[reflect.Type]map[string]bool{}
	fill := func(v reflect.Value, filled map[*diagnose.Fact]bool) map[string]bool {
		names := map[string]bool{}
		for i := range v.NumField() {
			if p, ok := v.Field(i).Addr().Interface().(*diagnose.Fact); ok && filled[p] {
				names[v.Type().Field(i).Name] = true
				delete(filled, p)
			}
		}
		return names
	}
	var facts diagnose.Facts
	filled := map[*diagnose.Fact]bool{}
	for _, r := range diagnose.ControllerFiles() {
		filled[r.Fact(&facts)] = true
	}
	out[reflect.TypeFor[diagnose.Facts]()] = fill(reflect.ValueOf(&facts).Elem(), filled)
	assert.Empty(t, filled, "a row of diagnose.ControllerFiles fills no field of Facts")

	var fn diagnose.Function
	filled = map[*diagnose.Fact]bool{}
	for _, r := range diagnose.FunctionFiles() {
		filled[r.Fact(&fn)] = true
	}
	names := fill(reflect.ValueOf(&fn).Elem(), filled)
	link := reflect.ValueOf(&fn.Link).Elem()
	if linkNames := fill(link, filled); len(linkNames) == link.NumField() {
		names["Link"] = true
	}
	out[reflect.TypeFor[diagnose.Function]()] = names
	assert.Empty(t, filled, "a row of diagnose.FunctionFiles fills no field of Function")
	return out
}

// A fact read but not understood (config as an unprivileged read gets it)
// says why in its first words, in the text and in full in the JSON.
func TestUnknownFactSaysWhy(t *testing.T) {
	f := diagnose.Fact{Source: "/sys/devices/pci0000:00/0000:00:1d.0/config", Status: diagnose.Unknown,
		Error: "needs root (an unprivileged read of config gives its first 64 bytes): 64 bytes read, the capability list needs 114"}
	assert.Equal(t, "(unknown: needs root)", short(f))
	assert.Equal(t, "(unknown: slot power limit not set)", short(diagnose.Fact{Status: diagnose.Unknown, Error: "slot power limit not set (0)"}))
	assert.Equal(t, "(unknown)", short(diagnose.Fact{}))
	assert.Equal(t, "(unknown: \\x1b[31m)", short(diagnose.Fact{Status: diagnose.Unknown, Error: "\x1b[31m"}), "escaped")
	fn := diagnose.Function{Address: "0000:00:1d.0", Role: "root port", SlotPower: f}
	b, err := json.Marshal(functionView(&fn))
	require.NoError(t, err)
	assert.Contains(t, string(b), `"slot_power_limit":{"source":"/sys/devices/pci0000:00/0000:00:1d.0/config","error":"needs root (an unprivileged`)
}
