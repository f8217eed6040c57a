package apst

import (
	"strconv"
	"strings"
)

// hexDumpLine parses a line of nvme-cli's hex dump, "0010: 18 64 00 ...
// "ascii"", returning the offset and the bytes.
func hexDumpLine(t string) (int, []byte, bool) {
	off, rest, ok := strings.Cut(t, ":")
	if !ok || len(off) < 4 || len(off) > 8 {
		return 0, nil, false
	}
	o, err := strconv.ParseUint(off, 16, 32)
	if err != nil {
		return 0, nil, false
	}
	var bs []byte
	for _, tok := range strings.Fields(rest) {
		if strings.HasPrefix(tok, `"`) {
			break
		}
		if len(tok) != 2 || len(bs) >= 16 {
			return 0, nil, false
		}
		v, err := strconv.ParseUint(tok, 16, 8)
		if err != nil {
			return 0, nil, false
		}
		bs = append(bs, byte(v))
	}
	if len(bs) == 0 {
		return 0, nil, false
	}
	return int(o), bs, true
}

// isHexDumpRuler reports whether t is the dump's column ruler "0 1 2 ... f".
func isHexDumpRuler(t string) bool {
	fs := strings.Fields(t)
	if len(fs) != 16 {
		return false
	}
	for i, f := range fs {
		if f != strconv.FormatInt(int64(i), 16) {
			return false
		}
	}
	return true
}
