package testfixture

import (
	"bytes"
	"fmt"
	"strings"
)

// HexDump writes b as the command named by layout prints it: "hexdump -C"
// and "od -A x -t x1z" (with "*" for repeated lines and the length last),
// "xxd", and "nvme-cli" (nvme-cli's own dump of a get-feature buffer, with
// its column ruler). The files under testdata/forms made by the real tools
// are the check that these agree with them.
func HexDump(b []byte, layout string) string {
	var s strings.Builder
	printable := func(c byte) byte {
		if c >= 0x20 && c < 0x7f {
			return c
		}
		return '.'
	}
	ascii := func(line []byte) string {
		out := make([]byte, len(line))
		for i, c := range line {
			out[i] = printable(c)
		}
		return string(out)
	}
	switch layout {
	case "xxd":
		for off := 0; off < len(b); off += 16 {
			line := b[off:min(off+16, len(b))]
			var h strings.Builder
			for i := 0; i < len(line); i += 2 {
				if i > 0 {
					h.WriteByte(' ')
				}
				fmt.Fprintf(&h, "%02x", line[i])
				if i+1 < len(line) {
					fmt.Fprintf(&h, "%02x", line[i+1])
				}
			}
			fmt.Fprintf(&s, "%08x: %-39s  %s\n", off, h.String(), ascii(line))
		}
	case "nvme-cli":
		s.WriteString("     ")
		for i := range 16 {
			fmt.Fprintf(&s, "%3x", i)
		}
		for off := 0; off < len(b); off += 16 {
			line := b[off:min(off+16, len(b))]
			fmt.Fprintf(&s, "\n%04x:", off)
			for _, c := range line {
				fmt.Fprintf(&s, " %02x", c)
			}
			fmt.Fprintf(&s, " \"%s\"", ascii(line))
		}
		s.WriteString("\n")
	default: // "hexdump -C", "od -A x -t x1z"
		od := layout != "hexdump -C"
		var prev []byte
		star := false
		for off := 0; off < len(b); off += 16 {
			line := b[off:min(off+16, len(b))]
			if prev != nil && len(line) == 16 && bytes.Equal(line, prev) {
				if !star {
					s.WriteString("*\n")
					star = true
				}
				continue
			}
			star = false
			prev = line
			if od {
				fmt.Fprintf(&s, "%06x", off)
				for _, c := range line {
					fmt.Fprintf(&s, " %02x", c)
				}
				fmt.Fprintf(&s, "%s  >%s<\n", strings.Repeat("   ", 16-len(line)), ascii(line))
				continue
			}
			fmt.Fprintf(&s, "%08x ", off)
			for i := range 16 {
				if i == 8 {
					s.WriteByte(' ')
				}
				if i < len(line) {
					fmt.Fprintf(&s, " %02x", line[i])
				} else {
					s.WriteString("   ")
				}
			}
			fmt.Fprintf(&s, "  |%s|\n", ascii(line))
		}
		if od {
			fmt.Fprintf(&s, "%06x\n", len(b))
		} else {
			fmt.Fprintf(&s, "%08x\n", len(b))
		}
	}
	return s.String()
}
