package powerstate

import (
	"bytes"
	"encoding/binary"
	"strings"
)

// IdentifySize is the size of the Identify Controller data structure in bytes.
const IdentifySize = 4096

// ModelFieldSize and FirmwareFieldSize are the lengths in bytes of the
// Identify Controller's MN (Model Number) and FR (Firmware Revision)
// fields: the arrays Controller.ModelField and Controller.FirmwareField.
const (
	ModelFieldSize    = 40
	FirmwareFieldSize = 8
)

// Byte offsets of the Identify Controller fields the model covers
// (NVMe Base Specification, Identify Controller data structure).
const (
	offVID       = 0                 // 1:0
	offSSVID     = 2                 // 3:2
	offSN        = 4                 // 23:4
	lenSN        = 20                //
	offMN        = 24                // 63:24
	lenMN        = ModelFieldSize    //
	offFR        = 64                // 71:64
	lenFR        = FirmwareFieldSize //
	offIEEE      = 73                // 75:73
	offCNTLID    = 78                // 79:78
	offVER       = 80                // 83:80
	offRTD3R     = 84                // 87:84
	offRTD3E     = 88                // 91:88
	offCNTRLTYPE = 111               //
	offOACS      = 256               // 257:256
	offNPSS      = 263               //
	offAVSCC     = 264               //
	offAPSTA     = 265               //
	offWCTEMP    = 266               // 267:266
	offCCTEMP    = 268               // 269:268
	offIOCCSZ    = 1792              // 1795:1792
	offPSD       = 2048              // PSD n at 2048 + 32*n
)

// DecodeIdentify decodes a 4096-byte Identify Controller image. An image of
// any other length returns an *ImageSizeError (errors.Is ErrImageSize). The
// returned Controller does not retain b; its Format is FormatBinary and every
// field is known (Missing is empty). It makes at most one allocation (the
// three strings share it).
func DecodeIdentify(b []byte) (Controller, error) {
	var c Controller
	err := c.UnmarshalBinary(b)
	return c, err
}

// UnmarshalBinary decodes a 4096-byte Identify Controller image into c. It
// implements encoding.BinaryUnmarshaler. On error c is left unchanged.
func (c *Controller) UnmarshalBinary(b []byte) error {
	if len(b) != IdentifySize {
		return &ImageSizeError{Got: len(b)}
	}
	b = b[:IdentifySize:IdentifySize]
	*c = Controller{
		VendorID:          binary.LittleEndian.Uint16(b[offVID:]),
		SubsystemVendorID: binary.LittleEndian.Uint16(b[offSSVID:]),
		IEEE:              uint32(b[offIEEE]) | uint32(b[offIEEE+1])<<8 | uint32(b[offIEEE+2])<<16,
		ControllerID:      binary.LittleEndian.Uint16(b[offCNTLID:]),
		Version:           Version(binary.LittleEndian.Uint32(b[offVER:])),
		RTD3Resume:        Microseconds(binary.LittleEndian.Uint32(b[offRTD3R:])),
		RTD3Entry:         Microseconds(binary.LittleEndian.Uint32(b[offRTD3E:])),
		ControllerType:    b[offCNTRLTYPE],
		OACS:              binary.LittleEndian.Uint16(b[offOACS:]),
		NPSS:              b[offNPSS],
		AVSCC:             b[offAVSCC],
		APSTA:             b[offAPSTA],
		WarningTemp:       Kelvin(binary.LittleEndian.Uint16(b[offWCTEMP:])),
		CriticalTemp:      Kelvin(binary.LittleEndian.Uint16(b[offCCTEMP:])),
		IOCCSZ:            binary.LittleEndian.Uint32(b[offIOCCSZ:]),
		Format:            FormatBinary,
	}
	c.Serial, c.Model, c.Firmware = trimFields(b[offSN:offSN+lenSN], b[offMN:offMN+lenMN], b[offFR:offFR+lenFR])
	copy(c.ModelField[:], b[offMN:offMN+lenMN])
	copy(c.FirmwareField[:], b[offFR:offFR+lenFR])
	for i := range c.PowerStates {
		off := offPSD + i*DescriptorSize
		c.PowerStates[i] = decodeDescriptor(b[off : off+DescriptorSize])
	}
	return nil
}

// trimFields returns the three string fields without the trailing spaces
// and NULs that pad them, sharing one allocation.
func trimFields(sn, mn, fr []byte) (string, string, string) {
	sn, mn, fr = bytes.TrimRight(sn, " \x00"), bytes.TrimRight(mn, " \x00"), bytes.TrimRight(fr, " \x00")
	if len(sn)+len(mn)+len(fr) == 0 {
		return "", "", ""
	}
	var sb strings.Builder
	sb.Grow(len(sn) + len(mn) + len(fr))
	sb.Write(sn)
	sb.Write(mn)
	sb.Write(fr)
	all := sb.String()
	return all[:len(sn)], all[len(sn) : len(sn)+len(mn)], all[len(sn)+len(mn):]
}

// MarshalBinary encodes c as a 4096-byte Identify Controller image. Fields the
// model does not cover are zero; string fields are space padded (and
// truncated to their width), except that MN and FR are written from
// ModelField and FirmwareField when those hold the same string (so a decoded
// image's NUL padding survives). An image has no way to say "unknown": a field
// in c.Missing is written as the zero value it holds, so a controller
// read from smartctl (which records no APSTA) encodes APSTA 0 unless the
// caller sets it first, as apstctl convert does. It implements
// encoding.BinaryMarshaler.
func (c *Controller) MarshalBinary() ([]byte, error) {
	return c.AppendBinary(make([]byte, 0, IdentifySize))
}

// AppendBinary appends the 4096-byte image of c to b. It implements
// encoding.BinaryAppender.
func (c *Controller) AppendBinary(b []byte) ([]byte, error) {
	start := len(b)
	b = append(b, make([]byte, IdentifySize)...)
	img := b[start : start+IdentifySize : start+IdentifySize]
	binary.LittleEndian.PutUint16(img[offVID:], c.VendorID)
	binary.LittleEndian.PutUint16(img[offSSVID:], c.SubsystemVendorID)
	putField(img[offSN:offSN+lenSN], c.Serial)
	putRawField(img[offMN:offMN+lenMN], c.ModelField[:], c.Model)
	putRawField(img[offFR:offFR+lenFR], c.FirmwareField[:], c.Firmware)
	img[offIEEE], img[offIEEE+1], img[offIEEE+2] = byte(c.IEEE), byte(c.IEEE>>8), byte(c.IEEE>>16)
	binary.LittleEndian.PutUint16(img[offCNTLID:], c.ControllerID)
	binary.LittleEndian.PutUint32(img[offVER:], uint32(c.Version))
	binary.LittleEndian.PutUint32(img[offRTD3R:], uint32(c.RTD3Resume))
	binary.LittleEndian.PutUint32(img[offRTD3E:], uint32(c.RTD3Entry))
	img[offCNTRLTYPE] = c.ControllerType
	binary.LittleEndian.PutUint16(img[offOACS:], c.OACS)
	img[offNPSS] = c.NPSS
	img[offAVSCC] = c.AVSCC
	img[offAPSTA] = c.APSTA
	binary.LittleEndian.PutUint16(img[offWCTEMP:], uint16(c.WarningTemp))
	binary.LittleEndian.PutUint16(img[offCCTEMP:], uint16(c.CriticalTemp))
	binary.LittleEndian.PutUint32(img[offIOCCSZ:], c.IOCCSZ)
	for i := range c.PowerStates {
		off := offPSD + i*DescriptorSize
		encodeDescriptor(img[off:off+DescriptorSize], &c.PowerStates[i])
	}
	return b, nil
}

// putField writes s into the fixed-width field dst, space padded.
func putField(dst []byte, s string) {
	n := copy(dst, s)
	for i := n; i < len(dst); i++ {
		dst[i] = ' '
	}
}

// putRawField writes raw into dst when raw holds s with its padding, and s
// space padded otherwise.
func putRawField(dst, raw []byte, s string) {
	if string(bytes.TrimRight(raw, " \x00")) == s {
		copy(dst, raw)
		return
	}
	putField(dst, s)
}
