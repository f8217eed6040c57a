package capture

import (
	"io"
	"strconv"
	"strings"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// ParseNVMeCLIText parses the output of "nvme id-ctrl" (normal output
// format) of every nvme-cli generation. The generations print:
//
//   - v0.9 to v2.0: "ps    0 : mp:6.50W operational enlat:5 exlat:5 rrt:0 rrl:0"
//     and a continuation line indented by 10 spaces
//     ("rwt:0 rwl:0 idle_power:- active_power:-");
//   - v2.1 to v2.11: "ps      0 : ..." with a 12-space continuation and an
//     "active_power_workload:" line;
//   - v2.12 and later: the same plus the three NVMe 2.1 time lines
//     ("emergency power fail recovery time:", "forced quiescence vault
//     time:", "emergency power fail vault time:"), which are checked but not
//     kept.
//
// A block is recognised by its keys ("rwt:", "active_power_workload:", the
// time lines), not by its indentation: a capture whose leading white space
// a forum stripped reads as the original, and so does one whose aligned
// blanks a copy turned into tabs. Captures made with -H are accepted: the
// product name header and the "  [7:0] : ..." field decodes are skipped. Key lines of both widths
// ("vid     :" of v1.0 and "vid       :" later) are read, with the values
// as nvme-cli prints them ("apsta : 0" or "0x1", "ver : 10200" without 0x
// in v1.x, strings padded with spaces). Lines nvme-cli prints that the model
// does not hold are ignored, as is everything after the last power state.
//
// The controller knows the id-ctrl keys present among vid, ssvid, sn, mn, fr,
// ieee, cntlid, ver, rtd3r, rtd3e, cntrltype, oacs, npss, avscc, apsta,
// wctemp, cctemp and ioccsz, plus FieldPowerStates, FieldIdlePower and
// FieldActivePower. Older nvme-cli versions do not print cntrltype, which
// is then unknown, as IOCCSZ is in a capture cut before its line (printed
// after subnqn, far below cctemp).
// FieldActiveWorkload is known only from v2.1 on: the v0.9 to v2.0 text
// prints ACTP and APS ("active_power:") but not APW, which is then left
// unknown (zero). Without an npss line
// NPSS is the number of "ps" blocks minus one and stays unknown. A "ps"
// block count that disagrees with npss, a block cut short, or a block of a
// different shape than the first is an error; idle and active power printed
// as "reserved" read as ScaleReserved with zero units, and a "reserved"
// workload as Workload(3). nvme-cli prints ENLAT and EXLAT with %d, so
// negative values are read as the 32-bit values they stand for. A first
// line of a block whose end a wrap at 64 to 80 columns (a mail client's)
// moved to the next line is ErrSyntax naming both lines.
func ParseNVMeCLIText(r io.Reader) (powerstate.Controller, error) {
	return parseAs(r, powerstate.FormatNVMeCLIText)
}

// cutNVMeKey splits an id-ctrl key line "key<spaces>: value" (the key at the
// start of the line, lower-case letters, digits and underscores). Tabs
// stand for the spaces too: a terminal or an editor that copies the
// aligned blanks as tabs makes "vid\t  : 0x144d" of "vid       : 0x144d".
func cutNVMeKey(line string) (key, value string, ok bool) {
	i := 0
	for i < len(line) && (line[i] >= 'a' && line[i] <= 'z' || isDigit(line[i]) || line[i] == '_') {
		i++
	}
	if i == 0 || line[0] < 'a' || line[0] > 'z' {
		return "", "", false
	}
	j := i
	for j < len(line) && (line[j] == ' ' || line[j] == '\t') {
		j++
	}
	if j >= len(line) || line[j] != ':' {
		return "", "", false
	}
	value = line[j+1:]
	if value != "" && (value[0] == ' ' || value[0] == '\t') {
		value = value[1:]
	}
	return line[:i], value, true
}

// cutPSLine splits the first line of a power state block,
// "ps<spaces>N : rest" (tabs standing for the spaces too).
func cutPSLine(line string) (idx int, rest string, ok bool) {
	s, found := strings.CutPrefix(line, "ps")
	if !found || s == "" || s[0] != ' ' && s[0] != '\t' {
		return 0, "", false
	}
	s = strings.TrimLeft(s, " \t")
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i == 0 || i > 3 {
		return 0, "", false
	}
	n, _ := strconv.Atoi(s[:i])
	s = strings.TrimLeft(s[i:], " \t")
	rest, found = strings.CutPrefix(s, ":")
	if !found {
		return 0, "", false
	}
	return n, strings.TrimSpace(rest), true
}

// The expected text of each line of a power state block, for errors.
const (
	expectPS1      = `"ps N : mp:W operational|non-operational enlat:N exlat:N rrt:N rrl:N"`
	expectPS2      = `"rwt:N rwl:N idle_power:P active_power:P"`
	expectWorkload = `"active_power_workload:W"`
)

// nvmeTimeLines are the three NVMe 2.1 lines nvme-cli v2.12 prints per state.
var nvmeTimeLines = [3]string{
	"emergency power fail recovery time:",
	"forced quiescence vault time:",
	"emergency power fail vault time:",
}

// Shapes of a power state block: the number of lines per generation.
const (
	shapeV1  = 2 // v0.9 .. v2.0
	shapeV2  = 3 // v2.1 .. v2.11
	shapeV21 = 6 // v2.12 and later
)

func parseNVMeCLIText(s string) (powerstate.Controller, int, error) {
	return parseTextLines(s, parseNVMeCLITextLines)
}

func parseNVMeCLITextLines(s string) (powerstate.Controller, int, error) {
	const f = powerstate.FormatNVMeCLIText
	c := powerstate.Controller{Format: f}
	nks := nvmeKeysOf(&c)
	k := keys{f: f}
	l := newLineReader(s)

	// Header: id-ctrl key lines up to the first power state.
	for {
		save := l
		line, _, ok := l.Next()
		if !ok {
			break
		}
		if _, _, ps := cutPSLine(line); ps {
			l = save
			break
		}
		key, val, ok := cutNVMeKey(line)
		if !ok {
			continue
		}
		ki, ok := nvmeKeyIndex[key]
		if !ok {
			continue
		}
		nk := &nks[ki]
		if err := k.seen(nk.field, key, l.N()); err != nil {
			return powerstate.Controller{}, 0, err
		}
		if err := setNVMeKey(key, nk, val); err != nil {
			if err := k.bad(nk.field, key, l.N(), err.Error(), val); err != nil {
				return powerstate.Controller{}, 0, err
			}
			continue
		}
		k.set(nk.field)
	}
	known := k.known

	// Power state blocks.
	want := -1 // number of blocks npss announces
	if known.Has(powerstate.FieldNPSS) {
		want = int(c.NPSS) + 1
		if want > powerstate.MaxStates {
			want = powerstate.MaxStates
		}
	}
	blocks, shape := 0, 0
	for want < 0 || blocks < want {
		save := l
		line, _, ok := l.Next()
		if !ok {
			if want >= 0 {
				return powerstate.Controller{}, 0, truncErr(f, l.N()+1, "ps "+strconv.Itoa(blocks)+" (npss is "+strconv.Itoa(int(c.NPSS))+")")
			}
			break
		}
		idx, rest, ok := cutPSLine(line)
		if !ok {
			if want >= 0 {
				return powerstate.Controller{}, 0, syntaxErr(f, l.N(), "ps "+strconv.Itoa(blocks)+" (npss is "+strconv.Itoa(int(c.NPSS))+")", line)
			}
			if blocks > 0 && (isContinuation(line) || isBlockLine(line)) {
				// An indented line, or a line of a block's keys, after a
				// complete block: a block of another shape than the first,
				// not the end of the table.
				return powerstate.Controller{}, 0, syntaxErr(f, l.N(), "ps "+strconv.Itoa(blocks)+" or the end of the power states", line)
			}
			l = save
			break
		}
		if idx != blocks {
			return powerstate.Controller{}, 0, syntaxErr(f, l.N(), "ps "+strconv.Itoa(blocks), line)
		}
		if blocks >= powerstate.MaxStates {
			return powerstate.Controller{}, 0, syntaxErr(f, l.N(), "at most 32 power states", line)
		}
		n, err := parsePSBlock(&l, rest, &c.PowerStates[blocks], shape)
		if err != nil {
			// The first line, or the line after it, did not read: when the
			// line after it continues the first, a wrap moved its end.
			if next, nn, ok := l.Peek(); ok && nn == l.N()+1 && !isBlockLine(next) && wrapsAfter(line, next, wrapMin-8) {
				if _, _, ps := cutPSLine(next); !ps {
					err = wrapErr(f, nn, l.N(), expectPS2, next)
				}
			}
			return powerstate.Controller{}, 0, err
		}
		if shape == 0 {
			shape = n
		}
		blocks++
	}
	if blocks == 0 {
		return powerstate.Controller{}, 0, &ParseError{Format: f, Line: l.N() + 1, Expected: `power state blocks "ps    0 : mp:..."`, Err: ErrNoPowerStates}
	}
	if want >= 0 && c.NPSS < powerstate.MaxStates {
		save := l
		if line, _, ok := l.Next(); ok {
			if _, _, ps := cutPSLine(line); ps {
				return powerstate.Controller{}, 0, syntaxErr(f, l.N(), "no more power states (npss is "+strconv.Itoa(int(c.NPSS))+")", line)
			}
		}
		l = save
	}
	if want < 0 {
		c.NPSS = uint8(blocks - 1)
	}
	k.set(powerstate.FieldPowerStates | powerstate.FieldIdlePower | powerstate.FieldActivePower)
	if shape >= shapeV2 {
		k.set(powerstate.FieldActiveWorkload)
	}
	k.finish(&c)
	return c, l.Pos(), nil
}

// parsePSBlock parses the rest of a power state block whose first line
// (after "ps N :") is rest. shape is the number of lines of the blocks
// before (0 for the first block); it returns the number of lines of this
// block.
func parsePSBlock(l *lineReader, rest string, d *powerstate.Descriptor, shape int) (int, error) {
	const f = powerstate.FormatNVMeCLIText
	first := l.N()
	*d = powerstate.Descriptor{}

	var fa [6]string
	if n, ok := fields(rest, fa[:]); !ok || n != 6 {
		return 0, syntaxErr(f, first, expectPS1, rest)
	}
	fs := fa[:]
	mp, ok := cutField(fs[0], "mp:")
	p, ok2 := parseWatts(mp)
	if !ok || !ok2 {
		return 0, syntaxErr(f, first, `"mp:" and watts with 2 or 4 decimals, e.g. mp:6.00W`, fs[0])
	}
	d.MaxPower = p
	switch fs[1] {
	case "operational":
	case "non-operational":
		d.NonOperational = true
	default:
		return 0, syntaxErr(f, first, `"operational" or "non-operational"`, fs[1])
	}
	for i, key := range [...]string{"enlat:", "exlat:"} {
		v, ok := cutField(fs[2+i], key)
		lat, ok2 := parseLatency(v)
		if !ok || !ok2 {
			return 0, syntaxErr(f, first, `"`+key+`" and a 32-bit latency in microseconds`, fs[2+i])
		}
		if i == 0 {
			d.EntryLatency = lat
		} else {
			d.ExitLatency = lat
		}
	}
	for i, key := range [...]string{"rrt:", "rrl:"} {
		v, ok := cutField(fs[4+i], key)
		n, ok2 := parseDec(v, 8)
		if !ok || !ok2 {
			return 0, syntaxErr(f, first, `"`+key+`" and a byte value`, fs[4+i])
		}
		if i == 0 {
			d.RelativeReadThroughput = uint8(n)
		} else {
			d.RelativeReadLatency = uint8(n)
		}
	}

	line, n, ok := l.Peek()
	if !ok {
		return 0, truncErr(f, n, expectPS2)
	}
	if !hasKey(line, "rwt:") {
		return 0, syntaxErr(f, n, expectPS2, line)
	}
	l.Next()
	var fb [4]string
	if n, ok := fields(line, fb[:]); !ok || n != 4 {
		return 0, syntaxErr(f, l.N(), expectPS2, line)
	}
	fs = fb[:]
	for i, key := range [...]string{"rwt:", "rwl:"} {
		v, ok := cutField(fs[i], key)
		n, ok2 := parseDec(v, 8)
		if !ok || !ok2 {
			return 0, syntaxErr(f, l.N(), `"`+key+`" and a byte value`, fs[i])
		}
		if i == 0 {
			d.RelativeWriteThroughput = uint8(n)
		} else {
			d.RelativeWriteLatency = uint8(n)
		}
	}
	for i, key := range [...]string{"idle_power:", "active_power:"} {
		v, ok := cutField(fs[2+i], key)
		p, ok2 := parseOptionalPower(v)
		if !ok || !ok2 {
			return 0, syntaxErr(f, l.N(), `"`+key+`" and "-", "reserved" or watts`, fs[2+i])
		}
		if i == 0 {
			d.IdlePower = p
		} else {
			d.ActivePower = p
		}
	}
	if shape == shapeV1 {
		return shapeV1, nil
	}

	// The workload line (v2.1 on): required when the first block had it.
	line, n, ok = l.Peek()
	w, isW := "", false
	if ok {
		w, isW = strings.CutPrefix(strings.TrimSpace(line), "active_power_workload:")
	}
	switch {
	case !isW && shape == 0:
		return shapeV1, nil
	case !isW && !ok:
		return 0, truncErr(f, n, expectWorkload)
	case !isW:
		return 0, syntaxErr(f, n, expectWorkload, line)
	}
	l.Next()
	switch strings.TrimSpace(w) {
	case "-":
		d.ActiveWorkload = powerstate.WorkloadNone
	case powerstate.Workload1.String():
		d.ActiveWorkload = powerstate.Workload1
	case powerstate.Workload2.String():
		d.ActiveWorkload = powerstate.Workload2
	case "reserved":
		d.ActiveWorkload = 3
	default:
		return 0, syntaxErr(f, l.N(), `a workload "-", "1MiB 32 RW, 30s idle", "80K 128KiB SW" or "reserved"`, w)
	}
	if shape == shapeV2 {
		return shapeV2, nil
	}

	// The three NVMe 2.1 time lines (v2.12 on).
	for i, prefix := range nvmeTimeLines {
		line, n, ok := l.Peek()
		isT := ok && hasKey(line, prefix)
		switch {
		case !isT && shape == 0 && i == 0:
			return shapeV2, nil
		case !isT && !ok:
			return 0, truncErr(f, n, `"`+prefix+` ..."`)
		case !isT:
			return 0, syntaxErr(f, n, `"`+prefix+` ..."`, line)
		}
		l.Next()
	}
	return shapeV21, nil
}

// isContinuation reports whether line is indented and not blank: a line
// nvme-cli prints inside a power state block.
func isContinuation(line string) bool {
	return line != "" && (line[0] == ' ' || line[0] == '\t') && strings.TrimSpace(line) != ""
}

// hasKey reports whether line, at any indentation, starts with key. A block
// is recognised by its keys, not by its indentation: a forum that strips
// leading white space leaves the continuation lines at column 0.
func hasKey(line, key string) bool {
	return strings.HasPrefix(strings.TrimLeft(line, " \t"), key)
}

// isBlockLine reports whether line (at any indentation) is a line of a
// power state block after its first: the "rwt:" line, the workload line or
// one of the NVMe 2.1 time lines.
func isBlockLine(line string) bool {
	t := strings.TrimLeft(line, " \t")
	if strings.HasPrefix(t, "rwt:") || strings.HasPrefix(t, "active_power_workload:") {
		return true
	}
	for _, p := range nvmeTimeLines {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// cutField strips the "key:" prefix of a "key:value" token.
func cutField(tok, key string) (string, bool) {
	return strings.CutPrefix(tok, key)
}
