package blockdev

import (
	"fmt"
	"strconv"
	"strings"
)

// Stat is the I/O counters of one block device, the fields of
// /sys/block/NAME/stat (Documentation/block/stat.rst) that count requests:
// a request by anyone moves at least one of them.
type Stat struct {
	// ReadIOs, WriteIOs, DiscardIOs and FlushIOs are the completed
	// requests of each kind (fields 1, 5, 12 and 16). DiscardIOs exists
	// since Linux 4.18 and FlushIOs since 5.5; on older kernels they are 0.
	ReadIOs, WriteIOs, DiscardIOs, FlushIOs uint64
	// InFlight is the number of requests issued and not yet completed
	// (field 9).
	InFlight uint64
	// Fields is the number of fields the line had: 11, 15 or 17.
	Fields int
}

// Requests returns the number of completed requests of every kind.
func (s Stat) Requests() uint64 { return s.ReadIOs + s.WriteIOs + s.DiscardIOs + s.FlushIOs }

// Add returns the counters of s and t together (the namespaces of one
// controller share its idle timer); Fields is the smaller field count.
func (s Stat) Add(t Stat) Stat {
	return Stat{
		ReadIOs:    s.ReadIOs + t.ReadIOs,
		WriteIOs:   s.WriteIOs + t.WriteIOs,
		DiscardIOs: s.DiscardIOs + t.DiscardIOs,
		FlushIOs:   s.FlushIOs + t.FlushIOs,
		InFlight:   s.InFlight + t.InFlight,
		Fields:     minFields(s.Fields, t.Fields),
	}
}

// minFields is the smaller of two field counts, 0 meaning none yet.
func minFields(a, b int) int {
	if a == 0 || (b != 0 && b < a) {
		return b
	}
	return a
}

// ParseStat parses the text of /sys/block/NAME/stat: 11 (before Linux
// 4.18), 15 (4.18 to 5.4) or 17 (5.5 and later) unsigned decimal fields
// separated by spaces, with one trailing newline. Anything else is an
// error wrapping ErrInvalidStat that says which field is wrong.
func ParseStat(text string) (Stat, error) {
	fields := strings.Fields(text)
	switch len(fields) {
	case 11, 15, 17:
	default:
		return Stat{}, fmt.Errorf("%w: %d fields, want 11, 15 or 17 unsigned numbers", ErrInvalidStat, len(fields))
	}
	var v [17]uint64
	for i, f := range fields {
		n, err := strconv.ParseUint(f, 10, 64)
		if err != nil {
			return Stat{}, fmt.Errorf("%w: field %d is %q, want an unsigned decimal number", ErrInvalidStat, i+1, truncate(f))
		}
		v[i] = n
	}
	return Stat{
		ReadIOs:    v[0],
		WriteIOs:   v[4],
		InFlight:   v[8],
		DiscardIOs: v[11],
		FlushIOs:   v[15],
		Fields:     len(fields),
	}, nil
}

// truncate shortens a field quoted in an error.
func truncate(s string) string {
	if len(s) > 24 {
		return s[:24] + "..."
	}
	return s
}
