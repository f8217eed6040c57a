package apsttest_test

import (
	"fmt"

	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/apsttest"
)

// planProperty is a rapid property: every plan Build returns keeps the
// invariants. In a test it runs as
//
//	func TestPlanInvariants(t *testing.T) { rapid.Check(t, planProperty) }
func planProperty(t *rapid.T) {
	c := apsttest.Controller().Draw(t, "controller")
	p := apsttest.ParamsFor(&c).Draw(t, "params")
	plan, err := apst.Build(&c, p)
	if err != nil {
		t.Fatal(err)
	}
	if err := apsttest.Check(&c, p, &plan); err != nil {
		t.Fatal(err)
	}
}

// A property test of Build with the package's generators: rapid.Check(t,
// planProperty) in a test function. Here the same property runs on the
// generators' deterministic examples.
func Example_propertyTest() {
	n := 0
	for seed := range 500 {
		c := apsttest.Controller().Example(seed)
		p := apsttest.ParamsFor(&c).Example(seed)
		plan, err := apst.Build(&c, p)
		if err != nil {
			fmt.Println(err)
			return
		}
		if err := apsttest.Check(&c, p, &plan); err != nil {
			fmt.Println(err)
			return
		}
		n++
	}
	fmt.Println(n, "plans keep every invariant")
	// Output: 500 plans keep every invariant
}

// fuzzBuild is the body of a native fuzz target:
//
//	func FuzzBuild(f *testing.F) {
//		for _, seed := range apsttest.FuzzSeeds() {
//			f.Add(seed)
//		}
//		f.Fuzz(func(t *testing.T, b []byte) {
//			if err := fuzzBuild(b); err != nil {
//				t.Fatal(err)
//			}
//		})
//	}
func fuzzBuild(b []byte) error {
	c, p := apsttest.DecodeFuzzInput(b)
	plan, err := apst.Build(&c, p)
	if err != nil {
		return err
	}
	return apsttest.Check(&c, p, &plan)
}

// A fuzz target of Build seeded with the edge values (go test -fuzz
// FuzzBuild); here its body runs on the seeds.
func Example_fuzzTarget() {
	seeds := apsttest.FuzzSeeds()
	for _, b := range seeds {
		if err := fuzzBuild(b); err != nil {
			fmt.Println(err)
			return
		}
	}
	c, p := apsttest.DecodeFuzzInput(seeds[0])
	fmt.Println(len(seeds) > 50, len(seeds[0]) == apsttest.FuzzInputSize)
	fmt.Println(c.NPSS, c.PowerStates[4].ExitLatency, p.Generation, p.Bound)
	// Output:
	// true true
	// 4 43000us current 0us
}

// An idle time of 2^24 ms does not fit ITPT: the entry's ITPT is 0 (no
// transition) and bit 32 is set.
func ExampleTimeoutSpills() {
	p := apst.DefaultParams(apst.Current)
	p.PrimaryTimeout = 1 << apsttest.ITPTBits
	e := apst.NewEntry(3, p.PrimaryTimeout)
	fmt.Println(apsttest.TimeoutSpills(p), apsttest.MaxITPT, e.IdleTime(), e.Reserved() != 0)
	// Output: true 16777215ms 0ms true
}
