package trace

import "strconv"

// fixedErr is the error of a field that parseFixed(field, digits)
// refused: a decimal number too large for an int64 is said to be out of
// range, with the largest time an event may have (MaxEventTime, 2^62-1
// ns, written in the field's unit: 4611686018.427387903 seconds with nine
// decimals); any other text is a syntax error expecting what.
func (r *Reader) fixedErr(what string, field []byte, digits int, line []byte) error {
	if !isDecimal(field) {
		return r.syntax(what, line)
	}
	return r.syntax(what+" of at most "+maxFixed(digits)+" (2^62-1 ns, 146 years): out of range", line)
}

// maxFixed is MaxEventTime written with digits decimals.
func maxFixed(digits int) string {
	s := strconv.FormatInt(MaxEventTime, 10)
	return s[:len(s)-digits] + "." + s[len(s)-digits:]
}
