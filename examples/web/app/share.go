package main

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// The shared drive: what the page puts in the URL fragment so that a link
// gives the same answer without the capture. It carries what the plan and
// the quirk lookup read (VID and SSVID, model and firmware as the fields
// hold them, NPSS, APSTA, the power state descriptors), where the data came from and
// what the capture did not record, and never the serial number or any
// other identifier of the unit.
//
// The form is "1." followed by dot-separated fields:
//
//	vid.apsta.missing.format.model.modelfield.firmware.firmwarefield.npss.states
//
// numbers in lower-case hex (format and npss in decimal; vid is "vid-ssvid"
// when the SSVID differs from the VID, which the quirk lookup reads then,
// and a link without it, as links before it, has the SSVID the VID's),
// strings in
// unpadded base64url, a field "" when it is the string padded with spaces
// (what a text capture implies) and "0" when it is all zero, and the
// states separated by "~", each MP-scale-NOPS-ENLAT-EXLAT-RRT-RRL-RWT-RWL-
// IDLP-IPS-ACTP-APS-APW in hex. Every character is one a URL fragment
// holds as is.

const (
	shareVersion = "1"
	lenMN, lenFR = 40, 8
	// maxShared bounds the length of a shared drive DecodeDrive reads (32
	// states of at most 14 fields of 8 hex digits, plus the strings).
	maxShared = 8192
)

var b64 = base64.RawURLEncoding

// notShared are the fields the link does not carry, which DecodeDrive
// records as missing: the serial, and CNTRLTYPE and IOCCSZ (whether the
// drive is a fabrics controller), left out of "missing" too, so that the
// link of a drive is the same whatever its capture carried of them.
const notShared = powerstate.FieldSerial | powerstate.FieldControllerType | powerstate.FieldIOCCSZ

// EncodeDrive returns the shareable form of c: its power state table and
// identity as the quirk tables read it, without the serial.
func EncodeDrive(c *powerstate.Controller) string {
	f := []string{
		shareVersion,
		encodeVendors(c),
		strconv.FormatUint(uint64(c.APSTA), 16),
		strconv.FormatUint(uint64(c.Missing&^notShared), 16),
		strconv.Itoa(int(c.Format)),
		b64.EncodeToString([]byte(c.Model)),
		encodeField(c.ModelField[:], c.Model),
		b64.EncodeToString([]byte(c.Firmware)),
		encodeField(c.FirmwareField[:], c.Firmware),
		strconv.Itoa(int(c.NPSS)),
	}
	states := make([]string, c.StateCount())
	for i, d := range c.States() {
		v := []uint64{
			uint64(d.MaxPower.Units), uint64(d.MaxPower.Scale), b2u(d.NonOperational),
			uint64(d.EntryLatency), uint64(d.ExitLatency),
			uint64(d.RelativeReadThroughput), uint64(d.RelativeReadLatency),
			uint64(d.RelativeWriteThroughput), uint64(d.RelativeWriteLatency),
			uint64(d.IdlePower.Units), uint64(d.IdlePower.Scale),
			uint64(d.ActivePower.Units), uint64(d.ActivePower.Scale), uint64(d.ActiveWorkload),
		}
		s := make([]string, len(v))
		for j, x := range v {
			s[j] = strconv.FormatUint(x, 16)
		}
		states[i] = strings.Join(s, "-")
	}
	f = append(f, strings.Join(states, "~"))
	return strings.Join(f, ".")
}

// encodeVendors is the vid field: the VID, and "-" and the SSVID when
// that differs.
func encodeVendors(c *powerstate.Controller) string {
	v := strconv.FormatUint(uint64(c.VendorID), 16)
	if c.SubsystemVendorID != c.VendorID {
		v += "-" + strconv.FormatUint(uint64(c.SubsystemVendorID), 16)
	}
	return v
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// encodeField is "" for the trimmed string padded with spaces, "0" for an
// all-zero field, else the raw bytes.
func encodeField(field []byte, trimmed string) string {
	if string(field) == padded(trimmed, len(field)) {
		return ""
	}
	zero := true
	for _, b := range field {
		zero = zero && b == 0
	}
	if zero {
		return "0"
	}
	return b64.EncodeToString(field)
}

func padded(s string, n int) string {
	if len(s) >= n {
		return s[:n]
	}
	return s + strings.Repeat(" ", n-len(s))
}

// ErrShared is the error of a shared drive that does not decode.
var ErrShared = errors.New("shared link: the drive in the link does not decode")

// DecodeDrive reads the shareable form EncodeDrive writes. The result
// records the serial, CNTRLTYPE and IOCCSZ as missing.
func DecodeDrive(s string) (powerstate.Controller, error) {
	var c powerstate.Controller
	bad := func(what string, err error) (powerstate.Controller, error) {
		if err != nil {
			return powerstate.Controller{}, fmt.Errorf("%w: %s: %v", ErrShared, what, err)
		}
		return powerstate.Controller{}, fmt.Errorf("%w: %s", ErrShared, what)
	}
	if len(s) > maxShared {
		return bad(fmt.Sprintf("%d characters, at most %d", len(s), maxShared), nil)
	}
	f := strings.Split(s, ".")
	if len(f) != 11 {
		return bad(fmt.Sprintf("%d fields, want 11", len(f)), nil)
	}
	if f[0] != shareVersion {
		return bad(fmt.Sprintf("version %q, want %q", f[0], shareVersion), nil)
	}
	num := func(i int, name string, base, bits int) (uint64, error) {
		v, err := strconv.ParseUint(f[i], base, bits)
		if err != nil {
			return 0, fmt.Errorf("%w: %s: %q is not a %d-bit number", ErrShared, name, f[i], bits)
		}
		return v, nil
	}
	var err error
	var v uint64
	vid, ssvid, other := strings.Cut(f[1], "-")
	f[1] = vid
	if v, err = num(1, "vid", 16, 16); err != nil {
		return c, err
	}
	c.VendorID, c.SubsystemVendorID = uint16(v), uint16(v)
	if other {
		f[1] = ssvid
		if v, err = num(1, "ssvid", 16, 16); err != nil {
			return c, err
		}
		c.SubsystemVendorID = uint16(v)
	}
	if v, err = num(2, "apsta", 16, 8); err != nil {
		return c, err
	}
	c.APSTA = uint8(v)
	if v, err = num(3, "missing", 16, 32); err != nil {
		return c, err
	}
	if powerstate.Fields(v)&^powerstate.FieldsAll != 0 {
		return bad(fmt.Sprintf("missing: unknown fields %#x", v), nil)
	}
	// Whether the drive is a fabrics controller is unknown, not PCIe.
	c.Missing = powerstate.Fields(v) | notShared
	if v, err = num(4, "format", 10, 8); err != nil {
		return c, err
	}
	if v > uint64(powerstate.FormatSmartctlJSON) {
		return bad(fmt.Sprintf("format %d is not an identify capture format", v), nil)
	}
	c.Format = powerstate.Format(v)
	if c.Model, err = decodeString(f[5], lenMN); err != nil {
		return bad("model", err)
	}
	if err := decodeField(c.ModelField[:], f[6], c.Model); err != nil {
		return bad("model field", err)
	}
	if c.Firmware, err = decodeString(f[7], lenFR); err != nil {
		return bad("firmware", err)
	}
	if err := decodeField(c.FirmwareField[:], f[8], c.Firmware); err != nil {
		return bad("firmware field", err)
	}
	if v, err = num(9, "npss", 10, 8); err != nil {
		return c, err
	}
	c.NPSS = uint8(v)
	states := strings.Split(f[10], "~")
	if len(states) != c.StateCount() {
		return bad(fmt.Sprintf("%d power states for NPSS %d, want %d", len(states), c.NPSS, c.StateCount()), nil)
	}
	bits := [14]int{16, 2, 1, 32, 32, 5, 5, 5, 5, 16, 2, 16, 2, 3}
	for i, st := range states {
		parts := strings.Split(st, "-")
		if len(parts) != len(bits) {
			return bad(fmt.Sprintf("power state %d: %d values, want %d", i, len(parts), len(bits)), nil)
		}
		var x [14]uint64
		for j, p := range parts {
			if x[j], err = strconv.ParseUint(p, 16, bits[j]); err != nil {
				return bad(fmt.Sprintf("power state %d: value %d: %q is not a %d-bit hex number", i, j+1, p, bits[j]), nil)
			}
		}
		c.PowerStates[i] = powerstate.Descriptor{
			MaxPower:                powerstate.Power{Units: uint16(x[0]), Scale: powerstate.Scale(x[1])},
			NonOperational:          x[2] == 1,
			EntryLatency:            powerstate.Microseconds(x[3]),
			ExitLatency:             powerstate.Microseconds(x[4]),
			RelativeReadThroughput:  uint8(x[5]),
			RelativeReadLatency:     uint8(x[6]),
			RelativeWriteThroughput: uint8(x[7]),
			RelativeWriteLatency:    uint8(x[8]),
			IdlePower:               powerstate.Power{Units: uint16(x[9]), Scale: powerstate.Scale(x[10])},
			ActivePower:             powerstate.Power{Units: uint16(x[11]), Scale: powerstate.Scale(x[12])},
			ActiveWorkload:          powerstate.Workload(x[13]),
		}
	}
	return c, nil
}

func decodeString(s string, max int) (string, error) {
	b, err := b64.DecodeString(s)
	if err != nil {
		return "", errors.New("not base64url")
	}
	if len(b) > max {
		return "", fmt.Errorf("%d bytes, at most %d", len(b), max)
	}
	return string(b), nil
}

func decodeField(dst []byte, s, trimmed string) error {
	switch s {
	case "":
		copy(dst, padded(trimmed, len(dst)))
	case "0":
	default:
		b, err := b64.DecodeString(s)
		if err != nil {
			return errors.New("not base64url")
		}
		if len(b) != len(dst) {
			return fmt.Errorf("%d bytes, want %d", len(b), len(dst))
		}
		copy(dst, b)
	}
	return nil
}
