package apst_test

import (
	"errors"
	"testing"

	"github.com/nvmeapst/nvmeapst/apst"
)

func FuzzParseQuirkOverrides(f *testing.F) {
	for _, s := range []string{"", "(null)", "8086:f1a5:^no_deepest_ps", "8086:f1a5:no_apst,bogus_nid-126f:2262:^no_deepest_ps",
		"8086:f1a5", "::", "-", "8086:f1a5:^", "0x8086:0xF1A5:NVME_QUIRK_NO_APST\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ovs, err := apst.ParseQuirkOverrides(s)
		if err != nil {
			if !errors.Is(err, apst.ErrInvalidConfig) || ovs != nil {
				t.Fatalf("error %v (entries %v)", err, ovs)
			}
			return
		}
		// What parsed prints back to the same entries.
		text := ""
		for i, o := range ovs {
			if i > 0 {
				text += "-"
			}
			text += o.String()
		}
		back, err := apst.ParseQuirkOverrides(text)
		if len(ovs) > 0 && (err != nil || len(back) != len(ovs)) {
			t.Fatalf("round trip of %q through %q: %v, %v", s, text, back, err)
		}
		for i := range back {
			if back[i] != ovs[i] {
				t.Fatalf("round trip of %q through %q: entry %d %v, want %v", s, text, i, back[i], ovs[i])
			}
		}
		m := apst.LookupQuirks(apst.Identity{VendorID: 0x8086, PCI: apst.PCIID{Vendor: 0x8086, Device: 0xf1a5}, Override: s, Release: apst.Release{Major: 7, Minor: 1}})
		if m.Overridden && m.Override.ID != (apst.PCIID{Vendor: 0x8086, Device: 0xf1a5}) {
			t.Fatalf("override %v applied to 8086:f1a5", m.Override)
		}
	})
}
