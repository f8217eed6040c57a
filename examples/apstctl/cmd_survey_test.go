package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/survey"
	"github.com/nvmeapst/nvmeapst/powerstate"
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
			StallReductionUS struct {
				N      int   `json:"n"`
				Median int64 `json:"median"`
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
	code, out, errOut := anRun(t, runSurvey, nil, append([]string{"--format", "json"}, args...)...)
	require.Equal(t, 0, code, errOut)
	var v surveyOut
	require.NoError(t, json.Unmarshal([]byte(out), &v), out)
	return v, out
}

func TestSurveyCommandCorpusJSON(t *testing.T) {
	v, out := surveyRunJSON(t, "--stall-budget", "25ms", surveySmartctl)

	// The top-level keys are exactly drives, summary and unreadable, and
	// each configuration object carries compare's keys.
	var raw map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(out), &raw))
	assert.ElementsMatch(t, []string{"drives", "summary", "unreadable"}, slices.Collect(mapKeys(raw)))
	var drives []map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw["drives"], &drives))
	for _, k := range []string{"path", "model", "firmware", "changed", "configs"} {
		assert.Contains(t, drives[0], k)
	}
	var cfgs []map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(drives[0]["configs"], &cfgs))
	for _, k := range []string{"sent", "enabled", "max_ps", "max_round_trip_us", "entries", "deepest_state", "worst_exit_latency_us", "deepest_state_max_power_w"} {
		assert.Contains(t, cfgs[0], k)
	}

	require.Len(t, v.Drives, 153, "every drive of the corpus")
	assert.Empty(t, v.Unreadable)
	assert.Equal(t, 153, v.Summary.Drives)
	assert.Equal(t, 62, v.Summary.Changed)
	assert.Equal(t, 1, v.Summary.SkippedFiles, "MANIFEST.tsv")
	assert.True(t, v.Summary.KernelQuirks)
	require.Len(t, v.Summary.Comparisons, 1)
	c := v.Summary.Comparisons[0]
	assert.Equal(t, 62, c.Changed)
	assert.Equal(t, 91, c.Unchanged)
	assert.Len(t, c.BarsAll, 5)
	assert.Equal(t, 11, c.NoIdle)
	assert.Equal(t, 153, c.NoIdle+len(c.BarsNone)+c.BarsSome+len(c.BarsAll))
	vd, vc := 0, 0
	for _, vv := range c.ByVendor {
		vd += vv.Drives
		vc += vv.Changed
	}
	assert.Equal(t, 153, vd)
	assert.Equal(t, 62, vc)
	require.NotNil(t, v.Summary.StallBudget)
	assert.EqualValues(t, 25000, v.Summary.StallBudget.BudgetUS)
	assert.EqualValues(t, 29999, v.Summary.StallBudget.BoundUS)
	assert.Len(t, v.Summary.StallBudget.Binding, 3)

	changed := 0
	paths := make([]string, len(v.Drives))
	for i, d := range v.Drives {
		paths[i] = d.Path
		require.Len(t, d.Configs, 2)
		require.Len(t, d.Configs[0].Entries, 32)
		if d.Changed {
			changed++
		}
		if strings.Contains(d.Path, surveyEVOName) {
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
	assert.Equal(t, 62, changed)
	assert.True(t, slices.IsSorted(paths), "lexical order")
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

func TestSurveyCommandDeterministic(t *testing.T) {
	args := []string{"--with", "policy=linux-default", "--with", "policy=windows-balanced-dc", "--with", "ps-max-latency-us=25000",
		"--stall-budget", "10ms", surveySmartctl, surveyBinary}
	_, a := surveyRunJSON(t, args...)
	_, b := surveyRunJSON(t, args...)
	assert.Equal(t, a, b)
	for _, f := range []string{"text", "csv"} {
		_, x, _ := anRun(t, runSurvey, nil, append([]string{"--format", f}, args...)...)
		_, y, _ := anRun(t, runSurvey, nil, append([]string{"--format", f}, args...)...)
		assert.Equal(t, x, y, f)
	}
}

// Every drive's survey row agrees with "apstctl compare" on the same
// capture and configurations.
func TestSurveyCommandAgreesWithCompare(t *testing.T) {
	with := []string{"ps-max-latency-us=100000", "ps-max-latency-us=25000"}
	v, _ := surveyRunJSON(t, "--with", with[0], "--with", with[1], surveyBinary)
	require.Len(t, v.Drives, 153)
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
	assert.Equal(t, 62, changed)
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
	big := make([]byte, powerstate.MaxCaptureSize+1)
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
	assert.Contains(t, v.Unreadable[0].Error, "unknown capture format")
	assert.Equal(t, filepath.Join(dir, "huge.bin"), v.Unreadable[1].Path)
	assert.Contains(t, v.Unreadable[1].Error, "1048577 bytes")
	assert.Equal(t, filepath.Join(dir, "notes.txt"), v.Unreadable[2].Path)
	assert.Equal(t, 3, v.Summary.UnreadableFiles)

	// Text lists the unreadable files with their reasons; CSV sends them to
	// stderr.
	code, text, _ := anRun(t, runSurvey, nil, dir)
	require.Equal(t, 0, code)
	assert.Contains(t, text, "3 drives surveyed; 3 unreadable files, 2 skipped by name")
	assert.Contains(t, text, "unreadable: "+filepath.Join(dir, "notes.txt")+": powerstate: ")
	code, _, errOut := anRun(t, runSurvey, nil, "--format", "csv", dir)
	require.Equal(t, 0, code)
	assert.Contains(t, errOut, "unreadable: "+filepath.Join(dir, "huge.bin"))

	// A file argument is surveyed as is.
	v, _ = surveyRunJSON(t, filepath.Join(dir, "c.json"))
	assert.Len(t, v.Drives, 1)
}

func TestSurveyCommandCSV(t *testing.T) {
	code, out, errOut := anRun(t, runSurvey, nil, "--format", "csv", surveySmartctl)
	require.Equal(t, 0, code, errOut)
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	require.NoError(t, err)
	require.Len(t, recs, 154, "a header and one row per drive")
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
	code, out, errOut := anRun(t, runSurvey, nil, "--stall-budget", "25ms", surveySmartctl)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "[1] ps-max-latency-us=100000: kernel current")
	assert.Contains(t, out, "[2] ps-max-latency-us=25000: kernel current")
	var evo string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, surveyEVOName) {
			evo = l
		}
	}
	assert.Regexp(t, `^\* Samsung +ps4 +43000us +0\.0070W +ps3 +4600us +0\.0800W +\+73\.0 mW `, evo)
	assert.Contains(t, out, "153 drives surveyed; 0 unreadable files, 1 skipped by name; kernel quirks applied")
	assert.Contains(t, out, "the table changes on 62 of 153 drives (91 unchanged)")
	assert.Contains(t, out, "bars every non-operational state [1] reaches: 5 drives")
	assert.Contains(t, out, "largest default bound that keeps every drive's worst wake stall within 25000us: 29999us")
	assert.Contains(t, out, "... and 60 more (all in --format json)")

	// One --with: the Linux default against it.
	code, out, _ = anRun(t, runSurvey, nil, "--with", "policy=windows-balanced-dc", "--kernel-quirks=false", surveySmartctl)
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
		code, _, errOut := anRun(t, runSurvey, nil, append(args, surveySmartctl)...)
		require.Equal(t, 0, code, errOut)
		configs := max(len(with), 2)
		b, err := os.ReadFile(file)
		require.NoError(t, err)
		points, legend, perConfig := countSVG(t, b)
		assert.Equal(t, 153*configs, points, "a mark per drive and configuration")
		assert.Equal(t, configs, legend)
		for i := range configs {
			assert.Equal(t, 153, perConfig[strconv.Itoa(i)], "config %d", i)
		}
	}
	code, _, errOut := anRun(t, runSurvey, nil, "--svg", filepath.Join(t.TempDir(), "no", "such", "dir.svg"), surveySmartctl)
	assert.Equal(t, exitUsage, code)
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
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{nil, exitUsage, "want at least one DIR"},
		{[]string{"--format", "xml", surveySmartctl}, exitUsage, "want text, json or csv"},
		{[]string{"--with", "bogus=1", surveySmartctl}, exitUsage, "unknown configuration key"},
		{[]string{"--with", "policy=nope", surveySmartctl}, exitUsage, "unknown policy"},
		{[]string{"--stall-budget", "-5ms", surveySmartctl}, exitUsage, "--stall-budget"},
		{[]string{"--stall-budget", "soon", surveySmartctl}, exitUsage, "--stall-budget"},
		{[]string{"/no/such/dir"}, exitUsage, "no such file"},
		{[]string{empty}, exitUsage, "no readable capture"},
		{[]string{"--bogus", surveySmartctl}, exitUsage, "flag provided but not defined"},
		{[]string{"-h"}, exitOK, "usage: apstctl survey"},
	} {
		code, _, errOut := anRun(t, runSurvey, nil, tc.args...)
		assert.Equal(t, tc.code, code, "%q", tc.args)
		assert.Contains(t, errOut, tc.msg, "%q", tc.args)
	}
}

// BenchmarkSurveyCommand runs "apstctl survey --format json --stall-budget
// 25ms" over 10000 capture files written to a temporary directory: the
// smartctl corpus repeated with varied latencies, in turn as a binary
// image, nvme-cli text, nvme-cli JSON and smartctl text, 100 per
// directory. One op is the whole fleet, read, parsed and reported.
func BenchmarkSurveyCommand(b *testing.B) {
	const fleet = 10000
	dir := b.TempDir()
	var templates []powerstate.Controller
	entries, err := os.ReadDir(surveySmartctl)
	require.NoError(b, err)
	for _, e := range entries {
		if filepath.Ext(e.Name()) != ".txt" {
			continue
		}
		f, err := os.Open(filepath.Join(surveySmartctl, e.Name()))
		require.NoError(b, err)
		c, err := powerstate.Parse(f)
		f.Close()
		require.NoError(b, err)
		templates = append(templates, c)
	}
	for i := range fleet {
		c := templates[i%len(templates)]
		f := uint64(50 + (i/len(templates)*37)%101)
		for s := range c.States() {
			if d := &c.PowerStates[s]; d.NonOperational {
				d.ExitLatency = powerstate.Microseconds(uint64(d.ExitLatency) * f / 100)
				d.EntryLatency = powerstate.Microseconds(uint64(d.EntryLatency) * f / 100)
			}
		}
		var buf bytes.Buffer
		ext := ""
		switch i % 4 {
		case 0:
			img, err := c.MarshalBinary()
			require.NoError(b, err)
			buf.Write(img)
			ext = ".bin"
		case 1:
			require.NoError(b, powerstate.WriteNVMeCLIText(&buf, &c))
			ext = ".nvme.txt"
		case 2:
			require.NoError(b, powerstate.WriteNVMeCLIJSON(&buf, &c))
			ext = ".json"
		default:
			require.NoError(b, powerstate.WriteSmartctlText(&buf, &c))
			ext = ".smartctl.txt"
		}
		p := filepath.Join(dir, fmt.Sprintf("rack%03d", i/100), fmt.Sprintf("host%05d%s", i, ext))
		require.NoError(b, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(b, os.WriteFile(p, buf.Bytes(), 0o644))
	}
	args := []string{"--format", "json", "--stall-budget", "25ms", dir}
	var errOut bytes.Buffer
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if code := runSurvey(args, nil, io.Discard, &errOut); code != exitOK {
			b.Fatal(errOut.String())
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/fleet, "ns/drive")
}

// The hand-written per-drive JSON is byte for byte what encoding/json
// writes, on every capture of the corpus and on awkward strings and floats.
func TestSurveyDriveJSONMatchesEncodingJSON(t *testing.T) {
	configs, err := surveyConfigs([]string{"ps-max-latency-us=100000", "policy=windows-balanced-dc", "ps-max-latency-us=0,quirks=no-apst", "kernel=v4.11"})
	require.NoError(t, err)
	s, err := survey.NewWithOptions(survey.Options{KernelQuirks: true}, configs...)
	require.NoError(t, err)
	check := func(d surveyDriveJSON) {
		t.Helper()
		want, err := json.Marshal(d)
		require.NoError(t, err)
		got, err := appendSurveyDriveJSON([]byte("prefix"), &d)
		require.NoError(t, err)
		require.Equal(t, "prefix"+string(want), string(got))
	}
	n := 0
	err = filepath.WalkDir("../../testdata/corpus", func(path string, de os.DirEntry, err error) error {
		if err != nil || de.IsDir() || surveySkips(de.Name(), false) {
			return err
		}
		c, err := readSurveyCapture(path)
		require.NoError(t, err, path)
		row, err := s.Add(path, &c)
		require.NoError(t, err)
		check(newSurveyDriveJSON(&row, &c))
		n++
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, 153*6, n)

	c := powerstate.Controller{Model: "a<b>&c\u2028\x7f\"\\\n\t\x01 \xff", Firmware: "é", NPSS: 2, APSTA: 1}
	row, err := s.Add("dir/\"quoted\" <name>\xfe.txt", &c)
	require.NoError(t, err)
	d := newSurveyDriveJSON(&row, &c)
	check(d)
	for _, f := range []float64{0, -0, 1e-7, -1e-7, 1e-6, 0.1, 73, 1e20, 1e21, 1.5e300, -7990} {
		d.IdlePowerDeltaMW = f
		d.Configs[0].DeepestStateMaxPowerW = f
		check(d)
	}
}
