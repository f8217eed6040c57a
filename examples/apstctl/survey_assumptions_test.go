package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// surveyAssumedOut is what a JSON survey says of assumptions: per drive
// the kinds, for the fleet the count per kind.
type surveyAssumedOut struct {
	Drives []struct {
		Path    string   `json:"path"`
		Assumed []string `json:"assumed"`
	} `json:"drives"`
	Summary struct {
		Assumptions surveyAssumedCounts `json:"assumptions"`
	} `json:"summary"`
}

// Each row names the kinds its plans' Assumptions record under any
// configuration (derived here from apst alone), and the summary counts the
// rows naming each kind; --merge of shards counts them again alike.
func TestSurveyCommandAssumedKinds(t *testing.T) {
	with := []string{"--with", "kernel=5.15.0-91", "--with", "kernel=6.8", "--with", "ps-max-latency-us=25000"}
	run := func(args ...string) (surveyAssumedOut, string) {
		code, out, errOut := anRun(t, cmdFunc("survey"), nil, append([]string{"--format", "json"}, args...)...)
		require.Equal(t, exitOK, code, errOut)
		var v surveyAssumedOut
		require.NoError(t, json.Unmarshal([]byte(out), &v))
		return v, out
	}
	whole, _ := run(append(with, surveySmartctl, surveyBinary)...)
	require.NotEmpty(t, whole.Drives)

	configs, err := surveyConfigs([]string{"kernel=5.15.0-91", "kernel=6.8", "ps-max-latency-us=25000"})
	require.NoError(t, err)
	var want surveyAssumedCounts
	for _, d := range whole.Drives {
		b, err := os.ReadFile(d.Path)
		require.NoError(t, err)
		c, err := capture.ParseBytes(b)
		require.NoError(t, err)
		var a apst.Assumptions
		for _, cfg := range configs {
			plan, err := apst.Build(&c, cfg.Params)
			require.NoError(t, err)
			p := plan.Assumptions(&c)
			a.APSTAUnknown = a.APSTAUnknown || p.APSTAUnknown
			a.ReleaseUnknown = a.ReleaseUnknown || p.ReleaseUnknown
			a.BaseUnknown = a.BaseUnknown || p.BaseUnknown
			a.DMIUnchecked = a.DMIUnchecked || p.DMIUnchecked
		}
		var names []string
		for _, k := range []struct {
			on    bool
			name  string
			count *int
		}{
			{a.APSTAUnknown, "apsta-unknown", &want.APSTAUnknown},
			{a.ReleaseUnknown, "release-unknown", &want.ReleaseUnknown},
			{a.BaseUnknown, "base-unknown", &want.BaseUnknown},
			{a.DMIUnchecked, "dmi-unchecked", &want.DMIUnchecked},
		} {
			if k.on {
				names = append(names, k.name)
				*k.count++
			}
		}
		assert.Equal(t, names, d.Assumed, d.Path)
	}
	assert.Equal(t, want, whole.Summary.Assumptions)
	assert.NotZero(t, want.APSTAUnknown)
	assert.NotZero(t, want.ReleaseUnknown)
	assert.NotZero(t, want.BaseUnknown)
	assert.NotZero(t, want.DMIUnchecked)

	dir := t.TempDir()
	shards := []string{filepath.Join(dir, "smartctl.json"), filepath.Join(dir, "binary.json")}
	for i, root := range []string{surveySmartctl, surveyBinary} {
		_, out := run(append(with, root)...)
		require.NoError(t, os.WriteFile(shards[i], []byte(out), 0o644))
	}
	merged, _ := run(append([]string{"--merge"}, shards...)...)
	assert.Equal(t, want, merged.Summary.Assumptions, "--merge")
}
