package powerstate_test

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

func TestFabrics(t *testing.T) {
	const both = powerstate.FieldControllerType | powerstate.FieldIOCCSZ
	for _, tc := range []struct {
		name           string
		cntrltype      uint8
		ioccsz         uint32
		missing        powerstate.Fields
		fabrics, known bool
	}{
		{"fabrics I/O controller", 1, 4, 0, true, true},
		{"fabrics, in-capsule data", 1, 260, 0, true, true},
		{"fabrics, CNTRLTYPE not reported", 0, 4, 0, true, true},
		{"fabrics, CNTRLTYPE unknown", 0, 4, powerstate.FieldControllerType, true, true},
		{"discovery controller", 2, 0, 0, true, true},
		{"discovery controller, IOCCSZ unknown", 2, 0, powerstate.FieldIOCCSZ, true, true},
		{"PCIe I/O controller", 1, 0, 0, false, true},
		{"PCIe, CNTRLTYPE not reported", 0, 0, 0, false, true},
		{"PCIe, CNTRLTYPE unknown", 0, 0, powerstate.FieldControllerType, false, true},
		{"administrative controller, IOCCSZ 0", 3, 0, 0, false, false},
		{"IOCCSZ unknown", 1, 0, powerstate.FieldIOCCSZ, false, false},
		{"both unknown", 0, 0, both, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := powerstate.Controller{ControllerType: tc.cntrltype, IOCCSZ: tc.ioccsz, Missing: tc.missing}
			fabrics, known := c.Fabrics()
			assert.Equal(t, tc.fabrics, fabrics, "fabrics")
			assert.Equal(t, tc.known, known, "known")
		})
	}
}

// The zero Controller (built in code, every field known and zero) is PCIe.
func TestFabricsZero(t *testing.T) {
	var c powerstate.Controller
	fabrics, known := c.Fabrics()
	assert.False(t, fabrics)
	assert.True(t, known)
}

func TestDecodeFabricsImage(t *testing.T) {
	c, err := powerstate.DecodeIdentify(testfixture.ReadFile(t, "fabrics/nvmet-loop.bin"))
	require.NoError(t, err)
	assert.Equal(t, uint8(1), c.ControllerType)
	assert.Equal(t, uint32(4), c.IOCCSZ)
	assert.Equal(t, uint16(0), c.VendorID)
	assert.Equal(t, "Linux", c.Model)
	assert.Equal(t, uint8(0), c.APSTA)
	fabrics, known := c.Fabrics()
	assert.True(t, fabrics)
	assert.True(t, known)
	// Linux nvmet reports VID 0000h: the image is plausible all the same.
	assert.NoError(t, powerstate.CheckIdentify(testfixture.ReadFile(t, "fabrics/nvmet-loop.bin")))

	pcie, err := powerstate.DecodeIdentify(readImage(t, "samsung-990-evo-plus-1tb-2B2QKXG7.bin"))
	require.NoError(t, err)
	fabrics, known = pcie.Fabrics()
	assert.False(t, fabrics)
	assert.True(t, known)
}

// TestPropertyFabricsFieldsRoundTrip: CNTRLTYPE and IOCCSZ, and so what
// Fabrics says, survive encode-decode, at their offsets.
func TestPropertyFabricsFieldsRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := powerstate.Controller{
			Model:          "M",
			ControllerType: rapid.Uint8().Draw(t, "cntrltype"),
			IOCCSZ:         rapid.Uint32().Draw(t, "ioccsz"),
			APSTA:          rapid.Uint8().Draw(t, "apsta"),
		}
		img, err := c.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if img[111] != c.ControllerType || uint32(img[1792])|uint32(img[1793])<<8|uint32(img[1794])<<16|uint32(img[1795])<<24 != c.IOCCSZ {
			t.Fatalf("CNTRLTYPE or IOCCSZ not at bytes 111 and 1795:1792")
		}
		got, err := powerstate.DecodeIdentify(img)
		if err != nil {
			t.Fatal(err)
		}
		if got.ControllerType != c.ControllerType || got.IOCCSZ != c.IOCCSZ {
			t.Fatalf("got CNTRLTYPE %d IOCCSZ %d, want %d %d", got.ControllerType, got.IOCCSZ, c.ControllerType, c.IOCCSZ)
		}
		f1, k1 := c.Fabrics()
		f2, k2 := got.Fabrics()
		if f1 != f2 || k1 != k2 {
			t.Fatalf("Fabrics %v,%v after the round trip, %v,%v before", f2, k2, f1, k1)
		}
		// And decode-encode-decode keeps them with the rest.
		out, _ := got.MarshalBinary()
		again, err := powerstate.DecodeIdentify(out)
		if err != nil || !reflect.DeepEqual(again, got) {
			t.Fatalf("decode-encode-decode changed the controller: %v", err)
		}
	})
}
