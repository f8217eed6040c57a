package main

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nvmeapst/nvmeapst/internal/safeio"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// escapeCaptureText replaces each string of ctl (serial number, model,
// firmware revision) that holds a control character, a bidirectional
// control or a byte that is not UTF-8 with its terminal escape
// (safeio.EscapeTerminal: "\x1b", "\xff", a backslash doubled), so that a
// text capture convert writes cannot act on a terminal. It returns the
// names of the fields it escaped. A field whose escape is longer than the
// Identify field (the width a reader accepts) is refused: the text would
// not read back.
func escapeCaptureText(ctl *powerstate.Controller, target string) ([]string, error) {
	var escaped []string
	for _, f := range [...]struct {
		field powerstate.Fields
		name  string
		p     *string
		width int
	}{
		{powerstate.FieldSerial, "serial number", &ctl.Serial, 20},
		{powerstate.FieldModel, "model number", &ctl.Model, 40},
		{powerstate.FieldFirmware, "firmware revision", &ctl.Firmware, 8},
	} {
		if !ctl.Knows(f.field) || !safeio.HasControl(*f.p) {
			continue
		}
		e := safeio.EscapeTerminal(*f.p)
		if len(e) > f.width {
			return nil, fmt.Errorf("the %s %s holds control characters, which %s writes escaped, and escaped it is %d bytes, longer than the field's %d: convert it --to nvme-cli-json or binary, which carry it exactly",
				f.name, strconv.Quote(*f.p), target, len(e), f.width)
		}
		*f.p = e
		escaped = append(escaped, f.name)
	}
	return escaped, nil
}

// escapeJSONTerminal returns the JSON text s with what encoding/json leaves
// raw and a terminal acts on, DEL, the C1 controls and the bidirectional
// controls (safeio.HasControl), written as \uHHHH escapes: the JSON is the
// same, and reads back the same strings.
func escapeJSONTerminal(s string) string {
	if !safeio.HasControl(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == 0x7f || r >= utf8.RuneSelf && safeio.HasControl(s[i:i+n]) {
			fmt.Fprintf(&b, `\u%04x`, r)
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
