package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/nvmeapst/nvmeapst/apst/survey/shard"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// surveyShards copies the smartctl corpus into two shard directories
// (every other file in each; MANIFEST.tsv in the first, an unreadable file
// in the second) and returns them.
func surveyShards(t *testing.T) (a, b string) {
	t.Helper()
	dir := t.TempDir()
	a, b = filepath.Join(dir, "rack-a"), filepath.Join(dir, "rack-b")
	entries, err := os.ReadDir(surveySmartctl)
	require.NoError(t, err)
	for i, e := range entries {
		dst := a
		if i%2 == 1 && e.Name() != "MANIFEST.tsv" {
			dst = b
		}
		copyTo(t, filepath.Join(surveySmartctl, e.Name()), filepath.Join(dst, e.Name()))
	}
	require.NoError(t, os.WriteFile(filepath.Join(b, "notes.txt"), []byte("not a capture\n"), 0o644))
	return a, b
}

// surveyTo runs the survey with args writing its report to the file out.
func surveyTo(t *testing.T, out string, args ...string) {
	t.Helper()
	code, _, errOut := anRun(t, cmdFunc("survey"), nil, append([]string{"--file", out}, args...)...)
	require.Equal(t, exitOK, code, errOut)
}

// withoutShards drops the summary's "shards" (the identities of the
// surveys a report holds), the one key in which a merged report differs
// from one survey of every shard.
func withoutShards(s string) string {
	return shardsKey.ReplaceAllString(s, "")
}

var shardsKey = regexp.MustCompile(`,\s*"shards":\s*\[[^\]]*\]`)

// Surveys of shards merged give exactly the report of one survey of every
// shard: the same bytes, in JSON and NDJSON, from shards in either form,
// and merged again (but for the summary's "shards").
func TestSurveyCommandMerge(t *testing.T) {
	a, b := surveyShards(t)
	dir := t.TempDir()
	with := []string{"--with", "ps-max-latency-us=100000", "--with", "ps-max-latency-us=25000", "--with", "kernel=v4.12"}
	for _, format := range []string{"json", "ndjson"} {
		sa, sb := filepath.Join(dir, "a."+format), filepath.Join(dir, "b."+format)
		surveyTo(t, sa, append(with, "--format", format, a)...)
		surveyTo(t, sb, append(with, "--format", format, b)...)
		for _, out := range []string{"json", "ndjson"} {
			code, whole, errOut := anRun(t, cmdFunc("survey"), nil, append(with, "--format", out, "--stall-budget", "25ms", a, b)...)
			require.Equal(t, exitOK, code, errOut)
			code, merged, errOut := anRun(t, cmdFunc("survey"), nil, "--merge", "--format", out, "--stall-budget", "25ms", sa, sb)
			require.Equal(t, exitOK, code, errOut)
			whole, merged = withoutShards(whole), withoutShards(merged)
			if format == "json" && out == "ndjson" {
				// A JSON report lists its unreadable files after its
				// drives, so their lines move there: the same lines.
				w, m := strings.Split(whole, "\n"), strings.Split(merged, "\n")
				slices.Sort(w)
				slices.Sort(m)
				assert.Equal(t, w, m, "shards in %s merged to %s", format, out)
				continue
			}
			assert.Equal(t, whole, merged, "shards in %s merged to %s", format, out)
		}
	}
	// A merge of a merge, and JSON with NDJSON.
	ab := filepath.Join(dir, "ab.json")
	code, _, errOut := anRun(t, cmdFunc("survey"), nil, "--merge", "--format", "json", "--file", ab, filepath.Join(dir, "a.ndjson"))
	require.Equal(t, exitOK, code, errOut)
	code, merged, errOut := anRun(t, cmdFunc("survey"), nil, "--merge", "--format", "json", ab, filepath.Join(dir, "b.json"))
	require.Equal(t, exitOK, code, errOut)
	_, whole, _ := anRun(t, cmdFunc("survey"), nil, append(with, "--format", "json", a, b)...)
	assert.Equal(t, withoutShards(whole), withoutShards(merged))

	// Text: the same summary, without the drives' lines.
	_, wholeText, _ := anRun(t, cmdFunc("survey"), nil, append(with, "--stall-budget", "25ms", a, b)...)
	code, mergedText, errOut := anRun(t, cmdFunc("survey"), nil, "--merge", "--stall-budget", "25ms", filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json"))
	require.Equal(t, exitOK, code, errOut)
	cut := func(s string) string { return s[strings.Index(s, "drives surveyed;")-5:] }
	assert.Equal(t, cut(wholeText), cut(mergedText))
	assert.Contains(t, mergedText, "The shards' drives are in their JSON reports")
}

func TestSurveyCommandMergeErrors(t *testing.T) {
	a, b := surveyShards(t)
	dir := t.TempDir()
	sa, sb, other := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json"), filepath.Join(dir, "other.json")
	surveyTo(t, sa, "--format", "json", a)
	surveyTo(t, sb, "--format", "json", b)
	surveyTo(t, other, "--format", "json", "--with", "ps-max-latency-us=30000", b)
	full, err := os.ReadFile(sb)
	require.NoError(t, err)
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(s), 0o644))
		return p
	}
	truncated := write("truncated.json", string(full[:len(full)/2]))
	i := strings.Index(string(full), "\n,{")
	j := strings.Index(string(full[i+2:]), "\n") + i + 2
	dropped := write("dropped.json", string(full[:i])+string(full[j:]))
	edited := write("edited.json", strings.Replace(string(full), `"reachable_states":[`, `"reachable_states":[40,`, 1))
	deepest := regexp.MustCompile(`"deepest_state":\d+`)
	deep99 := write("deep99.json", deepest.ReplaceAllString(string(full), `"deepest_state":99`))
	deepOther := write("deep-other.json", deepest.ReplaceAllString(string(full), `"deepest_state":1`))
	maxPS := write("maxps.json", regexp.MustCompile(`"max_ps":\d+`).ReplaceAllString(string(full), `"max_ps":32`))
	vendorID := write("vendorid.json", regexp.MustCompile(`"vendor_id":"[^"]*"`).ReplaceAllString(string(full), `"vendor_id":"0x1\u001b[2J"`))
	barred := write("barred.json", strings.Replace(string(full), `"barred_states":[`, `"barred_states":[-3,`, 1))
	skipped := write("skipped.json", regexp.MustCompile(`"skipped_files":\s*\d+`).ReplaceAllString(string(full), `"skipped_files":-5`))
	// The first drive's value of key replaced by v.
	firstValue := func(name, key, v string) string {
		loc := regexp.MustCompile(`"` + key + `":[-+.eE0-9]+`).FindStringIndex(string(full))
		require.NotNil(t, loc, key)
		return write(name, string(full[:loc[0]])+`"`+key+`":`+v+string(full[loc[1]:]))
	}
	negDelta := firstValue("negdelta.json", "idle_power_delta_mw", "-1e+300")
	bigDelta := firstValue("bigdelta.json", "idle_power_delta_mw", "123456789")
	negStall := firstValue("negstall.json", "stall_reduction_us", "-99999999999")
	hugeStall := firstValue("hugestall.json", "stall_reduction_us", "1e+300")
	hugeRoundTrip := firstValue("roundtrip.json", "max_round_trip_us", "1e308")
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{sa, other}, "other configurations"},
		{[]string{sa, truncated}, "truncated.json"},
		{[]string{sa, dropped}, "the report is incomplete or was edited"},
		{[]string{sa, edited}, "state 40"},
		// Every value a shard passes on is checked, naming file and field.
		{[]string{sa, deep99}, "deep99.json: drive 1 "},
		{[]string{sa, deep99}, "deepest_state 99: want the deepest of reachable_states"},
		{[]string{sa, deepOther}, "deepest_state 1: want the deepest"},
		{[]string{sa, maxPS}, "maxps.json: drive 1 "},
		{[]string{sa, maxPS}, "max_ps 32: want a power state"},
		{[]string{vendorID}, `vendor_id "0x1\\x1b[2J": want 0x and 4 hexadecimal digits`},
		{[]string{barred}, "barred_states: state -3"},
		{[]string{sa, skipped}, "skipped.json: summary: skipped_files -5: want 0 or more"},
		{[]string{sa, negDelta}, "negdelta.json: drive 1 ("},
		{[]string{sa, negDelta}, "): idle_power_delta_mw -1e+300: want -655350 to 655350"},
		{[]string{sa, bigDelta}, "bigdelta.json: drive 1 ("},
		{[]string{sa, bigDelta}, "): idle_power_delta_mw 123456789: want -655350 to 655350"},
		{[]string{sa, negStall}, "negstall.json: drive 1 ("},
		{[]string{sa, negStall}, "): changes[0].stall_reduction_us -99999999999: want an integer from -4294967295 to 4294967295"},
		{[]string{sa, hugeStall}, "hugestall.json: drive 1 ("},
		{[]string{sa, hugeStall}, "): changes[0].stall_reduction_us 1e+300: want an integer"},
		{[]string{sa, hugeRoundTrip}, "roundtrip.json: drive 1 ("},
		{[]string{sa, hugeRoundTrip}, "): configs[0].max_round_trip_us 1e308: want an integer from 0 to 8589934590"},
		{[]string{sa, filepath.Join(dir, "missing.json")}, "no such file"},
		// The shards were surveyed with their own quirks and workers: a
		// merge would ignore these.
		{[]string{sa, sb, "--workers", "7"}, "--workers and --merge contradict each other"},
		{[]string{sa, sb, "--kernel-quirks=false"}, "--kernel-quirks and --merge contradict each other"},
		{[]string{"-", "-"}, "- names standard input, which holds one report: give it once"},
	} {
		code, _, errOut := anRun(t, cmdFunc("survey"), nil, append([]string{"--merge", "--format", "json"}, tc.args...)...)
		assert.Equal(t, exitUsage, code, "%q", tc.args)
		assert.Contains(t, errOut, tc.msg, "%q", tc.args)
	}
}

// A shard's report may come on standard input ("-") or through a pipe the
// user names (<(cmd)): the same merge as from files.
func TestSurveyCommandMergeStdinAndPipe(t *testing.T) {
	a, b := surveyShards(t)
	dir := t.TempDir()
	sa, sb := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	surveyTo(t, sa, "--format", "json", a)
	surveyTo(t, sb, "--format", "json", b)
	code, want, errOut := anRun(t, cmdFunc("survey"), nil, "--merge", "--format", "json", sa, sb)
	require.Equal(t, exitOK, code, errOut)
	rb, err := os.ReadFile(sb)
	require.NoError(t, err)
	code, got, errOut := anRun(t, cmdFunc("survey"), rb, "--merge", "--format", "json", sa, "-")
	require.Equal(t, exitOK, code, errOut)
	assert.Equal(t, want, got, "b on standard input")

	fifo := filepath.Join(dir, "b.fifo")
	testfixture.Mkfifo(t, fifo)
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err == nil {
			f.Write(rb)
			f.Close()
		}
	}()
	code, got, errOut = anRun(t, cmdFunc("survey"), nil, "--merge", "--format", "json", sa, fifo)
	require.Equal(t, exitOK, code, errOut)
	assert.Equal(t, want, got, "b through a named pipe")
}

// FuzzSurveyMerge feeds --merge's reader arbitrary reports: it never
// panics or hangs, and a report it accepts adds exactly the drives its
// summary counts.
func FuzzSurveyMerge(f *testing.F) {
	dir := f.TempDir()
	for _, format := range []string{"json", "ndjson"} {
		out := filepath.Join(dir, "seed."+format)
		var errOut strings.Builder
		if code := cmdFunc("survey")([]string{"--format", format, "--file", out, filepath.Join(surveyBinary, "SKhynix_PC401_NVMe_512GB_80003E00.id-ctrl.bin")}, nil, io.Discard, &errOut); code != exitOK {
			f.Fatal(errOut.String())
		}
		b, err := os.ReadFile(out)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"configs":[],"kernel_quirks":true,"drives":[]}`))
	f.Add([]byte(`{"drives":[{}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		r := &surveyRun{out: newSurveyJSON(bufio.NewWriter(io.Discard), false, false)}
		if err := r.mergeShard(context.Background(), "fuzz.json", bytes.NewReader(b), ""); err != nil {
			return
		}
		if r.survey == nil {
			t.Fatal("accepted a report without configurations")
		}
		if r.survey.Len() != r.drives {
			t.Fatalf("%d drives recorded, %d rows read", r.survey.Len(), r.drives)
		}
	})
}

// Merge refuses what it cannot add: a shard given twice (as the same file,
// a copy, or its NDJSON form), a merged report with one of its own shards,
// naming both files; shards of the same files surveyed apart are refused
// as the same survey too, since their drives are the same.
func TestSurveyCommandMergeRefusesDuplicates(t *testing.T) {
	a, b := surveyShards(t)
	dir := t.TempDir()
	sa, sb := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	na, copyA := filepath.Join(dir, "a.ndjson"), filepath.Join(dir, "copy-of-a.json")
	ab := filepath.Join(dir, "ab.json")
	surveyTo(t, sa, "--format", "json", a)
	surveyTo(t, sb, "--format", "json", b)
	surveyTo(t, na, "--format", "ndjson", a)
	fa, fna := filepath.Join(dir, "a-full.json"), filepath.Join(dir, "a-full.ndjson")
	surveyTo(t, fa, "--format", "json", "--full", a)
	surveyTo(t, fna, "--format", "ndjson", "--full", a)
	copyTo(t, sa, copyA)
	// A shard that overlaps a: one of a's files beside b's.
	var one string
	ents, err := os.ReadDir(a)
	require.NoError(t, err)
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".txt") {
			one = filepath.Join(a, e.Name())
			break
		}
	}
	overlap := filepath.Join(dir, "overlap.json")
	surveyTo(t, overlap, "--format", "json", b, one)
	code, _, errOut := anRun(t, cmdFunc("survey"), nil, "--merge", "--format", "json", "--file", ab, sa, sb)
	require.Equal(t, exitOK, code, errOut)
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{sa, sa}, "a.json: given twice"},
		{[]string{sa, sb, copyA}, "a.json and " + copyA + " both hold the survey sha256:"},
		{[]string{sa, na}, "a.json and " + na + " both hold"},
		// The same survey made with --full holds the same drives.
		{[]string{sa, fa}, "a.json and " + fa + " both hold"},
		{[]string{fna, sa}, "a-full.ndjson and " + sa + " both hold"},
		{[]string{ab, fa}, "ab.json and " + fa + " both hold"},
		// Shards that overlap: a drive both hold is counted once or not at all.
		{[]string{sa, overlap}, "overlap.json: drive "},
		{[]string{sa, overlap}, "is a drive " + sa + " holds too"},
		{[]string{ab, sb}, "ab.json and " + sb + " both hold"},
		{[]string{sa, ab}, "a.json and " + ab + " both hold"},
	} {
		code, _, errOut := anRun(t, cmdFunc("survey"), nil, append([]string{"--merge", "--format", "json"}, tc.args...)...)
		assert.Equal(t, exitUsage, code, "%q", tc.args)
		assert.Contains(t, errOut, tc.msg, "%q", tc.args)
	}
	// The merged report names both shards; each shard names itself.
	for _, tc := range []struct {
		file   string
		shards int
	}{{sa, 1}, {na, 1}, {ab, 2}} {
		raw, err := os.ReadFile(tc.file)
		require.NoError(t, err)
		m := regexp.MustCompile(`"sha256:[0-9a-f]{32}"`).FindAllString(string(raw), -1)
		assert.Len(t, m, tc.shards, tc.file)
	}
}

// --merge holds bounded memory whatever a shard holds: a row, an
// unreadable entry or any value longer than its limit is refused after
// about that many bytes, with the limit in the message, and so is a path
// longer than PATH_MAX.
func TestSurveyCommandMergeLimits(t *testing.T) {
	dir := t.TempDir()
	sa := filepath.Join(dir, "a.json")
	surveyTo(t, sa, "--format", "json", filepath.Join(surveyBinary, "SKhynix_PC401_NVMe_512GB_80003E00.id-ctrl.bin"))
	full, err := os.ReadFile(sa)
	require.NoError(t, err)
	i := strings.Index(string(full), `"path":"`) + len(`"path":"`)
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(s), 0o644))
		return p
	}
	huge := write("huge.json", string(full[:i])+strings.Repeat("x", 3*shard.ValueMax)+string(full[i:]))
	long := write("long.json", string(full[:i])+strings.Repeat("x", shard.PathMax+1)+string(full[i:]))
	j := strings.Index(string(full), `"unreadable":[]`) + len(`"unreadable":[`)
	hugeUnreadable := write("hugeun.json", string(full[:j])+`{"path":"`+strings.Repeat("y", 2*shard.ValueMax)+`","error":"e"}`+string(full[j:]))
	for _, tc := range []struct {
		file, msg string
	}{
		{huge, "longer than 1048576 bytes"},
		{long, "the limits are 4096 and 64 bytes"},
		{hugeUnreadable, "longer than 1048576 bytes"},
	} {
		code, _, errOut := anRun(t, cmdFunc("survey"), nil, "--merge", "--format", "json", tc.file)
		assert.Equal(t, exitUsage, code, tc.file)
		assert.Contains(t, errOut, tc.msg, tc.file)
	}
}
