package capture

import (
	"fmt"
	"strings"
)

// hexLayout names the layout of a hex dump.
type hexLayout uint8

// The hex dump layouts a reader takes.
const (
	hexNone    hexLayout = iota
	hexNVMeCLI           // nvme-cli's own: "0010: 18 64 00 ... "..."", 4-digit offsets
	hexXXD               // xxd: "00000010: 1864 0000 ...  ....", byte pairs (or single bytes with -g1)
	hexC                 // hexdump -C: "00000010  18 64 00 ...  |....|", "*" for repeated lines, the length last
	hexOD                // od -A x -t x1z: "000010 18 64 00 ... >....<", "*" for repeated lines, the length last
)

var hexLayoutNames = [...]string{"no hex dump", "nvme-cli hex dump", "xxd", "hexdump -C", "od -A x -t x1z"}

// String names the layout by the command that prints it.
func (l hexLayout) String() string {
	if int(l) < len(hexLayoutNames) {
		return hexLayoutNames[l]
	}
	return "HexLayout(?)"
}

// maxHexLine is the most bytes one dump line may hold (xxd -c 256).
const maxHexLine = 256

// maxHexOffset bounds a line's offset as read: above MaxSize, the most a
// dump may hold, and within a 32-bit int.
const maxHexOffset = 1 << 30

// hexLine is one parsed line of a hex dump.
type hexLine struct {
	layout hexLayout
	star   bool // "*": the line before repeats up to the next offset
	end    bool // an offset alone: the length of the data (hexdump -C, od)
	off    int
	n      int // bytes on the line
	data   [maxHexLine]byte
}

// parseHexLine parses t (a line without its indentation or quoting) as a
// line of a hex dump, into h.
func parseHexLine(t string, h *hexLine) bool {
	t = strings.TrimRight(t, " \t")
	h.star, h.end, h.n = false, false, 0
	if t == "*" {
		h.star = true
		return true
	}
	i := 0
	for i < len(t) && i < 9 && isHex(t[i]) {
		i++
	}
	if i < 4 || i > 8 {
		return false
	}
	// Eight hex digits do not fit a 32-bit int: an offset past any dump's
	// limit is held at maxHexOffset, which every limit refuses alike.
	var off uint64
	for _, c := range []byte(t[:i]) {
		off = off<<4 | uint64(unhex(c))
	}
	h.off = int(min(off, maxHexOffset))
	rest := t[i:]
	switch {
	case rest == "":
		if i < 6 {
			return false // the length line of hexdump -C (8 digits) or od (6 or more)
		}
		h.end, h.layout = true, hexC
		if i < 8 {
			h.layout = hexOD
		}
		return true
	case rest[0] == ':':
		rest = rest[1:]
		h.layout = hexNVMeCLI
		if i == 8 {
			h.layout = hexXXD
		}
		// xxd ends the bytes with two blanks before the text column;
		// nvme-cli quotes it.
		if j := strings.Index(strings.TrimLeft(rest, " "), "  "); j >= 0 {
			rest = strings.TrimLeft(rest, " ")[:j]
		}
	case rest[0] == ' ' || rest[0] == '\t':
		h.layout = hexC
		if i < 8 {
			h.layout = hexOD
		}
	default:
		return false
	}
	for {
		rest = strings.TrimLeft(rest, " \t")
		if rest == "" {
			break
		}
		j := strings.IndexAny(rest, " \t")
		if j < 0 {
			j = len(rest)
		}
		tok := rest[:j]
		rest = rest[j:]
		switch c := tok[0]; {
		case c == '"' && h.layout == hexNVMeCLI, c == '|' && h.layout == hexC, c == '>' && h.layout == hexOD:
			rest = "" // the text column
			continue
		}
		if len(tok) != 2 && (len(tok) != 4 || h.layout != hexXXD) {
			return false
		}
		for k := 0; k < len(tok); k += 2 {
			if !isHex(tok[k]) || !isHex(tok[k+1]) || h.n == maxHexLine {
				return false
			}
			h.data[h.n] = unhex(tok[k])<<4 | unhex(tok[k+1])
			h.n++
		}
	}
	return h.n > 0
}

// isHexDumpStart reports whether t (a line without its indentation or
// quoting) is the first line of a hex dump: its bytes at offset 0.
func isHexDumpStart(t string) bool {
	var h hexLine
	return parseHexLine(t, &h) && !h.star && !h.end && h.off == 0
}

// hexDump reads a hex dump of binary data line by line, in the layouts of
// nvme-cli, xxd, hexdump -C and od -A x -t x1z: each line's offset is
// checked against the bytes read so far, and a "*" line (the line before
// repeats) is expanded up to the next offset. The zero value is ready to
// use and takes up to MaxSize bytes; a hexDump belongs to one goroutine.
type hexDump struct {
	// Data is the bytes read so far.
	Data []byte
	// Layout is the layout of the first line.
	Layout hexLayout
	// First and Last are the numbers of the first and last lines read
	// (as given to Add).
	First, Last int
	// Max, when not zero, is the most bytes the dump may hold.
	Max int

	prev  []byte // the bytes of the line before, for "*"
	star  int    // the line of a pending "*", 0 when none
	ended bool   // the length line was read
	line  hexLine
}

// hexDumpError is a line of a hex dump that does not continue it: what was
// expected there and what was found.
type hexDumpError struct {
	Line     int
	Expected string
	Found    string
	// Cut says the dump ends before it is complete (ErrTruncated, not
	// ErrSyntax).
	Cut bool
}

func (e *hexDumpError) Error() string {
	return fmt.Sprintf("line %d: expected %s, found %q", e.Line, e.Expected, e.Found)
}

// Add reads t, line n of the text without its indentation or quoting. It
// returns false when t is no line of the dump (or the dump has ended): the
// dump is over, and t belongs to what follows. A line of the dump at the
// wrong offset is an error.
func (d *hexDump) Add(t string, n int) (bool, error) {
	h := &d.line
	if d.ended || !parseHexLine(t, h) {
		return false, nil
	}
	if d.Layout == hexNone {
		if h.star || h.end || h.off != 0 {
			return false, nil
		}
		d.Layout, d.First = h.layout, n
	} else if h.layout != d.Layout && !h.star && !(h.end && (d.Layout == hexC || d.Layout == hexOD)) {
		return false, nil
	}
	limit := d.Max
	if limit == 0 {
		limit = MaxSize
	}
	d.Last = n
	if h.star {
		if d.star != 0 || len(d.prev) == 0 {
			return false, &hexDumpError{Line: n, Expected: "a line of the dump (\"*\" repeats the line before it)", Found: t}
		}
		d.star = n
		return true, nil
	}
	at := len(d.Data)
	if d.star != 0 && h.off > at {
		gap := h.off - at
		if gap%len(d.prev) != 0 || h.off > limit {
			return false, &hexDumpError{Line: n, Expected: fmt.Sprintf("an offset that repeats the %d bytes before \"*\" (line %d) a whole number of times, at most %d bytes", len(d.prev), d.star, limit), Found: t}
		}
		for len(d.Data) < h.off {
			d.Data = append(d.Data, d.prev...)
		}
		at = len(d.Data)
	}
	d.star = 0
	if h.off != at {
		return false, &hexDumpError{Line: n, Expected: fmt.Sprintf("the line at offset %0*x", offsetWidth(d.Layout), at), Found: t}
	}
	if h.end {
		d.ended = true
		return true, nil
	}
	if at+h.n > limit {
		return false, &hexDumpError{Line: n, Expected: fmt.Sprintf("at most %d bytes", limit), Found: t}
	}
	d.Data = append(d.Data, h.data[:h.n]...)
	d.prev = d.Data[at:]
	return true, nil
}

// Finish checks that the dump is complete: a "*" is followed by the offset
// it repeats to. next is the number of the line after the dump.
func (d *hexDump) Finish(next int) error {
	if d.star != 0 {
		return &hexDumpError{Line: next, Cut: true,
			Expected: fmt.Sprintf("the offset after the \"*\" of line %d (the dump is cut: its length is unknown)", d.star)}
	}
	return nil
}

// offsetWidth is how many digits the layout prints an offset with.
func offsetWidth(l hexLayout) int {
	switch l {
	case hexNVMeCLI:
		return 4
	case hexOD:
		return 6
	}
	return 8
}

// readHexDump finds the first hex dump in s (a line at offset 0 in one of
// the layouts, indented or quoted like the rest of a paste) and reads it
// up to the first line that does not continue it, taking at most max bytes
// (MaxSize when 0). It returns the dump (Layout HexNone when s holds
// none) and the error of a line at the wrong offset or a dump cut after a
// "*".
func readHexDump(s string, max int) (hexDump, error) {
	d := hexDump{Max: max}
	l := newLineReader(s)
	for {
		line, _, ok := l.Next()
		if !ok {
			break
		}
		t := line[len(pastePrefix(line)):]
		if strings.TrimSpace(t) == "" {
			continue
		}
		ok, err := d.Add(t, l.N())
		if err != nil {
			return d, err
		}
		if !ok && d.Layout != hexNone {
			break
		}
	}
	if d.Layout == hexNone {
		return d, nil
	}
	return d, d.Finish(d.Last + 1)
}

// isHexDumpRuler reports whether t is the column ruler nvme-cli prints
// above its dump, "0 1 2 ... f".
func isHexDumpRuler(t string) bool {
	n := 0
	for f := range strings.FieldsSeq(t) {
		if n >= 16 || len(f) != 1 || unhex(f[0]) != byte(n) || !isHex(f[0]) {
			return false
		}
		n++
	}
	return n == 16
}
