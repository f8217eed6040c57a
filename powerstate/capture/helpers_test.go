package capture_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// corpusDir holds the real smartctl reports and the captures generated from
// them (testdata/corpus/README.md).
var corpusDir = testfixture.Path("corpus")

// carried is the set of fields each capture format can carry.
func carried(f powerstate.Format) powerstate.Fields {
	const header = powerstate.FieldVendorID | powerstate.FieldSubsystemVendorID | powerstate.FieldSerial |
		powerstate.FieldModel | powerstate.FieldFirmware | powerstate.FieldIEEE | powerstate.FieldControllerID |
		powerstate.FieldVersion | powerstate.FieldOACS | powerstate.FieldNPSS | powerstate.FieldWarningTemp |
		powerstate.FieldCriticalTemp | powerstate.FieldPowerStates
	switch f {
	case powerstate.FormatBinary:
		return powerstate.FieldsAll
	case powerstate.FormatNVMeCLIText, powerstate.FormatNVMeCLIJSON:
		return header | powerstate.FieldRTD3Resume | powerstate.FieldRTD3Entry | powerstate.FieldAVSCC |
			powerstate.FieldAPSTA | powerstate.FieldIdlePower | powerstate.FieldActivePower | powerstate.FieldActiveWorkload |
			powerstate.FieldControllerType | powerstate.FieldIOCCSZ
	case powerstate.FormatSmartctlText, powerstate.FormatSmartctlJSON:
		return header
	}
	return 0
}

// diffControllers lists the differences between a and b in fields, as seen
// through format via (a value written to via and read back may lose what
// via cannot show: nvme-cli text prints "-" for an unreported power and
// "reserved" for the reserved scale and workloads, smartctl masks the ranks
// to 5 bits).
func diffControllers(a, b *powerstate.Controller, fields powerstate.Fields, via powerstate.Format) []string {
	var d []string
	cmp := func(f powerstate.Fields, name string, x, y any) {
		if fields.Has(f) && x != y {
			d = append(d, fmt.Sprintf("%s: %v != %v", name, x, y))
		}
	}
	cmp(powerstate.FieldVendorID, "vid", a.VendorID, b.VendorID)
	cmp(powerstate.FieldSubsystemVendorID, "ssvid", a.SubsystemVendorID, b.SubsystemVendorID)
	cmp(powerstate.FieldSerial, "sn", a.Serial, b.Serial)
	cmp(powerstate.FieldModel, "mn", a.Model, b.Model)
	cmp(powerstate.FieldFirmware, "fr", a.Firmware, b.Firmware)
	cmp(powerstate.FieldIEEE, "ieee", a.IEEE, b.IEEE)
	cmp(powerstate.FieldControllerID, "cntlid", a.ControllerID, b.ControllerID)
	cmp(powerstate.FieldVersion, "ver", a.Version, b.Version)
	cmp(powerstate.FieldRTD3Resume, "rtd3r", a.RTD3Resume, b.RTD3Resume)
	cmp(powerstate.FieldRTD3Entry, "rtd3e", a.RTD3Entry, b.RTD3Entry)
	cmp(powerstate.FieldOACS, "oacs", a.OACS, b.OACS)
	cmp(powerstate.FieldNPSS, "npss", a.NPSS, b.NPSS)
	cmp(powerstate.FieldAVSCC, "avscc", a.AVSCC, b.AVSCC)
	cmp(powerstate.FieldAPSTA, "apsta", a.APSTA, b.APSTA)
	cmp(powerstate.FieldWarningTemp, "wctemp", a.WarningTemp, b.WarningTemp)
	cmp(powerstate.FieldCriticalTemp, "cctemp", a.CriticalTemp, b.CriticalTemp)
	cmp(powerstate.FieldControllerType, "cntrltype", a.ControllerType, b.ControllerType)
	cmp(powerstate.FieldIOCCSZ, "ioccsz", a.IOCCSZ, b.IOCCSZ)
	if !fields.Has(powerstate.FieldPowerStates) {
		return d
	}
	if a.StateCount() != b.StateCount() {
		return append(d, fmt.Sprintf("state count: %d != %d", a.StateCount(), b.StateCount()))
	}
	rank := func(v uint8) uint8 {
		if via == powerstate.FormatSmartctlText || via == powerstate.FormatSmartctlJSON {
			return v & 0x1f
		}
		return v
	}
	mp := func(p powerstate.Power) powerstate.Power {
		if p.Scale != powerstate.Scale0_0001W {
			p.Scale = powerstate.Scale0_01W
		}
		return p
	}
	opt := func(p powerstate.Power) string {
		p.Scale &= 3
		if via == powerstate.FormatNVMeCLIText {
			return p.String()
		}
		return fmt.Sprint(p.Units, p.Scale)
	}
	work := func(w powerstate.Workload) string {
		if via == powerstate.FormatNVMeCLIText {
			return (w & 7).String()
		}
		return fmt.Sprint(w & 7)
	}
	for i := range a.StateCount() {
		x, y := &a.PowerStates[i], &b.PowerStates[i]
		s := fmt.Sprintf("ps%d.", i)
		if mp(x.MaxPower) != mp(y.MaxPower) {
			d = append(d, fmt.Sprintf("%smp: %v != %v", s, x.MaxPower, y.MaxPower))
		}
		if x.NonOperational != y.NonOperational || x.EntryLatency != y.EntryLatency || x.ExitLatency != y.ExitLatency {
			d = append(d, fmt.Sprintf("%sflags/latency: %v != %v", s, x, y))
		}
		if rank(x.RelativeReadThroughput) != rank(y.RelativeReadThroughput) ||
			rank(x.RelativeReadLatency) != rank(y.RelativeReadLatency) ||
			rank(x.RelativeWriteThroughput) != rank(y.RelativeWriteThroughput) ||
			rank(x.RelativeWriteLatency) != rank(y.RelativeWriteLatency) {
			d = append(d, fmt.Sprintf("%sranks: %d/%d/%d/%d != %d/%d/%d/%d", s,
				x.RelativeReadThroughput, x.RelativeReadLatency, x.RelativeWriteThroughput, x.RelativeWriteLatency,
				y.RelativeReadThroughput, y.RelativeReadLatency, y.RelativeWriteThroughput, y.RelativeWriteLatency))
		}
		if fields.Has(powerstate.FieldIdlePower) && opt(x.IdlePower) != opt(y.IdlePower) {
			d = append(d, fmt.Sprintf("%sidle: %v != %v", s, x.IdlePower, y.IdlePower))
		}
		if fields.Has(powerstate.FieldActivePower) && (opt(x.ActivePower) != opt(y.ActivePower) ||
			work(x.ActiveWorkload) != work(y.ActiveWorkload)) {
			d = append(d, fmt.Sprintf("%sactive: %v/%v != %v/%v", s, x.ActivePower, x.ActiveWorkload, y.ActivePower, y.ActiveWorkload))
		}
	}
	return d
}

// writers are the re-encoders of each format, with the format they write.
var writers = []struct {
	format powerstate.Format
	write  func(*bytes.Buffer, *powerstate.Controller) error
}{
	{powerstate.FormatBinary, func(b *bytes.Buffer, c *powerstate.Controller) error {
		img, err := c.MarshalBinary()
		b.Write(img)
		return err
	}},
	{powerstate.FormatNVMeCLIText, func(b *bytes.Buffer, c *powerstate.Controller) error { return capture.WriteNVMeCLIText(b, c) }},
	{powerstate.FormatNVMeCLIJSON, func(b *bytes.Buffer, c *powerstate.Controller) error { return capture.WriteNVMeCLIJSON(b, c) }},
	{powerstate.FormatSmartctlText, func(b *bytes.Buffer, c *powerstate.Controller) error { return capture.WriteSmartctlText(b, c) }},
	{powerstate.FormatSmartctlJSON, func(b *bytes.Buffer, c *powerstate.Controller) error {
		j, err := smartctlJSON(c)
		b.Write(j)
		return err
	}},
}

// roundTrip re-encodes c with every writer, parses the result, and returns
// the differences in the fields c knows that the written format carries.
// A writer that refuses c (ErrUnrepresentable) is skipped.
func roundTrip(c *powerstate.Controller) []string {
	var diffs []string
	for _, w := range writers {
		var buf bytes.Buffer
		if err := w.write(&buf, c); err != nil {
			continue
		}
		got, err := capture.Parse(bytes.NewReader(buf.Bytes()))
		var ne *powerstate.NotIdentifyError
		if w.format == powerstate.FormatBinary && errors.As(err, &ne) {
			// An image of a controller with no VID or model (a capture
			// that did not carry them) is refused as implausible; what it
			// decodes to must still be the controller.
			got, err = ne.Controller, nil
		}
		if err != nil {
			diffs = append(diffs, fmt.Sprintf("%s: re-parse: %v\n%s", w.format, err, buf.String()))
			continue
		}
		if got.Format != w.format {
			diffs = append(diffs, fmt.Sprintf("%s: re-parsed as %s", w.format, got.Format))
		}
		fields := c.Known() & carried(w.format)
		if w.format == powerstate.FormatSmartctlText || w.format == powerstate.FormatSmartctlJSON {
			if c.StateCount() == powerstate.MaxStates {
				fields &^= powerstate.FieldNPSS // 32 rows do not tell NPSS
			}
		}
		if !got.Knows(fields) {
			diffs = append(diffs, fmt.Sprintf("%s: known %v, want at least %v", w.format, got.Known(), fields))
		}
		for _, d := range diffControllers(c, &got, fields, w.format) {
			diffs = append(diffs, string(w.format.String())+": "+d)
		}
	}
	return diffs
}

// smartctlJSON renders c as "smartctl -j -a" 7.5 would, including the
// active_power and idle_power objects with smartctl's decoding of the raw
// scale bytes (raw byte & 3).
func smartctlJSON(c *powerstate.Controller) ([]byte, error) {
	known := c.Known()
	for _, s := range []string{c.Model, c.Serial, c.Firmware} {
		if !utf8.ValidString(s) || len(c.Model) > 40 || len(c.Serial) > 20 || len(c.Firmware) > 8 {
			return nil, capture.ErrUnrepresentable
		}
	}
	if !known.Has(powerstate.FieldPowerStates) {
		return nil, capture.ErrUnrepresentable
	}
	m := map[string]any{
		"json_format_version": []int{1, 0},
		"smartctl":            map[string]any{"version": []int{7, 5}, "svn_revision": "5714", "exit_status": 0},
		"device":              map[string]any{"name": "/dev/nvme0", "type": "nvme", "protocol": "NVMe"},
	}
	if known.Has(powerstate.FieldModel) {
		m["model_name"] = c.Model
	}
	if known.Has(powerstate.FieldSerial) {
		m["serial_number"] = c.Serial
	}
	if known.Has(powerstate.FieldFirmware) {
		m["firmware_version"] = c.Firmware
	}
	vendor := map[string]any{}
	if known.Has(powerstate.FieldVendorID) {
		vendor["id"] = c.VendorID
	}
	if known.Has(powerstate.FieldSubsystemVendorID) {
		vendor["subsystem_id"] = c.SubsystemVendorID
	}
	if len(vendor) > 0 {
		m["nvme_pci_vendor"] = vendor
	}
	if known.Has(powerstate.FieldIEEE) {
		m["nvme_ieee_oui_identifier"] = c.IEEE & 0xffffff
	}
	if known.Has(powerstate.FieldControllerID) {
		m["nvme_controller_id"] = c.ControllerID
	}
	if known.Has(powerstate.FieldVersion) {
		m["nvme_version"] = map[string]any{"string": c.Version.String(), "value": uint32(c.Version)}
	}
	if known.Has(powerstate.FieldOACS) {
		m["nvme_optional_admin_commands"] = map[string]any{"value": c.OACS, "security_send_receive": c.OACS&1 != 0}
	}
	th := map[string]any{}
	if known.Has(powerstate.FieldWarningTemp) {
		th["warning"] = c.WarningTemp.Celsius()
	}
	if known.Has(powerstate.FieldCriticalTemp) {
		th["critical"] = c.CriticalTemp.Celsius()
	}
	if len(th) > 0 {
		m["nvme_composite_temperature_threshold"] = th
	}
	power := func(units uint16, scale uint8) map[string]any {
		p := map[string]any{"value": units, "scale": scale}
		switch scale {
		case 1:
			p["units_per_watt"] = 10000
		case 2:
			p["units_per_watt"] = 100
		}
		return p
	}
	var states []any
	for _, d := range c.States() {
		e := map[string]any{
			"non_operational_state":     d.NonOperational,
			"relative_read_latency":     d.RelativeReadLatency & 0x1f,
			"relative_read_throughput":  d.RelativeReadThroughput & 0x1f,
			"relative_write_latency":    d.RelativeWriteLatency & 0x1f,
			"relative_write_throughput": d.RelativeWriteThroughput & 0x1f,
			"entry_latency_us":          d.EntryLatency,
			"exit_latency_us":           d.ExitLatency,
		}
		if d.MaxPower.Scale == powerstate.Scale0_0001W {
			e["max_power"] = power(d.MaxPower.Units, 1)
		} else {
			e["max_power"] = power(d.MaxPower.Units, 2)
		}
		if s := uint8(d.ActiveWorkload) & 3; s != 0 && known.Has(powerstate.FieldActivePower) {
			e["active_power"] = power(d.ActivePower.Units, s)
		}
		states = append(states, e)
	}
	m["nvme_power_states"] = states
	b, err := json.MarshalIndent(m, "", "  ")
	if err == nil && capture.LooksQuotedPrintable(string(b)) {
		return nil, capture.ErrUnrepresentable // as the library's writers refuse it
	}
	return append(b, '\n'), err
}

// readTestdata reads a file under testdata.
func readTestdata(tb testing.TB, rel string) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", rel))
	require.NoError(tb, err)
	return b
}

// parseString parses s with Parse.
func parseString(s string) (powerstate.Controller, error) {
	return capture.Parse(strings.NewReader(s))
}
