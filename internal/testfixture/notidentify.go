package testfixture

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// NotIdentify is an input that is not an Identify Controller image, with
// what CheckIdentify (and so capture.ParseBytes) must say it looks like
// and the Kind it must give.
type NotIdentify struct {
	Bytes []byte
	Looks string
	Kind  string
}

// NotIdentifyImages returns the inputs that are not an Identify Controller
// image (4096 bytes, or a larger file) by name: all zero, random, a PDF, an
// Identify Namespace image, an image with NPSS 93, one without a model, one
// with VID 0000h (and IOCCSZ 0, so no fabrics target's).
func NotIdentifyImages(tb testing.TB) map[string]NotIdentify {
	const size = 4096 // powerstate.IdentifySize
	random := make([]byte, size)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	pdf := append([]byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n"), make([]byte, size)...)[:size]
	badNPSS := ReadFile(tb, Samsung990EVOPlus)
	badNPSS[263] = 93
	noModel := ReadFile(tb, Samsung990EVOPlus)
	copy(noModel[24:64], make([]byte, 40))
	noVID := ReadFile(tb, Samsung990EVOPlus) // VID 0000h and IOCCSZ 0: no fabrics target
	noVID[0], noVID[1] = 0, 0
	return map[string]NotIdentify{
		"zero":      {make([]byte, size), "all zero bytes", "all-zero"},
		"random":    {random, "random bytes or another binary file", "random-bytes"},
		"pdf":       {pdf, "a PDF document", "other-file-kind"},
		"pdf-large": {append([]byte("%PDF-1.4\n\x00"), make([]byte, 9000)...), "a PDF document", "other-file-kind"},
		"namespace": {namespaceImage(), "an Identify Namespace image (nvme id-ns -b)", "namespace-image"},
		"npss-93":   {badNPSS, "an Identify Controller image with an impossible field", "impossible-field"},
		"no-model":  {noModel, "an Identify Controller image with an impossible field", "impossible-field"},
		"vid-0000":  {noVID, "an Identify Controller image with an impossible field", "impossible-field"},
	}
}

// namespaceImage is an Identify Namespace data structure as "nvme id-ns -b"
// writes it for a 1 TB namespace of 512-byte blocks (NVMe Base
// Specification, Identify Namespace: NSZE, NCAP, NUSE at bytes 0, 8 and 16,
// NLBAF at 25, FLBAS at 26, LBA formats from byte 128, LBADS in bits 23:16).
func namespaceImage() []byte {
	b := make([]byte, 4096)
	binary.LittleEndian.PutUint64(b[0:], 1953525168)
	binary.LittleEndian.PutUint64(b[8:], 1953525168)
	binary.LittleEndian.PutUint64(b[16:], 412342112)
	b[25] = 1                                      // NLBAF: two formats
	binary.LittleEndian.PutUint32(b[128:], 9<<16)  // 512 B, relative performance best
	binary.LittleEndian.PutUint32(b[132:], 12<<16) // 4 KiB
	return b
}
