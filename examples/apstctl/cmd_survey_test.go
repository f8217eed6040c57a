package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/survey"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

const (
	surveySmartctl = "../../testdata/corpus/smartctl"
	surveyBinary   = "../../testdata/corpus/binary/synthetic"
	surveyEVOName  = "Samsung_SSD_990_EVO_Plus_1TB_2B2QKXG7"
)

type surveyConfigOut struct {
	Name                  string    `json:"name"`
	Sent                  bool      `json:"sent"`
	Enabled               bool      `json:"enabled"`
	MaxPS                 int       `json:"max_ps"`
	MaxRoundTripUS        uint64    `json:"max_round_trip_us"`
	Entries               []anEntry `json:"entries"`
	DeepestState          int       `json:"deepest_state"`
	WorstExitLatencyUS    uint64    `json:"worst_exit_latency_us"`
	DeepestStateMaxPowerW float64   `json:"deepest_state_max_power_w"`
}

type surveyOut struct {
	Drives []struct {
		Path             string            `json:"path"`
		Model            string            `json:"model"`
		Firmware         string            `json:"firmware"`
		Vendor           string            `json:"vendor"`
		Format           string            `json:"format"`
		Changed          bool              `json:"changed"`
		Configs          []surveyConfigOut `json:"configs"`
		IdlePowerDeltaMW float64           `json:"idle_power_delta_mw"`
		Changes          []struct {
			Config           int     `json:"config"`
			Changed          bool    `json:"changed"`
			StallReductionUS int64   `json:"stall_reduction_us"`
			IdlePowerDeltaMW float64 `json:"idle_power_delta_mw"`
			Bars             string  `json:"bars"`
			BarredStates     []int   `json:"barred_states"`
		} `json:"changes"`
	} `json:"drives"`
	Summary struct {
		Drives          int  `json:"drives"`
		Changed         int  `json:"changed"`
		UnreadableFiles int  `json:"unreadable_files"`
		SkippedFiles    int  `json:"skipped_files"`
		KernelQuirks    bool `json:"kernel_quirks"`
		Comparisons     []struct {
			Config           int      `json:"config"`
			Changed          int      `json:"changed"`
			Unchanged        int      `json:"unchanged"`
			NoIdle           int      `json:"no_idle"`
			BarsNone         []string `json:"bars_none"`
			BarsSome         int      `json:"bars_some"`
			BarsAll          []string `json:"bars_all"`
			Gains            int      `json:"gains"`
			StallReductionUS struct {
				N      int   `json:"n"`
				Median int64 `json:"median"`
				Sum    int64 `json:"sum"`
			} `json:"stall_reduction_us"`
			IdlePowerIncreaseMW struct {
				N   int     `json:"n"`
				Sum float64 `json:"sum"`
			} `json:"idle_power_increase_mw"`
			ByVendor []struct {
				Vendor  string `json:"vendor"`
				Drives  int    `json:"drives"`
				Changed int    `json:"changed"`
			} `json:"by_vendor"`
		} `json:"comparisons"`
		StallBudget *struct {
			BudgetUS uint64   `json:"budget_us"`
			BoundUS  uint64   `json:"bound_us"`
			Binding  []string `json:"binding"`
			Changed  int      `json:"changed"`
		} `json:"stall_budget"`
	} `json:"summary"`
	Unreadable []struct {
		Path  string `json:"path"`
		Error string `json:"error"`
	} `json:"unreadable"`
}

func surveyRunJSON(t *testing.T, args ...string) (surveyOut, string) {
	t.Helper()
	code, out, errOut := anRun(t, cmdFunc("survey"), nil, append([]string{"--format", "json"}, args...)...)
	require.Equal(t, 0, code, errOut)
	var v surveyOut
	require.NoError(t, json.Unmarshal([]byte(out), &v), out)
	return v, out
}

// surveyLibrary surveys the captures under dir (those the command reads)
// with the library, as the command would: what its report must say.
func surveyLibrary(t *testing.T, dir string, with ...string) (*survey.Survey, int) {
	t.Helper()
	configs, err := surveyConfigs(with)
	require.NoError(t, err)
	s, err := survey.NewWithOptions(survey.Options{KernelQuirks: true}, configs...)
	require.NoError(t, err)
	files := 0
	err = filepath.WalkDir(dir, func(path string, de os.DirEntry, err error) error {
		if err != nil || de.IsDir() || surveySkips(de.Name(), false) {
			return err
		}
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		c, err := capture.ParseBytes(b)
		require.NoError(t, err, path)
		_, err = s.Add(path, &c)
		require.NoError(t, err)
		files++
		return nil
	})
	require.NoError(t, err)
	return s, files
}

func TestSurveyCommandCorpusJSON(t *testing.T) {
	v, out := surveyRunJSON(t, "--stall-budget", "25ms", surveySmartctl)
	lib, files := surveyLibrary(t, surveySmartctl)
	sum, budget := lib.Summary(), lib.StallBudget(25000)

	// The top-level keys: the configurations first (what --merge needs
	// before the drives), then drives, summary and unreadable; each drive
	// has the keys of cli.md and its bound sweep, but not the tables.
	var raw map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(out), &raw))
	assert.ElementsMatch(t, []string{"configs", "kernel_quirks", "drives", "summary", "unreadable"}, slices.Collect(mapKeys(raw)))
	assert.True(t, strings.HasPrefix(out, `{"configs":[`), out[:40])
	var drives []map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw["drives"], &drives))
	for _, k := range []string{"path", "model", "firmware", "vendor", "vendor_id", "format", "quirks", "changed", "configs", "idle_power_delta_mw", "changes", "bound_sweep"} {
		assert.Contains(t, drives[0], k)
	}
	var cfgs []map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(drives[0]["configs"], &cfgs))
	for _, k := range []string{"sent", "enabled", "max_ps", "max_round_trip_us", "deepest_state", "worst_exit_latency_us", "deepest_state_max_power_w", "reachable_states", "outcome"} {
		assert.Contains(t, cfgs[0], k)
	}
	for _, k := range []string{"entries", "params", "mode"} {
		assert.NotContains(t, cfgs[0], k, "only with --full")
	}
	assert.Less(t, len(out)/len(v.Drives), 1500, "bytes per drive")

	require.Len(t, v.Drives, files, "every drive of the corpus")
	assert.Equal(t, testfixture.SmartctlReports(t), files)
	assert.Empty(t, v.Unreadable)
	assert.Equal(t, sum.Drives, v.Summary.Drives)
	assert.Equal(t, sum.Changed, v.Summary.Changed)
	assert.Equal(t, 1, v.Summary.SkippedFiles, "MANIFEST.tsv")
	assert.True(t, v.Summary.KernelQuirks)
	require.Len(t, v.Summary.Comparisons, 1)
	c, want := v.Summary.Comparisons[0], sum.Comparisons[0]
	assert.Equal(t, want.Changed, c.Changed)
	assert.Equal(t, want.Drives-want.Changed, c.Unchanged)
	assert.Equal(t, want.BarsAll, c.BarsAll)
	assert.Equal(t, want.BarsNone, c.BarsNone)
	assert.Equal(t, want.NoIdle, c.NoIdle)
	assert.Equal(t, want.StallReduction.Sum, c.StallReductionUS.Sum)
	assert.Equal(t, files, c.NoIdle+len(c.BarsNone)+c.BarsSome+len(c.BarsAll))
	vd, vc := 0, 0
	for _, vv := range c.ByVendor {
		vd += vv.Drives
		vc += vv.Changed
	}
	assert.Equal(t, files, vd)
	assert.Equal(t, want.Changed, vc)
	require.NotNil(t, v.Summary.StallBudget)
	assert.EqualValues(t, 25000, v.Summary.StallBudget.BudgetUS)
	assert.EqualValues(t, budget.Bound, v.Summary.StallBudget.BoundUS)
	assert.Equal(t, budget.Binding, v.Summary.StallBudget.Binding)

	changed := 0
	paths := make([]string, len(v.Drives))
	found := false
	for i, d := range v.Drives {
		paths[i] = d.Path
		require.Len(t, d.Configs, 2)
		assert.Empty(t, d.Configs[0].Entries)
		if d.Changed {
			changed++
		}
		if strings.Contains(d.Path, surveyEVOName) {
			found = true
			assert.Equal(t, "Samsung SSD 990 EVO Plus 1TB", d.Model)
			assert.Equal(t, "2B2QKXG7", d.Firmware)
			assert.Equal(t, "smartctl-text", d.Format)
			assert.EqualValues(t, 43000, d.Configs[0].WorstExitLatencyUS)
			assert.EqualValues(t, 4600, d.Configs[1].WorstExitLatencyUS)
			assert.Equal(t, 4, d.Configs[0].DeepestState)
			assert.Equal(t, 3, d.Configs[1].DeepestState)
			assert.InDelta(t, 73.0, d.IdlePowerDeltaMW, 1e-9)
			assert.EqualValues(t, 38400, d.Changes[0].StallReductionUS)
			assert.Equal(t, []int{4}, d.Changes[0].BarredStates)
			assert.Equal(t, "some", d.Changes[0].Bars)
		}
	}
	assert.True(t, found)
	assert.Equal(t, sum.Changed, changed)
	assert.True(t, slices.IsSorted(paths), "lexical order")

	// What the quirks rest on is said: per drive, and counted.
	var rows []struct {
		Path         string   `json:"path"`
		Quirks       string   `json:"quirks"`
		InferredFrom string   `json:"quirks_inferred_from"`
		Unchecked    []string `json:"quirks_unchecked_pci"`
	}
	require.NoError(t, json.Unmarshal(raw["drives"], &rows))
	var counts struct {
		Inferred  int `json:"quirks_inferred"`
		Unchecked int `json:"quirks_unchecked"`
	}
	require.NoError(t, json.Unmarshal(raw["summary"], &counts))
	inferred, unchecked := 0, 0
	for _, r := range rows {
		if r.InferredFrom != "" {
			inferred++
		}
		if len(r.Unchecked) > 0 {
			unchecked++
		}
		if strings.HasSuffix(r.Path, "Intel_SSDPEKKW256G7_PSF109C.txt") {
			assert.Equal(t, "no-deepest-ps", r.Quirks, "the Intel 600p's PCI quirk, by its model")
			assert.Contains(t, r.InferredFrom, "8086:f1a5")
		}
	}
	assert.Equal(t, inferred, counts.Inferred)
	assert.Equal(t, unchecked, counts.Unchecked)
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// The report is the same bytes run after run and whatever the number of
// workers, in every format.
func TestSurveyCommandDeterministic(t *testing.T) {
	args := []string{"--with", "policy=linux-default", "--with", "policy=windows-balanced-dc", "--with", "ps-max-latency-us=25000",
		surveySmartctl, surveyBinary}
	for _, f := range []string{"json", "ndjson", "text", "csv"} {
		var first string
		fargs := args
		if f != "csv" { // CSV holds the drives only: no budget
			fargs = append([]string{"--stall-budget", "10ms"}, args...)
		}
		for _, workers := range []string{"1", "1", "2", "7"} {
			code, out, errOut := anRun(t, cmdFunc("survey"), nil, append([]string{"--format", f, "--workers", workers}, fargs...)...)
			require.Equal(t, exitOK, code, errOut)
			if first == "" {
				first = out
				continue
			}
			assert.Equal(t, first, out, "--format %s --workers %s", f, workers)
		}
	}
	_, a, _ := anRun(t, cmdFunc("survey"), nil, "--format", "json", "--full", "--workers", "1", surveySmartctl)
	_, b, _ := anRun(t, cmdFunc("survey"), nil, "--format", "json", "--full", "--workers", "3", surveySmartctl)
	assert.Equal(t, a, b, "--full")
}

// With --full, every drive's configurations are what "apstctl compare"
// prints for the same capture and configurations.
func TestSurveyCommandAgreesWithCompare(t *testing.T) {
	with := []string{"ps-max-latency-us=100000", "ps-max-latency-us=25000"}
	v, _ := surveyRunJSON(t, "--full", "--with", with[0], "--with", with[1], surveyBinary)
	require.NotEmpty(t, v.Drives)
	changed := 0
	for _, d := range v.Drives {
		var cmp struct {
			Configs          []surveyConfigOut `json:"configs"`
			IdlePowerDeltaMW float64           `json:"idle_power_delta_mw"`
			Differences      []struct {
				Field string `json:"field"`
			} `json:"differences"`
		}
		anJSON(t, runCompare, &cmp, d.Path, "--with", with[0], "--with", with[1])
		require.Len(t, d.Configs[0].Entries, 32)
		assert.Equal(t, cmp.Configs, d.Configs, d.Path)
		assert.Equal(t, cmp.IdlePowerDeltaMW, d.IdlePowerDeltaMW, d.Path)
		differs := slices.ContainsFunc(cmp.Differences, func(x struct {
			Field string `json:"field"`
		}) bool {
			return x.Field == "sent" || x.Field == "enabled" || x.Field == "entry"
		})
		assert.Equal(t, differs, d.Changed, d.Path)
		if differs {
			changed++
		}
	}
	assert.Equal(t, changed, v.Summary.Changed)
}

// A mixed collection: captures in several formats and directories, files
// that are skipped by name, and files that are listed as unreadable.
func TestSurveyCommandMixedDirectory(t *testing.T) {
	dir := t.TempDir()
	copyFile := func(src, dst string) {
		b, err := os.ReadFile(src)
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll(filepath.Dir(dst), 0o755))
		require.NoError(t, os.WriteFile(dst, b, 0o644))
	}
	write := func(name, s string) {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(s), 0o644))
	}
	copyFile(filepath.Join(surveySmartctl, surveyEVOName+".txt"), filepath.Join(dir, "a", "evo.smartctl.txt"))
	copyFile(filepath.Join(surveyBinary, "SKhynix_PC401_NVMe_512GB_80003E00.id-ctrl.bin"), filepath.Join(dir, "b", "deep", "pc401.bin"))
	copyFile("../../testdata/corpus/nvme-cli/synthetic/Kingston_SNV3S1000G_ERFK1N.3.json", filepath.Join(dir, "c.json"))
	write("README.md", "# not a capture\n")
	write("MANIFEST.tsv", "a\tb\n")
	write(".git/config", "[core]\n")
	write("notes.txt", "hello\n")
	write("empty", "")
	big := make([]byte, capture.MaxSize+1)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "huge.bin"), big, 0o644))

	v, _ := surveyRunJSON(t, "--stall-budget", "25000", dir)
	require.Len(t, v.Drives, 3)
	assert.Equal(t, filepath.Join(dir, "a", "evo.smartctl.txt"), v.Drives[0].Path)
	assert.Equal(t, filepath.Join(dir, "b", "deep", "pc401.bin"), v.Drives[1].Path)
	assert.Equal(t, filepath.Join(dir, "c.json"), v.Drives[2].Path)
	assert.Equal(t, []string{"smartctl-text", "binary", "nvme-cli-json"}, []string{v.Drives[0].Format, v.Drives[1].Format, v.Drives[2].Format})
	assert.Equal(t, "all", v.Drives[2].Changes[0].Bars, "the Kingston NV3 loses ps3 (EXLAT 50000)")
	assert.Equal(t, 2, v.Summary.SkippedFiles, "README.md and MANIFEST.tsv; .git is skipped as a directory")
	require.Len(t, v.Unreadable, 3)
	assert.Equal(t, filepath.Join(dir, "empty"), v.Unreadable[0].Path)
	assert.Contains(t, v.Unreadable[0].Error, "the capture is empty")
	assert.Equal(t, filepath.Join(dir, "huge.bin"), v.Unreadable[1].Path)
	assert.Contains(t, v.Unreadable[1].Error, "larger than 1048576 bytes")
	assert.Equal(t, filepath.Join(dir, "notes.txt"), v.Unreadable[2].Path)
	assert.Equal(t, 3, v.Summary.UnreadableFiles)

	// Text lists the unreadable files with their reasons; CSV sends them to
	// stderr.
	code, text, _ := anRun(t, cmdFunc("survey"), nil, dir)
	require.Equal(t, 0, code)
	assert.Contains(t, text, "3 drives surveyed; 3 unreadable files, 2 skipped by name")
	assert.Contains(t, text, "unreadable: "+filepath.Join(dir, "notes.txt")+": capture: ")
	code, _, errOut := anRun(t, cmdFunc("survey"), nil, "--format", "csv", dir)
	require.Equal(t, 0, code)
	assert.Contains(t, errOut, "unreadable: "+filepath.Join(dir, "huge.bin"))

	// A file argument is surveyed as is.
	v, _ = surveyRunJSON(t, filepath.Join(dir, "c.json"))
	assert.Len(t, v.Drives, 1)
}

func TestSurveyCommandCSV(t *testing.T) {
	code, out, errOut := anRun(t, cmdFunc("survey"), nil, "--format", "csv", surveySmartctl)
	require.Equal(t, 0, code, errOut)
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	require.NoError(t, err)
	require.Len(t, recs, 1+testfixture.SmartctlReports(t), "a header and one row per drive")
	h := recs[0]
	col := func(name string) int {
		i := slices.Index(h, name)
		require.GreaterOrEqual(t, i, 0, name)
		return i
	}
	assert.Equal(t, []string{"path", "vendor", "vendor_id", "model", "firmware", "format", "quirks", "changed"}, h[:8])
	found := false
	for _, r := range recs[1:] {
		require.Len(t, r, len(h))
		if !strings.Contains(r[0], surveyEVOName) {
			continue
		}
		found = true
		assert.Equal(t, "Samsung", r[col("vendor")])
		assert.Equal(t, "0x144d", r[col("vendor_id")])
		assert.Equal(t, "true", r[col("changed")])
		assert.Equal(t, "43000", r[col("c1_worst_exit_latency_us")])
		assert.Equal(t, "4600", r[col("c2_worst_exit_latency_us")])
		assert.Equal(t, "0.007", r[col("c1_deepest_state_max_power_w")])
		assert.Equal(t, "0.08", r[col("c2_deepest_state_max_power_w")])
		assert.Equal(t, "73", r[col("c2_idle_power_delta_mw")])
		assert.Equal(t, "38400", r[col("c2_stall_reduction_us")])
		assert.Equal(t, "ps4", r[col("c2_barred_states")])
	}
	assert.True(t, found)
}

func TestSurveyCommandText(t *testing.T) {
	code, out, errOut := anRun(t, cmdFunc("survey"), nil, "--stall-budget", "25ms", surveySmartctl)
	require.Equal(t, 0, code, errOut)
	lib, files := surveyLibrary(t, surveySmartctl)
	sum, budget := lib.Summary().Comparisons[0], lib.StallBudget(25000)
	assert.Contains(t, out, "[1] ps-max-latency-us=100000: kernel current")
	assert.Contains(t, out, "[2] ps-max-latency-us=25000: kernel current")
	var evo string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, surveyEVOName) {
			evo = l
		}
	}
	assert.Regexp(t, `^\* Samsung +ps4 +43000us +0\.0070W +ps3 +4600us +0\.0800W +\+73\.0 mW `, evo)
	assert.Contains(t, out, fmt.Sprintf("%d drives surveyed; 0 unreadable files, 1 skipped by name; kernel quirks applied", files))
	assert.Contains(t, out, fmt.Sprintf("the table changes on %d of %d drives (%d unchanged)", sum.Changed, files, files-sum.Changed))
	assert.Contains(t, out, fmt.Sprintf("bars every non-operational state [1] reaches: %d drives", len(sum.BarsAll)))
	assert.Contains(t, out, fmt.Sprintf("largest default bound that keeps every drive's worst wake stall within 25000us: %s", budget.Bound))
	if n := len(sum.BarsNone); n > 20 {
		assert.Contains(t, out, fmt.Sprintf("... and %d more (all in --format json)", n-20))
	}

	// One --with: the Linux default against it.
	code, out, _ = anRun(t, cmdFunc("survey"), nil, "--with", "policy=windows-balanced-dc", "--kernel-quirks=false", surveySmartctl)
	require.Equal(t, 0, code)
	assert.Contains(t, out, "[1] ps-max-latency-us=100000")
	assert.Contains(t, out, "[2] policy=windows-balanced-dc: kernel current (tolerance), bound unlimited")
	assert.Contains(t, out, "kernel quirks not applied")
}

func TestSurveyCommandSVG(t *testing.T) {
	for _, with := range [][]string{nil, {"ps-max-latency-us=100000", "policy=windows-balanced-dc", "ps-max-latency-us=0"}} {
		file := filepath.Join(t.TempDir(), "fleet.svg")
		args := []string{"--svg", file}
		for _, w := range with {
			args = append(args, "--with", w)
		}
		code, _, errOut := anRun(t, cmdFunc("survey"), nil, append(args, surveySmartctl)...)
		require.Equal(t, 0, code, errOut)
		configs := max(len(with), 2)
		b, err := os.ReadFile(file)
		require.NoError(t, err)
		points, legend, perConfig := countSVG(t, b)
		drives := testfixture.SmartctlReports(t)
		assert.Equal(t, drives*configs, points, "a mark per drive and configuration")
		assert.Equal(t, configs, legend)
		for i := range configs {
			assert.Equal(t, drives, perConfig[strconv.Itoa(i)], "config %d", i)
		}
	}
	code, _, errOut := anRun(t, cmdFunc("survey"), nil, "--svg", filepath.Join(t.TempDir(), "no", "such", "dir.svg"), surveySmartctl)
	assert.Equal(t, exitFailure, code, "a failed write is a runtime failure: %s", errOut)
	assert.Contains(t, errOut, "--svg")
}

// countSVG parses an SVG as XML and counts the elements of class "point"
// (per data-config) and those of class "legend".
func countSVG(t *testing.T, b []byte) (points, legend int, perConfig map[string]int) {
	t.Helper()
	perConfig = map[string]int{}
	dec := xml.NewDecoder(bytes.NewReader(b))
	root := ""
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if root == "" {
			root = se.Name.Local
			assert.Equal(t, "http://www.w3.org/2000/svg", se.Name.Space)
		}
		var class, cfg string
		for _, a := range se.Attr {
			switch a.Name.Local {
			case "class":
				class = a.Value
			case "data-config":
				cfg = a.Value
			}
		}
		fields := strings.Fields(class)
		if slices.Contains(fields, "point") {
			points++
			perConfig[cfg]++
		}
		if slices.Contains(fields, "legend") && cfg != "" {
			legend++
		}
	}
	assert.Equal(t, "svg", root)
	return points, legend, perConfig
}

func TestSurveyCommandErrors(t *testing.T) {
	empty := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(empty, "README.md"), []byte("x"), 0o644))
	// The largest int64 is past a 32-bit int: there the flag's own parse
	// refuses it, before the range check.
	maxIntWant := "want 1 to 256"
	if strconv.IntSize == 32 {
		maxIntWant = "--workers 9223372036854775807: value out of range"
	}
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{nil, exitUsage, "want at least 1 argument, got 0: usage: apstctl survey [flags] DIR...\n"},
		{[]string{"--format", "xml", surveySmartctl}, exitUsage, "--format xml: want text, normal, json, ndjson or csv"},
		{[]string{"--workers", "0", surveySmartctl}, exitUsage, "--workers 0: want 1 to 256"},
		{[]string{"--workers", "257", surveySmartctl}, exitUsage, "--workers 257: want 1 to 256"},
		{[]string{"--workers", "1000000000", surveySmartctl}, exitUsage, "want 1 to 256"},
		{[]string{"--workers", "9223372036854775807", surveySmartctl}, exitUsage, maxIntWant},
		{[]string{"--merge", "--with", "kernel=v4.12", surveySmartctl}, exitUsage, "--merge takes"},
		{[]string{"--merge", "--format", "csv", surveySmartctl}, exitUsage, "--merge takes"},
		{[]string{"--merge", filepath.Join(surveySmartctl, "MANIFEST.tsv")}, exitUsage, "not a survey report"},
		{[]string{"--with", "bogus=1", surveySmartctl}, exitUsage, "unknown key"},
		{[]string{"--with", "policy=nope", surveySmartctl}, exitUsage, "unknown policy"},
		{[]string{"--stall-budget", "-5ms", surveySmartctl}, exitUsage, "--stall-budget"},
		{[]string{"--stall-budget", "soon", surveySmartctl}, exitUsage, "--stall-budget"},
		{[]string{"/no/such/dir"}, exitUsage, "no such file"},
		{[]string{empty}, exitUsage, "no readable capture"},
		{[]string{"--bogus", surveySmartctl}, exitUsage, "unknown flag --bogus"},
		{[]string{"-h"}, exitOK, "usage: apstctl survey"},
	} {
		code, out, errOut := anRun(t, cmdFunc("survey"), nil, tc.args...)
		assert.Equal(t, tc.code, code, "%q", tc.args)
		if code == exitOK {
			assert.Contains(t, out, tc.msg, "%q: help goes to stdout", tc.args)
		} else {
			assert.Contains(t, errOut, tc.msg, "%q", tc.args)
		}
	}
}

// surveyBenchFleet writes a synthetic fleet of n captures in format (a
// fleetgen -format) under dir with internal/tools/fleetgen, the program anyone
// can run to repeat the figures.
func surveyBenchFleet(b *testing.B, dir, format string, n int) string {
	b.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		b.Skip("no go command to run internal/tools/fleetgen")
	}
	out := filepath.Join(dir, format)
	cmd := exec.Command(goTool, "run", "../../internal/tools/fleetgen", "-n", strconv.Itoa(n), "-format", format, "-out", out, "-corpus", surveySmartctl)
	if msg, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("fleetgen: %v\n%s", err, msg)
	}
	return out
}

// BenchmarkSurveyCommand runs "apstctl survey" (text report, the default
// configurations) over a fleet of 10000 capture files written by
// internal/tools/fleetgen, in each capture format and mixed, with 1, 2 and
// GOMAXPROCS workers. One op is the whole fleet read, parsed, surveyed and
// reported; captures/s is the throughput.
func BenchmarkSurveyCommand(b *testing.B) {
	const fleet = 10000
	dir := b.TempDir()
	workers := []int{1, 2}
	if n := runtime.GOMAXPROCS(0); n > 2 {
		workers = append(workers, n)
	}
	for _, format := range []string{"binary", "smartctl", "nvme-text", "nvme-json", "mixed"} {
		fleetDir := ""
		for _, w := range workers {
			b.Run(fmt.Sprintf("format=%s/workers=%d", format, w), func(b *testing.B) {
				if fleetDir == "" {
					fleetDir = surveyBenchFleet(b, dir, format, fleet)
				}
				args := []string{"--workers", strconv.Itoa(w), fleetDir}
				var errOut bytes.Buffer
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					if code := cmdFunc("survey")(args, nil, io.Discard, &errOut); code != exitOK {
						b.Fatal(errOut.String())
					}
				}
				b.ReportMetric(float64(fleet*b.N)/b.Elapsed().Seconds(), "captures/s")
			})
		}
	}
}
