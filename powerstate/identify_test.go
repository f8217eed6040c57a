package powerstate_test

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

func readImage(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(testfixture.Path("identify/" + name))
	require.NoError(t, err)
	return b
}

func TestDecode990EVOPlus(t *testing.T) {
	c, err := powerstate.DecodeIdentify(readImage(t, "samsung-990-evo-plus-1tb-2B2QKXG7.bin"))
	require.NoError(t, err)
	assert.Equal(t, uint16(0x144d), c.VendorID)
	assert.Equal(t, uint16(0x144d), c.SubsystemVendorID)
	assert.Equal(t, "Samsung SSD 990 EVO Plus 1TB", c.Model)
	assert.Equal(t, "2B2QKXG7", c.Firmware)
	assert.Equal(t, "SYNTHETIC", c.Serial)
	assert.Equal(t, uint32(0x002538), c.IEEE)
	assert.Equal(t, "2.0", c.Version.String())
	assert.Equal(t, uint8(4), c.NPSS)
	assert.Equal(t, uint8(1), c.APSTA)
	assert.Equal(t, 81, c.WarningTemp.Celsius())
	assert.Equal(t, 85, c.CriticalTemp.Celsius())
	assert.Equal(t, powerstate.FormatBinary, c.Format)
	assert.True(t, c.Knows(powerstate.FieldsAll))
	require.Len(t, c.States(), 5)
	// smartctl: 4 - 0.0070W 1600 43000; 3 - 0.0800W 1600 4600; 0 + 6.00W.
	ps4 := c.PowerStates[4]
	assert.True(t, ps4.NonOperational)
	assert.Equal(t, "0.0070W", ps4.MaxPower.String())
	assert.Equal(t, uint64(7000), ps4.MaxPower.MicroWatts())
	assert.Equal(t, powerstate.Microseconds(1600), ps4.EntryLatency)
	assert.Equal(t, powerstate.Microseconds(43000), ps4.ExitLatency)
	assert.Equal(t, "43ms", ps4.ExitLatency.Duration().String())
	assert.Equal(t, uint64(44600), ps4.TotalLatency())
	assert.Equal(t, "0.0800W", c.PowerStates[3].MaxPower.String())
	assert.Equal(t, "6.00W", c.PowerStates[0].MaxPower.String())
	assert.False(t, c.PowerStates[0].NonOperational)
	assert.Equal(t, uint8(4), ps4.RelativeReadLatency)
}

func TestDecodeIntel600p(t *testing.T) {
	c, err := powerstate.DecodeIdentify(readImage(t, "intel-ssdpekkw256g7-PSF109C.bin"))
	require.NoError(t, err)
	assert.Equal(t, uint16(0x8086), c.VendorID)
	assert.Equal(t, "INTEL SSDPEKKW256G7", c.Model)
	assert.Equal(t, "PSF109C", c.Firmware)
	want := []struct {
		nops        bool
		enlat, exlt powerstate.Microseconds
	}{{false, 5, 5}, {false, 30, 30}, {false, 30, 30}, {true, 10000, 300}, {true, 2000, 10000}}
	require.Len(t, c.States(), len(want))
	for i, w := range want {
		d := c.PowerStates[i]
		assert.Equal(t, w.nops, d.NonOperational, "ps%d", i)
		assert.Equal(t, w.enlat, d.EntryLatency, "ps%d", i)
		assert.Equal(t, w.exlt, d.ExitLatency, "ps%d", i)
	}
}

func TestDecodeWrongSize(t *testing.T) {
	for _, n := range []int{0, 1, 263, 4095, 4097, 8192} {
		_, err := powerstate.DecodeIdentify(make([]byte, n))
		require.ErrorIs(t, err, powerstate.ErrImageSize, "%d bytes", n)
		var se *powerstate.ImageSizeError
		require.ErrorAs(t, err, &se)
		assert.Equal(t, n, se.Got)
		assert.Contains(t, err.Error(), "powerstate: ")
		assert.Contains(t, err.Error(), "4096")
	}
}

// Edge values are kept as they are: NPSS 255, latencies of 2^32-1.
func TestDecodeEdgeValues(t *testing.T) {
	img := make([]byte, powerstate.IdentifySize)
	img[263] = 255
	img[265] = 0xff
	for i := 0; i < 32; i++ {
		off := 2048 + 32*i
		copy(img[off+4:off+12], []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
		img[off+3] = 0xff
	}
	c, err := powerstate.DecodeIdentify(img)
	require.NoError(t, err)
	assert.Equal(t, uint8(255), c.NPSS)
	assert.False(t, c.NPSSValid())
	assert.Len(t, c.States(), 32, "the valid list stops at state 31")
	assert.Equal(t, powerstate.Microseconds(1<<32-1), c.PowerStates[31].ExitLatency)
	assert.Equal(t, uint64(2*(1<<32-1)), c.PowerStates[31].TotalLatency())
	again, err := c.MarshalBinary()
	require.NoError(t, err)
	c2, err := powerstate.DecodeIdentify(again)
	require.NoError(t, err)
	assert.Equal(t, c, c2)
}

// coveredBytes marks the bytes of the image the model covers.
func coveredBytes() []bool {
	cov := make([]bool, powerstate.IdentifySize)
	mark := func(from, to int) {
		for i := from; i <= to; i++ {
			cov[i] = true
		}
	}
	mark(0, 3)       // VID, SSVID
	cov[111] = true  // CNTRLTYPE
	mark(1792, 1795) // IOCCSZ
	mark(73, 91)     // IEEE, CMIC.. (76,77 are not covered; unmarked below)
	cov[76], cov[77] = false, false
	mark(256, 257) // OACS
	mark(263, 269) // NPSS, AVSCC, APSTA, WCTEMP, CCTEMP
	for i := 0; i < 32; i++ {
		off := 2048 + 32*i
		mark(off, off+1)
		mark(off+4, off+17)
		mark(off+20, off+21)
	}
	return cov
}

// Re-encoding a decoded image gives back the same bytes for every field the
// model covers, and decode-encode-decode is the identity.
func TestRoundTripFixtures(t *testing.T) {
	paths, err := filepath.Glob(testfixture.Path("corpus/binary/synthetic/*.bin"))
	require.NoError(t, err)
	paths = append(paths, testfixture.Path(testfixture.Samsung990EVOPlus), testfixture.Path(testfixture.IntelSSDPEKKW256G7))
	require.Greater(t, len(paths), 100)
	cov := coveredBytes()
	for _, p := range paths {
		img, err := os.ReadFile(p)
		require.NoError(t, err)
		c, err := powerstate.DecodeIdentify(img)
		require.NoError(t, err, p)
		out, err := c.MarshalBinary()
		require.NoError(t, err)
		require.Len(t, out, powerstate.IdentifySize)
		for i := range img {
			if cov[i] && img[i] != out[i] {
				t.Fatalf("%s: byte %d is %#x after re-encoding, want %#x", p, i, out[i], img[i])
			}
		}
		// Space-padded strings come back byte for byte.
		assert.Equal(t, img[4:72], out[4:72], p)
		c2, err := powerstate.DecodeIdentify(out)
		require.NoError(t, err)
		assert.Equal(t, c, c2, p)
	}
}

func TestPropertyDecodeEncodeDecode(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		img := rapid.SliceOfN(rapid.Byte(), powerstate.IdentifySize, powerstate.IdentifySize).Draw(t, "image")
		c, err := powerstate.DecodeIdentify(img)
		if err != nil {
			t.Fatal(err)
		}
		out, err := c.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		c2, err := powerstate.DecodeIdentify(out)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(c, c2) {
			t.Fatalf("decode-encode-decode changed the controller")
		}
		out2, _ := c2.MarshalBinary()
		if !bytes.Equal(out, out2) {
			t.Fatalf("encoding is not stable")
		}
	})
}

func TestAppendBinary(t *testing.T) {
	c, err := powerstate.DecodeIdentify(readImage(t, "samsung-990-evo-plus-1tb-2B2QKXG7.bin"))
	require.NoError(t, err)
	prefix := []byte("prefix")
	out, err := c.AppendBinary(prefix)
	require.NoError(t, err)
	require.Len(t, out, len(prefix)+powerstate.IdentifySize)
	assert.Equal(t, "prefix", string(out[:6]))
	c2, err := powerstate.DecodeIdentify(out[6:])
	require.NoError(t, err)
	assert.Equal(t, c, c2)
}

func BenchmarkDecodeIdentify(b *testing.B) {
	img := readImage(b, "samsung-990-evo-plus-1tb-2B2QKXG7.bin")
	b.ReportAllocs()
	b.SetBytes(int64(len(img)))
	for b.Loop() {
		if _, err := powerstate.DecodeIdentify(img); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzDecodeIdentify decodes arbitrary bytes: wrong sizes are errors, and a
// decoded image re-encodes to an image that decodes to the same controller.
func FuzzDecodeIdentify(f *testing.F) {
	paths, _ := filepath.Glob(testfixture.Path("identify/*.bin"))
	for _, p := range paths {
		img, err := os.ReadFile(p)
		if err == nil {
			f.Add(img)
		}
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, img []byte) {
		c, err := powerstate.DecodeIdentify(img)
		if len(img) != powerstate.IdentifySize {
			if err == nil {
				t.Fatalf("%d bytes accepted", len(img))
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		out, err := c.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		c2, err := powerstate.DecodeIdentify(out)
		if err != nil || !reflect.DeepEqual(c2, c) {
			t.Fatalf("re-decode differs: %v", err)
		}
		_ = c.States()
	})
}
