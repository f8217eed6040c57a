package trace

import (
	"encoding/binary"
	"math"
	"math/bits"
)

// blkLine is what scanBlkparse reads of a blkparse line that is plainly an
// event line: for a dispatch or a completion the fields the Reader needs,
// for another action only that it is one (kind 0).
type blkLine struct {
	t        int64  // time, ns
	seq      uint64 // sequence number
	id       uint64 // the sector plus 1, 0 when absent
	maj, min uint64
	devStart int // the device "MAJ,MIN" is line[devStart:devEnd]
	devEnd   int
	kind     Kind // Dispatch, Completion, or 0 for another action
}

// blkScanner reads blkparse event lines: scan reads a line as
// parseBlkparseFields would read it, the device "MAJ,MIN", CPU, sequence
// number, time and PID, then the action and, for a dispatch or a
// completion, the sector, in one pass without splitting it into fields
// first. It reports false for any line it does not read plainly (fewer
// than six fields, a field that is not what it should be, a blank line,
// the summary at the end): parseBlkparseFields then reads that line and
// words the error. Its only state is the layouts of the last lines it
// read of different layouts (tmpls), which make the next lines of those
// layouts quicker to read but never change what is read; each worker of
// the parallel path has its own.
//
// blkparse right-aligns its fields in fixed widths ("%D %2c %8s %5T.%9t
// %5p %2a %3d "), so that the lines of a trace have a few layouts, which
// alternate: a completion's PID (0, an interrupt) is narrower than its
// dispatch's, a CPU past 9 is wider, a process's PID differs from
// another's. Keeping several layouts reads all of them from templates.
type blkScanner struct {
	tmpls [blkTemplates]blkTemplate
	cur   int // the template tried first: the last one that matched
	next  int // the template the next layout replaces (round robin)
	lay   blkLayout
}

// blkTemplates is how many layouts a blkScanner keeps: PIDs of 1 to 7
// digits (a completion's is 0), and one more.
const blkTemplates = 8

func (sc *blkScanner) scan(line []byte, out *blkLine) bool {
	for k := range blkTemplates {
		j := (sc.cur + k) % blkTemplates
		if ok, handled := sc.tmpls[j].match(line, out); handled {
			sc.cur = j
			return ok
		}
	}
	if ok, handled := scanWide(line, out, &sc.lay); handled {
		j := sc.next
		sc.next = (j + 1) % blkTemplates
		if sc.tmpls[j].build(line, &sc.lay); sc.tmpls[j].ok {
			sc.cur = j
		}
		return ok
	}
	return scanBlkparseBytes(line, out)
}

// other returns a template other than the current one that the line at
// w matches up to the blank after its action (with a letter there), making
// it the current one; nil if none does.
func (sc *blkScanner) other(w *[wide + 16]byte) *blkTemplate {
	for k := 1; k < blkTemplates; k++ {
		j := (sc.cur + k) % blkTemplates
		t := &sc.tmpls[j]
		if !t.ok || t.sector == 0 || t.bad(w) != 0 {
			continue
		}
		if _, letter := actionKind(w[t.lay.a]); letter {
			sc.cur = j
			return t
		}
	}
	return nil
}

// scanBlkparseBytes is scanBlkparse a field at a time.
func scanBlkparseBytes(line []byte, out *blkLine) bool {
	i := skipBlank(line, 0)
	ds := i
	maj, i, ok := leadingUint(line, i)
	if !ok || i >= len(line) || line[i] != ',' {
		return false
	}
	min, i, ok := leadingUint(line, i+1)
	if !ok || !blankAt(line, i) {
		return false
	}
	de := i
	if i, ok = skipUint(line, skipBlank(line, i)); !ok || !blankAt(line, i) { // CPU
		return false
	}
	seq, i, ok := leadingUint(line, skipBlank(line, i))
	if !ok || !blankAt(line, i) {
		return false
	}
	t, i, ok := blkparseTime(line, skipBlank(line, i))
	if !ok || !blankAt(line, i) {
		return false
	}
	if i, ok = skipUint(line, skipBlank(line, i)); !ok || !blankAt(line, i) { // PID
		return false
	}
	as := skipBlank(line, i)
	i = skipToken(line, as)
	var k Kind
	switch act := line[as:i]; {
	case len(act) == 1 && act[0] == 'D':
		k = Dispatch
	case len(act) == 1 && act[0] == 'C':
		k = Completion
	case letters(act):
		out.kind = 0 // another action: not an event of the replay
		return true
	default:
		return false
	}
	// "ACTION RWBS SECTOR + SIZE": the sector matches a completion with
	// its dispatch.
	var id uint64
	i = skipToken(line, skipBlank(line, i)) // RWBS
	ss := skipBlank(line, i)
	if s, j, ok := leadingUint(line, ss); ok && (j == len(line) || line[j] == ' ' || line[j] == '\t') && s < math.MaxUint64 {
		id = s + 1
	}
	*out = blkLine{t: t, seq: seq, id: id, maj: maj, min: min, devStart: ds, devEnd: de, kind: k}
	return true
}

// parseBlkparseFast reads a blkparse line through blkScanner: it reports
// false, having changed nothing, for a line scanBlkparse does not read.
func (r *Reader) parseBlkparseFast(line []byte) (bool, error) {
	var l blkLine
	if !r.scanner.scan(line, &l) {
		return false, nil
	}
	if l.kind == 0 {
		return true, nil
	}
	if !r.noteDevice(line[l.devStart:l.devEnd], r.selected && l.maj == r.selMaj && l.min == r.selMin) {
		return true, nil
	}
	return true, r.push(l.t, l.seq, l.kind, l.id)
}

// The scanner reads eight bytes at a time where the line's slice has the
// capacity for it (bytes past the line's end are never counted: the
// counts are capped at its length), else one at a time.

// skipBlank returns the index of the first byte from i on that is not a
// space or a tab (len(b) if none), as splitFields separates fields.
func skipBlank(b []byte, i int) int {
	if i+8 <= cap(b) {
		if n := leadingBlanks(binary.LittleEndian.Uint64(b[i : i+8])); n < 8 {
			return min(i+n, len(b))
		}
	}
	return skipBlankSlow(b, i)
}

func skipBlankSlow(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	return i
}

// skipToken returns the index of the first space or tab from i on (len(b)
// if none): the end of the field starting at i.
func skipToken(b []byte, i int) int {
	for i < len(b) && b[i] != ' ' && b[i] != '\t' {
		i++
	}
	return i
}

// blankAt reports whether b[i] is a space or a tab: a field ended at i and
// another may follow.
func blankAt(b []byte, i int) bool {
	return i < len(b) && (b[i] == ' ' || b[i] == '\t')
}

// leadingUint reads the decimal digits of b from i on as parseUint does
// (1 to 19 of them), returning the value and the index after them.
func leadingUint(b []byte, i int) (uint64, int, bool) {
	if i+8 <= cap(b) {
		x := binary.LittleEndian.Uint64(b[i : i+8])
		if n := min(leadingDigits(x), len(b)-i); n < 8 {
			return eightDigits((x - 0x3030303030303030) << (64 - 8*n)), i + n, n > 0
		}
	}
	return leadingUintSlow(b, i)
}

func leadingUintSlow(b []byte, i int) (uint64, int, bool) {
	s := i
	var v uint64
	for i < len(b) && b[i]-'0' <= 9 {
		v = v*10 + uint64(b[i]-'0')
		i++
	}
	return v, i, i > s && i-s <= 19
}

// skipUint is leadingUint without the value: it checks that b holds 1 to
// 19 digits from i on and returns the index after them.
func skipUint(b []byte, i int) (int, bool) {
	if i+8 <= cap(b) {
		if n := min(leadingDigits(binary.LittleEndian.Uint64(b[i:i+8])), len(b)-i); n < 8 {
			return i + n, n > 0
		}
	}
	_, j, ok := leadingUintSlow(b, i)
	return j, ok
}

// leadingDigits returns how many of the eight bytes of x (little endian:
// the first in the low byte) are decimal digits before the first that is
// not (8: all). A byte c is a digit when its high nibble is 3 before and
// after adding 6; the carry of c+6 past 0xff only changes the bytes after
// the first non-digit.
func leadingDigits(x uint64) int {
	const hi, three, six = 0xf0f0f0f0f0f0f0f0, 0x3030303030303030, 0x0606060606060606
	m := (x&hi ^ three) | ((x+six)&hi ^ three)
	return bits.TrailingZeros64(m) >> 3
}

// leadingBlanks returns how many of the eight bytes of x (little endian)
// are spaces or tabs before the first that is not (8: all).
func leadingBlanks(x uint64) int {
	const low7, high = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	sp, tab := x^0x2020202020202020, x^0x0909090909090909
	// The high bit of a byte of zero(y) is set when the byte of y is 0
	// (exactly: no carry crosses bytes).
	blank := (^((sp&low7 + low7) | sp) | ^((tab&low7 + low7) | tab)) & high
	return bits.TrailingZeros64(^blank&high) >> 3
}

// eightDigits converts eight digit values (0 to 9, the most significant
// in the low byte) to their number.
func eightDigits(x uint64) uint64 {
	x = (x * 10) + (x >> 8)
	x = ((x & 0x000000ff000000ff) * (100 + (1000000 << 32))) + (((x >> 16) & 0x000000ff000000ff) * (1 + (10000 << 32)))
	return x >> 32
}

// blkparseTime reads the time field starting at b[i] as parseFixed(field,
// 9) does, returning the index after it: "SECONDS.NANOS" with nine
// decimals, as blkparse writes it, directly; any other shape through
// parseFixed.
func blkparseTime(b []byte, i int) (int64, int, bool) {
	sec, j, ok := leadingUint(b, i)
	if ok && j-i <= 9 && j < len(b) && b[j] == '.' && j+10 <= cap(b) {
		x := binary.LittleEndian.Uint64(b[j+1 : j+9])
		if j+10 <= len(b) && leadingDigits(x) == 8 && b[j+9]-'0' <= 9 && (j+10 == len(b) || b[j+10] == ' ' || b[j+10] == '\t') {
			ns := eightDigits(x-0x3030303030303030)*10 + uint64(b[j+9]-'0')
			return int64(sec*1e9 + ns), j + 10, true // at most 10^18 - 1
		}
	}
	end := skipToken(b, i)
	t, ok := parseFixed(b[i:end], 9)
	return t, end, ok
}
