package diagnose_test

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
)

// readLspciDump returns the bytes of an lspci -xxx hex dump ("00: 4d 14
// ..."), its "#" comment lines skipped.
func readLspciDump(t testing.TB, name string) []byte {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "pciconfig", name))
	require.NoError(t, err)
	defer f.Close()
	var b []byte
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		_, hexes, ok := strings.Cut(line, ": ")
		require.True(t, ok, line)
		row, err := hex.DecodeString(strings.ReplaceAll(hexes, " ", ""))
		require.NoError(t, err, line)
		b = append(b, row...)
	}
	require.NoError(t, sc.Err())
	require.Len(t, b, 256, name)
	return b
}

// TestDecodeSlotPowerLspci: real configuration spaces (pciutils' test
// inputs, sources in each file) decode to the limit lspci printed for the
// same device.
func TestDecodeSlotPowerLspci(t *testing.T) {
	for _, tc := range []struct {
		file string
		want string // "" with err
		slot bool
		err  error
	}{
		{"samsung-pm174x-nvme.txt", "40 W", false, nil},                    // DevCap SlotPowerLimit 40W
		{"gp108m-endpoint.txt", "25 W", false, nil},                        // DevCap SlotPowerLimit 25.000W (250 x 0.1)
		{"connectx3-endpoint.txt", "116 W", false, nil},                    // DevCap SlotPowerLimit 116.000W; list 0x40, 0x9c, 0x60
		{"sunrise-point-root-port.txt", "25 W", true, nil},                 // SltCap PowerLimit 25.000W (250 x 0.1)
		{"plx-9716-downstream-port.txt", "25 W", true, nil},                // SltCap PowerLimit 25.000W (25 x 1)
		{"jhl6240-downstream-port.txt", "", true, diagnose.ErrLimitNotSet}, // SltCap PowerLimit 0.000W
		{"jhl6240-nhi-endpoint.txt", "", false, diagnose.ErrLimitNotSet},   // DevCap SlotPowerLimit 0.000W
		{"haswell-root-port-no-slot.txt", "", false, diagnose.ErrNoSlot},   // Root Port (Slot-)
	} {
		t.Run(tc.file, func(t *testing.T) {
			b := readLspciDump(t, tc.file)
			p, err := diagnose.DecodeSlotPower(b)
			if tc.err != nil {
				require.ErrorIs(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, p.String())
			assert.Equal(t, tc.slot, p.Slot)
			// An unprivileged read gets the header alone: needs root, never
			// a value.
			_, err = diagnose.DecodeSlotPower(b[:64])
			require.ErrorIs(t, err, diagnose.ErrConfigNeedsRoot)
			assert.True(t, strings.HasPrefix(err.Error(), "diagnose: needs root"), err.Error())
		})
	}
}

// config builds a 256-byte configuration space with a power management
// capability at 0x40 and the PCI Express capability at 0x70 of port type
// typ, with the captured limit in Device Capabilities and the slot's in
// Slot Capabilities.
func config(typ uint16, slot bool, devValue, devScale, slotValue, slotScale uint8) []byte {
	b := make([]byte, 256)
	b[0x06] = 0x10
	b[0x34] = 0x40
	b[0x40], b[0x41] = 0x01, 0x70
	b[0x70], b[0x71] = 0x10, 0x00
	caps := uint16(2) | typ<<4
	if slot {
		caps |= 1 << 8
	}
	binary.LittleEndian.PutUint16(b[0x72:], caps)
	binary.LittleEndian.PutUint32(b[0x74:], uint32(devValue)<<18|uint32(devScale&3)<<26|0x8fe2)
	binary.LittleEndian.PutUint32(b[0x84:], uint32(slotValue)<<7|uint32(slotScale&3)<<15|0x7f)
	return b
}

// TestDecodeSlotPowerFields: the encoding's corners, and the walk's
// refusals.
func TestDecodeSlotPowerFields(t *testing.T) {
	loop := config(0, false, 25, 0, 0, 0)
	loop[0x71] = 0x40 // the last capability points at the first
	loop[0x70] = 0x05
	noCaps := config(0, false, 25, 0, 0, 0)
	noCaps[0x06] = 0
	past := config(0, false, 25, 0, 0, 0)
	past[0x41] = 0xfc // a capability at 0xfc: its header fits, its fields do not
	past[0xfc] = 0x10
	lowBits := config(0, false, 25, 0, 0, 0)
	lowBits[0x34] = 0x43 // reserved low bits masked: 0x40
	for _, tc := range []struct {
		name string
		b    []byte
		want uint32 // mW
		err  error
	}{
		{"endpoint 25 W", config(0, false, 25, 0, 75, 0), 25000, nil},
		{"endpoint 8.2 W", config(0, false, 0x52, 1, 0, 0), 8200, nil},
		{"endpoint 0.255 W", config(0, false, 0xff, 3, 0, 0), 255, nil},
		{"endpoint F0h 250 W", config(0, false, 0xf0, 0, 0, 0), 250000, nil},
		{"endpoint F1h 275 W", config(0, false, 0xf1, 0, 0, 0), 275000, nil},
		{"endpoint F2h 300 W", config(0, false, 0xf2, 0, 0, 0), 300000, nil},
		{"endpoint F3h reserved", config(0, false, 0xf3, 0, 0, 0), 0, diagnose.ErrLimitReserved},
		{"endpoint F3h at 0.1x", config(0, false, 0xf3, 1, 0, 0), 24300, nil},
		{"endpoint not set", config(0, false, 0, 2, 0, 0), 0, diagnose.ErrLimitNotSet},
		{"upstream port: captured", config(5, false, 75, 0, 0, 0), 75000, nil},
		{"root port: the slot's", config(4, true, 10, 0, 75, 0), 75000, nil},
		{"downstream port: the slot's", config(6, true, 10, 0, 0xfa, 1), 25000, nil},
		{"root port without a slot", config(4, false, 10, 0, 75, 0), 0, diagnose.ErrNoSlot},
		{"RCiEP", config(9, false, 10, 0, 0, 0), 0, diagnose.ErrNoSlot},
		{"reserved pointer bits", lowBits, 25000, nil},
		{"loop", loop, 0, diagnose.ErrNoCapabilities},
		{"no list", noCaps, 0, diagnose.ErrNoCapabilities},
		{"past the end", past, 0, diagnose.ErrConfigShort},
		{"64 bytes", config(0, false, 25, 0, 0, 0)[:64], 0, diagnose.ErrConfigNeedsRoot},
		{"128 bytes: enough", config(0, false, 25, 0, 0, 0)[:128], 25000, nil},
		{"cut inside the capability", config(0, false, 25, 0, 0, 0)[:0x76], 0, diagnose.ErrConfigNeedsRoot},
		{"63 bytes", config(0, false, 25, 0, 0, 0)[:63], 0, diagnose.ErrConfigShort},
		{"nil", nil, 0, diagnose.ErrConfigShort},
		{"not PCI Express", func() []byte { b := config(0, false, 25, 0, 0, 0); b[0x70] = 0x11; return b }(), 0, diagnose.ErrNotPCIExpress},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := diagnose.DecodeSlotPower(tc.b)
			if tc.err != nil {
				require.ErrorIs(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, p.Milliwatts())
		})
	}
}

func TestFormatParseMilliwatts(t *testing.T) {
	for _, tc := range []struct {
		mw uint64
		s  string
	}{{25000, "25 W"}, {8250, "8.25 W"}, {255, "0.255 W"}, {5, "0.005 W"}, {300000, "300 W"}, {100, "0.1 W"}} {
		assert.Equal(t, tc.s, diagnose.FormatMilliwatts(tc.mw))
		mw, ok := diagnose.ParseMilliwatts(tc.s)
		assert.True(t, ok, tc.s)
		assert.Equal(t, tc.mw, mw, tc.s)
	}
	for _, bad := range []string{"", " W", "25", "25W", "-1 W", "+1 W", "1.2345 W", "1. W", ".5 W", "1.+5 W", "1.-5 W", "x W", "99999999999 W"} {
		_, ok := diagnose.ParseMilliwatts(bad)
		assert.False(t, ok, bad)
	}
}

// TestSlotPowerProperties: any bytes decode without a panic to a limit
// of at most 300 W or an error; an encoded limit decodes back to itself.
func TestSlotPowerProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := rapid.SliceOfN(rapid.Byte(), 0, 4096).Draw(t, "config")
		p, err := diagnose.DecodeSlotPower(b)
		if err == nil && (p.Milliwatts() == 0 || p.Milliwatts() > 300000) {
			t.Fatalf("%+v accepted: %d mW", p, p.Milliwatts())
		}
	})
	rapid.Check(t, func(t *rapid.T) {
		typ := rapid.SampledFrom([]uint16{0, 1, 4, 5, 6, 7, 8}).Draw(t, "type")
		value := rapid.Byte().Draw(t, "value")
		scale := rapid.Uint8Range(0, 3).Draw(t, "scale")
		port := typ == 4 || typ == 6 || typ == 8
		p, err := diagnose.DecodeSlotPower(config(typ, port, value, scale, value, scale))
		switch {
		case value == 0:
			if err == nil {
				t.Fatal("0 accepted")
			}
			return
		case scale == 0 && value > 0xf2:
			if err == nil {
				t.Fatal("reserved accepted")
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if p.Value != value || p.Scale != scale || p.Slot != port {
			t.Fatalf("round trip: %d, %d -> %+v", value, scale, p)
		}
		mw, ok := diagnose.ParseMilliwatts(p.String())
		if !ok || mw != uint64(p.Milliwatts()) {
			t.Fatalf("%q does not parse back to %d mW", p.String(), p.Milliwatts())
		}
	})
}

func FuzzDecodeSlotPower(f *testing.F) {
	f.Add(config(0, false, 25, 0, 0, 0))
	f.Add(config(4, true, 0, 0, 0xfa, 1))
	f.Add(config(0, false, 25, 0, 0, 0)[:64])
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := diagnose.DecodeSlotPower(b)
		if err != nil {
			return
		}
		if len(b) < 64 || p.Milliwatts() == 0 || p.Milliwatts() > 300000 {
			t.Fatalf("%d bytes: %+v accepted", len(b), p)
		}
		if _, ok := diagnose.ParseMilliwatts(p.String()); !ok {
			t.Fatalf("%q does not parse", p.String())
		}
	})
}
