package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/internal/testfixture"
)

// surveyBundleOut is what the bundle tests read of a survey's JSON report.
type surveyBundleOut struct {
	Drives []struct {
		Path             string            `json:"path"`
		Format           string            `json:"format"`
		Quirks           string            `json:"quirks"`
		Changed          bool              `json:"changed"`
		IdlePowerDeltaMW float64           `json:"idle_power_delta_mw"`
		QuirksInferred   string            `json:"quirks_inferred_from"`
		Configs          []surveyConfigOut `json:"configs"`
		Bundle           *surveyBundleJSON `json:"bundle"`
	} `json:"drives"`
	Summary struct {
		Drives          int `json:"drives"`
		UnreadableFiles int `json:"unreadable_files"`
		QuirksInferred  int `json:"quirks_inferred"`
		BundleDrives    int `json:"bundle_drives"`
	} `json:"summary"`
	Unreadable []surveyUnreadable `json:"unreadable"`
}

func surveyBundleJSONRun(t *testing.T, args ...string) surveyBundleOut {
	t.Helper()
	code, out, errOut := anRun(t, cmdFunc("survey"), nil, append([]string{"--format", "json"}, args...)...)
	require.Equal(t, exitOK, code, errOut)
	var v surveyBundleOut
	require.NoError(t, json.Unmarshal([]byte(out), &v), out)
	return v
}

// A bundle is one machine: a row per controller, with the bundle's PCI ID,
// DMI strings, bound and quirks; none of its files is an unreadable
// capture. The DMI-quirked Samsung 960 EVO (nvme1), on which the kernel
// has APST disabled, does not change (it read +73 mW, from its Identify
// image surveyed as a capture, and 55 of the bundle's files unreadable).
func TestSurveyBundleIsAMachine(t *testing.T) {
	v := surveyBundleJSONRun(t, bundleDir)
	assert.Empty(t, v.Unreadable)
	assert.Equal(t, 0, v.Summary.UnreadableFiles)
	assert.Equal(t, 3, v.Summary.Drives)
	assert.Equal(t, 3, v.Summary.BundleDrives)
	assert.Equal(t, 0, v.Summary.QuirksInferred, "the bundle holds the PCI IDs: nothing is inferred")
	require.Len(t, v.Drives, 3)
	want := []struct {
		ctrl, pci, quirks string
		changed           bool
		deltaMW           float64
		disabled          bool
	}{
		{"nvme0", "8086:f1a5", "no-deepest-ps", false, 0, false},
		{"nvme1", "144d:a804", "no-apst", false, 0, true},
		{"nvme2", "144d:a80d", "none", true, 73, false},
	}
	for i, w := range want {
		d := v.Drives[i]
		assert.Equal(t, bundleRowName(filepath.Clean(bundleDir), w.ctrl), d.Path)
		assert.Equal(t, "bundle", d.Format)
		assert.Equal(t, w.quirks, d.Quirks, w.ctrl)
		assert.Empty(t, d.QuirksInferred, w.ctrl)
		assert.Equal(t, w.changed, d.Changed, w.ctrl)
		assert.InDelta(t, w.deltaMW, d.IdlePowerDeltaMW, 1e-9, w.ctrl)
		require.NotNil(t, d.Bundle, w.ctrl)
		assert.Equal(t, filepath.Clean(bundleDir), d.Bundle.Path)
		assert.Equal(t, w.ctrl, d.Bundle.Controller)
		assert.Equal(t, w.pci, d.Bundle.PCIID)
		assert.Nil(t, d.Bundle.Assumptions, "the bundle says everything: nothing assumed")
		assert.Equal(t, "PRIME B350M-A", d.Bundle.DMI.BoardName)
		assert.Equal(t, "6.8.0-fixture", d.Bundle.KernelRelease)
		assert.Equal(t, w.disabled, d.Bundle.APSTDisabled, w.ctrl)
		for _, c := range d.Configs {
			assert.Equal(t, !w.disabled, c.Enabled, w.ctrl)
		}
	}
	assert.Equal(t, "apst-disabled", v.Drives[1].Bundle.BoundSource)
	assert.Contains(t, v.Drives[1].Bundle.QuirkSources[0], "dmi: Samsung 960 EVO on an ASUS PRIME B350M-A")

	code, out, errOut := anRun(t, cmdFunc("survey"), nil, bundleDir)
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, "0 unreadable files")
	assert.Contains(t, out, "3 drives read from bundles of apstctl collect")
	for _, line := range strings.Split(out, "\n") {
		if strings.HasSuffix(line, "(bundle, nvme1)") {
			assert.Contains(t, line, "+0.0 mW", "APST is disabled by the kernel on nvme1")
		}
	}
}

// quirks= is honoured as compare honours it: quirks=none drops the DMI
// quirk, so the 960 EVO then changes as the drive alone would; without it
// the machine's quirks stay.
func TestSurveyBundleQuirksConfig(t *testing.T) {
	v := surveyBundleJSONRun(t, "--with", "quirks=none,ps-max-latency-us=100000", "--with", "quirks=none,ps-max-latency-us=25000", bundleDir)
	require.Len(t, v.Drives, 3)
	evo960 := v.Drives[1]
	assert.Equal(t, "none", evo960.Quirks)
	assert.True(t, evo960.Changed)
	assert.True(t, evo960.Configs[0].Enabled)

	_, cmpOut, _ := anRun(t, cmdFunc("compare"), nil, "--format", "json",
		"--with", "quirks=none,ps-max-latency-us=100000", "--with", "quirks=none,ps-max-latency-us=25000",
		filepath.Join(bundleDir, "ioctl/nvme1/identify.bin"))
	var cmp struct {
		Configs []struct {
			Entries []anEntry `json:"entries"`
		} `json:"configs"`
	}
	require.NoError(t, json.Unmarshal([]byte(cmpOut), &cmp), cmpOut)
	v = surveyBundleJSONRun(t, "--full", "--with", "quirks=none,ps-max-latency-us=100000", "--with", "quirks=none,ps-max-latency-us=25000", bundleDir)
	require.Len(t, cmp.Configs, 2)
	for i := range cmp.Configs {
		assert.Equal(t, cmp.Configs[i].Entries, v.Drives[1].Configs[i].Entries, "configuration %d: survey and compare give one table", i+1)
	}

	// quirks=tables,LIST adds to the machine's set.
	v = surveyBundleJSONRun(t, "--with", "ps-max-latency-us=100000", "--with", "ps-max-latency-us=100000,quirks=tables,no-deepest-ps", bundleDir)
	assert.Equal(t, "no-apst", v.Drives[1].Quirks)
	assert.False(t, v.Drives[1].Configs[1].Enabled, "the DMI quirk stays")
	assert.True(t, v.Drives[2].Changed, "no-deepest-ps added bars ps4 of the 990 EVO Plus")

	// --kernel-quirks=false: the configuration's quirks only, as for a
	// capture.
	v = surveyBundleJSONRun(t, "--kernel-quirks=false", bundleDir)
	assert.Equal(t, "none", v.Drives[1].Quirks)
	assert.True(t, v.Drives[1].Changed)

	// Another release: its tables, looked up with the bundle's identity.
	v = surveyBundleJSONRun(t, "--with", "", "--with", "kernel=6.1", bundleDir)
	assert.Contains(t, strings.Join(v.Drives[1].Bundle.Notes, "\n"), "[2] quirks looked up in the tables of release 6.1")
}

// bundleVariants returns testdata/bundle and copies of it changed the ways
// machines differ: force_apst=Y, a Debian release with its stable base,
// a sysfs quirks file that departs from the tables, a module default bound
// of 25 ms.
func bundleVariants(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{"testdata/bundle": bundleDir}
	edit := func(name string, change func(dir string)) {
		dir := copyBundle(t)
		change(dir)
		out[name] = dir
	}
	write := func(dir, rel, s string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, filepath.FromSlash(rel)), []byte(s), 0o644))
	}
	edit("force_apst=Y", func(dir string) { write(dir, "module/nvme_core/parameters/force_apst", "Y\n") })
	edit("debian", func(dir string) {
		b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
		require.NoError(t, err)
		write(dir, "manifest.json", strings.Replace(string(b), `"6.8.0-fixture"`, `"5.10.0-28-amd64 (Debian 5.10.209-2)"`, 1))
	})
	edit("sysfs quirks", func(dir string) {
		write(dir, "class/nvme/nvme0/quirks", "medium_prio_sq\n")
		write(dir, "class/nvme/nvme2/quirks", "no_deepest_ps\n")
	})
	edit("no PCI device ID", func(dir string) {
		require.NoError(t, os.Remove(filepath.Join(dir, "class/nvme/nvme0/device/device")))
		require.NoError(t, os.Remove(filepath.Join(dir, "class/nvme/nvme1/device/vendor")))
	})
	edit("default 25ms", func(dir string) {
		write(dir, "module/nvme_core/parameters/default_ps_max_latency_us", "25000\n")
		write(dir, "class/nvme/nvme0/power/pm_qos_latency_tolerance_us", "25000\n")
	})
	return out
}

// A survey of a bundle agrees with inspect on it: under the empty
// configuration (the machine as it is) every controller's table is the one
// inspect says the kernel programs, with the same quirks and parameters.
func TestSurveyBundleAgreesWithInspect(t *testing.T) {
	for name, dir := range bundleVariants(t) {
		t.Run(name, func(t *testing.T) {
			code, out, errOut := runCmd(runInspect, "--root", dir, "--format", "json")
			require.Contains(t, []int{exitOK, exitFailure}, code, errOut) // 1: an attribute unreadable
			var rep struct {
				Controllers []struct {
					Name   string `json:"name"`
					Params struct {
						Quirks string `json:"quirks"`
						Config string `json:"config"`
					} `json:"params"`
					Plan *struct {
						Sent    bool      `json:"sent"`
						Enabled bool      `json:"enabled"`
						MaxPS   int       `json:"max_ps"`
						Entries []anEntry `json:"entries"`
					} `json:"plan"`
				} `json:"controllers"`
			}
			require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
			v := surveyBundleJSONRun(t, "--full", "--with", "", "--with", "ps-max-latency-us=25000", dir)
			require.Len(t, v.Drives, len(rep.Controllers))
			for i, c := range rep.Controllers {
				d := v.Drives[i]
				require.NotNil(t, c.Plan, c.Name)
				assert.Equal(t, c.Name, d.Bundle.Controller)
				got := d.Configs[0]
				assert.Equal(t, c.Params.Quirks, d.Quirks, c.Name)
				assert.Equal(t, c.Plan.Sent, got.Sent, c.Name)
				assert.Equal(t, c.Plan.Enabled, got.Enabled, c.Name)
				assert.Equal(t, c.Plan.MaxPS, got.MaxPS, c.Name)
				assert.Equal(t, c.Plan.Entries, got.Entries, c.Name)
			}
		})
	}
}

// A bundle that lacks a PCI ID says so (the file its manifest lists is
// missing: unknown, not "not a PCI function"): the row's quirks rest on
// the ID the lookup inferred from the model, as a capture's would.
func TestSurveyBundleWithoutPCIID(t *testing.T) {
	b := copyBundle(t)
	require.NoError(t, os.Remove(filepath.Join(b, "class/nvme/nvme0/device/device")))
	v := surveyBundleJSONRun(t, b)
	d := v.Drives[0]
	assert.Equal(t, "no-deepest-ps", d.Quirks)
	require.NotNil(t, d.Bundle.Assumptions)
	require.NotNil(t, d.Bundle.Assumptions.PCIIDInferred)
	assert.Equal(t, "8086:f1a5", d.Bundle.Assumptions.PCIIDInferred.ID)
	// The manifest lists the file the bundle lacks: the ID is unknown, and
	// the controller is no less a PCI function.
	assert.Contains(t, d.Bundle.PCIIDGap, "class/nvme/nvme0/device/device could not be read")
	assert.NotContains(t, d.Bundle.PCIIDGap, "not a PCI function")
	assert.Contains(t, d.QuirksInferred, "PCI ID 8086:f1a5 inferred from the model")
	assert.Equal(t, 1, v.Summary.QuirksInferred)
	assert.Nil(t, v.Drives[1].Bundle.Assumptions)
}

// A bundle two directories down, beside captures and another tool's
// manifest.json, is found; so is a bundle given as the argument itself.
// An unfinished collect is one unreadable entry, not entered.
func TestSurveyBundleNested(t *testing.T) {
	dir := t.TempDir()
	nested := filepath.Join(dir, "rack", "host1", "bundle")
	require.NoError(t, os.MkdirAll(filepath.Dir(nested), 0o755))
	require.NoError(t, os.CopyFS(nested, os.DirFS(bundleDir)))
	copyTo(t, evoImage, filepath.Join(dir, "evo.bin"))
	other := filepath.Join(dir, "other")
	require.NoError(t, os.MkdirAll(other, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(other, "manifest.json"), []byte(`{"format":"something-else"}`), 0o644))
	copyTo(t, intelImage, filepath.Join(other, "intel.bin"))
	unfinished := filepath.Join(dir, "unfinished")
	require.NoError(t, os.MkdirAll(filepath.Join(unfinished, "class"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(unfinished, ".nvmeapst-incomplete"), nil, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(unfinished, "class", "x"), []byte("x"), 0o644))

	v := surveyBundleJSONRun(t, dir)
	assert.Equal(t, 5, v.Summary.Drives, "the bundle's 3 controllers and 2 captures")
	assert.Equal(t, 3, v.Summary.BundleDrives)
	var paths []string
	for _, d := range v.Drives {
		paths = append(paths, d.Path)
	}
	assert.Equal(t, []string{
		filepath.Join(dir, "evo.bin"), filepath.Join(other, "intel.bin"),
		bundleRowName(nested, "nvme0"), bundleRowName(nested, "nvme1"), bundleRowName(nested, "nvme2"),
	}, paths)
	var unreadable []string
	for _, u := range v.Unreadable {
		unreadable = append(unreadable, u.Path)
	}
	assert.Equal(t, []string{filepath.Join(other, "manifest.json"), unfinished}, unreadable)

	v = surveyBundleJSONRun(t, nested)
	assert.Equal(t, 3, v.Summary.Drives)
	assert.Empty(t, v.Unreadable)
	v = surveyBundleJSONRun(t, nested+string(filepath.Separator))
	assert.Equal(t, bundleRowName(nested, "nvme0"), v.Drives[0].Path)
}

// A manifest.json past surveyManifestMax (a bundle of more controllers
// than a survey reads of one, or a crafted file) is one unreadable entry
// saying so, not a folder of captures whose every file is unreadable.
func TestSurveyBundleManifestTooLarge(t *testing.T) {
	dir := t.TempDir()
	b := filepath.Join(dir, "big")
	require.NoError(t, os.CopyFS(b, os.DirFS(bundleDir)))
	huge := append([]byte(`{"format":"nvmeapst-bundle","version":1,"files":[`), bytes.Repeat([]byte(`"class/nvme/nvme0/model",`), surveyManifestMax/25)...)
	require.NoError(t, os.WriteFile(filepath.Join(b, "manifest.json"), append(huge, `"x"]}`...), 0o644))
	copyTo(t, evoImage, filepath.Join(dir, "evo.bin"))
	v := surveyBundleJSONRun(t, dir)
	assert.Equal(t, 1, v.Summary.Drives, "the capture beside it")
	require.Len(t, v.Unreadable, 1)
	assert.Equal(t, b, v.Unreadable[0].Path)
	assert.Contains(t, v.Unreadable[0].Error, "manifest.json larger than 4194304 bytes")
}

// A device node and a FIFO inside a bundle are never opened: the
// controllers whose files they replace are reported with what is missing.
func TestSurveyBundleNodesNotOpened(t *testing.T) {
	dir := t.TempDir()
	b := filepath.Join(dir, "a", "b")
	require.NoError(t, os.MkdirAll(filepath.Dir(b), 0o755))
	require.NoError(t, os.CopyFS(b, os.DirFS(bundleDir)))
	dev := filepath.Join(b, "class/nvme/nvme0/model")
	fifo := filepath.Join(b, "ioctl/nvme1/identify.bin")
	require.NoError(t, os.Remove(dev))
	require.NoError(t, os.Remove(fifo))
	testfixture.Mknod(t, dev, 1, 3)
	testfixture.Mkfifo(t, fifo)
	opened := testfixture.WatchOpens(t, dev, fifo)
	var v surveyBundleOut
	testfixture.Within(t, 10e9, func() { v = surveyBundleJSONRun(t, dir) })
	assert.Empty(t, opened())
	require.Len(t, v.Drives, 2)
	assert.Equal(t, bundleRowName(b, "nvme0"), v.Drives[0].Path)
	assert.Contains(t, strings.Join(v.Drives[0].Bundle.Notes, "\n"), "a character device")
	require.Len(t, v.Unreadable, 1)
	assert.Equal(t, bundleRowName(b, "nvme1"), v.Unreadable[0].Path)
	assert.Contains(t, v.Unreadable[0].Error, "a named pipe (FIFO)")
}

// A bundle listing more controllers than the limit is one unreadable
// entry, read no further.
func TestSurveyBundleControllersLimit(t *testing.T) {
	b := copyBundle(t)
	var man map[string]any
	p := filepath.Join(b, "manifest.json")
	raw, err := os.ReadFile(p)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &man))
	var ctrls []any
	for i := range surveyBundleControllersMax + 1 {
		ctrls = append(ctrls, map[string]any{"name": "nvme" + strconv.Itoa(i)})
	}
	man["controllers"] = ctrls
	raw, err = json.Marshal(man)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(p, raw, 0o644))
	code, out, errOut := anRun(t, cmdFunc("survey"), nil, "--format", "json", b)
	assert.Equal(t, exitUsage, code, "nothing readable")
	assert.Empty(t, out, "a refused survey writes no report")
	assert.Contains(t, errOut, "apstctl survey: unreadable: "+b+": ")
	assert.Contains(t, errOut, "lists 4097 controllers: the limit is 4096")
}

// Shards holding bundle rows merge like any other: the rows keep what they
// say of their bundle, and the summary counts them.
func TestSurveyBundleMerge(t *testing.T) {
	dir := t.TempDir()
	caps := filepath.Join(dir, "caps")
	require.NoError(t, os.MkdirAll(caps, 0o755))
	copyTo(t, evoImage, filepath.Join(caps, "evo.bin"))
	s1, s2 := filepath.Join(dir, "s1.json"), filepath.Join(dir, "s2.json")
	surveyTo(t, s1, "--format", "json", bundleDir)
	surveyTo(t, s2, "--format", "json", caps)
	v := surveyBundleJSONRun(t, "--merge", s1, s2)
	assert.Equal(t, 4, v.Summary.Drives)
	assert.Equal(t, 3, v.Summary.BundleDrives)
	require.Len(t, v.Drives, 4)
	require.NotNil(t, v.Drives[1].Bundle)
	assert.Equal(t, "144d:a804", v.Drives[1].Bundle.PCIID)
	assert.Nil(t, v.Drives[3].Bundle)

	// From NDJSON shards too.
	n1 := filepath.Join(dir, "s1.ndjson")
	surveyTo(t, n1, "--format", "ndjson", bundleDir)
	nv := surveyBundleJSONRun(t, "--merge", n1, s2)
	assert.Equal(t, v.Summary, nv.Summary)

	// One survey of both gives the same summary.
	both := filepath.Join(dir, "both")
	require.NoError(t, os.MkdirAll(both, 0o755))
	require.NoError(t, os.CopyFS(filepath.Join(both, "bundle"), os.DirFS(bundleDir)))
	copyTo(t, evoImage, filepath.Join(both, "evo.bin"))
	w := surveyBundleJSONRun(t, both)
	assert.Equal(t, w.Summary, v.Summary)
}
