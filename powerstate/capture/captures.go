package capture

import (
	"fmt"
	"strings"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// moreCaptures refuses a text that holds another device's capture after
// the one read, which ends at offset end: a second power state table (an
// nvme-cli "ps 0" line, a smartctl "Supported Power States" section, a
// JSON object with power states). The error says how many captures there
// are and on which line the second starts.
func moreCaptures(f powerstate.Format, s string, end int) error {
	if end >= len(s) {
		return nil
	}
	rest := s[end:]
	if !mayHoldTable(rest) {
		return nil
	}
	base := lineOf(s, end) - 1
	tables, start, table := 0, 0, 0
	l := newLineReader(rest)
	for {
		line, _, ok := l.Next()
		if !ok {
			break
		}
		t := strings.TrimSpace(line)
		if t == "" {
			continue
		}
		isTable := t == "Supported Power States"
		if idx, _, ok := cutPSLine(t); ok && idx == 0 {
			isTable = true
		}
		if t[0] == '{' {
			if js := rest[l.Start():]; strings.Contains(js, `"psds"`) || strings.Contains(js, `"nvme_power_states"`) {
				isTable = true
				tables += strings.Count(js, `"psds"`) + strings.Count(js, `"nvme_power_states"`) - 1
			}
		}
		if start == 0 && (isTable || isCaptureStart(t)) {
			start = l.N()
		}
		if isTable {
			tables++
			if table == 0 {
				table = l.N()
			}
		}
	}
	if tables == 0 {
		return nil
	}
	if start == 0 || start > table {
		start = table
	}
	return &ParseError{Format: f, Line: base + start, Expected: "one device's capture",
		Err: fmt.Errorf("%w: found %d captures, the second starting on line %d", ErrMultipleCaptures, tables+1, base+start)}
}

// mayHoldTable reports whether s may hold a power state table, cheaply:
// moreCaptures looks closer only then.
func mayHoldTable(s string) bool {
	if strings.Contains(s, "Supported Power States") || strings.Contains(s, `"psds"`) || strings.Contains(s, `"nvme_power_states"`) {
		return true
	}
	for {
		i := strings.Index(s, "ps ")
		if i < 0 {
			return false
		}
		s = s[i+3:]
		if t := strings.TrimLeft(s, " "); t != "" && t[0] == '0' {
			return true
		}
	}
}

// isCaptureStart reports whether t (a trimmed line) is where an id-ctrl or
// smartctl capture starts: a header or a first key line.
func isCaptureStart(t string) bool {
	switch {
	case strings.HasPrefix(t, "smartctl ") && len(t) > 9 && isDigit(t[9]),
		strings.HasPrefix(t, "=== START OF INFORMATION SECTION ==="),
		strings.HasPrefix(t, "NVME Identify Controller"):
		return true
	}
	key, _, ok := cutNVMeKey(t)
	return ok && key == "vid"
}
