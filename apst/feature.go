package apst

import (
	"fmt"
	"strconv"
)

// EntryMask selects ITPS (bits 7:3) and ITPT (bits 31:8) of an Entry: what
// a capture that prints only those two fields (nvme get-feature -H text and
// its JSON) can tell. Compare such entries as e&EntryMask.
const EntryMask Entry = 0xffff_fff8

// APSTE is the APST Enable bit (Feature 0Ch, bit 0 of completion dword 0) as
// a capture records it, or does not. The zero value is APSTEUnknown.
type APSTE uint8

// The states of APSTE.
const (
	// APSTEUnknown: the source did not record APSTE (a raw 256-byte
	// buffer, which holds only the table).
	APSTEUnknown APSTE = iota
	// APSTEDisabled: bit 0 of dword 0 is 0.
	APSTEDisabled
	// APSTEEnabled: bit 0 of dword 0 is 1.
	APSTEEnabled
)

var apsteNames = [...]string{"unknown", "disabled", "enabled"}

// APSTEOf returns APSTEEnabled or APSTEDisabled for a known APSTE bit.
func APSTEOf(enabled bool) APSTE {
	if enabled {
		return APSTEEnabled
	}
	return APSTEDisabled
}

// Known reports whether the APSTE bit was recorded.
func (a APSTE) Known() bool { return a == APSTEDisabled || a == APSTEEnabled }

// String returns "unknown", "disabled" or "enabled".
func (a APSTE) String() string {
	if int(a) < len(apsteNames) {
		return apsteNames[a]
	}
	return "APSTE(" + strconv.Itoa(int(a)) + ")"
}

// MarshalText returns the String form; a value outside the three states is
// an error wrapping ErrAPSTE.
func (a APSTE) MarshalText() ([]byte, error) {
	if int(a) >= len(apsteNames) {
		return nil, fmt.Errorf("%w: %d", ErrAPSTE, uint8(a))
	}
	return []byte(apsteNames[a]), nil
}

// UnmarshalText reads "unknown", "disabled" or "enabled"; anything else is an
// error wrapping ErrAPSTE, and a is then unchanged.
func (a *APSTE) UnmarshalText(b []byte) error {
	for i, n := range apsteNames {
		if string(b) == n {
			*a = APSTE(i)
			return nil
		}
	}
	return fmt.Errorf("%w: %q, want unknown, disabled or enabled", ErrAPSTE, b)
}

// Feature is the APST feature (FID 0Ch) as a drive holds it: APSTE from bit
// 0 of completion dword 0 of Get Features, and the 256-byte table.
//
// The zero value is a feature whose APSTE is unknown and whose table is all
// zero and exact.
type Feature struct {
	// APSTE is the enable bit, APSTEUnknown when the source did not record
	// it (a raw 256-byte buffer). Nothing should report "APSTE 0" for
	// APSTEUnknown.
	APSTE APSTE
	// Table is the 256-byte data buffer.
	Table Table
	// Masked is true when the source gave only ITPS and ITPT of each entry
	// (nvme get-feature -H text and its JSON): the bits outside EntryMask
	// are then unknown (zero in Table), and comparisons must mask with
	// EntryMask.
	Masked bool
	// Unknown is the set of entries the source did not show (a partial
	// paste: a wiki that shows Entry[ 0] to Entry[ 3], a blog that shows
	// the header and APSTE and cuts the entries). Their Table values are
	// zero and mean unknown, not zero; comparisons skip them. The zero
	// value, the empty set, says every entry is known.
	Unknown States
}

// Equal reports whether the drive's table agrees with t: every entry the
// feature knows equal, or equal under EntryMask when f is Masked; the
// Unknown entries are not compared, nor is APSTE. A nil feature or table
// agrees with nothing.
func (f *Feature) Equal(t *Table) bool {
	if f == nil || t == nil {
		return false
	}
	if !f.Masked && f.Unknown == 0 {
		return f.Table == *t
	}
	mask := ^Entry(0)
	if f.Masked {
		mask = EntryMask
	}
	for i := range t {
		if !f.Unknown.Has(uint8(i)) && f.Table[i]&mask != t[i]&mask {
			return false
		}
	}
	return true
}

// DecodeFeature decodes a Get Features FID 0Ch result: completion dword 0
// (bit 0 is APSTE) and the 256-byte data buffer. A buffer of any other
// length is an error wrapping ErrTableSize.
func DecodeFeature(dword0 uint32, data []byte) (Feature, error) {
	t, err := DecodeTable(data)
	if err != nil {
		return Feature{}, err
	}
	return Feature{APSTE: APSTEOf(dword0&1 != 0), Table: t}, nil
}
