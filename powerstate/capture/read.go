package capture

import (
	"io"
	"strconv"
)

// firstRead is the size of the first buffer readBounded uses when r does not say
// how long it is: every capture format but a long smartctl -x report fits.
const firstRead = 16 << 10

// sizer is implemented by the readers that know how much they hold
// (*bytes.Reader, *strings.Reader).
type sizer interface{ Len() int }

// readBounded reads all of r, at most MaxSize bytes, in as few reads as it can:
// when r reports its length (Len() int) the buffer is sized to it at once.
// A longer input is refused with ErrTooLarge (and the number of bytes it
// was limited to in expected) after reading at most MaxSize+1 bytes. The
// error of r is returned as is.
func readBounded(r io.Reader) (b []byte, expected string, err error) {
	n := firstRead
	if s, ok := r.(sizer); ok {
		n = min(s.Len()+1, MaxSize+1)
	}
	b = make([]byte, 0, n)
	for {
		if len(b) == cap(b) {
			if len(b) > MaxSize {
				break
			}
			b = append(b, 0)[:len(b)]
		}
		m, err := r.Read(b[len(b):min(cap(b), MaxSize+1)])
		b = b[:len(b)+m]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, "a readable capture", err
		}
		if len(b) > MaxSize {
			break
		}
	}
	if len(b) > MaxSize {
		return nil, "at most " + strconv.Itoa(MaxSize) + " bytes", ErrTooLarge
	}
	return b, "", nil
}
