package apst_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

func TestParseConfig(t *testing.T) {
	base := apst.DefaultParams(apst.Current)
	p, err := apst.ParseConfig("ps-max-latency-us=25000,kernel=v4.11", base)
	require.NoError(t, err)
	assert.Equal(t, apst.V4_11, p.Generation)
	assert.Equal(t, apst.Microseconds(25000), p.Bound, "an explicit bound wins over the generation default")

	p, err = apst.ParseConfig("kernel=v4.11", base)
	require.NoError(t, err)
	assert.Equal(t, apst.V4_11.DefaultBound(), p.Bound, "v4.11 brings its 25000 µs default")

	p, err = apst.ParseConfig("pm-qos=auto,quirks=no-apst,no-deepest-ps,force-apst", base)
	require.NoError(t, err)
	assert.Equal(t, apst.NoLimit, p.Bound)
	assert.Equal(t, apst.QuirkNoAPST|apst.QuirkNoDeepestPS, p.Quirks)
	assert.True(t, p.ForceAPST)

	p, err = apst.ParseConfig("default-ps-max-latency-us=3000000000,apst-primary-timeout-ms=0", base)
	require.NoError(t, err)
	assert.Equal(t, apst.NoLimit, p.Bound)
	assert.Equal(t, apst.ModeHeuristic, p.Mode())

	for _, bad := range []string{"pm-qos=-5", "kernel=v9", "bogus=1", "apst-primary-timeout-ms=-1", "quirks=maybe", "force-apst=perhaps", "ps-max-latency-us=1e5",
		"ps-max-latency-us=5,ps-max-latency-us=60000", "ps-max-latency-us=25000,pm-qos=5", "pm-qos=5,default-ps-max-latency-us=0",
		"kernel=6.8,kernel=6.9", "quirks=none,no-apst", "kernel=6.8zzz", "kernel=6.8 banana"} {
		got, err := apst.ParseConfig(bad, base)
		require.Error(t, err, bad)
		assert.Equal(t, base, got, "on error the base is returned unchanged")
		assert.Contains(t, err.Error(), "apst: ")
	}
	_, err = apst.ParseConfig("ps-max-latency-us=25000,pm-qos=5", base)
	assert.ErrorContains(t, err, "ps-max-latency-us and pm-qos contradict each other: each sets the bound")
	assert.ErrorIs(t, err, apst.ErrInvalidConfig)
	_, err = apst.ParseConfig("ps-max-latency-us=5,ps-max-latency-us=60000", base)
	assert.ErrorContains(t, err, "ps-max-latency-us given twice")
	assert.ErrorIs(t, err, apst.ErrInvalidConfig)
	_, err = apst.ParseConfig("quirks=none,no-apst", base)
	assert.ErrorContains(t, err, "none is the empty set and stands alone")
	// A policy sets a bound that an explicit key overrides: not a
	// contradiction.
	p, err = apst.ParseConfig("policy=linux-25ms,ps-max-latency-us=5000", base)
	require.NoError(t, err)
	assert.Equal(t, apst.Microseconds(5000), p.Bound)
}

func TestGenerationText(t *testing.T) {
	for _, g := range apst.Generations() {
		b, err := g.MarshalText()
		require.NoError(t, err)
		var back apst.Generation
		require.NoError(t, back.UnmarshalText(b))
		assert.Equal(t, g, back)
	}
	_, err := apst.Generation(9).MarshalText()
	require.ErrorIs(t, err, apst.ErrUnknownGeneration)
}

func TestParseConfigKernelRelease(t *testing.T) {
	base := apst.DefaultParams(apst.Current)
	for _, tc := range []struct {
		value   string
		gen     apst.Generation
		release apst.Release
		bound   apst.Microseconds
	}{
		{"6.8", apst.Current, apst.Release{Major: 6, Minor: 8}, 100000},
		{"v7.1", apst.Current, apst.Release{Major: 7, Minor: 1}, 100000},
		{"5.15.0-91-generic", apst.Current, apst.Release{Major: 5, Minor: 15, BaseUnknown: true}, 100000},
		{"5.15.80", apst.Current, apst.Release{Major: 5, Minor: 15, Patch: 80}, 100000},
		{"5.13", apst.V4_12, apst.Release{Major: 5, Minor: 13}, 100000},
		{"4.12", apst.V4_12, apst.Release{Major: 4, Minor: 12}, 100000},
		{"4.11.3", apst.V4_11, apst.Release{Major: 4, Minor: 11, Patch: 3}, 25000},
		{"current", apst.Current, apst.Release{}, 100000},
		{"v4.12", apst.V4_12, apst.Release{}, 100000},
		{"v4.11", apst.V4_11, apst.Release{}, 25000},
	} {
		p, err := apst.ParseConfig("kernel="+tc.value, base)
		require.NoError(t, err, tc.value)
		assert.Equal(t, tc.gen, p.Generation, tc.value)
		assert.Equal(t, tc.release, p.Release, tc.value)
		assert.Equal(t, tc.bound, p.Bound, tc.value)
	}
	_, err := apst.ParseConfig("kernel=4.10", base)
	require.ErrorIs(t, err, apst.ErrUnknownGeneration)
	assert.Contains(t, err.Error(), "has no APST (it arrived in v4.11)")
	_, err = apst.ParseConfig("kernel=3.10.0-1160.el7.x86_64", base)
	require.ErrorIs(t, err, apst.ErrUnknownGeneration)
	// generation= keeps the release.
	p, err := apst.ParseConfig("kernel=6.8,generation=v4.12", base)
	require.NoError(t, err)
	assert.Equal(t, apst.V4_12, p.Generation)
	assert.Equal(t, apst.Release{Major: 6, Minor: 8}, p.Release)
	assert.Equal(t, "kernel=6.8,ps-max-latency-us=100000,generation=v4.12", p.String())
}

func TestParamsString(t *testing.T) {
	for _, tc := range []struct {
		cfg, want string
	}{
		{"", "kernel=current,ps-max-latency-us=100000"},
		{"kernel=v4.12", "kernel=v4.12,ps-max-latency-us=100000"},
		{"kernel=v4.11", "kernel=v4.11,ps-max-latency-us=25000"},
		{"kernel=5.15.0-91-generic,pm-qos=auto", "kernel=5.15.0-distro,ps-max-latency-us=unlimited"},
		{"apst-primary-timeout-ms=0,quirks=no-deepest-ps,force-apst", "kernel=current,ps-max-latency-us=100000,apst-primary-timeout-ms=0,quirks=no-deepest-ps,force-apst=1"},
		{"policy=windows-modern-standby", "kernel=current,ps-max-latency-us=unlimited,apst-primary-timeout-ms=50,apst-secondary-timeout-ms=0,apst-primary-latency-tol-us=500000,apst-secondary-latency-tol-us=0"},
	} {
		p, err := apst.ParseConfig(tc.cfg, apst.DefaultParams(apst.Current))
		require.NoError(t, err, tc.cfg)
		assert.Equal(t, tc.want, p.String(), tc.cfg)
	}
	_, err := apst.Params{}.MarshalText()
	require.ErrorIs(t, err, apst.ErrUnknownGeneration)
	assert.Contains(t, err.Error(), "apst.DefaultParams")
}

// The zero Params is rejected, with an error naming DefaultParams.
func TestZeroParamsRejected(t *testing.T) {
	var c powerstate.Controller
	c.APSTA = 1
	_, err := apst.Build(&c, apst.Params{})
	require.ErrorIs(t, err, apst.ErrUnknownGeneration)
	assert.Contains(t, err.Error(), "apst.DefaultParams")
	assert.False(t, apst.Generation(0).Valid())
	assert.Equal(t, "unset", apst.Generation(0).String())
	_, err = apst.Generation(0).MarshalText()
	require.ErrorIs(t, err, apst.ErrUnknownGeneration)
}

// paramsGen draws Params that MarshalText accepts: every generation, known
// and unknown releases (consistent with the generation or not), edge
// values of every number, every quirk bit.
func paramsGen() *rapid.Generator[apst.Params] {
	u64 := rapid.OneOf(rapid.SampledFrom([]uint64{0, 1, 100, 2000, 15000, 25000, 100000, 1 << 24, 1 << 56, 1<<64 - 1}), rapid.Uint64())
	return rapid.Custom(func(t *rapid.T) apst.Params {
		g := rapid.SampledFrom(apst.Generations()).Draw(t, "gen")
		p := apst.Params{
			Generation:         g,
			Bound:              apst.Microseconds(u64.Draw(t, "bound")),
			PrimaryTimeout:     apst.Milliseconds(u64.Draw(t, "t1")),
			SecondaryTimeout:   apst.Milliseconds(u64.Draw(t, "t2")),
			PrimaryTolerance:   apst.Microseconds(u64.Draw(t, "l1")),
			SecondaryTolerance: apst.Microseconds(u64.Draw(t, "l2")),
			Quirks:             apst.Quirks(rapid.OneOf(rapid.SampledFrom([]uint32{0, 0x10, 0x20, 0x30, 1 << 31}), rapid.Uint32()).Draw(t, "quirks")),
			ForceAPST:          rapid.Bool().Draw(t, "force"),
		}
		if rapid.Bool().Draw(t, "release") {
			p.Release = apst.Release{
				Major: rapid.Uint16Range(4, 9).Draw(t, "major"),
				Minor: rapid.Uint16Range(0, 40).Draw(t, "minor"),
				Patch: rapid.OneOf(rapid.Just(uint16(0)), rapid.Uint16()).Draw(t, "patch"),
			}
			if p.Release.Major == 4 && p.Release.Minor < 11 {
				p.Release.Minor = 11
			}
		}
		return p
	})
}

func TestParamsTextRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := paramsGen().Draw(t, "p")
		b, err := p.MarshalText()
		require.NoError(t, err)
		assert.Equal(t, p.String(), string(b))
		var back apst.Params
		require.NoError(t, back.UnmarshalText(b), string(b))
		assert.Equal(t, p, back, string(b))
		// ParseConfig reads it back on any generation's defaults.
		other, err := apst.ParseConfig(string(b), apst.DefaultParams(apst.V4_11))
		require.NoError(t, err)
		assert.Equal(t, p, other, string(b))
	})
}

// Params in JSON is its text form (MarshalText), a string, and reads back.
func TestParamsJSONRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := paramsGen().Draw(t, "p")
		j, err := json.Marshal(p)
		require.NoError(t, err)
		var text string
		require.NoError(t, json.Unmarshal(j, &text), "a JSON string: %s", j)
		assert.Equal(t, p.String(), text)
		var fromJSON apst.Params
		require.NoError(t, json.Unmarshal(j, &fromJSON), string(j))
		assert.Equal(t, p, fromJSON, string(j))
	})
}

func TestEnumerationsText(t *testing.T) {
	for _, m := range []apst.Mode{apst.ModeTolerance, apst.ModeHeuristic, apst.ModeHeuristicTotalGate} {
		b, err := m.MarshalText()
		require.NoError(t, err)
		var back apst.Mode
		require.NoError(t, back.UnmarshalText(b))
		assert.Equal(t, m, back)
	}
	_, err := apst.Mode(9).MarshalText()
	require.Error(t, err)
	var m apst.Mode
	require.Error(t, m.UnmarshalText([]byte("fast")))
	for _, k := range []apst.ToleranceKind{apst.ToleranceAuto, apst.ToleranceAny, apst.ToleranceValue} {
		b, err := k.MarshalText()
		require.NoError(t, err)
		var back apst.ToleranceKind
		require.NoError(t, back.UnmarshalText(b))
		assert.Equal(t, k, back)
	}
	_, err = apst.ToleranceKind(0).MarshalText()
	require.ErrorIs(t, err, apst.ErrInvalidTolerance)
}

func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{"", "kernel=6.8", "kernel=5.15.0-91-generic,pm-qos=auto", "quirks=no-apst,no-deepest-ps,force-apst",
		"policy=linux-25ms,kernel=v4.11", "kernel=6.8,generation=v4.12", "ps-max-latency-us=unlimited", "quirks=0xffffffff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		base := apst.DefaultParams(apst.Current)
		p, err := apst.ParseConfig(s, base)
		if err != nil {
			if p != base {
				t.Fatalf("error %v but base changed: %+v", err, p)
			}
			if !strings.HasPrefix(err.Error(), "apst: ") {
				t.Fatalf("error without package prefix: %v", err)
			}
			return
		}
		b, err := p.MarshalText()
		if err != nil {
			t.Fatalf("ParseConfig(%q) gave params that do not marshal: %v", s, err)
		}
		var back apst.Params
		if err := back.UnmarshalText(b); err != nil || back != p {
			t.Fatalf("round trip of %q through %q: %+v, %v; want %+v", s, b, back, err, p)
		}
	})
}

func TestReasonOutcomeText(t *testing.T) {
	for r := apst.ReasonBeyondNPSS; r <= apst.ReasonHeuristic; r++ {
		b, err := r.MarshalText()
		require.NoError(t, err)
		var back apst.Reason
		require.NoError(t, back.UnmarshalText(b))
		assert.Equal(t, r, back)
	}
	_, err := apst.Reason(200).MarshalText()
	require.Error(t, err)
	for o := apst.OutcomeUnsupported; o <= apst.OutcomeEnabled; o++ {
		b, err := o.MarshalText()
		require.NoError(t, err)
		var back apst.Outcome
		require.NoError(t, back.UnmarshalText(b))
		assert.Equal(t, o, back)
	}
	var o apst.Outcome
	require.Error(t, o.UnmarshalText([]byte("maybe")))
}

// Every error ParseConfig returns wraps ErrInvalidConfig, as its doc says,
// beside its cause's own sentinel (pm-qos and kernel values wrapped only
// ErrInvalidTolerance and ErrUnknownGeneration).
func TestParseConfigErrorsWrapInvalidConfig(t *testing.T) {
	for cfg, cause := range map[string]error{
		"pm-qos=-1":           apst.ErrInvalidTolerance,
		"kernel=4.10":         apst.ErrUnknownGeneration,
		"kernel=banana":       apst.ErrUnknownGeneration,
		"generation=v3":       apst.ErrUnknownGeneration,
		"force-apst=maybe":    apst.ErrInvalidConfig,
		"quirks=bogus":        apst.ErrInvalidConfig,
		"policy=none-such":    apst.ErrInvalidConfig,
		"bogus=1":             apst.ErrInvalidConfig,
		"ps-max-latency-us=x": apst.ErrInvalidConfig,
	} {
		base := apst.DefaultParams(apst.V4_12)
		p, err := apst.ParseConfig(cfg, base)
		require.ErrorIs(t, err, apst.ErrInvalidConfig, cfg)
		require.ErrorIs(t, err, cause, cfg)
		assert.Regexp(t, `^apst: `, err.Error())
		assert.Equal(t, base, p, cfg)
	}
}
