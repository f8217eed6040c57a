package capture

import (
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// ParseSmartctlText parses a smartctl report of an NVMe device ("smartctl
// -a", "-x" or "-c"; every version from 6.5 to 7.5, with or without the
// version banner) and returns the controller its "Supported Power States"
// table and information section describe.
//
// From the information section it reads, when present: Model Number,
// Serial Number, Firmware Version, "PCI Vendor/Subsystem ID" (VID and SSVID
// equal) or the two lines "PCI Vendor ID" and "PCI Vendor Subsystem ID",
// IEEE OUI Identifier, Controller ID, NVMe Version (7.2 and later; "<1.2"
// reads as 0), "Optional Admin Commands (0x....)" (OACS), and the Warning
// and Critical Comp. Temp. Thresholds (Celsius, stored as Kelvin = C+273; "-"
// reads as 0). The table gives MP with MXPS (four decimals mean 0.0001 W
// units, two decimals 0.01 W), NOPS (Op "-" is non-operational), ENLAT and
// EXLAT, and the ranks, whose columns RL RT WL WT are RRL, RRT, RWL and RWT
// (not in byte order). smartctl prints the ranks masked to 5 bits.
//
// What smartctl does not print stays unknown: APSTA (apst.Build then
// assumes APST is supported and says so), AVSCC, RTD3R/RTD3E, and the idle
// and active power, whose Active and Idle columns smartctl decodes with the
// wrong bits of the scale bytes, so they are read for syntax only and
// IdlePower and ActivePower are left unknown: smartctl prints ACTP scaled
// by the workload bits (APW), so a Kingston A1000 whose states draw up to
// 7.90 W shows "0.0790W" in every row, on its 0.0050 W state too; keeping
// that would be a wrong answer that convert would write into another
// format. What Active says exactly (ACTP, and APW bits 1:0) needs the
// scale nvme-cli or the image gives.
//
// NPSS is not printed either; smartctl prints the rows 0..NPSS, at most 32.
// NPSS is therefore set to the number of rows minus one and known when there
// are fewer than 32 rows. With 32 rows the table could stand for NPSS 31 or
// for an invalid NPSS above 31 (which the kernel refuses), so NPSS is set to
// 31 and left unknown.
//
// smartctl always ends the table with a blank line, so in a report a table
// that runs to the end of the capture, or a row cut short, is ErrTruncated
// with the line number, never a silently shorter table. A table pasted
// alone (the "Supported Power States" title or the column line, and the
// rows, with no line of the information section above) may end at the end
// of the capture, with or without a final newline: forums and editors drop
// the blank line. It reads when its last row is whole (a last row whose
// right-aligned Ex_Lat column shows it was cut is ErrTruncated), and a note
// says the table ran to the end. Lines before and after the sections read
// are ignored, except a line without a colon right after the Model Number,
// Serial Number or Firmware Version line: the rest of its value, which a
// wrap at 72 or 80 columns moved, is ErrSyntax, not a model cut short; so
// is a table header whose end a wrap moved to the next line.
func ParseSmartctlText(r io.Reader) (powerstate.Controller, error) {
	return parseAs(r, powerstate.FormatSmartctlText)
}

// smartctlHeader is the header of the power state table.
var smartctlHeader = [...]string{"St", "Op", "Max", "Active", "Idle", "RL", "RT", "WL", "WT", "Ent_Lat", "Ex_Lat"}

const (
	smartctlHeaderLine   = "St Op     Max   Active     Idle   RL RT WL WT  Ent_Lat  Ex_Lat"
	expectSmartctlHeader = `the table header "` + smartctlHeaderLine + `"`
	expectSmartctlRow    = `a power state row "St Op Max Active Idle RL RT WL WT Ent_Lat Ex_Lat"`
	expectSmartctlEnd    = `power state row %d or the blank line that ends the table`
)

func parseSmartctlText(s string) (powerstate.Controller, int, error) {
	return parseTextLines(s, parseSmartctlTextLines)
}

func parseSmartctlTextLines(s string) (powerstate.Controller, int, error) {
	const f = powerstate.FormatSmartctlText
	c := powerstate.Controller{Format: f}
	k := keys{f: f}
	l := newLineReader(s)
	table, headerOnly := false, false
	wrapped := 0 // the line of a string key whose value the next line may continue
	for {
		line, _, ok := l.Next()
		if !ok {
			break
		}
		if mayBeTableStart(line) {
			if t := strings.TrimSpace(line); t == "Supported Power States" {
				table = true
				break
			} else if strings.HasPrefix(t, "St Op ") {
				// The column line pasted without the title above it.
				table, headerOnly = true, true
				break
			}
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			if wrapped > 0 && strings.TrimSpace(line) != "" {
				// A model wrapped at 72 or 80 columns by a mail or a
				// forum: its end is on this line, not in the model read.
				return powerstate.Controller{}, 0, wrapErr(f, l.N(), wrapped, `a "Key: value" line`, line)
			}
			wrapped = 0
			continue
		}
		key = normKey(key)
		val = strings.TrimSpace(val)
		if err := setSmartctlKey(&c, &k, key, val, l.N()); err != nil {
			return powerstate.Controller{}, 0, err
		}
		wrapped = 0
		switch key {
		case "Model Number", "Serial Number", "Firmware Version":
			wrapped = l.N()
		}
	}
	if !table {
		return powerstate.Controller{}, 0, &ParseError{Format: f, Line: l.N(), Expected: `a "Supported Power States" table (smartctl -a, -x or -c of an NVMe device)`, Err: ErrNoPowerStates, Looks: notNVMe(s)}
	}

	var line string
	if headerOnly {
		line = strings.TrimRight(l.Text()[l.Start():l.Pos()], "\r\n")
	} else {
		next, n, ok := l.Peek()
		if !ok {
			return powerstate.Controller{}, 0, truncErr(f, n, expectSmartctlHeader)
		}
		line = next
		l.Next()
	}
	header := line
	// A table pasted alone (no line of the information section above it)
	// may end at the end of the capture: forums and editors drop the
	// blank line smartctl ends it with. Under a report, a table that runs
	// to the end is a cut report.
	alone := k.known == 0 && k.notes == nil
	var hdr [len(smartctlHeader)]string
	if n, ok := fields(line, hdr[:]); !ok || n != len(smartctlHeader) || hdr != smartctlHeader {
		if next, n, ok := l.Peek(); ok && len(strings.TrimSpace(line)) > 2 && strings.HasPrefix(smartctlHeaderLine, strings.TrimSpace(line)) && strings.TrimSpace(next) != "" {
			return powerstate.Controller{}, 0, wrapErr(f, n, l.N(), "power state row 0", next)
		}
		return powerstate.Controller{}, 0, syntaxErr(f, l.N(), expectSmartctlHeader, line)
	}

	rows := 0
	for {
		line, terminated, ok := l.Next()
		expectEnd := func() string { return strings.Replace(expectSmartctlEnd, "%d", strconv.Itoa(rows), 1) }
		if !ok {
			if rows == 0 || !alone {
				return powerstate.Controller{}, 0, truncErr(f, l.N()+1, expectEnd())
			}
			// The table pasted alone, its closing blank line lost.
			k.notes = append(k.notes, endNote(l.N(), rows))
			break
		}
		t := strings.TrimSpace(line)
		if t == "" {
			if !terminated {
				// Spaces at the very end: a row cut before its number.
				return powerstate.Controller{}, 0, truncErr(f, l.N(), expectEnd())
			}
			break
		}
		if !isDigit(t[0]) {
			// Another section without the blank line: the table is over.
			break
		}
		if rows >= powerstate.MaxStates {
			return powerstate.Controller{}, 0, syntaxErr(f, l.N(), "at most 32 power state rows", line)
		}
		d, err := parseSmartctlRow(t, rows)
		if err != "" {
			if !terminated {
				return powerstate.Controller{}, 0, truncErr(f, l.N(), expectSmartctlRow+" (the capture ends inside it)")
			}
			return powerstate.Controller{}, 0, syntaxErr(f, l.N(), err, line)
		}
		if !terminated && !alone {
			return powerstate.Controller{}, 0, truncErr(f, l.N(), "the end of the line and the blank line that ends the table")
		}
		c.PowerStates[rows] = d
		rows++
		if !terminated {
			// The last line of the capture: a table pasted alone reads when
			// the row is whole, as far as smartctl's layout can tell.
			if !rowWhole(line, header) {
				return powerstate.Controller{}, 0, truncErr(f, l.N(), "the end of the line and the blank line that ends the table (the last row is cut: its Ex_Lat column is not aligned)")
			}
			k.notes = append(k.notes, endNote(l.N(), rows))
			break
		}
	}
	if rows == 0 {
		return powerstate.Controller{}, 0, &ParseError{Format: f, Line: l.N(), Expected: "at least one power state row", Err: ErrNoPowerStates}
	}
	c.NPSS = uint8(rows - 1)
	if rows < powerstate.MaxStates {
		k.set(powerstate.FieldNPSS)
	}
	k.set(powerstate.FieldPowerStates)
	k.finish(&c)
	return c, l.Pos(), nil
}

// mayBeTableStart reports whether line may be, trimmed, the table's title
// or its column line, cheaply: its first byte after ASCII blanks is an "S"
// or not ASCII (a blank strings.TrimSpace trims, such as U+00A0).
func mayBeTableStart(line string) bool {
	for i := 0; i < len(line); i++ {
		switch c := line[i]; c {
		case ' ', '\t', '\n', '\v', '\f', '\r':
		default:
			return c == 'S' || c >= utf8.RuneSelf
		}
	}
	return false
}

// endNote says that the table ends at the end of the capture, on line,
// after rows rows, without the blank line smartctl prints after it.
func endNote(line, rows int) string {
	return "line " + strconv.Itoa(line) + ": the power state table runs to the end of the capture without the blank line smartctl prints after it; read as " +
		strconv.Itoa(rows) + " states (a paste cut after a whole row would look the same)"
}

// rowWhole reports whether the unterminated last row of a table is whole:
// smartctl prints Ex_Lat right-aligned ("%7u" after a blank), so when the
// column line keeps smartctl's spacing a row whose last number was cut has
// too many blanks before it. A paste whose runs of blanks were collapsed
// cannot tell, and is taken as whole.
func rowWhole(row, header string) bool {
	if !strings.Contains(header, "  Ent_Lat  Ex_Lat") || strings.IndexByte(row, '\t') >= 0 {
		return true
	}
	row = strings.TrimRight(row, " ")
	i := strings.LastIndexByte(row, ' ')
	if i < 0 {
		return true
	}
	ex := row[i+1:]
	j := len(strings.TrimRight(row[:i], " "))
	gap := i + 1 - j
	return gap == 1+max(0, 7-len(ex))
}

// parseSmartctlRow parses a row of the table; it returns what was expected
// when the row is malformed.
func parseSmartctlRow(t string, want int) (powerstate.Descriptor, string) {
	var d powerstate.Descriptor
	var arr [len(smartctlHeader)]string
	n, ok := fields(t, arr[:])
	if !ok || n != len(smartctlHeader) {
		return d, expectSmartctlRow
	}
	fs := arr[:]
	if st, ok := parseDec(fs[0], 8); !ok || int(st) != want {
		return d, "state number " + strconv.Itoa(want) + " in the St column"
	}
	switch fs[1] {
	case "+":
	case "-":
		d.NonOperational = true
	default:
		return d, `"+" (operational) or "-" (non-operational) in the Op column`
	}
	p, ok := parseWatts(fs[2])
	if !ok {
		return d, "watts with 2 or 4 decimals (e.g. 6.00W, 0.0070W) in the Max column"
	}
	d.MaxPower = p
	for i, col := range [...]string{"Active", "Idle"} {
		if v := fs[3+i]; v != "-" && v != "?" {
			if _, ok := parseWatts(v); !ok {
				return d, `"-", "?" or watts in the ` + col + " column"
			}
		}
	}
	var rank [4]uint8
	for i := range rank {
		v, ok := parseDec(fs[5+i], 8)
		if !ok || v > 31 {
			return d, "a rank 0 to 31 in the " + smartctlHeader[5+i] + " column"
		}
		rank[i] = uint8(v)
	}
	d.RelativeReadLatency = rank[0]     // RL
	d.RelativeReadThroughput = rank[1]  // RT
	d.RelativeWriteLatency = rank[2]    // WL
	d.RelativeWriteThroughput = rank[3] // WT
	en, ok1 := parseDec(fs[9], 32)
	ex, ok2 := parseDec(fs[10], 32)
	if !ok1 || !ok2 {
		return d, "latencies in microseconds (32-bit) in the Ent_Lat and Ex_Lat columns"
	}
	d.EntryLatency, d.ExitLatency = powerstate.Microseconds(en), powerstate.Microseconds(ex)
	return d, ""
}

// setSmartctlKey stores the value of an information-section line at line:
// a key read twice is ErrDuplicateKey, a value that does not fit is an
// error for a field APST uses and a note for any other.
func setSmartctlKey(c *powerstate.Controller, k *keys, key, val string, line int) error {
	var field powerstate.Fields
	ok := true
	switch key {
	case "Model Number", "Serial Number", "Firmware Version":
		dst, width := &c.Model, maxModel
		field = powerstate.FieldModel
		switch key {
		case "Serial Number":
			dst, width, field = &c.Serial, maxSerial, powerstate.FieldSerial
		case "Firmware Version":
			dst, width, field = &c.Firmware, maxFirmware, powerstate.FieldFirmware
		}
		var v string
		v, ok = cleanString(val, width)
		if ok {
			*dst = v
		}
	case "PCI Vendor/Subsystem ID", "PCI Vendor ID", "PCI Vendor Subsystem ID":
		field = powerstate.FieldVendorID
		switch key {
		case "PCI Vendor/Subsystem ID":
			field |= powerstate.FieldSubsystemVendorID
		case "PCI Vendor Subsystem ID":
			field = powerstate.FieldSubsystemVendorID
		}
		var v uint64
		v, ok = smartctlHex(val, 16)
		if ok {
			if field&powerstate.FieldVendorID != 0 {
				c.VendorID = uint16(v)
			}
			if field&powerstate.FieldSubsystemVendorID != 0 {
				c.SubsystemVendorID = uint16(v)
			}
		}
	case "IEEE OUI Identifier":
		field = powerstate.FieldIEEE
		var v uint64
		v, ok = smartctlHex(val, 24)
		c.IEEE = uint32(v)
	case "Controller ID":
		field = powerstate.FieldControllerID
		var v uint64
		v, ok = parseDec(val, 16)
		c.ControllerID = uint16(v)
	case "NVMe Version":
		field = powerstate.FieldVersion
		c.Version, ok = parseSmartctlVersion(val)
	case "Warning Comp. Temp. Threshold", "Critical Comp. Temp. Threshold":
		field = powerstate.FieldWarningTemp
		dst := &c.WarningTemp
		if key[0] == 'C' {
			field, dst = powerstate.FieldCriticalTemp, &c.CriticalTemp
		}
		*dst, ok = parseCelsius(val)
	default:
		h, isOACS := strings.CutPrefix(key, "Optional Admin Commands (")
		if !isOACS {
			return nil
		}
		field = powerstate.FieldOACS
		h, ok = strings.CutSuffix(h, ")")
		v, ok2 := parseHex(h, 16)
		ok = ok && ok2 && strings.HasPrefix(h, "0x")
		c.OACS = uint16(v)
	}
	for f := field; f != 0; f &= f - 1 {
		if err := k.seen(f&-f, key, line); err != nil {
			return err
		}
	}
	if !ok {
		for f := field; f != 0; f &= f - 1 {
			clearField(c, f&-f)
		}
		return k.bad(field, key, line, smartctlExpected(key), val)
	}
	k.set(field)
	return nil
}

// smartctlExpected says what smartctl prints for key, for a value that
// does not fit.
func smartctlExpected(key string) string {
	switch key {
	case "Model Number":
		return "at most " + strconv.Itoa(maxModel) + " characters for " + key
	case "Serial Number":
		return "at most " + strconv.Itoa(maxSerial) + " characters for " + key
	case "Firmware Version":
		return "at most " + strconv.Itoa(maxFirmware) + " characters for " + key
	case "PCI Vendor/Subsystem ID", "PCI Vendor ID", "PCI Vendor Subsystem ID":
		return "a 0x-prefixed hexadecimal 16-bit value for " + key
	case "IEEE OUI Identifier":
		return "a 0x-prefixed hexadecimal 24-bit value for " + key
	case "Controller ID":
		return "a decimal 16-bit value for " + key
	case "NVMe Version":
		return `a version "M.m", "M.m.t" or "<1.2" for ` + key
	case "Warning Comp. Temp. Threshold", "Critical Comp. Temp. Threshold":
		return `"N Celsius" or "-" for ` + key
	}
	return `"Optional Admin Commands (0xNNNN)"`
}

// normKey trims a key and collapses its runs of blanks, allocating only
// when there are some to collapse.
func normKey(key string) string {
	key = strings.TrimSpace(key)
	for i := 0; i < len(key); i++ { // one pass: most keys have single spaces
		if key[i] == '\t' || key[i] == ' ' && i+1 < len(key) && key[i+1] == ' ' {
			if key == "Warning  Comp. Temp. Threshold" { // smartctl's own spacing
				return "Warning Comp. Temp. Threshold"
			}
			return strings.Join(strings.Fields(key), " ")
		}
	}
	return key
}

// smartctlHex parses smartctl's "0x%04x"-style values.
func smartctlHex(val string, bits int) (uint64, bool) {
	if !strings.HasPrefix(val, "0x") {
		return 0, false
	}
	return parseHex(val, bits)
}

// clearField zeroes a field a capture could not give.
func clearField(c *powerstate.Controller, f powerstate.Fields) {
	for _, k := range nvmeKeysOf(c) {
		switch {
		case k.field != f:
		case k.kind == keyString:
			*k.p.(*string) = ""
		default:
			setUintAt(k.p, 0)
		}
	}
}

// parseSmartctlVersion parses smartctl's NVMe Version: "%u.%u" with ".%u"
// when the tertiary part is not zero, or "<1.2" for VER 0.
func parseSmartctlVersion(s string) (powerstate.Version, bool) {
	if s == "<1.2" {
		return 0, true
	}
	maj, rest, ok := strings.Cut(s, ".")
	if !ok {
		return 0, false
	}
	min, terS, three := strings.Cut(rest, ".")
	if three && strings.Contains(terS, ".") {
		return 0, false
	}
	major, ok1 := parseDec(maj, 16)
	minor, ok2 := parseDec(min, 8)
	var ter uint64
	ok3 := true
	if three {
		ter, ok3 = parseDec(terS, 8)
		ok3 = ok3 && ter != 0
	}
	if !ok1 || !ok2 || !ok3 {
		return 0, false
	}
	return powerstate.NewVersion(uint16(major), uint8(minor), uint8(ter)), true
}

// parseCelsius parses "N Celsius" (N = kelvin - 273, possibly negative) or
// "-" (0, not reported) into Kelvin.
func parseCelsius(s string) (powerstate.Kelvin, bool) {
	if s == "-" {
		return 0, true
	}
	n, ok := strings.CutSuffix(s, " Celsius")
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseInt(n, 10, 32)
	if err != nil || v+273 < 1 || v+273 > 0xffff {
		return 0, false
	}
	return powerstate.Kelvin(v + 273), true
}
