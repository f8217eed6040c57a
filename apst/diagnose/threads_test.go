package diagnose_test

import (
	"bufio"
	"cmp"
	"flag"
	"fmt"
	"hash/fnv"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// thread is one public thread of testdata/threads (its README says what
// the set is and how each file is written).
type thread struct {
	name   string
	header map[string]string
	log    string
}

// label is the thread's resolution, as a layer group.
func (th thread) label() diagnose.Layer {
	return map[string]diagnose.Layer{
		"apst": diagnose.LayerAPST, "aspm": diagnose.LayerASPM, "suspend": diagnose.LayerSuspend,
		"hardware": diagnose.LayerDrive, "firmware": diagnose.LayerFirmware, "platform": diagnose.LayerPlatform,
	}[th.header["label"]]
}

// heldOut reports whether the thread is in the held-out half: by the
// parity of the FNV-1a hash of its file name, fixed once so that nobody
// chooses where a thread falls.
func (th thread) heldOut() bool {
	h := fnv.New32a()
	h.Write([]byte(th.name))
	return h.Sum32()%2 == 1
}

func loadThreads(t testing.TB) []thread {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "threads", "*.log"))
	require.NoError(t, err)
	var out []thread
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		head, body, ok := strings.Cut(string(b), "\n---\n")
		require.True(t, ok, "%s: no --- line after the header", f)
		th := thread{name: filepath.Base(f), header: map[string]string{}, log: body}
		sc := bufio.NewScanner(strings.NewReader(head))
		for sc.Scan() {
			k, v, ok := strings.Cut(sc.Text(), ":")
			require.True(t, ok, "%s: header line %q is not key: value", f, sc.Text())
			th.header[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
		for _, k := range []string{"source", "date", "kernel", "label", "resolution", "quote"} {
			require.NotEmpty(t, th.header[k], "%s: header %q missing", f, k)
		}
		require.NotEmpty(t, th.label(), "%s: label %q is not one of the README's", f, th.header["label"])
		out = append(out, th)
	}
	return out
}

// verdict is what a diagnosis answers first: the top cause's group, or
// the groups it is undecided between.
func verdict(d *diagnose.Diagnosis) []diagnose.Layer {
	if len(d.Undecided) > 0 {
		g := make([]diagnose.Layer, len(d.Undecided))
		for i, l := range d.Undecided {
			g[i] = l.Group()
		}
		return g
	}
	if len(d.Causes) == 0 {
		return []diagnose.Layer{diagnose.LayerUnknown}
	}
	return []diagnose.Layer{d.Causes[0].Layer.Group()}
}

// score is the result on one half.
type score struct {
	right, total, likelyWrong, unread int
	// wide counts the right answers that name the label only as one of
	// three or more undecided layers: the issue asks for the first cause
	// or an undecided pair, so they are reported apart.
	wide int
	// matrix counts [label][first answer].
	matrix map[diagnose.Layer]map[string]int
	misses []string
}

func diagnoseThread(t testing.TB, th thread, withTried bool) (diagnose.Diagnosis, *kernlog.Log) {
	l, err := kernlog.ReadString(th.log, kernlog.Options{})
	require.NoError(t, err, th.name)
	in := diagnose.Input{Log: l}
	if withTried {
		in.Tried = th.failedTries()
	}
	return diagnose.Diagnose(in), l
}

// failedTries is what a user of the thread could pass as --tried before
// it was resolved: the settings its "tried" header says did not help
// (entries "SETTINGS (did not help)"; what helped is the resolution and
// is never passed). Words that are not settings are kept, as ParseTried
// keeps them; the rules look only at the settings they know.
func (th thread) failedTries() []diagnose.Tried {
	var out []diagnose.Tried
	for _, e := range strings.Split(th.header["tried"], ";") {
		e, ok := strings.CutSuffix(strings.TrimSpace(e), "(did not help)")
		if !ok {
			continue
		}
		for _, tr := range diagnose.ParseTried(e) {
			tr.Outcome = diagnose.DidNotHelp
			out = append(out, tr)
		}
	}
	return out
}

// scoreThreads scores ths; misses lists the wrong answers, which only the
// tuning half may print (the held-out half is reported by its matrix
// alone, so that nobody tunes on its threads).
//
// With withTried, each thread's diagnosis is also given what its poster
// had already tried without help (failedTries), as a user would pass it.
func scoreThreads(t testing.TB, ths []thread, misses, withTried bool) score {
	s := score{matrix: map[diagnose.Layer]map[string]int{}}
	for _, th := range ths {
		d, l := diagnoseThread(t, th, withTried)
		v := verdict(&d)
		want := th.label()
		names := make([]string, len(v))
		for i, x := range v {
			names[i] = string(x)
		}
		answer := strings.Join(names, "|")
		if s.matrix[want] == nil {
			s.matrix[want] = map[string]int{}
		}
		s.matrix[want][answer]++
		s.total++
		if slices.Contains(v, want) {
			s.right++
			if len(v) > 2 {
				s.wide++
			}
		} else {
			if misses {
				s.misses = append(s.misses, fmt.Sprintf("%s: %s, answered %s: %s", th.name, want, answer, d.Summary))
			}
			if len(d.Causes) > 0 && d.Causes[0].Likelihood == diagnose.Likely && len(d.Undecided) == 0 {
				s.likelyWrong++
			}
		}
		s.unread += len(l.Unread)
	}
	return s
}

func (s score) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d right (%.0f%%), %d wrong called likely, %d failure-looking lines unread\n", s.right, s.total, 100*float64(s.right)/float64(max(s.total, 1)), s.likelyWrong, s.unread)
	if s.wide > 0 {
		fmt.Fprintf(&b, "  (%d of the right among three or more undecided layers: %d of %d (%.0f%%) by the first cause or a pair)\n", s.wide, s.right-s.wide, s.total, 100*float64(s.right-s.wide)/float64(max(s.total, 1)))
	}
	labels := slices.Sorted(func(yield func(diagnose.Layer) bool) {
		for k := range s.matrix {
			if !yield(k) {
				return
			}
		}
	})
	for _, l := range labels {
		row := s.matrix[l]
		keys := make([]string, 0, len(row))
		for k := range row {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		fmt.Fprintf(&b, "  %-9s ->", l)
		for _, k := range keys {
			fmt.Fprintf(&b, " %s:%d", k, row[k])
		}
		b.WriteByte('\n')
	}
	for _, m := range s.misses {
		fmt.Fprintf(&b, "  miss %s\n", m)
	}
	return b.String()
}

// heldOutFloor is the held-out score the diagnosis keeps (right answers
// of the held-out half, in percent); a change that loses a thread fails.
// It is the score last measured (36 of 51 on 7 December 2026, after an
// Abort the drive carried out was read as the platform's evidence, a rule
// made from the kernel's meaning of the status and the tuning half's
// four platform threads that show it, not changed after the held-out
// half moved; 34 of 51 on 6 December 2026, after a
// firmware thread collected blind fell in the held-out half and was right;
// 33 of 50 on 5 December 2026, after two
// threads followed blind from the posted logs to their end fell in the
// held-out half and were right; 31 of 48 before them, one of those right
// only after a reading fix that a held-out thread's line prompted: 30 of
// 48 blind, after four threads collected blind fell in the held-out half
// and were missed; 30 of 44 before them, 30 of 43, 27 of 40,
// 24 of 37, 23 of 37, 22 of 35, 21 of 34, 20 of 33, 20 of 32 and 17 of 28
// before: the floor follows the score, not the other way round).
// docs/diagnose.md gives the figures and the method.
const heldOutFloor = 70

// heldOutTriedFloor is the same floor for the held-out half scored with
// what each thread says did not help passed as --tried (failedTries):
// 38 of 51 on 7 December 2026 (after the Abort rule above); 36 of 51 on
// 6 December 2026 (35 of 50 before the blind thread above; 35
// of 50 on 5 December 2026, 33 of 48 before the two threads above, 32
// of 48 before the reading fix above, 31 of 45 when first measured that
// day).
const heldOutTriedFloor = 74

// TestRealThreads scores the diagnosis on the real threads: the first
// cause (or the undecided layers) against the layer of the thread's
// resolution, on the tuning half and the held-out half, with the
// confusion matrix of each, from the log alone and again with what each
// thread says did not help as --tried. It fails when a held-out score
// falls under its floor (heldOutFloor, heldOutTriedFloor), when a wrong
// answer is called likely, or when a log has failure-looking lines it
// could not read.
func TestRealThreads(t *testing.T) {
	ths := loadThreads(t)
	require.GreaterOrEqual(t, len(ths), 40, "the set has at least 40 threads")
	var tune, held []thread
	for _, th := range ths {
		if th.heldOut() {
			held = append(held, th)
		} else {
			tune = append(tune, th)
		}
	}
	st, sh := scoreThreads(t, tune, true, false), scoreThreads(t, held, false, false)
	t.Logf("tuning half: %s", st)
	t.Logf("held-out half: %s", sh)
	tt, ht := scoreThreads(t, tune, true, true), scoreThreads(t, held, false, true)
	t.Logf("tuning half, with what did not help as --tried: %s", tt)
	t.Logf("held-out half, with what did not help as --tried: %s", ht)
	twins := postedTwins(t, held)
	var clean []thread
	for _, th := range held {
		if !twins[th.name] {
			clean = append(clean, th)
		}
	}
	sc, scT := scoreThreads(t, clean, false, false), scoreThreads(t, clean, false, true)
	twinText := fmt.Sprintf("%d of the %d held-out threads share a source with a posted log; on the %d that share none,\n"+
		"%d are right from the log alone (%.0f%%) and %d with `--tried` (%.0f%%).\n",
		len(twins), len(held), sc.total, sc.right, 100*float64(sc.right)/float64(max(sc.total, 1)), scT.right, 100*float64(scT.right)/float64(max(sc.total, 1)))
	t.Logf("%s", twinText)
	assert.LessOrEqual(t, len(twins), heldOutTwins, "a posted log was taken from a held-out thread: its rules would be tuned on the held-out half")
	assert.GreaterOrEqual(t, 100*sh.right, heldOutFloor*sh.total, "held-out score")
	assert.GreaterOrEqual(t, 100*ht.right, heldOutTriedFloor*ht.total, "held-out score with --tried")
	assert.Zero(t, sh.likelyWrong+st.likelyWrong+ht.likelyWrong+tt.likelyWrong, "wrong answers called likely")
	assert.Zero(t, sh.unread+st.unread, "failure-looking lines not read")

	checkThreadsDoc(t, ths, [4]score{st, sh, tt, ht}, twinText)
}

// heldOutTwins is how many held-out threads a posted log shares a source
// with (postedTwins): 16 when first counted, on 7 December 2026, after
// blind helpers had collected posted logs from the threads' own messages
// for weeks. A posted log taken from another held-out thread fails: leave
// it out (the helpers' list of sources to skip holds the threads').
const heldOutTwins = 16

// update rewrites docs/diagnose.md's generated sections (go test -run
// TestRealThreads -update).
var update = flag.Bool("update", false, "rewrite docs/diagnose.md's figures and thread table")

// checkThreadsDoc checks that docs/diagnose.md gives the figures and the
// set as this test finds them: the sections between its
// "<!-- threads:figures -->" and "<!-- threads:set -->" markers and
// their ends, byte for byte (-update rewrites them).
func checkThreadsDoc(t *testing.T, ths []thread, sc [4]score, twins string) {
	t.Helper()
	path := filepath.Join("..", "..", "docs", "diagnose.md")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	doc := string(b)
	for i := range sc {
		sc[i].misses = nil
	}
	figures := "```\ntuning half: " + sc[0].String() + "held-out half: " + sc[1].String() + "```\n\n" +
		"With what each thread says was tried and did not help passed as `--tried`:\n\n" +
		"```\ntuning half: " + sc[2].String() + "held-out half: " + sc[3].String() + "```\n\n" + twins

	byLabel := map[string]int{}
	for _, th := range ths {
		byLabel[th.header["label"]]++
	}
	labels := slices.SortedFunc(maps.Keys(byLabel), func(a, b string) int {
		return cmp.Or(byLabel[b]-byLabel[a], strings.Compare(a, b))
	})
	var counts []string
	for _, l := range labels {
		counts = append(counts, fmt.Sprintf("%d %s", byLabel[l], l))
	}
	var set strings.Builder
	fmt.Fprintf(&set, "No wrong answer is called likely on either half, and every failure-looking line of the %d logs is\n", len(ths))
	fmt.Fprintf(&set, "read. The set holds %s threads; every thread, its label, its half and its source:\n\n", strings.Join(counts, ", "))
	set.WriteString("| thread | label | half | source |\n| --- | --- | --- | --- |\n")
	for _, th := range ths {
		half := "tuning"
		if th.heldOut() {
			half = "held-out"
		}
		fmt.Fprintf(&set, "| `%s` | %s | %s | %s |\n", th.name, th.header["label"], half, th.header["source"])
	}

	for _, sec := range []struct{ name, body string }{{"figures", figures}, {"set", set.String()}} {
		begin, end := "<!-- threads:"+sec.name+" -->\n", "<!-- threads:"+sec.name+" end -->"
		i, j := strings.Index(doc, begin), strings.Index(doc, end)
		require.True(t, i >= 0 && j > i, "docs/diagnose.md has no %q ... %q section", begin, end)
		if *update {
			doc = doc[:i+len(begin)] + sec.body + doc[j:]
			continue
		}
		assert.Equal(t, sec.body, doc[i+len(begin):j], "docs/diagnose.md's %s section (go test ./apst/diagnose -run TestRealThreads -update: the flag after the package, or go test takes the package for its value)", sec.name)
	}
	assert.Contains(t, doc, fmt.Sprintf("holds %d public threads", len(ths)))
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(doc), 0o644))
	}
}

// The docs' logs (testdata/kernlog at the top of the module) are their
// threads' logs, byte for byte.
func TestDocLogsAreTheThreads(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "kernlog", "*.log"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	byName := map[string]thread{}
	for _, th := range loadThreads(t) {
		byName[th.name] = th
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		th, ok := byName[filepath.Base(f)]
		require.True(t, ok, "%s is no thread of testdata/threads", f)
		assert.Equal(t, th.log, string(b), f)
	}
}
