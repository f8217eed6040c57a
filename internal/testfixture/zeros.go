package testfixture

import "io"

// Zeros is a pipe of NUL bytes (cat /dev/zero), bounded so that a reader
// that does not stop fails its test rather than hanging it: Left bytes
// are given, then io.EOF; Taken counts what was read.
type Zeros struct{ Left, Taken int }

// NewZeros returns a pipe of n NUL bytes.
func NewZeros(n int) *Zeros { return &Zeros{Left: n} }

func (z *Zeros) Read(p []byte) (int, error) {
	if z.Left == 0 {
		return 0, io.EOF
	}
	n := min(len(p), z.Left)
	clear(p[:n])
	z.Left -= n
	z.Taken += n
	return n, nil
}
