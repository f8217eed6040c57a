package sysfs

import (
	"path"
	"strings"
	"sync"
)

// interned holds the strings a tree's reads make again and again (the
// paths of attributes, and their values: "live", "pcie", a model), so
// that reading the same machine again allocates neither: a string is
// immutable, and one equal to the bytes read is that value whichever read
// made it. It is bounded (emptied past maxInterned strings) and safe for
// concurrent use.
var interned = struct {
	mu sync.Mutex
	m  map[string]string
}{m: map[string]string{}}

// maxInterned bounds interned: a machine's attributes are a few hundred.
const maxInterned = 4096

// maxInternLen bounds the strings interned: longer ones (a listing, a
// long quirks file) are made each time.
const maxInternLen = 256

// intern returns b as a string, the same string for equal bytes.
func intern(b []byte) string {
	if len(b) > maxInternLen {
		return string(b)
	}
	interned.mu.Lock()
	defer interned.mu.Unlock()
	if s, ok := interned.m[string(b)]; ok {
		return s
	}
	if len(interned.m) >= maxInterned {
		clear(interned.m)
	}
	s := string(b)
	interned.m[s] = s
	return s
}

// join is path.Join(dir, elems...) for a clean dir and clean relative
// elements, interned: the path of an attribute read again costs no
// allocation.
func join(dir string, elems ...string) string {
	var buf [maxInternLen]byte
	b := append(buf[:0], dir...)
	for _, e := range elems {
		if e == "" || e == "." || e == ".." || strings.HasPrefix(e, "/") || strings.HasSuffix(e, "/") || strings.Contains(e, "//") || strings.Contains(e, "/.") {
			return path.Join(append([]string{dir}, elems...)...)
		}
		if len(b) > 0 {
			b = append(b, '/')
		}
		b = append(b, e...)
	}
	if dir == "" || dir != path.Clean(dir) || len(b) > maxInternLen {
		return path.Join(append([]string{dir}, elems...)...)
	}
	return intern(b)
}
