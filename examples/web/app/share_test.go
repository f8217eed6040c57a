package main

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// sameDrive checks that d decodes to what matters of c: the fields the plan,
// the quirk lookup and the page read.
func sameDrive(t require.TestingT, c, d *powerstate.Controller) {
	require.Equal(t, c.VendorID, d.VendorID)
	require.Equal(t, c.SubsystemVendorID, d.SubsystemVendorID)
	require.Equal(t, c.APSTA, d.APSTA)
	require.Equal(t, c.NPSS, d.NPSS)
	require.Equal(t, c.Model, d.Model)
	require.Equal(t, c.Firmware, d.Firmware)
	require.Equal(t, c.ModelField, d.ModelField)
	require.Equal(t, c.FirmwareField, d.FirmwareField)
	require.Equal(t, c.Format, d.Format)
	// The link carries neither CNTRLTYPE nor IOCCSZ: they are unknown.
	require.Equal(t, c.Missing|powerstate.FieldSerial|powerstate.FieldControllerType|powerstate.FieldIOCCSZ, d.Missing)
	_, known := d.Fabrics()
	require.False(t, known)
	require.Equal(t, c.States(), d.States())
	require.Empty(t, d.Serial)
}

// Every capture of the corpus survives the link, plans the same at every
// bound the sweep distinguishes, and leaves its serial out.
func TestShareCorpus(t *testing.T) {
	root := filepath.Join("..", "..", "..", "testdata", "corpus")
	n := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(path, ".tsv") || strings.HasSuffix(path, ".md") {
			return err
		}
		b := repoFileAbs(t, path)
		c, err := capture.ParseBytes(b)
		if err != nil {
			return nil // not an identify capture
		}
		n++
		s := EncodeDrive(&c)
		if c.Serial != "" && len(c.Serial) > 3 {
			assert.NotContains(t, s, c.Serial, path)
		}
		dc, err := DecodeDrive(s)
		require.NoError(t, err, path)
		sameDrive(t, &c, &dc)
		for _, rel := range []apst.Release{{}, {Major: 5, Minor: 15}} {
			p := apst.DefaultParams(apst.Current)
			p.Release = rel
			assert.Equal(t, apst.DriveQuirks(&c, rel), apst.DriveQuirks(&dc, rel), path)
			for _, bound := range []apst.Microseconds{0, 1, 25000, 100000, apst.NoLimit} {
				p.Bound = bound
				a, errA := apst.Build(&c, p)
				b, errB := apst.Build(&dc, p)
				require.Equal(t, errA, errB)
				require.Equal(t, a.Table, b.Table, path)
				require.Equal(t, a.AssumedAPSTA, b.AssumedAPSTA, path)
			}
		}
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, n, 100, "the corpus was read")
}

func repoFileAbs(t *testing.T, path string) []byte {
	t.Helper()
	return repoFile(t, strings.TrimPrefix(path, filepath.Join("..", "..", "..")+string(filepath.Separator)))
}

// Any controller survives the link.
func TestShareRoundTripProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var c powerstate.Controller
		c.VendorID = rapid.Uint16().Draw(t, "vid")
		c.SubsystemVendorID = c.VendorID
		if rapid.Bool().Draw(t, "another ssvid") {
			c.SubsystemVendorID = rapid.Uint16().Draw(t, "ssvid")
		}
		c.APSTA = rapid.Uint8().Draw(t, "apsta")
		c.NPSS = rapid.Uint8().Draw(t, "npss")
		c.Missing = powerstate.Fields(rapid.Uint32().Draw(t, "missing")) & powerstate.FieldsAll
		c.Format = powerstate.Format(rapid.IntRange(0, int(powerstate.FormatSmartctlJSON)).Draw(t, "format"))
		c.Model = rapid.StringN(0, 40, 40).Filter(func(s string) bool { return len(s) <= 40 }).Draw(t, "model")
		c.Firmware = rapid.StringN(0, 8, 8).Filter(func(s string) bool { return len(s) <= 8 }).Draw(t, "firmware")
		switch rapid.IntRange(0, 2).Draw(t, "fields") {
		case 0: // as a text capture: padded with spaces
			copy(c.ModelField[:], padded(c.Model, 40))
			copy(c.FirmwareField[:], padded(c.Firmware, 8))
		case 1: // raw bytes, as an image holds them
			copy(c.ModelField[:], rapid.SliceOfN(rapid.Byte(), 40, 40).Draw(t, "mn"))
			copy(c.FirmwareField[:], rapid.SliceOfN(rapid.Byte(), 8, 8).Draw(t, "fr"))
		}
		for i := range c.StateCount() {
			d := &c.PowerStates[i]
			d.MaxPower = powerstate.MaxPowerOf(rapid.Uint16().Draw(t, "mp"), rapid.Bool().Draw(t, "mxps"))
			d.NonOperational = rapid.Bool().Draw(t, "nops")
			d.EntryLatency = powerstate.Microseconds(rapid.Uint32().Draw(t, "enlat"))
			d.ExitLatency = powerstate.Microseconds(rapid.Uint32().Draw(t, "exlat"))
			d.RelativeReadThroughput = uint8(rapid.IntRange(0, 31).Draw(t, "rrt"))
			d.IdlePower = powerstate.Power{Units: rapid.Uint16().Draw(t, "idlp"), Scale: powerstate.Scale(rapid.IntRange(0, 3).Draw(t, "ips"))}
			d.ActivePower = powerstate.Power{Units: rapid.Uint16().Draw(t, "actp"), Scale: powerstate.Scale(rapid.IntRange(0, 3).Draw(t, "aps"))}
			d.ActiveWorkload = powerstate.Workload(rapid.IntRange(0, 7).Draw(t, "apw"))
		}
		s := EncodeDrive(&c)
		d, err := DecodeDrive(s)
		require.NoError(t, err)
		sameDrive(t, &c, &d)
		require.Equal(t, s, EncodeDrive(&d), "the encoding is canonical")
	})
}

func TestShareRefuses(t *testing.T) {
	c, err := powerstate.DecodeIdentify(repoFile(t, evoImage))
	require.NoError(t, err)
	good := EncodeDrive(&c)
	f := strings.Split(good, ".")
	with := func(i int, v string) string {
		g := append([]string(nil), f...)
		g[i] = v
		return strings.Join(g, ".")
	}
	for _, tc := range []struct{ in, want string }{
		{"", "1 fields, want 11"},
		{with(0, "2"), `version "2"`},
		{with(1, "10000"), "vid"},
		{with(1, "1dee-"), "ssvid"},
		{with(1, "1dee-126f-1"), "ssvid"},
		{with(1, "-126f"), "vid"},
		{with(3, "ffffffff"), "unknown fields"},
		{with(4, "6"), "not an identify capture format"},
		{with(5, strings.Repeat("QUFB", 14)), "model: 42 bytes, at most 40"},
		{with(6, "QQ"), "model field: 1 bytes, want 40"},
		{with(9, "3"), "5 power states for NPSS 3, want 4"},
		{with(10, strings.Replace(f[10], "258-2-", "258-4-", 1)), "power state 0: value 2: \"4\" is not a 2-bit hex number"},
		{strings.Repeat("1", maxShared+1), "at most"},
	} {
		_, err := DecodeDrive(tc.in)
		require.ErrorIs(t, err, ErrShared, tc.in)
		assert.Contains(t, err.Error(), tc.want)
	}
}

func FuzzDecodeDrive(f *testing.F) {
	for _, path := range []string{evoImage, intelImage} {
		c, err := powerstate.DecodeIdentify(repoFile(f, path))
		require.NoError(f, err)
		f.Add(EncodeDrive(&c))
	}
	f.Add("1.0.0.0.0....0.0")
	f.Add("1.1dee-126f.1.0.0....0.0") // an HP EX920's vendors: VID 1dee, SSVID 126f
	f.Fuzz(func(t *testing.T, s string) {
		c, err := DecodeDrive(s)
		if err != nil {
			return
		}
		d, err := DecodeDrive(EncodeDrive(&c))
		require.NoError(t, err)
		sameDrive(t, &c, &d)
		_, _ = apst.Build(&c, apst.DefaultParams(apst.Current))
	})
}

// A drive whose SSVID differs from its VID (an HP EX920: 1dee and 126f,
// whose quirked PCI IDs the lookup then leaves unchecked) keeps it in the
// link; a link written before the SSVID was carried reads with the VID's.
func TestShareSSVID(t *testing.T) {
	c := powerstate.Controller{VendorID: 0x1dee, SubsystemVendorID: 0x126f, Model: "HP SSD EX920 1TB", NPSS: 0}
	s := EncodeDrive(&c)
	assert.Contains(t, s, ".1dee-126f.")
	d, err := DecodeDrive(s)
	require.NoError(t, err)
	assert.Equal(t, uint16(0x126f), d.SubsystemVendorID)
	assert.Equal(t, apst.DriveQuirks(&c, apst.Release{}).UncheckedPCI, apst.DriveQuirks(&d, apst.Release{}).UncheckedPCI)

	old, err := DecodeDrive(strings.Replace(s, ".1dee-126f.", ".1dee.", 1))
	require.NoError(t, err)
	assert.Equal(t, uint16(0x1dee), old.SubsystemVendorID)
}
