package trace

import "io"

// NewReaderBlocks is NewReader with the parallel path reading blocks of
// size bytes: tests use tiny blocks so that lines straddle every boundary.
func NewReaderBlocks(r io.Reader, opt Options, size int) (*Reader, error) {
	rd, err := NewReader(r, opt)
	if err == nil {
		rd.blockSize = size
	}
	return rd, err
}
