package safeio

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chunkReader gives content at most chunk bytes a read, counting reads.
type chunkReader struct {
	content string
	chunk   int
	reads   int
}

func (r *chunkReader) read(p []byte) (int, error) {
	r.reads++
	if len(p) > r.chunk {
		p = p[:r.chunk]
	}
	n := copy(p, r.content)
	r.content = r.content[n:]
	return n, nil
}

// readLoop stops at the size fstat gave when a read ends there short of
// what was asked, and reads on to a read of 0 otherwise: a file that grew,
// a size that lies (sysfs's 4096, procfs's 0), a reader giving little at
// a time.
func TestReadLoopReads(t *testing.T) {
	long := strings.Repeat("x", 5000)
	for _, tt := range []struct {
		name    string
		content string
		size    int64
		chunk   int
		reads   int
	}{
		{"exact size", "0123456789", 10, 1 << 20, 1},
		{"grew since fstat", "0123456789AB", 10, 1 << 20, 3},
		{"shrank since fstat", "01234", 10, 1 << 20, 2},
		{"sysfs: 4096 said, less held", "42\n", 4096, 1 << 20, 2},
		{"procfs: 0 said", "cpu 1 2 3\n", 0, 1 << 20, 2},
		{"procfs: 0 said, more than a buffer", long, 0, 1 << 20, 5},
		{"a byte a read, ending at the size", "0123", 4, 1, 4},
		{"empty, 0 said", "", 0, 1 << 20, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := &chunkReader{content: tt.content, chunk: tt.chunk}
			b, err := readLoop(r, nil, tt.size, 1<<20, "f")
			require.NoError(t, err)
			assert.Equal(t, tt.content, string(b))
			assert.Equal(t, tt.reads, r.reads, "reads")
		})
	}
}
