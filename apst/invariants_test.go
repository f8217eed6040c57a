package apst_test

import (
	"testing"
	"unsafe"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/apsttest"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// tb is the part of testing.TB and *rapid.T the invariant checks need.
type tb interface {
	Helper()
	Fatalf(format string, args ...any)
}

// checkPlanInvariants asserts what must hold for every plan Build returns
// (kernel-apst.md §4): the single-plan invariants of apsttest.Check, and
// that Build is deterministic, the table round-trips through its 256-byte
// encoding and the explanations do not fail. It is shared by the rapid
// properties and the fuzz target.
func checkPlanInvariants(t tb, c *powerstate.Controller, p apst.Params, plan *apst.Plan) {
	t.Helper()
	if err := apsttest.Check(c, p, plan); err != nil {
		t.Fatalf("%v", err)
	}
	again, err := apst.Build(c, p)
	if err != nil || again != *plan {
		t.Fatalf("Build is not deterministic: %v", err)
	}
	raw, err := plan.Table.MarshalBinary()
	if err != nil || len(raw) != apst.TableSize {
		t.Fatalf("MarshalBinary: %d bytes, %v", len(raw), err)
	}
	back, err := apst.DecodeTable(raw)
	if err != nil || back != plan.Table {
		t.Fatalf("table does not round-trip: %v", err)
	}
	_ = plan.KernelLog()
	for s := 0; s <= int(c.NPSS) && s < apst.Entries; s++ {
		_ = plan.Explain(c, uint8(s))
	}
}

func TestInvariantsOnGolden(t *testing.T) {
	ins := goldenInputs(t)
	for _, in := range ins {
		gc, err := parseGoldenIn(in)
		if err != nil {
			t.Fatal(err)
		}
		plan, err := apst.Build(&gc.ctrl, gc.params)
		if err != nil {
			t.Fatal(err)
		}
		checkPlanInvariants(t, &gc.ctrl, gc.params, &plan)
	}
}

// BuildTo overwrites a used Plan completely and gives what Build gives.
func TestBuildToOverwrites(t *testing.T) {
	a := fixture(t, "samsung-990-evo-plus-1tb-2B2QKXG7.bin")
	b := fixture(t, "intel-ssdpekkw256g7-PSF109C.bin")
	var plan apst.Plan
	for _, c := range []*powerstate.Controller{&a, &b, &a} {
		for _, g := range apst.Generations() {
			p := apst.DefaultParams(g)
			want, err := apst.Build(c, p)
			if err != nil {
				t.Fatal(err)
			}
			if err := apst.BuildTo(&plan, c, p); err != nil {
				t.Fatal(err)
			}
			if plan != want {
				t.Fatalf("BuildTo after another plan differs from Build (%s)", g)
			}
		}
	}
	if err := apst.BuildTo(&plan, nil, apst.DefaultParams(apst.Current)); err == nil || plan != (apst.Plan{}) {
		t.Fatalf("BuildTo(nil controller): err %v, plan not zeroed", err)
	}
}

// BuildTo writes every field of the Plan, whatever it held: a Plan whose
// every byte is 0xaa (Plan holds no pointer) comes out as Build's, for
// every outcome and path (the tolerance walk, which writes the table from
// NPSS down and clears the rest; the heuristic walks; the quirks given or
// looked up, NO_DEEPEST_PS, APSTA 0, an NPSS past 31, the bound 0, errors).
func TestBuildToOverwritesEveryByte(t *testing.T) {
	a := fixture(t, "samsung-990-evo-plus-1tb-2B2QKXG7.bin")
	b := fixture(t, "intel-ssdpekkw256g7-PSF109C.bin")
	wide := npss31Controller()
	noAPSTA := a
	noAPSTA.APSTA = 0
	badNPSS := a
	badNPSS.NPSS = 40
	zeroNPSS := a
	zeroNPSS.NPSS = 0
	for _, c := range []*powerstate.Controller{&a, &b, &wide, &noAPSTA, &badNPSS, &zeroNPSS, nil} {
		for _, g := range append(apst.Generations(), apst.Generation(99)) {
			for v := range 4 {
				p := apst.DefaultParams(g)
				switch v {
				case 1:
					p.QuirksGiven, p.Quirks = true, apst.QuirkNoDeepestPS
					p.ForceAPST = true
				case 2:
					p.QuirksGiven, p.Quirks = true, apst.QuirkNoDeepestPS
				case 3:
					p.Bound = 0
				}
				var plan apst.Plan
				raw := unsafe.Slice((*byte)(unsafe.Pointer(&plan)), unsafe.Sizeof(plan))
				for i := range raw {
					raw[i] = 0xaa
				}
				errTo := apst.BuildTo(&plan, c, p)
				want, err := apst.Build(c, p)
				if (err == nil) != (errTo == nil) || plan != want {
					t.Fatalf("BuildTo into a used Plan differs from Build (controller %p, %s, variant %d): %v, %v", c, g, v, errTo, err)
				}
			}
		}
	}
}
