package capture

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
)

// NotAPSTTableError says that 256 bytes read as the raw APST buffer (nvme
// get-feature -f 0x0c -b) cannot be one. An entry has a bit set that
// neither the NVMe specification nor the Linux kernel ever sets (bits 2:0,
// reserved; the kernel builds each entry as ITPS<<3 | ITPT<<8). Random
// bytes set them in almost every entry. Bits 63:32 are reserved too, but a
// tolerance-mode timeout of 2^24 ms or more spills into them, so they are
// reported, not refused. It wraps ErrNotAPSTTable; Capture is the buffer
// decoded anyway.
//
// The zero NotAPSTTableError still wraps ErrNotAPSTTable, with no
// description and the zero FeatureCapture.
type NotAPSTTableError struct {
	// Looks says what the bytes look like ("random bytes or another
	// binary file").
	Looks string
	// Reason names the entries with reserved bits set and their values.
	Reason string
	// Capture is the 256 bytes decoded without the check.
	Capture FeatureCapture
}

// Error says what the bytes look like and why.
func (e *NotAPSTTableError) Error() string {
	return "capture: not an APST table: it looks like " + e.Looks + " (" + e.Reason + ")"
}

// Unwrap makes errors.Is(err, ErrNotAPSTTable) true.
func (e *NotAPSTTableError) Unwrap() error { return ErrNotAPSTTable }

// checkRawTable refuses a raw buffer with reserved bits 2:0 set in an
// entry, naming the first few such entries and how many of the 32 set
// bits 2:0 and bits 63:32.
func checkRawTable(fc FeatureCapture) error {
	var low, high []int
	for i, e := range fc.Table {
		if e.ReservedLow() {
			low = append(low, i)
		}
		if e>>32 != 0 {
			high = append(high, i)
		}
	}
	if len(low) == 0 {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "reserved bits 2:0 set in %d of the 32 entries", len(low))
	for k, i := range low[:min(len(low), 3)] {
		if k == 0 {
			b.WriteString(": ")
		} else {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "entry %d is %#016x", i, uint64(fc.Table[i]))
	}
	if len(low) > 3 {
		b.WriteString(", ...")
	}
	if len(high) > 0 {
		b.WriteString("; reserved bits 63:32 set in " + strconv.Itoa(len(high)) + " entries")
	}
	b.WriteString("; an APST entry is ITPS in bits 7:3 and ITPT in bits 31:8, bits 2:0 zero")
	looks := "random bytes or another binary file"
	if len(low) < apst.Entries/2 {
		looks = "a damaged APST table or another binary file"
	}
	return &NotAPSTTableError{Looks: looks, Reason: b.String(), Capture: fc}
}
