package trace_test

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/analysis/trace"
)

// reversedBlocks is a plain trace of blocks × per lines whose blocks are
// each in descending time: the reorder window's worst case when it was a
// sorted slice (every event inserted at its front).
func reversedBlocks(blocks, per int) []byte {
	var b bytes.Buffer
	for k := range blocks {
		for i := per - 1; i >= 0; i-- {
			fmt.Fprintf(&b, "%d.%06d 0.000010\n", (k*per+i)/1000, (k*per+i)%1000*1000)
		}
	}
	return b.Bytes()
}

// Blocks in descending time come out in time order, whatever the block's
// size within the window.
func TestReaderReversedBlocks(t *testing.T) {
	for _, per := range []int{1, 2, 7, 100, 5000} {
		r, err := trace.NewReader(bytes.NewReader(reversedBlocks(5, per)), trace.Options{})
		require.NoError(t, err)
		last, n := int64(-1), 0
		for {
			ev, err := r.Next()
			if err == io.EOF {
				break
			}
			require.NoError(t, err)
			require.GreaterOrEqual(t, ev.Time, last, "block size %d, event %d", per, n)
			last = ev.Time
			n++
		}
		require.Equal(t, 2*5*per, n)
	}
}

// BenchmarkReaderReversedBlocks reads 80,000 commands whose blocks of 1000
// or 8000 lines are each in descending time: with the window a heap the
// time per event stays within a small factor of a sorted trace's
// (O(log w) per event), where a sorted-slice window took O(w).
func BenchmarkReaderReversedBlocks(b *testing.B) {
	for _, per := range []int{1, 1000, 8000} {
		data := reversedBlocks(80000/per, per)
		b.Run(fmt.Sprintf("block=%d", per), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			events := 0
			for b.Loop() {
				events += readEvents(b, data, trace.Options{})
			}
			b.ReportMetric(b.Elapsed().Seconds()*1e9/float64(events), "ns/event")
		})
	}
}
