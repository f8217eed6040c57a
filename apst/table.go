package apst

import (
	"encoding/binary"
	"fmt"
)

// TableSize is the size of the APST data structure (the Feature 0Ch data
// buffer): 32 little-endian 64-bit entries.
const TableSize = 256

// Entries is the number of entries in an APST table, one per power state.
const Entries = 32

// Entry is one 64-bit APST table entry exactly as the kernel builds it:
// ITPS (target state) in bits 7:3 and ITPT (idle time prior to transition,
// ms) in bits 31:8. Bits 63:32 are reserved, but the kernel does not mask a
// tolerance-mode timeout of 2^24 ms or more, which spills into them; Entry
// keeps all 64 bits so such tables are represented exactly.
type Entry uint64

// NewEntry builds an entry the way the kernel does, (state << 3) | (idle << 8)
// in 64 bits without masking: idle times of 2^24 ms or more spill into the
// reserved bits and those of 2^56 ms or more are shifted out.
func NewEntry(target uint8, idle Milliseconds) Entry {
	return Entry(uint64(target)<<3 | uint64(idle)<<8)
}

// TargetState returns ITPS, bits 7:3: the power state to move to.
func (e Entry) TargetState() uint8 { return uint8(e>>3) & 0x1f }

// IdleTime returns ITPT, bits 31:8: the idle time in the current state before
// the transition, in ms. Zero means the entry makes no transition.
func (e Entry) IdleTime() Milliseconds { return Milliseconds(e>>8) & 0xffffff }

// Reserved returns the bits a conforming entry keeps zero (2:0 and 63:32).
func (e Entry) Reserved() uint64 { return uint64(e) &^ 0xffffff_f8 }

// ReservedLow reports whether the entry sets bits 2:0, which no
// conforming entry and no kernel sets (Linux builds each entry as
// ITPS<<3 | ITPT<<8): 256 bytes with such an entry are no APST table the
// kernel programmed (random bytes set them in almost every entry). Bits
// 63:32 are reserved too, but a tolerance-mode timeout of 2^24 ms or
// more spills into them.
func (e Entry) ReservedLow() bool { return e&7 != 0 }

// Transitions reports whether the entry makes the controller move (ITPT != 0).
func (e Entry) Transitions() bool { return e.IdleTime() != 0 }

// String formats the entry as "->ps3@100ms", "-" for a zero entry, and adds
// the raw value when reserved bits are set.
func (e Entry) String() string {
	if e == 0 {
		return "-"
	}
	s := fmt.Sprintf("->ps%d@%dms", e.TargetState(), e.IdleTime())
	if e.Reserved() != 0 {
		s += fmt.Sprintf(" (raw %#016x)", uint64(e))
	}
	return s
}

// Table is the APST data structure: entry i says what the controller does
// while idle in power state i.
//
// The zero Table makes no transition (every entry 0, written "-"): it is
// the table a Plan holds when APSTE is 0 or nothing is sent.
type Table [Entries]Entry

// MarshalBinary encodes the table as the 256-byte Feature 0Ch payload. It
// implements encoding.BinaryMarshaler.
func (t *Table) MarshalBinary() ([]byte, error) {
	return t.AppendBinary(make([]byte, 0, TableSize))
}

// AppendBinary appends the 256-byte payload to b (encoding.BinaryAppender).
func (t *Table) AppendBinary(b []byte) ([]byte, error) {
	for _, e := range t {
		b = binary.LittleEndian.AppendUint64(b, uint64(e))
	}
	return b, nil
}

// UnmarshalBinary decodes a 256-byte Feature 0Ch payload. Any other length is
// an error wrapping ErrTableSize; t is then unchanged.
func (t *Table) UnmarshalBinary(b []byte) error {
	if len(b) != TableSize {
		return fmt.Errorf("%w: got %d bytes", ErrTableSize, len(b))
	}
	for i := range t {
		t[i] = Entry(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return nil
}

// DecodeTable decodes a 256-byte Feature 0Ch payload.
func DecodeTable(b []byte) (Table, error) {
	var t Table
	err := t.UnmarshalBinary(b)
	return t, err
}

// Reachable returns, as a bit set (bit n = state n), the states the table
// can move a controller to when it starts idle in state from: it follows the
// entries with a non-zero idle time until a state has none (or a state
// repeats). The starting state is included. A nil table is no table sent:
// only the starting state. A state above 31, which no controller has, gives
// the empty set.
func (t *Table) Reachable(from uint8) States {
	if from >= Entries {
		return 0
	}
	var seen States
	s := from
	if t == nil {
		return 1 << s
	}
	for seen&(1<<s) == 0 {
		seen |= 1 << s
		e := t[s]
		if !e.Transitions() {
			break
		}
		s = e.TargetState()
	}
	return seen
}
