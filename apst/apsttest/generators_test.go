package apsttest_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/apsttest"
)

// TestGeneratorsCoverEdges: over a few thousand draws every edge value the
// package documents appears.
func TestGeneratorsCoverEdges(t *testing.T) {
	const draws = 3000
	seen := map[string]bool{}
	mark := func(ok bool, what string) {
		if ok {
			seen[what] = true
		}
	}
	for seed := range draws {
		c := apsttest.Controller().Example(seed)
		mark(c.NPSS <= 31, "npss<=31")
		mark(c.NPSS > 31, "npss>31")
		mark(c.NPSS <= 31, fmt.Sprintf("npss=%d", c.NPSS))
		mark(c.APSTAKnown() && c.APSTA == 0, "apsta=0")
		mark(c.APSTAKnown() && c.APSTA == 1, "apsta=1")
		mark(c.APSTAKnown() && c.APSTA > 1, "apsta>1")
		mark(!c.APSTAKnown(), "apsta unknown")
		for i := range c.States() {
			d := &c.PowerStates[i]
			mark(d.NonOperational, "non-operational")
			mark(!d.NonOperational, "operational")
			mark(d.ExitLatency == 0, "exlat=0")
			mark(d.EntryLatency == 0, "enlat=0")
			mark(d.ExitLatency == 1<<32-1, "exlat=2^32-1")
			mark(d.EntryLatency == 1<<32-1, "enlat=2^32-1")
		}

		p := apsttest.ParamsFor(&c).Example(seed)
		mark(p.Generation == apst.Current, "current")
		mark(p.Generation == apst.V4_12, "v4.12")
		mark(p.Generation == apst.V4_11, "v4.11")
		mark(p.Quirks&apst.QuirkNoAPST != 0, "no-apst")
		mark(p.Quirks&apst.QuirkNoDeepestPS != 0, "no-deepest-ps")
		mark(p.Quirks.APST() == 0, "no quirk")
		mark(p.ForceAPST, "force")
		mark(!p.ForceAPST, "no force")
		mark(p.Bound == 0, "bound=0")
		mark(p.Bound == 1, "bound=1")
		mark(p.Bound == apst.NoLimit, "bound=unlimited")
		for i := range c.States() {
			d := &c.PowerStates[i]
			if d.NonOperational && c.NPSS < 32 {
				mark(uint64(p.Bound) == uint64(d.ExitLatency), "bound=exlat")
				mark(uint64(p.Bound) == uint64(d.ExitLatency)-1, "bound=exlat-1")
				mark(uint64(p.Bound) == d.TotalLatency()+1, "bound=total+1")
			}
		}
		q := apsttest.Params().Example(seed)
		for name, v := range map[string]uint64{
			"primary-timeout": uint64(q.PrimaryTimeout), "secondary-timeout": uint64(q.SecondaryTimeout),
			"primary-tolerance": uint64(q.PrimaryTolerance), "secondary-tolerance": uint64(q.SecondaryTolerance),
		} {
			for _, e := range []struct {
				v    uint64
				name string
			}{{0, "0"}, {1 << 24, "2^24"}, {1 << 56, "2^56"}, {1<<64 - 1, "2^64-1"}} {
				mark(v == e.v, name+"="+e.name)
			}
		}
	}
	want := []string{
		"npss<=31", "npss>31", "apsta=0", "apsta=1", "apsta>1", "apsta unknown",
		"non-operational", "operational", "exlat=0", "enlat=0", "exlat=2^32-1", "enlat=2^32-1",
		"current", "v4.12", "v4.11", "no-apst", "no-deepest-ps", "no quirk", "force", "no force",
		"bound=0", "bound=1", "bound=unlimited", "bound=exlat", "bound=exlat-1", "bound=total+1",
	}
	for n := range 32 {
		want = append(want, fmt.Sprintf("npss=%d", n))
	}
	for _, name := range []string{"primary-timeout", "secondary-timeout", "primary-tolerance", "secondary-tolerance"} {
		for _, e := range []string{"0", "2^24", "2^56", "2^64-1"} {
			want = append(want, name+"="+e)
		}
	}
	for _, w := range want {
		assert.True(t, seen[w], "%s never drawn in %d draws", w, draws)
	}
}
