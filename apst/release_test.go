package apst_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst"
)

func TestParseRelease(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want apst.Release
		text string
	}{
		{"6.8", apst.Release{Major: 6, Minor: 8}, "6.8"},
		{"v7.1", apst.Release{Major: 7, Minor: 1}, "7.1"},
		{"5.15.0-91-generic", apst.Release{Major: 5, Minor: 15, BaseUnknown: true}, "5.15.0-distro"},
		{"5.15.0-distro", apst.Release{Major: 5, Minor: 15, BaseUnknown: true}, "5.15.0-distro"},
		{"5.10.0-28-amd64", apst.Release{Major: 5, Minor: 10, BaseUnknown: true}, "5.10.0-distro"},
		{"5.10.0-28-amd64 (Debian 5.10.209-2)", apst.Release{Major: 5, Minor: 10, Patch: 209}, "5.10.209"},
		{"#1 SMP Debian 5.10.209-2 (2024-01-31)", apst.Release{Major: 5, Minor: 10, Patch: 209}, "5.10.209"},
		{"Ubuntu 5.15.0-91.101-generic 5.15.131", apst.Release{Major: 5, Minor: 15, Patch: 131}, "5.15.131"},
		{"5.15.0-91-generic (Ubuntu 5.15.131)", apst.Release{Major: 5, Minor: 15, Patch: 131}, "5.15.131"},
		{"6.8.9-300.fc40", apst.Release{Major: 6, Minor: 8, Patch: 9}, "6.8.9"},
		{"7.1.5-arch1-1", apst.Release{Major: 7, Minor: 1, Patch: 5}, "7.1.5"},
		{"6.8.0", apst.Release{Major: 6, Minor: 8}, "6.8"},
		{"4.12", apst.Release{Major: 4, Minor: 12}, "4.12"},
		{"5.15.80", apst.Release{Major: 5, Minor: 15, Patch: 80}, "5.15.80"},
		{"6.9.0-rc1+", apst.Release{Major: 6, Minor: 9}, "6.9"},
		{"6.8.0-45-generic\n", apst.Release{Major: 6, Minor: 8, BaseUnknown: true}, "6.8.0-distro"},
		{"5.14.0-427.13.1.el9_4.x86_64", apst.Release{Major: 5, Minor: 14, BaseUnknown: true}, "5.14.0-distro"},
		{"6.6.47_1", apst.Release{Major: 6, Minor: 6, Patch: 47}, "6.6.47"},
	} {
		r, err := apst.ParseRelease(tc.in)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, r, tc.in)
		assert.Equal(t, tc.text, r.String())
	}
	for _, bad := range []string{"5.10.0-28-amd64 (Debian 5.11.2-1)", "5.10.0-28-amd64 ()", "Ubuntu 5.15.0", "#1 SMP PREEMPT_DYNAMIC", "", "v", "6", "v9", "six.eight", "6.", ".8", "6.8.1.2", "0.0", "70000.1", "-6.8", "6..8"} {
		_, err := apst.ParseRelease(bad)
		require.ErrorIs(t, err, apst.ErrInvalidConfig, bad)
		assert.True(t, strings.HasPrefix(err.Error(), "apst: invalid configuration: kernel release"), err.Error())
	}
	assert.Equal(t, "unknown", apst.Release{}.String())
}

func TestReleaseGeneration(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want apst.Generation
	}{
		{"4.11", apst.V4_11}, {"4.11.12", apst.V4_11}, {"4.12", apst.V4_12}, {"5.13.19", apst.V4_12},
		{"5.14", apst.Current}, {"6.8", apst.Current}, {"7.3", apst.Current}, {"8.0", apst.Current},
	} {
		r, err := apst.ParseRelease(tc.in)
		require.NoError(t, err)
		g, err := r.Generation()
		require.NoError(t, err)
		assert.Equal(t, tc.want, g, tc.in)
	}
	r, _ := apst.ParseRelease("4.10.17")
	_, err := r.Generation()
	require.ErrorIs(t, err, apst.ErrUnknownGeneration)
	assert.Contains(t, err.Error(), "Linux 4.10.17 has no APST")
	_, err = apst.Release{}.Generation()
	require.ErrorIs(t, err, apst.ErrUnknownGeneration)
}

func TestReleaseText(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := apst.Release{Major: rapid.Uint16().Draw(t, "x"), Minor: rapid.Uint16().Draw(t, "y"), Patch: rapid.Uint16().Draw(t, "z")}
		b, err := r.MarshalText()
		require.NoError(t, err)
		var back apst.Release
		require.NoError(t, back.UnmarshalText(b))
		assert.Equal(t, r, back)
		j, err := json.Marshal(r)
		require.NoError(t, err)
		back = apst.Release{Major: 1}
		require.NoError(t, json.Unmarshal(j, &back))
		assert.Equal(t, r, back)
	})
}

func TestReleaseCompare(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		gen := rapid.Custom(func(t *rapid.T) apst.Release {
			return apst.Release{Major: rapid.Uint16Range(0, 3).Draw(t, "x"), Minor: rapid.Uint16Range(0, 3).Draw(t, "y"), Patch: rapid.Uint16Range(0, 3).Draw(t, "z")}
		})
		a, b := gen.Draw(t, "a"), gen.Draw(t, "b")
		assert.Equal(t, -a.Compare(b), b.Compare(a))
		assert.Equal(t, a == b, a.Compare(b) == 0)
	})
}

// Between the 144d:a808 episode's changes, the tables only grow: a later
// mainline release has every entry of an earlier one, from v5.19 on and up
// to v5.17.
func TestQuirkTablesMonotoneMainline(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		lo := rapid.SampledFrom([]apst.Release{{Major: 4, Minor: 11}, {Major: 5, Minor: 19}}).Draw(t, "era")
		hi := apst.Release{Major: 5, Minor: 17}
		if lo.Minor == 19 {
			hi = apst.Release{Major: 7, Minor: 3}
		}
		all := mainlines(lo, hi)
		i := rapid.IntRange(0, len(all)-1).Draw(t, "i")
		j := rapid.IntRange(i, len(all)-1).Draw(t, "j")
		later := apst.QuirkTables(all[j])
		for _, e := range apst.QuirkTables(all[i]) {
			assert.Contains(t, later, e, "%s has %s but %s lacks it", all[i], e.String(), all[j])
		}
	})
}

// mainlines lists the mainline releases from lo to hi.
func mainlines(lo, hi apst.Release) []apst.Release {
	last := map[uint16]uint16{4: 20, 5: 19, 6: 19, 7: 3}
	var out []apst.Release
	for r := lo; r.Compare(hi) <= 0; {
		out = append(out, r)
		if r.Minor >= last[r.Major] {
			r = apst.Release{Major: r.Major + 1}
		} else {
			r.Minor++
		}
	}
	return out
}

func FuzzParseRelease(f *testing.F) {
	for _, s := range []string{"6.8", "v7.1", "5.15.0-91-generic", "4.12", "5.15.80", "", "v", "6..8", "65535.65535.65535", "99999.1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := apst.ParseRelease(s)
		if err != nil {
			if r != (apst.Release{}) {
				t.Fatalf("error %v with a release %v", err, r)
			}
			return
		}
		if r.IsZero() {
			t.Fatalf("ParseRelease(%q) gave the zero release", s)
		}
		back, err := apst.ParseRelease(r.String())
		if err != nil || back != r {
			t.Fatalf("round trip of %q through %q: %v, %v", s, r, back, err)
		}
		_, _ = r.Generation()
		_ = apst.QuirkTables(r)
	})
}

func TestLookupNewerRelease(t *testing.T) {
	m := apst.LookupQuirks(apst.Identity{VendorID: 0x1179, Model: "THNSF5256GPUK TOSHIBA", Release: apst.Release{Major: 8, Minor: 2}})
	assert.Equal(t, apst.QuirkNoAPST, m.APST())
	assert.Equal(t, apst.NewestRelease(), m.Tables)
	assert.Contains(t, m.Notes, "Linux 8.2 is newer than the newest quirk tables known (7.3): assumed they are unchanged")
	m = apst.LookupQuirks(apst.Identity{VendorID: 0x1179, Model: "THNSF5256GPUK TOSHIBA", Release: apst.Release{Major: 7, Minor: 3, Patch: 9}})
	assert.Equal(t, apst.Release{Major: 7, Minor: 3, Patch: 9}, m.Tables)
	for _, n := range m.Notes {
		assert.NotContains(t, n, "release")
	}
}
