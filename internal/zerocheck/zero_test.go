package zerocheck_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/internal/zerocheck"
)

var update = flag.Bool("update", false, "rewrite testdata/outcomes.txt")

// zeroCall is one generated call: the function's name and a function that
// calls it with zero values and returns its results.
type zeroCall struct {
	name string
	call func() []any
}

// zeroSkip is a function the generator cannot call, and why.
type zeroSkip struct {
	name, why string
}

// results returns a call's results, for the generated calls.
func results(v ...any) []any { return v }

// expectedPanics are the calls known to panic that another change fixes;
// each is removed when it lands (the test fails while one no longer
// panics).
var expectedPanics = map[string]string{}

// passThrough are the calls whose error, with zero values, is a lower
// package's passed through unwrapped, each with the reason it stays so for
// now; the test fails once one names the package called.
var passThrough = map[string]string{
	// apstctl set-latency prints ParseTolerance's message as is.
	"nvmeapst.System.SetLatency": "apst.ParseTolerance's error, which apstctl prints as is",
}

// callTimeout is how long one call may take before it counts as a hang.
const callTimeout = 20 * time.Second

// outcome is what one call did.
type outcome struct {
	panicked any
	stack    []byte
	results  []any
	hung     bool
}

// run calls c under recover, in a goroutine of its own so that a call that
// hangs is reported rather than stopping the test.
func run(c zeroCall) outcome {
	done := make(chan outcome, 1)
	go func() {
		var o outcome
		defer func() {
			if r := recover(); r != nil {
				o.panicked, o.stack = r, debug.Stack()
			}
			done <- o
		}()
		o.results = c.call()
	}()
	select {
	case o := <-done:
		return o
	case <-time.After(callTimeout):
		return outcome{hung: true}
	}
}

// errOf is the last result when it is a non-nil error.
func errOf(res []any) error {
	if len(res) == 0 {
		return nil
	}
	err, _ := res[len(res)-1].(error)
	return err
}

// pkgOf is the package of a generated call's name ("persist" of
// "persist.Scope.Validate").
func pkgOf(name string) string {
	p, _, _ := strings.Cut(name, ".")
	return p
}

// libraryPackages are the names of the packages the calls are in.
var libraryPackages = func() map[string]bool {
	m := map[string]bool{}
	for _, c := range zeroCalls {
		m[pkgOf(c.name)] = true
	}
	return m
}()

// namedPackage is the library package an error message starts with
// ("persist" of "persist: scope: ..."), or "".
func namedPackage(msg string) string {
	p, _, ok := strings.Cut(msg, ":")
	if !ok || !libraryPackages[p] {
		return ""
	}
	return p
}

// TestZeroValues calls every exported function and method of the library
// that takes an exported struct type, with that type's zero value (a
// pointer to one for *T): none may panic or hang, and an error it returns
// starts with the name of the package called (passThrough lists the known
// exceptions). What each call did
// (ok, error) is kept in testdata/outcomes.txt, so that a zero value that
// turns from refused to accepted, or back, shows in review.
func TestZeroValues(t *testing.T) {
	require.NotEmpty(t, zeroCalls)
	golden, err := filepath.Abs(filepath.Join("testdata", "outcomes.txt"))
	require.NoError(t, err)
	// A zero value that turned "useful" by writing a file named by a
	// relative path ("" for a directory, say) writes it here.
	t.Chdir(t.TempDir())
	var lines []string
	for _, c := range zeroCalls {
		o := run(c)
		why, expected := expectedPanics[c.name]
		switch {
		case o.hung:
			t.Errorf("%s: did not return within %s", c.name, callTimeout)
			lines = append(lines, c.name+"\thangs")
			continue
		case o.panicked != nil && expected:
			t.Logf("%s panics, expected until merged: %s", c.name, why)
			lines = append(lines, c.name+"\tpanics (expected until merged)")
			continue
		case o.panicked != nil:
			t.Errorf("%s panics with zero values: %v\n%s", c.name, o.panicked, o.stack)
			lines = append(lines, c.name+"\tpanics")
			continue
		case expected:
			t.Errorf("%s no longer panics: remove it from expectedPanics (%s)", c.name, why)
		}
		if err := errOf(o.results); err != nil {
			lines = append(lines, c.name+"\terror")
			p := namedPackage(err.Error())
			why, known := passThrough[c.name]
			switch {
			case p == "":
				t.Errorf("%s: the error does not start with the name of a package of the library: %q", c.name, err)
			case p != pkgOf(c.name) && known:
				t.Logf("%s: the error is %s's, not %s's, known (%s): %v", c.name, p, pkgOf(c.name), why, err)
			case p != pkgOf(c.name):
				t.Errorf("%s: the error is %s's, not %s's (wrap it): %v", c.name, p, pkgOf(c.name), err)
			case known:
				t.Errorf("%s: the error now names %s: remove it from passThrough (%s)", c.name, p, why)
			}
			continue
		}
		lines = append(lines, c.name+"\tok")
	}
	for _, s := range zeroSkipped {
		lines = append(lines, s.name+"\tskipped: "+s.why)
	}
	checkGolden(t, golden, strings.Join(lines, "\n")+"\n")
}

// checkGolden compares got with the golden file, rewriting it with
// -update.
func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	b, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./internal/zerocheck -update")
	want := string(b)
	if want == got {
		return
	}
	// Only the lines that differ: the file has hundreds.
	wl, gl := lineSet(want), lineSet(got)
	for _, l := range strings.Split(got, "\n") {
		if l != "" && !wl[l] {
			t.Errorf("%s: new outcome: %s", path, l)
		}
	}
	for _, l := range strings.Split(want, "\n") {
		if l != "" && !gl[l] {
			t.Errorf("%s: outcome gone: %s", path, l)
		}
	}
	t.Errorf("what the calls do with zero values changed: review, then go test ./internal/zerocheck -update")
}

func lineSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, l := range strings.Split(s, "\n") {
		m[l] = true
	}
	return m
}

// TestGeneratedUpToDate fails when the committed calls are not what the
// generator writes today: an exported function added or changed since.
func TestGeneratedUpToDate(t *testing.T) {
	root := filepath.Join("..", "..")
	want, err := zerocheck.Generate(root)
	require.NoError(t, err)
	got, err := os.ReadFile(filepath.Join(root, zerocheck.File))
	require.NoError(t, err)
	if string(got) != string(want) {
		t.Errorf("%s is out of date: run go run ./internal/tools/zerocalls", zerocheck.File)
	}
}

// TestZeroSkippedHaveReasons keeps the list of functions not called short
// and explained.
func TestZeroSkippedHaveReasons(t *testing.T) {
	for _, s := range zeroSkipped {
		assert.NotEmpty(t, s.why, s.name)
	}
	assert.Less(t, len(zeroSkipped), len(zeroCalls)/10, fmt.Sprintf("%d of %d functions skipped", len(zeroSkipped), len(zeroCalls)))
}
