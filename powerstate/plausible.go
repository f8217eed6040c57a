package powerstate

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strconv"
)

// NotIdentifyError reports 4096 bytes (or another file) that are not an
// Identify Controller image: what the bytes look like instead, and the
// first check of CheckIdentify that failed. errors.Is(err, ErrNotIdentify)
// is true for it.
//
// Controller holds what a 4096-byte input decodes to anyway, for a caller
// that plans it on the user's word (apstctl --force); it is the zero value
// when the input is not 4096 bytes.
type NotIdentifyError struct {
	// Kind names the class of input, stable for a program to count by:
	// "all-zero", "namespace-image", "other-file-kind", "random-bytes" or
	// "impossible-field".
	Kind string
	// Looks says what the bytes look like: "all zero bytes", "an Identify
	// Namespace image (nvme id-ns -b)", "a PDF document", "random bytes or
	// another binary file", or "an Identify Controller image with an
	// impossible field".
	Looks string
	// Reason is the check that failed, with its offset and value.
	Reason string
	// Controller is the 4096-byte input decoded without the checks.
	Controller Controller
}

// Error says what the bytes look like and why.
func (e *NotIdentifyError) Error() string {
	return "powerstate: not an identify controller image: it looks like " + e.Looks + " (" + e.Reason + ")"
}

// Is makes errors.Is(err, ErrNotIdentify) true.
func (e *NotIdentifyError) Is(target error) bool { return target == ErrNotIdentify }

// CheckIdentify reports whether the 4096-byte image b is plausibly an
// Identify Controller data structure, as a drive returns it. A plausible
// image is not all zero, not another kind of file (by its magic bytes), not
// an Identify Namespace image, and has a PCI vendor ID (neither 0000h nor
// FFFFh, except that an NVMe over Fabrics I/O controller, IOCCSZ at least
// 4, may report VID 0000h, as Linux nvmet targets do); a model number (MN)
// and firmware revision (FR) of printable ASCII padded with spaces or
// NULs, neither empty; a serial number (SN) of printable ASCII (it may be
// blank); and NPSS at most 31, as the NVMe Base Specification allows (32
// power state descriptors). It returns nil or a *NotIdentifyError; input
// of another size returns a *NotIdentifyError when its magic bytes name
// another kind of file (a PDF, an archive), an *ImageSizeError otherwise.
//
// capture.ParseBytes runs it on every binary input and hex dump;
// DecodeIdentify and UnmarshalBinary do not (they decode whatever they are
// given).
func CheckIdentify(b []byte) error {
	if looks, reason := sniffFile(b); looks != "" {
		return &NotIdentifyError{Kind: "other-file-kind", Looks: looks, Reason: reason}
	}
	if len(b) != IdentifySize {
		return &ImageSizeError{Got: len(b)}
	}
	if isZero(b) {
		return &NotIdentifyError{Kind: "all-zero", Looks: "all zero bytes", Reason: "every one of the 4096 bytes is 00h: a blank file, or a device that returned nothing"}
	}
	if reason, ok := looksLikeNamespace(b); ok {
		return &NotIdentifyError{Kind: "namespace-image", Looks: "an Identify Namespace image (nvme id-ns -b), not an Identify Controller image (nvme id-ctrl -b)", Reason: reason}
	}
	if reason := implausibleField(b); reason != "" {
		kind, looks := "impossible-field", "an Identify Controller image with an impossible field"
		if !printableShare(b[offSN : offFR+lenFR]) {
			kind, looks = "random-bytes", "random bytes or another binary file"
		}
		return &NotIdentifyError{Kind: kind, Looks: looks, Reason: reason}
	}
	return nil
}

// fileMagic are the first bytes of file kinds a user may take for a
// capture, with what they are.
var fileMagic = []struct {
	magic, kind string
}{
	{"%PDF-", "a PDF document"},
	{"\x89PNG\r\n\x1a\n", "a PNG image"},
	{"\xff\xd8\xff", "a JPEG image"},
	{"GIF8", "a GIF image"},
	{"\x1f\x8b", "gzip-compressed data (decompress it first)"},
	{"\xfd7zXZ\x00", "xz-compressed data (decompress it first)"},
	{"\x28\xb5\x2f\xfd", "zstd-compressed data (decompress it first)"},
	{"BZh", "bzip2-compressed data (decompress it first)"},
	{"PK\x03\x04", "a ZIP archive (extract the capture first)"},
	{"7z\xbc\xaf\x27\x1c", "a 7-Zip archive (extract the capture first)"},
	{"\x7fELF", "an ELF executable"},
	{"MZ", "a Windows executable"},
	{"SQLite format 3\x00", "an SQLite database"},
}

// sniffFile names the file kind b's magic bytes say it is, or "".
func sniffFile(b []byte) (kind, reason string) {
	for _, m := range fileMagic {
		if bytes.HasPrefix(b, []byte(m.magic)) {
			return m.kind, fmt.Sprintf("it starts with the bytes % X", m.magic)
		}
	}
	if len(b) >= 262 && string(b[257:262]) == "ustar" {
		return "a tar archive (extract the capture first)", `"ustar" at offset 257`
	}
	return "", ""
}

// isZero reports whether every byte of b is 0.
func isZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// looksLikeNamespace reports whether b has the shape of an Identify
// Namespace data structure (NVMe Base Specification, Identify Namespace):
// NSZE (bytes 7:0) at least NCAP (15:8) at least NUSE (23:16), NSZE not 0,
// NLBAF (byte 25) at most 63, FLBAS (byte 26) naming a format within
// NLBAF, and LBA format 0 (bytes 131:128) with an LBA data size (LBADS,
// bits 23:16) of 512 B to 64 KiB. In an Identify Controller image those
// bytes are the VID, SSVID and serial number, whose ASCII never fits.
func looksLikeNamespace(b []byte) (string, bool) {
	nsze := binary.LittleEndian.Uint64(b[0:])
	ncap := binary.LittleEndian.Uint64(b[8:])
	nuse := binary.LittleEndian.Uint64(b[16:])
	nlbaf, flbas := b[25], b[26]
	lbads := b[130]
	if nsze == 0 || ncap > nsze || nuse > ncap || nlbaf > 63 || flbas&0x0f > nlbaf || lbads < 9 || lbads > 16 {
		return "", false
	}
	return "NSZE " + strconv.FormatUint(nsze, 10) + " blocks, NCAP " + strconv.FormatUint(ncap, 10) +
		", LBA format 0 of " + strconv.Itoa(1<<lbads) + "-byte blocks", true
}

// implausibleField returns the first field of the Identify Controller
// image b that no drive returns, or "".
func implausibleField(b []byte) string {
	switch vid := binary.LittleEndian.Uint16(b[offVID:]); {
	case vid == 0xffff,
		vid == 0x0000 && binary.LittleEndian.Uint32(b[offIOCCSZ:]) < 4:
		// A fabrics target needs no PCI vendor ID: Linux nvmet
		// reports 0000h, with an IOCCSZ of at least 4.
		return fmt.Sprintf("VID %04Xh at offset 0 is not a PCI vendor ID", vid)
	}
	for _, f := range []struct {
		name     string
		off, len int
		empty    bool
	}{
		{"model number (MN)", offMN, lenMN, false},
		{"firmware revision (FR)", offFR, lenFR, false},
		{"serial number (SN)", offSN, lenSN, true},
	} {
		v := bytes.TrimRight(b[f.off:f.off+f.len], " \x00")
		if len(v) == 0 && !f.empty {
			return fmt.Sprintf("the %s at offset %d is blank", f.name, f.off)
		}
		for i, c := range v {
			if c < 0x20 || c > 0x7e {
				return fmt.Sprintf("the %s holds byte %02Xh at offset %d, not printable ASCII", f.name, c, f.off+i)
			}
		}
	}
	if npss := b[offNPSS]; npss > 31 {
		return fmt.Sprintf("NPSS %d at offset %d: the specification allows at most 31 (32 power states)", npss, offNPSS)
	}
	return ""
}

// printableShare reports whether at least three quarters of b are
// printable ASCII, spaces or NULs, as the string fields of any image are;
// random bytes are about two fifths printable.
func printableShare(b []byte) bool {
	n := 0
	for _, c := range b {
		if c == 0 || c >= 0x20 && c <= 0x7e {
			n++
		}
	}
	return 4*n >= 3*len(b)
}
