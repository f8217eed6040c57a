package main

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recommend --max-stall-us 18446744073709551615 (2^64-1, the largest value
// it reads) is a stall goal every bound meets, as persist reads it
// (stall=unlimited), not "give a goal"; the JSON marks it unlimited.
func TestRecommendUnlimitedStallGoal(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--max-stall-us", "18446744073709551615"}, "goal: worst wake stall <= unlimited\n"},
		{[]string{"--max-stall-us", "18446744073709551615", "--cpu-wake-us", "10"}, "goal: worst wake stall <= unlimited (stall goal;"},
		{[]string{"--max-stall-us", "18446744073709551615", "--exit-factor", "0.5,ps4=0.7"}, "goal: worst wake stall <= unlimited with a factor per state"},
		{[]string{"--max-stall-us", "18446744073709551615", "--bar-state", "4"}, "goal: worst wake stall <= unlimited, bar ps4\n"},
	} {
		code, out, errOut := apstctl(t, nil, append([]string{"recommend", evoImage}, tc.args...)...)
		assert.Equal(t, exitOK, code, errOut)
		assert.Contains(t, out, tc.want, "%q", tc.args)
	}
	var v struct {
		MaxStallUS        *uint64 `json:"max_stall_us"`
		MaxStallUnlimited *bool   `json:"max_stall_unlimited"`
	}
	code, out, errOut := apstctl(t, nil, "recommend", evoImage, "--max-stall-us", "18446744073709551615", "-o", "json")
	require.Equal(t, exitOK, code, errOut)
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	require.NotNil(t, v.MaxStallUS)
	assert.Equal(t, uint64(math.MaxUint64), *v.MaxStallUS)
	require.NotNil(t, v.MaxStallUnlimited)
	assert.True(t, *v.MaxStallUnlimited)

	code, out, errOut = apstctl(t, nil, "recommend", evoImage, "--max-stall", "25ms", "-o", "json")
	require.Equal(t, exitOK, code, errOut)
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	assert.Equal(t, uint64(25000), *v.MaxStallUS)
	assert.False(t, *v.MaxStallUnlimited)
}

// A stall budget every drive meets at any bound gives the bound 2^64-1:
// survey's stall_budget marks it, as every u64 that can be unlimited is
// marked, so that a reader in doubles does not take 18446744073709551616.
func TestSurveyStallBudgetUnlimitedMarkers(t *testing.T) {
	capture := corpusDir + "/smartctl/Samsung_SSD_990_EVO_Plus_1TB_2B2QKXG7.txt"
	type budget struct {
		BudgetUnlimited *bool  `json:"budget_unlimited"`
		BoundUS         uint64 `json:"bound_us"`
		BoundUnlimited  *bool  `json:"bound_unlimited"`
		Acceptable      []struct {
			MaxUS        uint64 `json:"max_us"`
			MaxUnlimited *bool  `json:"max_unlimited"`
		} `json:"acceptable"`
	}
	read := func(b string) budget {
		code, out, errOut := apstctl(t, nil, "survey", "--summary", "--stall-budget", b, capture, "-o", "json")
		require.Equal(t, exitOK, code, errOut)
		var v struct {
			Summary struct {
				StallBudget budget `json:"stall_budget"`
			} `json:"summary"`
		}
		require.NoError(t, json.Unmarshal([]byte(out), &v))
		return v.Summary.StallBudget
	}
	for _, tc := range []struct {
		budget    string
		unlimited bool
	}{{"1s", true}, {"25ms", false}, {"18446744073709551615", true}} {
		b := read(tc.budget)
		require.NotNil(t, b.BoundUnlimited, tc.budget)
		assert.Equal(t, tc.unlimited, *b.BoundUnlimited, tc.budget)
		assert.Equal(t, tc.unlimited, b.BoundUS == math.MaxUint64, tc.budget)
		require.NotEmpty(t, b.Acceptable)
		last := b.Acceptable[len(b.Acceptable)-1]
		require.NotNil(t, last.MaxUnlimited)
		assert.Equal(t, last.MaxUS == math.MaxUint64, *last.MaxUnlimited)
		require.NotNil(t, b.BudgetUnlimited)
		assert.Equal(t, tc.budget == "18446744073709551615", *b.BudgetUnlimited)
	}
}

// persist --bound takes "unlimited" as --goal, --ac and --battery do (and
// --ps-max-latency-us): the same answer as "any", not a usage error.
func TestPersistBoundUnlimited(t *testing.T) {
	code, want, errOut := apstctl(t, nil, "persist", "--bound", "any", "-o", "json")
	require.Equal(t, exitOK, code, errOut)
	code, got, errOut := apstctl(t, nil, "persist", "--bound", "unlimited", "-o", "json")
	require.Equal(t, exitOK, code, errOut)
	assert.JSONEq(t, want, got)
	assert.Contains(t, got, `"bound_unlimited": true`)
	code, _, errOut = apstctl(t, nil, "persist", "--bound", "Unlimited")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "or any (unlimited)")
}
