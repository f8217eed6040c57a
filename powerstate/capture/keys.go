package capture

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// apstFields are the fields the kernel's APST decisions read: the quirk
// lookup (VID, MN, FR), NPSS, APSTA and the power state descriptors. A value
// of one of them that does not fit refuses the capture; any other field is
// kept as unknown with a note.
const apstFields = powerstate.FieldVendorID | powerstate.FieldModel | powerstate.FieldFirmware | powerstate.FieldNPSS | powerstate.FieldAPSTA | powerstate.FieldPowerStates

// keys collects what a reader has read of a capture's keys: the fields
// known, the line each field's key is on (to refuse a second one), and the
// notes on fields kept as unknown.
type keys struct {
	f     powerstate.Format
	known powerstate.Fields
	lines [32]int
	notes []string
}

// seen records that field's key is on line; a second key for the same
// field is ErrDuplicateKey naming both lines.
func (k *keys) seen(field powerstate.Fields, key string, line int) error {
	i := bits.TrailingZeros32(uint32(field))
	if first := k.lines[i]; first != 0 {
		return dupKey(k.f, key, first, line)
	}
	k.lines[i] = line
	return nil
}

// dupKey is the ErrDuplicateKey error for key on lines first and line.
func dupKey(f powerstate.Format, key string, first, line int) error {
	return &ParseError{Format: f, Line: line,
		Expected: "each key once (" + key + " is on line " + strconv.Itoa(first) + " already)",
		Err:      fmt.Errorf("%w: %s on lines %d and %d", ErrDuplicateKey, key, first, line)}
}

// set records field as known.
func (k *keys) set(field powerstate.Fields) { k.known |= field }

// bad handles a value that does not fit its field: an error for a field
// APST uses, a note (and the field left unknown) for any other.
func (k *keys) bad(field powerstate.Fields, key string, line int, expected, found string) error {
	if field&apstFields != 0 {
		return syntaxErr(k.f, line, expected, found)
	}
	if len(found) > maxFound {
		found = found[:maxFound] + "..."
	}
	k.notes = append(k.notes, fmt.Sprintf("line %d: %s kept as unknown (APST does not use it): expected %s, found %q",
		line, key, expected, found))
	return nil
}

// finish records what a text or JSON capture carried in c: Missing is every
// field outside the known ones, the notes, and ModelField and FirmwareField
// hold the printed strings padded with spaces, the padding the capture
// implies. The strings are copied out of the capture (which may be a view of
// the caller's buffer) into one allocation.
func (k *keys) finish(c *powerstate.Controller) {
	c.Missing = powerstate.FieldsAll &^ k.known
	c.Notes = k.notes
	c.Serial, c.Model, c.Firmware = cloneStrings(c.Serial, c.Model, c.Firmware)
	if k.known.Has(powerstate.FieldModel) {
		padField(c.ModelField[:], c.Model)
	}
	if k.known.Has(powerstate.FieldFirmware) {
		padField(c.FirmwareField[:], c.Firmware)
	}
}

// padField writes s into the Identify string field dst, space padded as a
// drive pads it.
func padField(dst []byte, s string) {
	n := copy(dst, s)
	for i := n; i < len(dst); i++ {
		dst[i] = ' '
	}
}

// cloneStrings copies three strings into one allocation.
func cloneStrings(a, b, c string) (string, string, string) {
	if len(a)+len(b)+len(c) == 0 {
		return "", "", ""
	}
	var sb strings.Builder
	sb.Grow(len(a) + len(b) + len(c))
	sb.WriteString(a)
	sb.WriteString(b)
	sb.WriteString(c)
	all := sb.String()
	return all[:len(a)], all[len(a) : len(a)+len(b)], all[len(a)+len(b):]
}
