package apsttest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/apsttest"
)

// FuzzBuild is the fuzz target of Example_fuzzTarget, seeded with
// FuzzSeeds.
func FuzzBuild(f *testing.F) {
	for _, seed := range apsttest.FuzzSeeds() {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if err := fuzzBuild(b); err != nil {
			t.Fatal(err)
		}
	})
}

func TestFuzzEncodingRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := apsttest.Controller().Draw(t, "controller")
		p := apsttest.Params().Draw(t, "params")
		p.Quirks = p.Quirks.APST()
		gc, gp := apsttest.DecodeFuzzInput(apsttest.EncodeFuzzInput(&c, p))
		if gp != p {
			t.Fatalf("params: got %+v, want %+v", gp, p)
		}
		if gc.NPSS != c.NPSS || gc.APSTA != c.APSTA || gc.APSTAKnown() != c.APSTAKnown() {
			t.Fatalf("controller header differs")
		}
		for i := range c.PowerStates {
			a, b := &c.PowerStates[i], &gc.PowerStates[i]
			if a.NonOperational != b.NonOperational || a.EntryLatency != b.EntryLatency || a.ExitLatency != b.ExitLatency {
				t.Fatalf("descriptor %d differs", i)
			}
		}
	})
	// Short and empty inputs are zero-padded; long ones are cut.
	c, p := apsttest.DecodeFuzzInput(nil)
	assert.Equal(t, uint8(0), c.NPSS)
	assert.Equal(t, apst.Params{Generation: apst.Current}, p)
	_, p = apsttest.DecodeFuzzInput(append(make([]byte, apsttest.FuzzInputSize), 1, 2, 3))
	assert.Equal(t, apst.Params{Generation: apst.Current}, p)
	_, p = apsttest.DecodeFuzzInput([]byte{5})
	assert.Equal(t, apst.V4_11, p.Generation, "5 mod 3 is the third generation")
}
