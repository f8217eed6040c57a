package apst_test

import (
	"bytes"
	"strconv"
	"testing"

	"github.com/nvmeapst/nvmeapst/apst"
)

// FuzzParseMicroseconds: a duration that reads is written back (String)
// and reads to the same value; one that does not is an error, never a
// panic.
func FuzzParseMicroseconds(f *testing.F) {
	for _, s := range []string{"150", "25ms", "4.6ms", "150us", "150µs", "2s", "-1ms", "1ns", "", " 7 ", "18446744073709551615", "99999999999999999999", "1h", "42444442424444445us", "unlimited"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		us, err := apst.ParseMicroseconds(s)
		if err != nil {
			return
		}
		back, err := apst.ParseMicroseconds(strconv.FormatUint(uint64(us), 10))
		if err != nil || back != us {
			t.Fatalf("%q reads as %d, which reads back as %d (%v)", s, us, back, err)
		}
		back, err = apst.ParseMicroseconds(us.String())
		if err != nil || back != us {
			t.Fatalf("%q reads as %d, written %q, which reads back as %d (%v)", s, us, us.String(), back, err)
		}
	})
}

// FuzzParseBound: a bound that reads is written back as its decimal (or
// "unlimited") and reads to the same value.
func FuzzParseBound(f *testing.F) {
	for _, s := range []string{"0", "25000", "0x61a8", "unlimited", "max", "inf", "u64max", "18446744073709551615", "18446744073709551616", "-1", " 5 ", "0x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := apst.ParseBound(s)
		if err != nil {
			return
		}
		text := strconv.FormatUint(uint64(b), 10)
		if b == apst.NoLimit {
			text = "unlimited"
		}
		back, err := apst.ParseBound(text)
		if err != nil || back != b {
			t.Fatalf("%q reads as %d, written %q reads back as %d (%v)", s, b, text, back, err)
		}
	})
}

// FuzzParseQuirks: a quirk list that reads is written back by String
// (names, "none", a mask for bits without a name) and reads to the same
// set; the sysfs file's reader keeps every name it does not know.
func FuzzParseQuirks(f *testing.F) {
	for _, s := range []string{"no-apst", "NVME_QUIRK_NO_DEEPEST_PS", "no_apst,no-deepest-ps", "none", "0x30", "0x800000", "bogus", "", "0xffffffff", "no-apst,0x1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if q, unknown := apst.ParseQuirksFile(s); q != 0 || len(unknown) > 0 {
			for _, u := range unknown {
				if u == "" {
					t.Fatalf("%q: an empty unknown name", s)
				}
			}
		}
		q, err := apst.ParseQuirks(s)
		if err != nil {
			return
		}
		back, err := apst.ParseQuirks(q.String())
		if err != nil || back != q {
			t.Fatalf("%q reads as %v, whose string %q reads back as %v (%v)", s, uint32(q), q.String(), uint32(back), err)
		}
	})
}

// FuzzDecodeTable: 256 bytes decode and encode back byte for byte; any
// other length is an error.
func FuzzDecodeTable(f *testing.F) {
	f.Add(make([]byte, apst.TableSize))
	f.Add(bytes.Repeat([]byte{0xff}, apst.TableSize))
	f.Add([]byte{1, 2, 3})
	f.Fuzz(func(t *testing.T, b []byte) {
		tbl, err := apst.DecodeTable(b)
		if len(b) != apst.TableSize {
			if err == nil {
				t.Fatalf("%d bytes decoded", len(b))
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		out, err := tbl.MarshalBinary()
		if err != nil || !bytes.Equal(out, b) {
			t.Fatalf("round trip differs (%v)", err)
		}
		if _, err := apst.DecodeFeature(1, b); err != nil {
			t.Fatal(err)
		}
	})
}
