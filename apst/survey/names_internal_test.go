package survey

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// The arena gives back every name as added, whatever the names (sharing
// prefixes or not, empty, longer than a chunk, any bytes) and whatever the
// order they are read in, with one cursor or a fresh one each.
func TestPropertyArenaNames(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var a arena
		var names []string
		prev := ""
		for range rapid.IntRange(0, 80).Draw(t, "n") {
			var s string
			switch rapid.IntRange(0, 5).Draw(t, "kind") {
			case 0: // a sibling of the one before
				s = prev[:rapid.IntRange(0, len(prev)).Draw(t, "keep")] + rapid.String().Draw(t, "rest")
			case 1:
				s = ""
			case 2: // longer than a chunk, now and then
				s = strings.Repeat(rapid.StringN(1, 3, 3).Draw(t, "unit"), rapid.IntRange(1, arenaChunk/2).Draw(t, "reps"))
			default:
				s = fmt.Sprintf("/fleet/rack%04d/host%07d.txt", rapid.IntRange(0, 3).Draw(t, "rack"), rapid.IntRange(0, 50).Draw(t, "host"))
			}
			a.add(s)
			names = append(names, s)
			prev = s
		}
		require.Equal(t, len(names), a.n)
		var inOrder nameCursor
		for i, want := range names {
			require.Equal(t, want, inOrder.at(&a, i), "in order, name %d", i)
			require.Equal(t, want, a.at(i), "alone, name %d", i)
		}
		if len(names) == 0 {
			return
		}
		var any nameCursor
		for range rapid.IntRange(1, 40).Draw(t, "reads") {
			i := rapid.IntRange(0, len(names)-1).Draw(t, "i")
			require.Equal(t, names[i], any.at(&a, i), "name %d", i)
		}
	})
}

// A fleet's paths cost a few bytes each, not their length.
func TestArenaFrontCoded(t *testing.T) {
	var a arena
	total := 0
	for i := range 100000 {
		p := fmt.Sprintf("/tmp/fleet/smartctl-100000/rack%04d/host%07d.smartctl.txt", i/1000, i)
		total += len(p)
		a.add(p)
	}
	assert.Less(t, a.size, uint64(total/3), "%d bytes for %d bytes of names", a.size, total)
	assert.Equal(t, "/tmp/fleet/smartctl-100000/rack0042/host0042017.smartctl.txt", a.at(42017))
}
