package powerstate

import (
	"io"
	"strconv"
	"strings"
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
// IdlePower and ActivePower are left unknown.
//
// NPSS is not printed either; smartctl prints the rows 0..NPSS, at most 32.
// NPSS is therefore set to the number of rows minus one and known when there
// are fewer than 32 rows. With 32 rows the table could stand for NPSS 31 or
// for an invalid NPSS above 31 (which the kernel refuses), so NPSS is set to
// 31 and left unknown.
//
// smartctl always ends the table with a blank line, so a table that runs
// to the end of the capture, or a row cut short, is ErrTruncated with the
// line number, never a silently shorter table. Lines before and after the
// sections read are ignored.
func ParseSmartctlText(r io.Reader) (Controller, error) {
	b, err := readCapture(r, FormatSmartctlText)
	if err != nil {
		return Controller{}, err
	}
	return parseSmartctlText(decodeText(b))
}

// smartctlHeader is the header of the power state table.
var smartctlHeader = [...]string{"St", "Op", "Max", "Active", "Idle", "RL", "RT", "WL", "WT", "Ent_Lat", "Ex_Lat"}

const (
	expectSmartctlHeader = `the table header "St Op     Max   Active     Idle   RL RT WL WT  Ent_Lat  Ex_Lat"`
	expectSmartctlRow    = `a power state row "St Op Max Active Idle RL RT WL WT Ent_Lat Ex_Lat"`
	expectSmartctlEnd    = `power state row %d or the blank line that ends the table`
)

func parseSmartctlText(s string) (Controller, error) {
	c, err := parseSmartctlTextLines(s)
	if err != nil {
		return Controller{}, cutAtEnd(s, err)
	}
	return c, nil
}

func parseSmartctlTextLines(s string) (Controller, error) {
	const f = FormatSmartctlText
	c := Controller{Format: f}
	var known Fields
	l := lineReader{s: s}
	table := false
	for {
		line, _, ok := l.next()
		if !ok {
			break
		}
		if strings.TrimSpace(line) == "Supported Power States" {
			table = true
			break
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		key = strings.Join(strings.Fields(key), " ")
		val = strings.TrimSpace(val)
		if err := setSmartctlKey(&c, &known, key, val); err != nil {
			return Controller{}, syntaxErr(f, l.n, err.Error(), val)
		}
	}
	if !table {
		return Controller{}, &ParseError{Format: f, Line: l.n, Expected: `a "Supported Power States" table (smartctl -a, -x or -c of an NVMe device)`, Err: ErrNoPowerStates}
	}

	line, n, ok := l.peek()
	if !ok {
		return Controller{}, truncErr(f, n, expectSmartctlHeader)
	}
	l.next()
	if fs := strings.Fields(line); len(fs) != len(smartctlHeader) || [len(smartctlHeader)]string(fs) != smartctlHeader {
		return Controller{}, syntaxErr(f, n, expectSmartctlHeader, line)
	}

	rows := 0
	for {
		line, terminated, ok := l.next()
		expectEnd := strings.Replace(expectSmartctlEnd, "%d", strconv.Itoa(rows), 1)
		if !ok {
			return Controller{}, truncErr(f, l.n+1, expectEnd)
		}
		t := strings.TrimSpace(line)
		if t == "" {
			if !terminated {
				// Spaces at the very end: a row cut before its number.
				return Controller{}, truncErr(f, l.n, expectEnd)
			}
			break
		}
		if !isDigit(t[0]) {
			// Another section without the blank line: the table is over.
			break
		}
		if rows >= MaxStates {
			return Controller{}, syntaxErr(f, l.n, "at most 32 power state rows", line)
		}
		d, err := parseSmartctlRow(t, rows)
		if err != "" {
			if !terminated {
				return Controller{}, truncErr(f, l.n, expectSmartctlRow+" (the capture ends inside it)")
			}
			return Controller{}, syntaxErr(f, l.n, err, line)
		}
		if !terminated {
			return Controller{}, truncErr(f, l.n, "the end of the line and the blank line that ends the table")
		}
		c.PowerStates[rows] = d
		rows++
	}
	if rows == 0 {
		return Controller{}, &ParseError{Format: f, Line: l.n, Expected: "at least one power state row", Err: ErrNoPowerStates}
	}
	c.NPSS = uint8(rows - 1)
	if rows < MaxStates {
		known |= FieldNPSS
	}
	c.Known = known | FieldPowerStates
	return c, nil
}

// parseSmartctlRow parses a row of the table; it returns what was expected
// when the row is malformed.
func parseSmartctlRow(t string, want int) (Descriptor, string) {
	var d Descriptor
	fs := strings.Fields(t)
	if len(fs) != len(smartctlHeader) {
		return d, expectSmartctlRow
	}
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
	d.EntryLatency, d.ExitLatency = Microseconds(en), Microseconds(ex)
	return d, ""
}

// setSmartctlKey stores the value of an information-section line; the
// first occurrence of a key wins. The error text says what was expected.
func setSmartctlKey(c *Controller, known *Fields, key, val string) error {
	set := func(f Fields) bool {
		if known.Has(f) {
			return false
		}
		*known |= f
		return true
	}
	str := func(f Fields, width int, dst *string) error {
		if known.Has(f) {
			return nil
		}
		v, ok := cleanString(val, width)
		if !ok {
			return errorString("at most " + strconv.Itoa(width) + " characters for " + key)
		}
		*dst = v
		*known |= f
		return nil
	}
	hex := func(bits int) (uint64, error) {
		if !strings.HasPrefix(val, "0x") {
			return 0, errorString("a 0x-prefixed hexadecimal " + strconv.Itoa(bits) + "-bit value for " + key)
		}
		v, ok := parseHex(val, bits)
		if !ok {
			return 0, errorString("a 0x-prefixed hexadecimal " + strconv.Itoa(bits) + "-bit value for " + key)
		}
		return v, nil
	}
	switch key {
	case "Model Number":
		return str(FieldModel, maxModel, &c.Model)
	case "Serial Number":
		return str(FieldSerial, maxSerial, &c.Serial)
	case "Firmware Version":
		return str(FieldFirmware, maxFirmware, &c.Firmware)
	case "PCI Vendor/Subsystem ID":
		v, err := hex(16)
		if err != nil {
			return err
		}
		if set(FieldVendorID) {
			c.VendorID = uint16(v)
		}
		if set(FieldSubsystemVendorID) {
			c.SubsystemVendorID = uint16(v)
		}
	case "PCI Vendor ID", "PCI Vendor Subsystem ID":
		v, err := hex(16)
		if err != nil {
			return err
		}
		if key == "PCI Vendor ID" {
			if set(FieldVendorID) {
				c.VendorID = uint16(v)
			}
		} else if set(FieldSubsystemVendorID) {
			c.SubsystemVendorID = uint16(v)
		}
	case "IEEE OUI Identifier":
		v, err := hex(24)
		if err != nil {
			return err
		}
		if set(FieldIEEE) {
			c.IEEE = uint32(v)
		}
	case "Controller ID":
		v, ok := parseDec(val, 16)
		if !ok {
			return errorString("a decimal 16-bit value for " + key)
		}
		if set(FieldControllerID) {
			c.ControllerID = uint16(v)
		}
	case "NVMe Version":
		v, ok := parseSmartctlVersion(val)
		if !ok {
			return errorString(`a version "M.m", "M.m.t" or "<1.2" for ` + key)
		}
		if set(FieldVersion) {
			c.Version = v
		}
	case "Warning Comp. Temp. Threshold", "Critical Comp. Temp. Threshold":
		k, ok := parseCelsius(val)
		if !ok {
			return errorString(`"N Celsius" or "-" for ` + key)
		}
		if key[0] == 'W' {
			if set(FieldWarningTemp) {
				c.WarningTemp = k
			}
		} else if set(FieldCriticalTemp) {
			c.CriticalTemp = k
		}
	default:
		if h, ok := strings.CutPrefix(key, "Optional Admin Commands ("); ok {
			h, ok = strings.CutSuffix(h, ")")
			v, ok2 := parseHex(h, 16)
			if !ok || !ok2 || !strings.HasPrefix(h, "0x") {
				return errorString(`"Optional Admin Commands (0xNNNN)"`)
			}
			if set(FieldOACS) {
				c.OACS = uint16(v)
			}
		}
	}
	return nil
}

// parseSmartctlVersion parses smartctl's NVMe Version: "%u.%u" with ".%u"
// when the tertiary part is not zero, or "<1.2" for VER 0.
func parseSmartctlVersion(s string) (Version, bool) {
	if s == "<1.2" {
		return 0, true
	}
	parts := strings.Split(s, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, false
	}
	major, ok1 := parseDec(parts[0], 16)
	minor, ok2 := parseDec(parts[1], 8)
	var ter uint64
	ok3 := true
	if len(parts) == 3 {
		ter, ok3 = parseDec(parts[2], 8)
		ok3 = ok3 && ter != 0
	}
	if !ok1 || !ok2 || !ok3 {
		return 0, false
	}
	return NewVersion(uint16(major), uint8(minor), uint8(ter)), true
}

// parseCelsius parses "N Celsius" (N = kelvin - 273, possibly negative) or
// "-" (0, not reported) into Kelvin.
func parseCelsius(s string) (Kelvin, bool) {
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
	return Kelvin(v + 273), true
}
