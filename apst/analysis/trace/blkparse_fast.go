package trace

import "math"

// parseBlkparseFast reads a blkparse event line in one pass, without
// splitting it into fields first, as parseBlkparse would read it: the device
// "MAJ,MIN", CPU, sequence number, time and PID, then the action and, for a
// dispatch or a completion, the sector. It reports false, having changed
// nothing, for any line it does not read plainly (fewer than six fields, a
// field that is not what it should be, the summary at the end): the
// general parseBlkparse then reads that line and words the error.
func (r *Reader) parseBlkparseFast(line []byte) (bool, error) {
	i := skipBlank(line, 0)
	ds := i
	maj, i, ok := leadingUint(line, i)
	if !ok || i >= len(line) || line[i] != ',' {
		return false, nil
	}
	min, i, ok := leadingUint(line, i+1)
	if !ok || !blankAt(line, i) {
		return false, nil
	}
	dev := line[ds:i]
	if _, i, ok = leadingUint(line, skipBlank(line, i)); !ok || !blankAt(line, i) { // CPU
		return false, nil
	}
	seq, i, ok := leadingUint(line, skipBlank(line, i))
	if !ok || !blankAt(line, i) {
		return false, nil
	}
	ts := skipBlank(line, i)
	t, i, ok := blkparseTime(line, ts)
	if !ok || !blankAt(line, i) {
		return false, nil
	}
	if _, i, ok = leadingUint(line, skipBlank(line, i)); !ok || !blankAt(line, i) { // PID
		return false, nil
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
		return true, nil // another action: not an event of the replay
	default:
		return false, nil
	}
	if !r.noteDevice(dev, r.selected && maj == r.selMaj && min == r.selMin) {
		return true, nil
	}
	// "ACTION RWBS SECTOR + SIZE": the sector matches a completion with
	// its dispatch.
	var id uint64
	i = skipToken(line, skipBlank(line, i)) // RWBS
	ss := skipBlank(line, i)
	if s, ok := parseUint(line[ss:skipToken(line, ss)]); ok && s < math.MaxUint64 {
		id = s + 1
	}
	return true, r.push(t, seq, k, id)
}

// skipBlank returns the index of the first byte from i on that is not a
// space or a tab (len(b) if none), as splitFields separates fields.
func skipBlank(b []byte, i int) int {
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
	s := i
	var v uint64
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		v = v*10 + uint64(b[i]-'0')
		i++
	}
	return v, i, i > s && i-s <= 19
}

// blkparseTime reads the time field starting at b[i] as parseFixed(field,
// 9) does, returning the index after it: "SECONDS.NANOS" with nine
// decimals, as blkparse writes it, directly; any other shape through
// parseFixed.
func blkparseTime(b []byte, i int) (int64, int, bool) {
	sec, j, ok := leadingUint(b, i)
	if ok && j-i <= 9 && j < len(b) && b[j] == '.' {
		ns, k, ok := leadingUint(b, j+1)
		if ok && k-j-1 == 9 && (k == len(b) || b[k] == ' ' || b[k] == '\t') {
			return int64(sec*1e9 + ns), k, true // at most 10^18 - 1
		}
	}
	end := skipToken(b, i)
	t, ok := parseFixed(b[i:end], 9)
	return t, end, ok
}
