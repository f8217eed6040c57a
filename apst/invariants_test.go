package apst_test

import (
	"testing"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// tb is the part of testing.TB and *rapid.T the invariant checks need.
type tb interface {
	Helper()
	Fatalf(format string, args ...any)
}

// checkPlanInvariants asserts what must hold for every plan Build returns
// (kernel-apst.md §4): it is shared by the rapid properties and the fuzz
// target.
func checkPlanInvariants(t tb, c *powerstate.Controller, p apst.Params, plan *apst.Plan) {
	t.Helper()
	if !plan.Enabled && plan.Table != (apst.Table{}) {
		t.Fatalf("APSTE=0 (outcome %s) but the table is not zero: %v", plan.Outcome, plan.Table)
	}
	if !plan.Sent && plan.Enabled {
		t.Fatalf("nothing sent but enabled")
	}
	if plan.Outcome == apst.OutcomeInvalidNPSS && c.NPSS < 32 {
		t.Fatalf("invalid-npss outcome for NPSS %d", c.NPSS)
	}
	if c.NPSS > 31 && plan.Sent {
		t.Fatalf("NPSS %d > 31 but the table is sent", c.NPSS)
	}
	if c.APSTAKnown() && c.APSTA == 0 && plan.Sent {
		t.Fatalf("APSTA 0 but the table is sent")
	}
	if p.Bound == 0 && plan.Enabled {
		t.Fatalf("bound 0 but APSTE=1")
	}
	gateTotal := p.Generation == apst.V4_11
	selected := 0
	deepestTarget := -1
	for i, e := range plan.Table {
		if e == 0 {
			continue
		}
		tgt := int(e.TargetState())
		if tgt <= i {
			t.Fatalf("entry %d (%#x) targets ps%d, which is not deeper", i, uint64(e), tgt)
		}
		if tgt > int(c.NPSS) {
			t.Fatalf("entry %d targets ps%d beyond NPSS %d", i, tgt, c.NPSS)
		}
		d := &c.PowerStates[tgt]
		if !d.NonOperational {
			t.Fatalf("entry %d targets operational ps%d", i, tgt)
		}
		if gateTotal {
			if d.TotalLatency() > uint64(p.Bound) {
				t.Fatalf("entry %d targets ps%d whose total latency %d is above the bound %d", i, tgt, d.TotalLatency(), p.Bound)
			}
		} else if uint64(d.ExitLatency) > uint64(p.Bound) {
			t.Fatalf("entry %d targets ps%d whose exit latency %d is above the bound %d", i, tgt, d.ExitLatency, p.Bound)
		}
		if !plan.Reasons[tgt].Selected() {
			t.Fatalf("entry %d targets ps%d, which was not selected (%s)", i, tgt, plan.Reasons[tgt])
		}
		if tgt > deepestTarget {
			deepestTarget = tgt
		}
	}
	for s, r := range plan.Reasons {
		if r.Selected() {
			selected++
			if s > plan.MaxPS {
				t.Fatalf("ps%d selected but MaxPS is %d", s, plan.MaxPS)
			}
		}
	}
	if plan.MaxPS >= 0 {
		if !plan.Reasons[plan.MaxPS].Selected() {
			t.Fatalf("MaxPS %d is not a selected state", plan.MaxPS)
		}
		for s := plan.MaxPS; s < apst.Entries; s++ {
			if plan.Table[s] != 0 {
				t.Fatalf("entry %d at or below the deepest selected state ps%d is %#x, want 0", s, plan.MaxPS, uint64(plan.Table[s]))
			}
		}
		if plan.MaxPS > 0 && deepestTarget != plan.MaxPS && plan.Table[plan.MaxPS-1] != 0 {
			t.Fatalf("deepest target %d differs from MaxPS %d", deepestTarget, plan.MaxPS)
		}
	} else if selected != 0 || plan.MaxRoundTrip != 0 {
		t.Fatalf("MaxPS -1 but %d states selected, max round trip %d", selected, plan.MaxRoundTrip)
	}
	if plan.Mode == apst.ModeTolerance {
		if selected > 2 {
			t.Fatalf("tolerance mode selected %d states, want at most 2", selected)
		}
		prim, sec := -1, -1
		for s, r := range plan.Reasons {
			switch r {
			case apst.ReasonPrimary:
				prim = s
			case apst.ReasonSecondary:
				sec = s
			}
		}
		if prim >= 0 && sec >= 0 && sec <= prim {
			t.Fatalf("secondary target ps%d is not deeper than primary ps%d", sec, prim)
		}
	}
	// Determinism.
	again, err := apst.Build(c, p)
	if err != nil || again != *plan {
		t.Fatalf("Build is not deterministic: %v", err)
	}
	// The 256-byte encoding round-trips.
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
