package diagnose

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// PCI configuration space layout (PCI Local Bus 3.0, PCI Express Base 6.0
// section 7.5): the offsets and fields DecodeSlotPower reads, as lspci
// decodes them ("DevCap: ... SlotPowerLimit 25W", "SltCap: ... PowerLimit
// 75W").
const (
	cfgStatus        = 0x06 // Status register, 16-bit
	cfgStatusCapList = 1 << 4
	cfgCapPointer    = 0x34 // Capabilities Pointer; bits 1:0 reserved
	cfgHeaderSize    = 0x40 // the header every function has; an unprivileged read gets it alone
	cfgLegacySize    = 0x100
	capIDExpress     = 0x10
	maxCapSteps      = 48 // (256-64)/4 capabilities at most: more is a loop

	expCaps        = 0x02 // PCI Express Capabilities register, 16-bit
	expDevCap      = 0x04 // Device Capabilities, 32-bit
	expSlotCap     = 0x14 // Slot Capabilities, 32-bit
	expSlotImpl    = 1 << 8
	expTypeShift   = 4
	expTypeMask    = 0xf
	expRootPort    = 0x4
	expDownstream  = 0x6
	expPCItoPCIe   = 0x8 // a PCI/PCI-X to PCI Express bridge: the downstream end of a link, as a downstream port
	expRCiEP       = 0x9
	expRCEC        = 0xa
	devCapPLShift  = 18 // Captured Slot Power Limit Value, bits 25:18; Scale bits 27:26
	slotCapPLShift = 7  // Slot Power Limit Value, bits 14:7; Scale bits 16:15
)

// The reasons a configuration space gives no slot power limit.
var (
	// ErrConfigNeedsRoot: the bytes end before the capability list does,
	// as an unprivileged read of a function's config file does (the kernel
	// gives it the 64-byte header alone).
	ErrConfigNeedsRoot = errors.New("diagnose: needs root (an unprivileged read of config gives its first 64 bytes)")
	// ErrConfigShort: the bytes end before the 64-byte header does, or
	// before a capability, in a read of 256 bytes or more.
	ErrConfigShort = errors.New("diagnose: config space cut short")
	// ErrNoCapabilities: no capability list (Status bit 4 clear), or a
	// list that loops.
	ErrNoCapabilities = errors.New("diagnose: no capability list")
	// ErrNotPCIExpress: no PCI Express capability (ID 10h) on the list.
	ErrNotPCIExpress = errors.New("diagnose: not a PCI Express function")
	// ErrNoSlot: a root or downstream port without a slot (Slot
	// Implemented clear), or a Root Complex integrated function: no
	// limit applies.
	ErrNoSlot = errors.New("diagnose: no slot")
	// ErrLimitNotSet: the value is 0, the limit was never set (not "0 W").
	ErrLimitNotSet = errors.New("diagnose: slot power limit not set (0)")
	// ErrLimitReserved: a reserved value (F3h to FFh with scale 1.0x),
	// which the specification keeps for limits above 300 W.
	ErrLimitReserved = errors.New("diagnose: slot power limit reserved (above 300 W)")
)

// SlotPower is a PCI Express slot power limit. It is the Slot Power Limit of
// a root or downstream port's slot (Slot Capabilities), or the Captured Slot
// Power Limit of the function at the other end of the link (Device
// Capabilities), which the port sends it in a Set_Slot_Power_Limit
// message. The zero SlotPower is no limit known.
type SlotPower struct {
	// Value and Scale are the raw fields: 8 bits, and 2 bits that give
	// the unit (0: 1 W, 1: 0.1 W, 2: 0.01 W, 3: 0.001 W).
	Value, Scale uint8
	// Slot reports a port's own slot limit; false is a captured limit.
	Slot bool
}

// Milliwatts returns the limit in mW (exact): Value times the scale, and
// 250, 275 and 300 W for F0h, F1h and F2h at scale 1.0x; 0 for a value of 0
// or a reserved one.
func (p SlotPower) Milliwatts() uint32 {
	v := uint32(p.Value)
	if p.Scale == 0 && v >= 0xf0 {
		if v > 0xf2 {
			return 0
		}
		v = 250 + 25*(v-0xf0)
	}
	return v * [4]uint32{1000, 100, 10, 1}[p.Scale&3]
}

// String returns the limit in watts as lspci's DevCap line does without
// trailing zeros ("25 W", "8.25 W"); "unknown" when Milliwatts is 0.
func (p SlotPower) String() string {
	mw := p.Milliwatts()
	if mw == 0 {
		return "unknown"
	}
	return FormatMilliwatts(uint64(mw))
}

// FormatMilliwatts writes mW as watts without trailing zeros ("25 W",
// "8.25 W", "0.005 W").
func FormatMilliwatts(mw uint64) string {
	s := strconv.FormatUint(mw/1000, 10)
	if f := mw % 1000; f != 0 {
		s += strings.TrimRight(fmt.Sprintf(".%03d", f), "0")
	}
	return s + " W"
}

// ParseMilliwatts is FormatMilliwatts's inverse: "25 W" is 25000. ok is
// false for anything else (more than three decimals, no " W", a sign).
func ParseMilliwatts(s string) (mw uint64, ok bool) {
	num, found := strings.CutSuffix(s, " W")
	if !found || num == "" {
		return 0, false
	}
	ip, fp, dot := strings.Cut(num, ".")
	if ip == "" || len(ip) > 9 || dot && (fp == "" || len(fp) > 3) {
		return 0, false
	}
	w, err := strconv.ParseUint(ip, 10, 32)
	if err != nil {
		return 0, false
	}
	frac := uint64(0)
	if dot {
		f, err := strconv.ParseUint((fp + "00")[:3], 10, 16) // no sign: ParseUint takes none
		if err != nil {
			return 0, false
		}
		frac = f
	}
	return w*1000 + frac, true
}

// DecodeSlotPower returns the slot power limit a PCI function's
// configuration space (its sysfs config file) holds. It is the slot's own
// for a root port or downstream port with a slot, the captured one for any other
// function on a link (an endpoint such as an NVMe drive, a switch's
// upstream port). It walks the capability list to the PCI Express
// capability, at most 48 steps, never past config. It reads only; config
// may be any length.
//
// A limit it cannot give is an error matching one of ErrConfigNeedsRoot
// (the 64 bytes an unprivileged read gets), ErrConfigShort,
// ErrNoCapabilities, ErrNotPCIExpress, ErrNoSlot, ErrLimitNotSet or
// ErrLimitReserved.
func DecodeSlotPower(config []byte) (SlotPower, error) {
	if len(config) < cfgHeaderSize {
		return SlotPower{}, fmt.Errorf("%w: %d bytes, the header is %d", ErrConfigShort, len(config), cfgHeaderSize)
	}
	if binary.LittleEndian.Uint16(config[cfgStatus:])&cfgStatusCapList == 0 {
		return SlotPower{}, fmt.Errorf("%w (Status bit 4 clear)", ErrNoCapabilities)
	}
	c, err := findCapability(config, capIDExpress)
	if err != nil {
		return SlotPower{}, err
	}
	if err := need(config, c+expDevCap+4); err != nil {
		return SlotPower{}, err
	}
	caps := binary.LittleEndian.Uint16(config[c+expCaps:])
	var p SlotPower
	switch (caps >> expTypeShift) & expTypeMask {
	case expRootPort, expDownstream, expPCItoPCIe:
		if caps&expSlotImpl == 0 {
			return SlotPower{}, fmt.Errorf("%w (a port with Slot Implemented clear)", ErrNoSlot)
		}
		if err := need(config, c+expSlotCap+4); err != nil {
			return SlotPower{}, err
		}
		v := binary.LittleEndian.Uint32(config[c+expSlotCap:]) >> slotCapPLShift
		p = SlotPower{Value: uint8(v), Scale: uint8(v>>8) & 3, Slot: true}
	case expRCiEP, expRCEC:
		return SlotPower{}, fmt.Errorf("%w (a Root Complex integrated function: no link)", ErrNoSlot)
	default:
		v := binary.LittleEndian.Uint32(config[c+expDevCap:]) >> devCapPLShift
		p = SlotPower{Value: uint8(v), Scale: uint8(v>>8) & 3}
	}
	switch {
	case p.Value == 0:
		return p, ErrLimitNotSet
	case p.Scale == 0 && p.Value > 0xf2:
		return p, fmt.Errorf("%w: value %#02x", ErrLimitReserved, p.Value)
	}
	return p, nil
}

// findCapability returns the offset of capability id on config's list.
func findCapability(config []byte, id byte) (int, error) {
	ptr := int(config[cfgCapPointer] & 0xfc)
	for range maxCapSteps {
		if ptr < cfgHeaderSize {
			return 0, ErrNotPCIExpress
		}
		if err := need(config, ptr+2); err != nil {
			return 0, err
		}
		if config[ptr] == id {
			return ptr, nil
		}
		ptr = int(config[ptr+1] & 0xfc)
	}
	return 0, fmt.Errorf("%w: more than %d capabilities (a loop)", ErrNoCapabilities, maxCapSteps)
}

// need checks that config holds n bytes.
func need(config []byte, n int) error {
	switch {
	case n <= len(config):
		return nil
	case len(config) < cfgLegacySize:
		return fmt.Errorf("%w: %d bytes read, the capability list needs %d", ErrConfigNeedsRoot, len(config), n)
	}
	return fmt.Errorf("%w: %d bytes, a capability needs %d", ErrConfigShort, len(config), n)
}

// slotPowerFact is the fact of a function's config file: its slot power
// limit ("25 W"), or unknown with the reason.
func slotPowerFact(config []byte) Fact {
	p, err := DecodeSlotPower(config)
	if err != nil {
		return Fact{Status: Unknown, Error: strings.TrimPrefix(err.Error(), "diagnose: ")}
	}
	return Fact{Value: p.String(), Status: Read}
}
