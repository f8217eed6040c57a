package apst_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/apsttest"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// FuzzBuild runs Build on arbitrary Identify images and parameters, checks
// the plan invariants and compares the result with the plain reference.
// Images that are not 4096 bytes are zero-padded or cut, so every input
// reaches Build. Seeds: testdata/fuzz/FuzzBuild and the
// fixture images.
func FuzzBuild(f *testing.F) {
	for _, path := range fixtureImages(f) {
		img, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(img, uint8(0), uint64(100000), uint64(100), uint64(2000), uint64(15000), uint64(100000), uint8(0), false)
		f.Add(img, uint8(1), uint64(25000), uint64(100), uint64(2000), uint64(15000), uint64(100000), uint8(2), false)
		f.Add(img, uint8(2), uint64(1<<64-1), uint64(0), uint64(0), uint64(0), uint64(0), uint8(3), true)
		// The tolerance timeouts that spill out of ITPT (2^24) or out of the
		// entry (2^56), and the largest tolerances.
		f.Add(img, uint8(0), uint64(1<<64-1), uint64(1<<24), uint64(1<<56), uint64(1<<64-1), uint64(1<<64-1), uint8(0), false)
	}
	f.Fuzz(func(t *testing.T, img []byte, gen uint8, bound, pt, st, ptol, stol uint64, quirks uint8, force bool) {
		var buf [powerstate.IdentifySize]byte
		copy(buf[:], img)
		c, err := powerstate.DecodeIdentify(buf[:])
		if err != nil {
			t.Fatal(err)
		}
		p := apst.Params{
			Generation:         apst.Generation(gen % 4), // 3 is invalid on purpose
			Bound:              apst.Microseconds(bound),
			PrimaryTimeout:     apst.Milliseconds(pt),
			SecondaryTimeout:   apst.Milliseconds(st),
			PrimaryTolerance:   apst.Microseconds(ptol),
			SecondaryTolerance: apst.Microseconds(stol),
			ForceAPST:          force,
		}
		if quirks&1 != 0 {
			p.Quirks |= apst.QuirkNoAPST
		}
		if quirks&2 != 0 {
			p.Quirks |= apst.QuirkNoDeepestPS
		}
		plan, err := apst.Build(&c, p)
		if !p.Generation.Valid() {
			if err == nil {
				t.Fatalf("Build accepted generation %d", p.Generation)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		checkPlanInvariants(t, &c, p, &plan)
		checkReference(t, &c, p, &plan)
	})
}

// FuzzBuildModel runs Build on controllers and parameters decoded from the
// fuzz input (apsttest.DecodeFuzzInput: every field Build reads, edge values
// reachable by single bytes), checks the plan invariants and compares with
// the plain reference. Seeds: apsttest.FuzzSeeds (bounds 0, 1 and
// unlimited, module parameters 0, 2^24 and 2^56, NPSS above 31, ...) and
// testdata/fuzz/FuzzBuildModel.
func FuzzBuildModel(f *testing.F) {
	for _, seed := range apsttest.FuzzSeeds() {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		c, p := apsttest.DecodeFuzzInput(b)
		plan, err := apst.Build(&c, p)
		if err != nil {
			t.Fatal(err)
		}
		checkPlanInvariants(t, &c, p, &plan)
		checkReference(t, &c, p, &plan)
	})
}

// checkReference fails t when plan differs from the plain reference.
func checkReference(t *testing.T, c *powerstate.Controller, p apst.Params, plan *apst.Plan) {
	t.Helper()
	want := reference(c, p)
	if plan.Sent != want.sent || plan.Enabled != want.enabled || plan.MaxPS != want.maxPS || uint64(plan.MaxRoundTrip) != want.maxLat {
		t.Fatalf("Build and the reference differ: %+v", want)
	}
	for i, e := range plan.Table {
		if uint64(e) != want.table[i] {
			t.Fatalf("entry %d: Build %#x, reference %#x", i, uint64(e), want.table[i])
		}
	}
}

// FuzzParseTolerance checks that the pm_qos string parser never panics, and
// that what it accepts reads back to a string it accepts with the same bound.
func FuzzParseTolerance(f *testing.F) {
	for _, s := range []string{"auto", "any\n", "0", "25000\n", "0x3e8", "010", "-5", "2147483647", "2147483648", "12abc", "auto\nany", "+7", "-0", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tol, err := apst.ParseTolerance(s)
		if err != nil {
			return
		}
		back, err := apst.ParseTolerance(tol.String())
		if err != nil || back != tol {
			t.Fatalf("%q parses to %v, whose string %q does not parse back (%v)", s, tol, tol.String(), err)
		}
	})
}

func fixtureImages(tb testing.TB) []string {
	tb.Helper()
	paths, err := filepath.Glob(testfixture.Path("identify/*.bin"))
	if err != nil || len(paths) == 0 {
		tb.Fatalf("no fixture images: %v", err)
	}
	return paths
}
