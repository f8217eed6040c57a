package trace

import "bytes"

// blkRec is a line of a blkparse block that the sequential stage of the
// parallel path has to see: an event (Dispatch, Completion), a line
// scanBlkparse does not read (recFields) or a line too long (recTooLong).
// Lines that are plainly another action, and blank lines, leave none.
type blkRec struct {
	t    int64
	seq  uint64
	id   uint64
	line uint32 // the line's number in its block, from 1
	off  int32  // an event: the device name's offset in the block; recFields: the line's
	n    int32  // its length
	kind uint8  // Dispatch, Completion, recFields, recTooLong
	sel  bool   // an event of the selected device
	// dev identifies the device's text when it is MAJ,MIN written
	// without leading zeros (1<<63 | MAJ<<31 | MIN, both below 2^31): two
	// events with the same dev name the same device, compared without
	// its text; 0 otherwise.
	dev uint64
}

// devKey returns blkRec.dev for the device of l, text its text.
func devKey(l *blkLine, text []byte) uint64 {
	if l.maj >= 1<<31 || l.min >= 1<<31 || len(text) != decimalDigits(l.maj)+1+decimalDigits(l.min) {
		return 0
	}
	return 1<<63 | l.maj<<31 | l.min
}

// decimalDigits returns how many digits v has written in decimal.
func decimalDigits(v uint64) int {
	n := 1
	for ; v >= 10; v /= 10 {
		n++
	}
	return n
}

// Kinds of blkRec beyond Dispatch and Completion.
const (
	recFields  = 3 // read by parseBlkparseFields, in order
	recTooLong = 4 // longer than the Reader's MaxLineLength
)

// blkParser parses blocks of blkparse lines on a worker: the Reader's
// bounds and selection, which do not change once it is created.
type blkParser struct {
	max            int
	selected       bool
	selMaj, selMin uint64
	general        bool // every line by the general path, not line (tests compare them)
}

// parse appends the records of the lines of block (complete lines, the
// last one possibly without its '\n' at the end of the trace) to recs and
// returns them, with the number of lines.
func (p *blkParser) parse(block []byte, recs []blkRec) ([]blkRec, int) {
	line := uint32(0)
	var l blkLine
	var sc blkScanner
	// The device of the last event, with its blkRec.dev and sel: most
	// lines name the same one (devKey depends on MAJ, MIN and the
	// length of the text alone).
	var lastMaj, lastMin uint64
	lastLen := -1
	var lastDev uint64
	var lastSel bool
	var d blkDev
	for i := 0; i < len(block); {
		if t := &sc.tmpls[sc.cur]; t.ok && t.sector > 0 && !p.general {
			// The common lines, read from the templates alone.
			if i, recs, line = p.lines(block, i, &sc, &d, recs, line); i >= len(block) {
				break
			}
		}
		end := len(block)
		if e := bytes.IndexByte(block[i:], '\n'); e >= 0 {
			end = i + e
		}
		line++
		b := block[i:end]
		start := i
		i = end + 1
		if len(b) > 0 && b[len(b)-1] == '\r' {
			b = b[:len(b)-1]
		}
		switch {
		case len(b) > p.max:
			recs = append(recs, blkRec{line: line, kind: recTooLong})
		case sc.scan(b, &l):
			if l.kind == 0 {
				continue
			}
			if n := l.devEnd - l.devStart; n != lastLen || l.maj != lastMaj || l.min != lastMin {
				lastMaj, lastMin, lastLen = l.maj, l.min, n
				lastDev = devKey(&l, b[l.devStart:l.devEnd])
				lastSel = p.selected && l.maj == p.selMaj && l.min == p.selMin
			}
			// Field by field (see blkTemplate.match).
			recs = append(recs, blkRec{})
			rec := &recs[len(recs)-1]
			rec.t, rec.seq, rec.id, rec.line = l.t, l.seq, l.id, line
			rec.off, rec.n, rec.kind = int32(start+l.devStart), int32(l.devEnd-l.devStart), uint8(l.kind)
			rec.sel, rec.dev = lastSel, lastDev
		case skipBlank(b, 0) == len(b):
			// A blank line: nothing, in any state.
		default:
			recs = append(recs, blkRec{line: line, off: int32(start), n: int32(len(b)), kind: recFields})
		}
	}
	return recs, int(line)
}
