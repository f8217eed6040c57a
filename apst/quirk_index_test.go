package apst

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// lookupControllerLinear is lookupController as it was before the index:
// every table walked from end to end, the fields trimmed a byte at a time
// (the reference the index must give the same answers as).
func lookupControllerLinear(l *QuirkLookup, c *powerstate.Controller, r Release) Quirks {
	*l = QuirkLookup{rule: -1, vendor: c.VendorID, UncheckedDMI: true}
	t, _ := r.tables()
	l.Tables = t
	if r.IsZero() || t.mainline().Compare(NewestRelease().mainline()) > 0 {
		l.Tables = NewestRelease()
	} else if r.BaseUnknown {
		l.Tables = r // the series' newest stable update: said by the note
	}
	l.ReleaseUnknown = r.IsZero()

	model, modelRaw := trimmedFieldLinear(c.ModelField[:], c.Model)
	_, fwRaw := trimmedFieldLinear(c.FirmwareField[:], c.Firmware)
	if !modelRaw && c.Model != "" {
		l.padded |= 1
	}
	if !fwRaw && c.Firmware != "" {
		l.padded |= 2
	}
	l.FieldsPadded = l.padded != 0

	if c.PCIDeviceID != 0 {
		l.PCI = PCIID{Vendor: c.PCIVendor(), Device: c.PCIDeviceID}
	} else if i := inferIndex(c.VendorID, model); i >= 0 {
		l.PCI, l.Inferred, l.rule = pciInferences[i].id, true, int8(i)
	}
	var q Quirks
	for i := range quirkHistory {
		e := &quirkHistory[i]
		switch e.Table {
		case tablePCI:
			if !l.PCI.IsZero() && e.Device == l.PCI && e.In(t) {
				q |= e.Quirks
			}
		case tableCore:
			if e.VendorID == c.VendorID && e.In(t) &&
				coreFieldMatches(c.ModelField[:], modelRaw, c.Model, e.Model) &&
				coreFieldMatches(c.FirmwareField[:], fwRaw, c.Firmware, e.Firmware) {
				q |= e.Quirks
			}
		}
	}
	if l.PCI.IsZero() {
		n := uncheckedInto(&l.unchecked, 0, c.VendorID, model, t, false)
		if sv := c.SubsystemVendorID; sv != 0 && sv != c.VendorID {
			n = uncheckedInto(&l.unchecked, n, sv, model, t, false)
		}
		l.nUnchecked = uint8(n)
	}
	l.Applied = q
	return q
}

// trimmedFieldLinear is trimmedField a byte at a time.
func trimmedFieldLinear(field []byte, trimmed string) (string, bool) {
	n := len(field)
	for n > 0 && (field[n-1] == ' ' || field[n-1] == 0) {
		n--
	}
	for _, b := range field {
		if b != 0 {
			if trimmed == string(field[:n]) {
				return trimmed, true
			}
			return string(field[:n]), true
		}
	}
	return trimmed, false
}

// The indexed lookup gives what the tables walked end to end give, for
// every release (unknown, before APST, each one an entry changed in, the
// stable updates around its backports, newer than the newest), every VID
// and PCI ID of the tables (and others, the PCI vendor other than the VID
// too), models and firmware from the rules' own prefixes, raw or trimmed
// fields.
func TestPropertyQuirkIndexIsLinear(t *testing.T) {
	var releases []Release
	var vendors []uint16
	var pcis []PCIID
	var models, firmware []string
	releases = append(releases, Release{}, NewestRelease(), rel(4, 10, 0), rel(99, 0, 0), Release{Major: 6, Minor: 6, BaseUnknown: true})
	for _, e := range quirkHistory {
		releases = append(releases, e.Added, e.Removed)
		for _, b := range append(append([]Release{}, e.Backports...), e.Dropped...) {
			releases = append(releases, b, Release{Major: b.Major, Minor: b.Minor, Patch: b.Patch - 1}, Release{Major: b.Major, Minor: b.Minor, Patch: b.Patch + 1})
		}
		vendors = append(vendors, e.VendorID, e.Device.Vendor)
		pcis = append(pcis, e.Device)
		models = append(models, e.Model)
		firmware = append(firmware, e.Firmware)
	}
	for _, p := range pciInferences {
		vendors = append(vendors, p.vendor)
		pcis = append(pcis, p.id)
		for _, s := range append([]string{""}, p.suffixes...) {
			models = append(models, p.prefix+"512"+p.contains+s)
		}
	}
	for _, x := range pciExclusions {
		models = append(models, x.prefix+"1T"+x.contains+"X", "WD Blue SN570 1TB")
	}
	models = append(models, nearModels()...)
	vendors = append(vendors, 0x1234)
	pcis = append(pcis, PCIID{0x1234, 0x5678}, PCIID{})
	rapid.Check(t, func(t *rapid.T) {
		var c powerstate.Controller
		c.VendorID = rapid.SampledFrom(vendors).Draw(t, "vid")
		if rapid.Bool().Draw(t, "another ssvid") {
			// A controller maker's SSVID under a brand's VID (HP EX920:
			// 1dee under 126f): its quirked IDs go unchecked too.
			c.SubsystemVendorID = rapid.SampledFrom(vendors).Draw(t, "ssvid")
		} else {
			c.SubsystemVendorID = c.VendorID
		}
		c.Model = rapid.SampledFrom(models).Draw(t, "model")
		c.Firmware = rapid.SampledFrom(firmware).Draw(t, "firmware")
		if rapid.Bool().Draw(t, "raw fields") {
			pad := rapid.SampledFrom([]byte{' ', 0}).Draw(t, "pad")
			for i := range c.ModelField {
				c.ModelField[i] = pad
			}
			for i := range c.FirmwareField {
				c.FirmwareField[i] = pad
			}
			copy(c.ModelField[:], c.Model)
			copy(c.FirmwareField[:], c.Firmware)
			// A display string that is not the field's text (a
			// Controller built in code): the field decides.
			switch rapid.IntRange(0, 5).Draw(t, "display") {
			case 1:
				c.Model += " "
			case 2:
				c.Model = "X" + c.Model
			case 3:
				if c.Model != "" {
					c.Model = c.Model[:len(c.Model)-1]
				}
			case 4:
				c.Firmware += "\x00"
			}
		}
		pci := rapid.SampledFrom(pcis).Draw(t, "pci")
		c.PCIDeviceID = pci.Device
		if rapid.Bool().Draw(t, "pci vendor") {
			c.PCIVendorID = pci.Vendor
		}
		r := rapid.SampledFrom(releases).Draw(t, "release")
		var got, want QuirkLookup
		qGot := lookupController(&got, &c, r)
		qWant := lookupControllerLinear(&want, &c, r)
		require.Equal(t, qWant, qGot)
		require.Equal(t, want, got)
	})
}

// Every row of the tables is in the index once, under its vendor.
func TestQuirkIndexRows(t *testing.T) {
	seen := map[uint8]int{}
	infer := map[uint8]int{}
	for k, v := range quirkIdx.vendors {
		if k > 0 {
			require.Less(t, quirkIdx.vendors[k-1].vendor, v.vendor)
		}
		for _, i := range v.core {
			require.Equal(t, tableCore, quirkHistory[i].Table)
			require.Equal(t, v.vendor, quirkHistory[i].VendorID)
			seen[i]++
		}
		for _, i := range v.pci {
			require.NotEqual(t, tableCore, quirkHistory[i].Table)
			require.Equal(t, v.vendor, quirkHistory[i].Device.Vendor)
			seen[i]++
		}
		for _, i := range v.infer {
			require.Equal(t, v.vendor, pciInferences[i].vendor)
			infer[i]++
		}
	}
	for i, e := range quirkHistory {
		if e.Table != tableCore && e.Device.IsZero() {
			require.Zero(t, seen[uint8(i)], "a DMI rule of any device is not indexed by vendor")
			continue
		}
		require.Equal(t, 1, seen[uint8(i)], "entry %d", i)
		require.Equal(t, e.In(NewestRelease()), quirkIdx.inNewest[i])
	}
	for i := range pciInferences {
		require.Equal(t, 1, infer[uint8(i)], "inference %d", i)
	}
}

// vendor finds every vendor of the index and no other.
func TestQuirkIndexVendor(t *testing.T) {
	for v := range 1 << 16 {
		q := quirkIdx.vendor(uint16(v))
		k, found := slices.BinarySearchFunc(quirkIdx.vendors, uint16(v), func(q vendorQuirks, v uint16) int { return int(q.vendor) - int(v) })
		if !found {
			require.Nil(t, q, "vendor %#x", v)
			continue
		}
		require.Same(t, &quirkIdx.vendors[k], q)
	}
}

// nearModels returns models next to the rules' prefixes and patterns,
// where a comparison of the first 16 bytes and of the whole rule differ:
// each prefix alone, one byte short, followed by spaces or another byte,
// without the rule's contains or suffix, and the core_quirks[] models with
// a space or a byte more.
func nearModels() []string {
	var out []string
	near := func(p string) {
		if p == "" {
			return
		}
		out = append(out, p, p[:len(p)-1], p+" ", p+"  X", p+"X", p[:len(p)-1]+"~")
	}
	for _, p := range pciInferences {
		near(p.prefix)
		near(p.prefix + p.contains)
		for _, s := range p.suffixes {
			out = append(out, p.prefix+"1"+s+"X", p.prefix+s[:len(s)-1])
		}
	}
	for _, x := range pciExclusions {
		near(x.prefix)
		near(x.prefix + "1T" + x.contains)
	}
	for _, e := range quirkHistory {
		near(e.Model)
	}
	return out
}

// The indexed lookup gives what the tables walked end to end give for every
// VID of the tables, every model next to a rule (nearModels) and every
// firmware of the tables, as raw fields padded with spaces or NULs and as
// strings alone, in the newest tables and in an older release's, with no
// PCI ID: the comparisons of the index's keys and padded images, every one
// (rapid's draws miss most of them).
func TestQuirkIndexIsLinearNearRules(t *testing.T) {
	vendors := []uint16{0x1234}
	firmware := []string{"", "X"}
	for _, e := range quirkHistory {
		vendors = append(vendors, e.VendorID, e.Device.Vendor)
		if e.Firmware != "" {
			firmware = append(firmware, e.Firmware, e.Firmware[:len(e.Firmware)-1], e.Firmware+"X")
		}
	}
	for _, p := range pciInferences {
		vendors = append(vendors, p.vendor)
	}
	slices.Sort(vendors)
	vendors = slices.Compact(vendors)
	models := nearModels()
	n := 0
	for _, vid := range vendors {
		for _, model := range models {
			for _, fw := range firmware {
				for layout := range 3 { // strings alone, padded with spaces, with NULs
					var c powerstate.Controller
					c.VendorID, c.Model, c.Firmware = vid, model, fw
					if layout > 0 {
						pad := []byte{' ', 0}[layout-1]
						for i := range c.ModelField {
							c.ModelField[i] = pad
						}
						for i := range c.FirmwareField {
							c.FirmwareField[i] = pad
						}
						copy(c.ModelField[:], model)
						copy(c.FirmwareField[:], fw)
					}
					for _, r := range []Release{{}, rel(5, 4, 0)} {
						var got, want QuirkLookup
						qGot := lookupController(&got, &c, r)
						qWant := lookupControllerLinear(&want, &c, r)
						if qGot != qWant || got != want {
							require.Equal(t, want, got, "VID %#x model %q firmware %q layout %d release %v", vid, model, fw, layout, r)
						}
						n++
					}
				}
			}
		}
	}
	require.Greater(t, n, 10000)
}
