package capture

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLineNumbering(t *testing.T) {
	// "\r\r\n" is one line end; "\r\r\r\n" a lone "\r" and one.
	for _, s := range []string{"", "a", "a\nb", "a\r\nb\r\n", "a\rb\r", "\n\n\r\r\n\r", "x\r\n\r\ny", "a\r\r\nb\r\r\n", "a\r\r\r\nb\r\r"} {
		l := newLineReader(s)
		var starts []int
		for {
			_, _, ok := l.Next()
			if !ok {
				break
			}
			starts = append(starts, l.Start())
		}
		for i, off := range starts {
			assert.Equal(t, i+1, lineOf(s, off), "%q offset %d", s, off)
		}
	}
	// The walker's incremental numbering agrees with lineOf, in any order.
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		var b strings.Builder
		for range 50 {
			b.WriteString([]string{"a", " ", "\n", "\r", "\r\n", "\r\r\n", ",", ":"}[r.IntN(8)])
		}
		s := b.String()
		w := newJSONWalker(s, 0, nil)
		offs := []int{r.IntN(len(s) + 1), r.IntN(len(s) + 1), r.IntN(len(s) + 1)}
		for _, off := range append(offs, offs[0]) {
			require.Equal(t, lineOf(s, off), w.lineAt(off), "%q at %d", s, off)
		}
	}
}

func TestEndsInside(t *testing.T) {
	assert.True(t, endsInside("a\nb", 2))
	assert.False(t, endsInside("a\nb\n", 2))
	assert.False(t, endsInside("a\nb", 1))
	assert.False(t, endsInside("", 1))
}
