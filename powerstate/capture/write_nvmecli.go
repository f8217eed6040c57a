package capture

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// writtenFields returns the fields a writer may write: those not in
// Missing.
func writtenFields(c *powerstate.Controller) powerstate.Fields {
	return powerstate.FieldsAll &^ c.Missing
}

// checkStrings verifies that the known strings of c can be written: no
// line break (text) or valid UTF-8 (JSON), and within their field width.
func checkStrings(c *powerstate.Controller, known powerstate.Fields, f powerstate.Format, json bool) error {
	for _, s := range [...]struct {
		field powerstate.Fields
		name  string
		v     string
		width int
	}{
		{powerstate.FieldSerial, "serial number", c.Serial, maxSerial},
		{powerstate.FieldModel, "model number", c.Model, maxModel},
		{powerstate.FieldFirmware, "firmware revision", c.Firmware, maxFirmware},
	} {
		if !known.Has(s.field) {
			continue
		}
		switch {
		case len(s.v) > s.width:
			return fmt.Errorf("%w: %s: the %s %q is longer than %d bytes", ErrUnrepresentable, f, s.name, s.v, s.width)
		case json && !utf8.ValidString(s.v):
			return fmt.Errorf("%w: %s: the %s %q is not valid UTF-8, which JSON cannot hold (a binary image carries it)", ErrUnrepresentable, f, s.name, s.v)
		case !json && strings.ContainsAny(s.v, "\r\n"):
			return fmt.Errorf("%w: %s: the %s %q contains a line break", ErrUnrepresentable, f, s.name, s.v)
		case !json && f == powerstate.FormatSmartctlText && s.v != strings.TrimSpace(s.v):
			return fmt.Errorf("%w: %s: the %s %q has leading or trailing blanks, which smartctl drops", ErrUnrepresentable, f, s.name, s.v)
		}
	}
	if !known.Has(powerstate.FieldPowerStates) {
		return fmt.Errorf("%w: %s: the power states are unknown", ErrUnrepresentable, f)
	}
	return nil
}

// writeCapture writes the rendered capture b to w, unless a reader would
// take b for the quoted-printable encoding of a mail body and decode it
// (a model, serial number or firmware revision holding "=20" or "=3D"):
// then the output would not read back as c, and the writer refuses it.
// It refuses too any output whose format would be detected as another
// (256 bytes of text holding a NUL byte read as an APST feature buffer).
func writeCapture(w io.Writer, b []byte, f powerstate.Format) error {
	if looksQuotedPrintable(string(b)) {
		return fmt.Errorf("%w: %s: the model, serial number or firmware revision holds \"=\" escapes that a reader would decode as a mail's quoted-printable encoding", ErrUnrepresentable, f)
	}
	if got := detect(b).format; got != f {
		return fmt.Errorf("%w: %s: the output would read back as %s (a model, serial number or firmware revision with NUL bytes makes text look binary)", ErrUnrepresentable, f, got)
	}
	_, err := w.Write(b)
	return err
}

// hashX formats v as C's "%#x": "0" for zero, "0x..." otherwise.
func hashX(b []byte, v uint64) []byte {
	if v == 0 {
		return append(b, '0')
	}
	b = append(b, "0x"...)
	return strconv.AppendUint(b, v, 16)
}

// padded appends s padded with spaces to width (nvme-cli prints the raw,
// space-padded Identify field).
func padded(b []byte, s string, width int) []byte {
	b = append(b, s...)
	for i := len(s); i < width; i++ {
		b = append(b, ' ')
	}
	return b
}

// appendNVMeKeysText appends the id-ctrl key lines of the known fields of
// c, in nvme-cli's order and number formats.
func appendNVMeKeysText(b []byte, c *powerstate.Controller, known powerstate.Fields) []byte {
	for _, k := range nvmeKeysOf(c) {
		if !known.Has(k.field) {
			continue
		}
		b = padded(b, k.name, 10)
		b = append(b, ": "...)
		switch k.text {
		case textPadded:
			b = padded(b, *k.p.(*string), k.bits)
		case textHashX:
			b = hashX(b, uintAt(k.p, k.bits))
		case textDec:
			b = strconv.AppendUint(b, uintAt(k.p, k.bits), 10)
		case textHex6:
			b = fmt.Appendf(b, "%06x", uintAt(k.p, k.bits))
		}
		b = append(b, '\n')
	}
	return b
}

// appendNVMeKeysJSON appends the top-level id-ctrl keys of the known fields
// of c, in nvme-cli's order: numbers, and the strings padded with spaces.
func appendNVMeKeysJSON(b []byte, c *powerstate.Controller, known powerstate.Fields) []byte {
	for _, k := range nvmeKeysOf(c) {
		switch {
		case !known.Has(k.field):
		case k.kind == keyString:
			q, _ := json.Marshal(string(padded(nil, *k.p.(*string), k.bits)))
			b = fmt.Appendf(b, "  %q: %s,\n", k.name, q)
		default:
			b = fmt.Appendf(b, "  %q: %d,\n", k.name, uintAt(k.p, k.bits))
		}
	}
	return b
}

// WriteNVMeCLIText writes c as "nvme id-ctrl" prints it in the current
// generation (nvme-cli v2.12 and later). It writes the header line, the
// id-ctrl keys the controller knows among vid, ssvid, sn, mn, fr, ieee,
// cntlid, ver, rtd3r, rtd3e, cntrltype, oacs, npss, avscc, apsta, wctemp,
// cctemp and ioccsz (in nvme-cli's order and number formats; unknown ones
// are left out), and the six-line block of every power state 0..NPSS (at most 32).
//
// The format has no way to say "unknown" inside a power state block: an
// unknown idle or active power is written as "-", and the NVMe 2.1 time
// fields, which the model does not hold, as "-". ParseNVMeCLIText of the
// output gives back every field outside c.Missing.
func WriteNVMeCLIText(w io.Writer, c *powerstate.Controller) error {
	if c == nil {
		return ErrNilController
	}
	known := writtenFields(c)
	if err := checkStrings(c, known, powerstate.FormatNVMeCLIText, false); err != nil {
		return err
	}
	b := make([]byte, 0, 512+c.StateCount()*400)
	b = append(b, "NVME Identify Controller:\n"...)
	b = appendNVMeKeysText(b, c, known)

	const indent = "            " // 12 spaces (v2.1 and later)
	for i, d := range c.States() {
		b = fmt.Appendf(b, "ps   %4d : mp:", i)
		b = appendPower(b, normalizeMaxPower(d.MaxPower))
		if d.NonOperational {
			b = append(b, " non-"...)
		} else {
			b = append(b, ' ')
		}
		b = fmt.Appendf(b, "operational enlat:%d exlat:%d rrt:%d rrl:%d\n",
			d.EntryLatency, d.ExitLatency, d.RelativeReadThroughput, d.RelativeReadLatency)
		b = fmt.Appendf(b, "%srwt:%d rwl:%d idle_power:", indent, d.RelativeWriteThroughput, d.RelativeWriteLatency)
		idle, active, work := d.IdlePower, d.ActivePower, d.ActiveWorkload
		if !known.Has(powerstate.FieldIdlePower) {
			idle = powerstate.Power{}
		}
		if !known.Has(powerstate.FieldActivePower) {
			active = powerstate.Power{}
		}
		if !known.Has(powerstate.FieldActiveWorkload) {
			work = powerstate.WorkloadNone
		}
		b = appendPower(b, idle)
		b = append(b, " active_power:"...)
		b = appendPower(b, active)
		b = append(b, '\n')
		b = append(b, indent+"active_power_workload:"...)
		b = append(b, (work & 7).String()...)
		b = append(b, '\n')
		for _, t := range nvmeTimeLines {
			b = append(b, indent...)
			b = append(b, t...)
			b = append(b, " -\n"...)
		}
	}
	return writeCapture(w, b, powerstate.FormatNVMeCLIText)
}

// WriteNVMeCLIJSON writes c as "nvme id-ctrl -o json" prints it with the
// v2.12 key set. It writes the top-level keys the controller knows (vid,
// ssvid, sn, mn, fr, ieee, cntlid, ver, rtd3r, rtd3e, cntrltype, oacs, npss,
// avscc, apsta, wctemp, cctemp, ioccsz; unknown ones are left out) and
// "psds" with NPSS+1 elements (at most 32) carrying max_power,
// max_power_scale, non-operational_state, entry_lat, exit_lat, read_tput,
// read_lat, write_tput, write_lat, idle_power, idle_scale, active_power,
// active_power_work, active_scale and the six NVMe 2.1 time keys (written
// as 0, which the model does not hold).
// Unknown idle or active power is written as 0 (not reported).
// ParseNVMeCLIJSON of the output gives back every field outside c.Missing.
func WriteNVMeCLIJSON(w io.Writer, c *powerstate.Controller) error {
	if c == nil {
		return ErrNilController
	}
	known := writtenFields(c)
	if err := checkStrings(c, known, powerstate.FormatNVMeCLIJSON, true); err != nil {
		return err
	}
	b := make([]byte, 0, 512+c.StateCount()*600)
	b = append(b, "{\n"...)
	b = appendNVMeKeysJSON(b, c, known)
	b = append(b, "  \"psds\": [\n"...)
	states := c.States()
	for i, d := range states {
		mp := normalizeMaxPower(d.MaxPower)
		mxps, nops := 0, 0
		if mp.Scale == powerstate.Scale0_0001W {
			mxps = 1
		}
		if d.NonOperational {
			nops = 1
		}
		idle, active, work := d.IdlePower, d.ActivePower, d.ActiveWorkload
		if !known.Has(powerstate.FieldIdlePower) {
			idle = powerstate.Power{}
		}
		if !known.Has(powerstate.FieldActivePower) {
			active = powerstate.Power{}
		}
		if !known.Has(powerstate.FieldActiveWorkload) {
			work = powerstate.WorkloadNone
		}
		b = fmt.Appendf(b, "    {\n"+
			"      \"max_power\": %d,\n"+
			"      \"max_power_scale\": %d,\n"+
			"      \"non-operational_state\": %d,\n"+
			"      \"entry_lat\": %d,\n"+
			"      \"exit_lat\": %d,\n"+
			"      \"read_tput\": %d,\n"+
			"      \"read_lat\": %d,\n"+
			"      \"write_tput\": %d,\n"+
			"      \"write_lat\": %d,\n"+
			"      \"idle_power\": %d,\n"+
			"      \"idle_scale\": %d,\n"+
			"      \"active_power\": %d,\n"+
			"      \"active_power_work\": %d,\n"+
			"      \"active_scale\": %d,\n"+
			"      \"emerg_power_fail_recover_time\": 0,\n"+
			"      \"emerg_power_fail_recover_scale\": 0,\n"+
			"      \"force_quiesce_vault_time\": 0,\n"+
			"      \"force_quiesce_vault_scale\": 0,\n"+
			"      \"emerg_power_fail_vault_time\": 0,\n"+
			"      \"emerg_power_fail_vault_scale\": 0\n"+
			"    }",
			mp.Units, mxps, nops, d.EntryLatency, d.ExitLatency,
			d.RelativeReadThroughput, d.RelativeReadLatency, d.RelativeWriteThroughput, d.RelativeWriteLatency,
			idle.Units, idle.Scale&3, active.Units, work&7, active.Scale&3)
		if i < len(states)-1 {
			b = append(b, ',')
		}
		b = append(b, '\n')
	}
	b = append(b, "  ]\n}\n"...)
	return writeCapture(w, b, powerstate.FormatNVMeCLIJSON)
}

// appendPower appends p as nvme-cli prints it (p.String: "8.9800W", "-").
func appendPower(b []byte, p powerstate.Power) []byte {
	b, _ = p.AppendText(b) // Power.AppendText never fails
	return b
}
