package sysfs_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/sysfs"
)

func TestControllerQuirks(t *testing.T) {
	cs, err := newFS(t, "testdata/v7").Controllers()
	require.NoError(t, err)
	require.Len(t, cs, 2)
	assert.True(t, cs[0].HasQuirks)
	assert.Equal(t, []string{"no_deepest_ps", "medium_prio_sq", "no_temp_thresh_change", "disable_write_zeroes"}, cs[0].Quirks)
	assert.True(t, cs[1].HasQuirks, "an empty file is no quirk, not an absent file")
	assert.Empty(t, cs[1].Quirks)
	assert.True(t, cs[1].HasTolerance, "nvme.quirks= cleared the DMI rule's NO_APST")

	c, err := newFS(t, "testdata/v6").Controller("nvme0")
	require.NoError(t, err)
	assert.False(t, c.HasQuirks, "before 7.0 there is no quirks file")
	assert.Nil(t, c.Quirks)

	root := sysfs.CopyFixture(t, "v7")
	writeFile(t, root, "class/nvme/nvme0/quirks", "no_apst\n\nquirk_from_2030\n")
	c, err = newFS(t, root).Controller("nvme0")
	require.NoError(t, err)
	assert.Equal(t, []string{"no_apst", "quirk_from_2030"}, c.Quirks, "unknown names are kept")

	files, err := newFS(t, "testdata/v7").Files("nvme0")
	require.NoError(t, err)
	assert.Contains(t, files, "class/nvme/nvme0/quirks")
}

func TestQuirksParam(t *testing.T) {
	q, err := newFS(t, "testdata/v7").QuirksParam()
	require.NoError(t, err)
	assert.Equal(t, sysfs.QuirksParam{
		Present: true,
		Raw:     "144d:a804:^no_apst",
		Overrides: []sysfs.QuirkOverride{
			{PCI: apst.PCIID{Vendor: 0x144d, Device: 0xa804}, Clear: []string{"no_apst"}},
		},
	}, q)
	sys, err := newFS(t, "testdata/v7").SystemFiles()
	require.NoError(t, err)
	assert.Contains(t, sys, "module/nvme/parameters/quirks")

	q, err = newFS(t, "testdata/v6").QuirksParam()
	require.NoError(t, err)
	assert.Equal(t, sysfs.QuirksParam{}, q, "absent before 7.0: not present, no error")

	root := sysfs.CopyFixture(t, "v7")
	writeFile(t, root, "module/nvme/parameters/quirks", "144d:a804\n")
	q, err = newFS(t, root).QuirksParam()
	require.ErrorIs(t, err, sysfs.ErrInvalidAttribute)
	assert.Contains(t, err.Error(), "module/nvme/parameters/quirks")
	assert.Equal(t, sysfs.QuirksParam{Present: true, Raw: "144d:a804"}, q)

	writeFile(t, root, "module/nvme/parameters/quirks", "\n")
	q, err = newFS(t, root).QuirksParam()
	require.NoError(t, err)
	assert.Equal(t, sysfs.QuirksParam{Present: true}, q)
}

func TestParseQuirkOverrides(t *testing.T) {
	id := func(v, d uint16) apst.PCIID { return apst.PCIID{Vendor: v, Device: d} }
	tests := []struct {
		in   string
		want []sysfs.QuirkOverride
		err  string
	}{
		{"", nil, ""},
		{"(null)", nil, ""},
		{"106b:2003:simple_suspend", []sysfs.QuirkOverride{{PCI: id(0x106b, 0x2003), Set: []string{"simple_suspend"}}}, ""},
		{"144d:a80d:no_deepest_ps-8086:f1a5:^no_deepest_ps,simple_suspend", []sysfs.QuirkOverride{
			{PCI: id(0x144d, 0xa80d), Set: []string{"no_deepest_ps"}},
			{PCI: id(0x8086, 0xf1a5), Set: []string{"simple_suspend"}, Clear: []string{"no_deepest_ps"}},
		}, ""},
		{"0x1E49:41:NO_APST", []sysfs.QuirkOverride{{PCI: id(0x1e49, 0x41), Set: []string{"NO_APST"}}}, ""},
		{" 1344:5413:future_quirk\n", []sysfs.QuirkOverride{{PCI: id(0x1344, 0x5413), Set: []string{"future_quirk"}}}, ""},
		{"144d:a804", nil, `entry 1 "144d:a804": want VID:DID`},
		{"144d:a804:no_apst:x", nil, "want VID:DID"},
		{"144d:a804:no_apst-", nil, "entry 2"},
		{"1234g:a804:no_apst", nil, "vendor ID"},
		{"144d::no_apst", nil, "device ID"},
		{"144d:12345:no_apst", nil, "device ID"},
		{"144d:a804:", nil, `quirk name ""`},
		{"144d:a804:no apst", nil, "quirk name"},
		{"144d:a804:^", nil, "quirk name"},
		{"144d:a804:a,,b", nil, "quirk name"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := sysfs.ParseQuirkOverrides(tt.in)
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				assert.Nil(t, got)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestParseQuirkList(t *testing.T) {
	assert.Equal(t, []string{}, sysfs.ParseQuirkList(""))
	assert.Equal(t, []string{}, sysfs.ParseQuirkList("\n"))
	assert.Equal(t, []string{"a", "b"}, sysfs.ParseQuirkList("a\nb\n"))
	assert.Equal(t, []string{"a", "b"}, sysfs.ParseQuirkList(" a  b "))
}

// FuzzParseQuirkOverrides checks that any string either parses into entries
// that print back to an equivalent string, or is refused, without a panic.
func FuzzParseQuirkOverrides(f *testing.F) {
	for _, s := range []string{"", "(null)", "106b:2003:simple_suspend", "144d:a80d:no_deepest_ps-8086:f1a5:^no_deepest_ps,simple_suspend", "0x1:2:a", "::", "-", "1:2:^"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := sysfs.ParseQuirkOverrides(s)
		if err != nil {
			if got != nil {
				t.Fatalf("%q: error %v with entries %v", s, err, got)
			}
			return
		}
		// Print the entries back and parse again: the same entries.
		var parts []string
		for _, o := range got {
			var names []string
			names = append(names, o.Set...)
			for _, c := range o.Clear {
				names = append(names, "^"+c)
			}
			if len(names) == 0 {
				t.Fatalf("%q: entry %v without names", s, o)
			}
			parts = append(parts, fmt.Sprintf("%04x:%04x:%s", o.PCI.Vendor, o.PCI.Device, strings.Join(names, ",")))
		}
		again, err := sysfs.ParseQuirkOverrides(strings.Join(parts, "-"))
		if err != nil {
			t.Fatalf("%q: printed form %q does not parse: %v", s, strings.Join(parts, "-"), err)
		}
		if len(again) != len(got) {
			t.Fatalf("%q: %d entries, %d after a round trip", s, len(got), len(again))
		}
		for i := range got {
			if again[i].PCI != got[i].PCI || !slices.Equal(again[i].Set, got[i].Set) || !slices.Equal(again[i].Clear, got[i].Clear) {
				t.Fatalf("%q: entry %d is %v, %v after a round trip", s, i, got[i], again[i])
			}
		}
	})
}
