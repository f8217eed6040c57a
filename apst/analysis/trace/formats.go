package trace

import (
	"bytes"
	"fmt"
	"math"
)

// parseBlkparse reads a line of blkparse's default output:
// "MAJ,MIN CPU SEQ SECONDS.NANOS PID ACTION [RWBS ...]".
func (r *Reader) parseBlkparse(line []byte) error {
	if r.summary {
		return nil
	}
	if ok, err := r.parseBlkparseFast(line); ok {
		return err
	}
	return r.parseBlkparseFields(line)
}

// parseBlkparseFields is parseBlkparse for a line parseBlkparseFast does
// not read: it splits the line into fields, and words what is wrong.
func (r *Reader) parseBlkparseFields(line []byte) error {
	n, _ := r.splitFields(line, 8)
	if n == 0 {
		return nil
	}
	dev := r.field(line, 0)
	maj, min, ok := parseDev(dev)
	if !ok {
		if blkparseSummary(dev) {
			r.summary = true
			return nil
		}
		return r.syntax("an event line (MAJ,MIN CPU SEQ SECONDS.NANOS PID ACTION ...) or the summary at the end", line)
	}
	if n < 6 {
		return r.syntax("6 fields or more (MAJ,MIN CPU SEQ SECONDS.NANOS PID ACTION ...)", line)
	}
	if _, ok := parseUint(r.field(line, 1)); !ok {
		return r.syntax("a CPU number in field 2", line)
	}
	seq, ok := parseUint(r.field(line, 2))
	if !ok {
		return r.syntax("a sequence number in field 3", line)
	}
	t, ok := parseFixed(r.field(line, 3), 9)
	if !ok {
		return r.fixedErr("a time SECONDS.NANOS in field 4", r.field(line, 3), 9, line)
	}
	if _, ok := parseUint(r.field(line, 4)); !ok {
		return r.syntax("a PID in field 5", line)
	}
	var k Kind
	switch act := r.field(line, 5); {
	case len(act) == 1 && act[0] == 'D':
		k = Dispatch
	case len(act) == 1 && act[0] == 'C':
		k = Completion
	default:
		if !letters(act) {
			return r.syntax("an action (A, B, C, D, G, I, M, Q, ...) in field 6", line)
		}
		return nil
	}
	if !r.noteDevice(dev, r.selected && maj == r.selMaj && min == r.selMin) {
		return nil
	}
	// "ACTION RWBS SECTOR + SIZE": the sector matches a completion with
	// its dispatch.
	var id uint64
	if n >= 8 {
		if s, ok := parseUint(r.field(line, 7)); ok && s < math.MaxUint64 {
			id = s + 1
		}
	}
	return r.push(t, seq, k, id)
}

func letters(b []byte) bool {
	for _, c := range b {
		if (c < 'A' || c > 'Z') && (c < 'a' || c > 'z') {
			return false
		}
	}
	return len(b) > 0
}

// blkparseSummary reports whether tok starts a line of the summary blocks
// blkparse prints at the end ("CPU0 (8,0):", "Total (8,0):",
// "Throughput (R/W): ...", "Events (8,0): N entries", "Skips: ...").
func blkparseSummary(tok []byte) bool {
	if rest, ok := bytes.CutPrefix(tok, []byte("CPU")); ok {
		_, isNum := parseUint(rest)
		return isNum
	}
	switch string(tok) {
	case "Total", "Throughput", "Events", "Skips:":
		return true
	}
	return false
}

// biosnoopNoise reports whether a line is one of the messages biosnoop
// tools print around the data.
func biosnoopNoise(t []byte) bool {
	if len(t) > 0 && t[0] >= '0' && t[0] <= '9' {
		return false // a data line: no message starts with a digit
	}
	for _, p := range [...]string{"Attaching", "Tracing", "Detaching", "Hit Ctrl-C", "Possibly lost", "Lost ", "@", "^C"} {
		if bytes.HasPrefix(t, []byte(p)) {
			return true
		}
	}
	return false
}

// parseBiosnoop reads a line of bcc's biosnoop or bpftrace's biosnoop.bt:
// the header, then one command a line.
func (r *Reader) parseBiosnoop(line []byte) error {
	n, more := r.splitFields(line, maxFields)
	if n == 0 {
		return nil
	}
	first := r.field(line, 0)
	if bytes.HasPrefix(first, []byte("TIME(")) {
		if r.header {
			return nil // a repeated header
		}
		return r.parseBiosnoopHeader(line, n, more)
	}
	if biosnoopNoise(line[r.fs[0][0]:]) {
		return nil
	}
	c := &r.cols
	if !r.header {
		if r.format == FormatBiosnoop {
			return r.syntax("the biosnoop header (TIME(s) COMM PID DISK T SECTOR BYTES LAT(ms))", line)
		}
		return r.syntax("the biosnoop.bt header (TIME(ms) DISK COMM PID LAT(ms))", line)
	}
	if more || n < c.n || n > c.n && c.comm < 0 {
		return r.syntax(fmt.Sprintf("%d columns as in the header", c.n), line)
	}
	shift := n - c.n
	at := func(col int) []byte {
		if c.comm >= 0 && col > c.comm {
			col += shift
		}
		return r.field(line, col)
	}
	digits, unit := 9, "TIME(s)"
	if r.format == FormatBiosnoopBpftrace {
		digits, unit = 6, "TIME(ms)"
	}
	t, ok := parseFixed(at(c.time), digits)
	if !ok {
		return r.fixedErr("a time in column "+unit, at(c.time), digits, line)
	}
	lat, ok := parseFixed(at(c.lat), 6)
	if !ok {
		return r.fixedErr("a latency in column LAT(ms)", at(c.lat), 6, line)
	}
	if c.disk >= 0 {
		if !r.noteName(at(c.disk)) {
			return nil
		}
	}
	if err := r.push(t-lat, 0, Dispatch, r.nextCmd()); err != nil {
		return err
	}
	return r.push(t, 1, Completion, r.cmds)
}

func (r *Reader) parseBiosnoopHeader(line []byte, n int, more bool) error {
	want := "TIME(s)"
	if r.format == FormatBiosnoopBpftrace {
		want = "TIME(ms)"
	}
	c := columns{n: n, time: -1, lat: -1, disk: -1, comm: -1}
	for i := range n {
		switch string(r.field(line, i)) {
		case want:
			c.time = i
		case "LAT(ms)":
			c.lat = i
		case "DISK":
			c.disk = i
		case "COMM":
			c.comm = i
		}
	}
	if more || c.time != 0 || c.lat < 0 {
		return r.syntax("a header starting "+want+" with a LAT(ms) column", line)
	}
	r.cols, r.header = c, true
	return nil
}

// noteName records a biosnoop disk or fio file name and reports whether
// the line is for the trace's device.
func (r *Reader) noteName(name []byte) bool {
	short := bytes.TrimPrefix(name, []byte("/dev/"))
	if r.selected {
		return r.noteDevice(name, string(short) == r.selName)
	}
	return r.noteDevice(name, false)
}

// parseFio reads a line of a fio iolog version 3:
// "TIMESTAMP FILENAME ACTION [OFFSET LENGTH]", after the header line.
func (r *Reader) parseFio(line []byte) error {
	n, _ := r.splitFields(line, 3)
	if n == 0 {
		return nil
	}
	if !r.header {
		t := bytes.TrimSpace(line)
		switch {
		case bytes.HasPrefix(t, []byte("fio version 3 iolog")):
			r.header = true
			return nil
		case bytes.HasPrefix(t, []byte("fio version 2 iolog")):
			return fmt.Errorf("%w (line %d)", ErrFioV2, r.line)
		}
		return r.syntax(`the header "fio version 3 iolog"`, line)
	}
	if n < 3 {
		return r.syntax("TIMESTAMP FILENAME ACTION [OFFSET LENGTH]", line)
	}
	switch string(r.field(line, 2)) {
	case "read", "write", "trim", "sync", "datasync":
	case "add", "open", "close", "wait":
		return nil
	default:
		return r.syntax("an action (read, write, trim, sync, datasync, add, open, close, wait) in field 3", line)
	}
	t, ok := parseFixed(r.field(line, 0), 6)
	if !ok {
		return r.fixedErr("a timestamp in milliseconds in field 1", r.field(line, 0), 6, line)
	}
	if !r.noteName(r.field(line, 1)) {
		return nil
	}
	if err := r.push(t, 0, Dispatch, r.nextCmd()); err != nil {
		return err
	}
	return r.push(t, 1, Completion, r.cmds)
}

// parsePlain reads a line "SECONDS [DURATION_SECONDS]"; '#' starts a
// comment.
func (r *Reader) parsePlain(line []byte) error {
	if i := bytes.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	n, _ := r.splitFields(line, 3)
	switch n {
	case 0:
		return nil
	case 1, 2:
	default:
		return r.syntax("SECONDS [DURATION_SECONDS]", line)
	}
	s, ok := parseFixed(r.field(line, 0), 9)
	if !ok {
		return r.fixedErr("a time in seconds (e.g. 12.5) in field 1", r.field(line, 0), 9, line)
	}
	var d int64
	if n == 2 {
		if d, ok = parseFixed(r.field(line, 1), 9); !ok {
			return r.fixedErr("a duration in seconds (e.g. 0.0002) in field 2", r.field(line, 1), 9, line)
		}
		if s > math.MaxInt64-d {
			return r.syntax("a completion time below 2^63 ns", line)
		}
	}
	if err := r.push(s, 0, Dispatch, r.nextCmd()); err != nil {
		return err
	}
	return r.push(s+d, 1, Completion, r.cmds)
}

// nextCmd numbers the next command of a one-line format (from 1).
func (r *Reader) nextCmd() uint64 {
	r.cmds++
	return r.cmds
}
