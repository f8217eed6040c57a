package nvmeapst_test

import (
	"testing"

	"github.com/nvmeapst/nvmeapst"
)

// FuzzParsePCILocation: an address that splits gives node_exporter's
// labels (4, 2, 2 and 1 hexadecimal digits, lower case), which join back
// into an address that splits the same; anything else is not ok.
func FuzzParsePCILocation(f *testing.F) {
	for _, s := range []string{"0000:04:00.0", "10003:ae:00.0", "0000:00:1d.7", "0:4:0.0", "0000:04:00", "x", "", "0000:04:00.0.1", "ffff:ff:1f.7", "0000:04:20.0", "0000:04:00.8"} {
		f.Add(s)
	}
	hex := func(s string, min int) bool {
		if len(s) < min {
			return false
		}
		for _, r := range s {
			if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
				return false
			}
		}
		return true
	}
	f.Fuzz(func(t *testing.T, s string) {
		loc, ok := nvmeapst.ParsePCILocation(s)
		if !ok {
			if loc != (nvmeapst.PCILocation{}) {
				t.Fatalf("%q: not ok, yet %+v", s, loc)
			}
			return
		}
		if !hex(loc.Segment, 4) || !hex(loc.Bus, 2) || !hex(loc.Device, 2) || !hex(loc.Function, 1) {
			t.Fatalf("%q: labels %+v", s, loc)
		}
		back, ok := nvmeapst.ParsePCILocation(loc.Segment + ":" + loc.Bus + ":" + loc.Device + "." + loc.Function)
		if !ok || back != loc {
			t.Fatalf("%q: %+v joins back as %+v (%v)", s, loc, back, ok)
		}
	})
}
