package capture

import (
	"strconv"
	"strings"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// parseDec parses an unsigned decimal that fits in bits bits.
func parseDec(s string, bits int) (uint64, bool) {
	if s == "" || !isDigit(s[0]) {
		return 0, false
	}
	if len(s) <= 19 { // fits in a uint64: the digits alone, as ParseUint reads them
		var v uint64
		for i := 0; i < len(s); i++ {
			d := s[i] - '0'
			if d > 9 {
				return 0, false
			}
			v = v*10 + uint64(d)
		}
		if bits < 64 && v>>uint(bits) != 0 {
			return 0, false
		}
		return v, true
	}
	v, err := strconv.ParseUint(s, 10, bits)
	if err != nil {
		return 0, false
	}
	return v, true
}

// parseHex parses hexadecimal digits with an optional 0x prefix.
func parseHex(s string, bits int) (uint64, bool) {
	if len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		s = s[2:]
	}
	if s == "" || s[0] == '+' || s[0] == '-' || s[0] == '_' {
		return 0, false
	}
	v, err := strconv.ParseUint(s, 16, bits)
	if err != nil || strings.Contains(s, "_") {
		return 0, false
	}
	return v, true
}

// parseLatency parses an ENLAT or EXLAT as nvme-cli prints it: "%d" of a
// 32-bit value, so values of 2^31 and more appear negative. Both forms give
// the same 32-bit field.
func parseLatency(s string) (powerstate.Microseconds, bool) {
	if strings.HasPrefix(s, "-") {
		v, err := strconv.ParseInt(s, 10, 32)
		if err != nil || v >= 0 {
			return 0, false
		}
		return powerstate.Microseconds(uint32(int32(v))), true
	}
	v, ok := parseDec(s, 32)
	return powerstate.Microseconds(v), ok
}

// parseWatts parses a power as nvme-cli and smartctl print it: "6.00W"
// (two decimals: 0.01 W units) or "0.0070W" (four decimals: 0.0001 W
// units). The units must fit the 16-bit field.
func parseWatts(s string) (powerstate.Power, bool) {
	num, ok := strings.CutSuffix(s, "W")
	if !ok {
		return powerstate.Power{}, false
	}
	ip, fp, ok := strings.Cut(num, ".")
	if !ok || ip == "" {
		return powerstate.Power{}, false
	}
	var scale powerstate.Scale
	var mul uint64
	switch len(fp) {
	case 2:
		scale, mul = powerstate.Scale0_01W, 100
	case 4:
		scale, mul = powerstate.Scale0_0001W, 10000
	default:
		return powerstate.Power{}, false
	}
	i, ok1 := parseDec(ip, 16)
	f, ok2 := parseDec(fp, 16)
	if !ok1 || !ok2 {
		return powerstate.Power{}, false
	}
	u := i*mul + f
	if u > 0xffff {
		return powerstate.Power{}, false
	}
	return powerstate.Power{Units: uint16(u), Scale: scale}, true
}

// parseOptionalPower parses an IDLP/ACTP as nvme-cli prints it: "-" (not
// reported), "reserved", or watts.
func parseOptionalPower(s string) (powerstate.Power, bool) {
	switch s {
	case "-":
		return powerstate.Power{}, true
	case "reserved":
		return powerstate.Power{Scale: powerstate.ScaleReserved}, true
	}
	return parseWatts(s)
}

// Widths of the Identify string fields (NVMe Base Specification, Identify
// Controller data structure: SN bytes 23:04, MN 63:24, FR 71:64).
const (
	maxSerial   = 20
	maxModel    = 40
	maxFirmware = 8
)

// cleanString trims the padding a printer keeps (trailing spaces and NULs,
// as DecodeIdentify does, and the tabs a copy may make of the spaces) and
// checks the result fits the Identify field.
func cleanString(s string, width int) (string, bool) {
	s = strings.TrimRight(s, " \t\x00")
	return s, len(s) <= width
}

// normalizeMaxPower gives MP the unit MXPS selects: 0.0001 W when the
// scale says so, 0.01 W otherwise (as the binary encoding does).
func normalizeMaxPower(p powerstate.Power) powerstate.Power {
	if p.Scale != powerstate.Scale0_0001W {
		p.Scale = powerstate.Scale0_01W
	}
	return p
}

// fields splits s around runs of spaces and tabs into dst, as
// strings.Fields does without allocating; it reports false when s has more
// fields than dst holds.
func fields(s string, dst []string) (int, bool) {
	n := 0
	for i := 0; i < len(s); {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i >= len(s) {
			break
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' {
			j++
		}
		if n == len(dst) {
			return n, false
		}
		dst[n] = s[i:j]
		n++
		i = j
	}
	return n, true
}
