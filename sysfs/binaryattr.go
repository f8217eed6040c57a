package sysfs

import (
	"path"
	"strings"
	"sync"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
)

// binaryFiles are the binary files of a PCI function's folder that
// diagnose.FunctionFiles declares (config), by name, with the most bytes
// each may hold: every read of such a file (PowerFacts, ReadFile, a
// session, a bundle's copy) reads it whole, up to that bound, instead of
// refusing what a text attribute would not hold.
var binaryFiles = sync.OnceValue(func() map[string]int64 {
	m := map[string]int64{}
	for _, r := range diagnose.FunctionFiles() {
		if r.Decode != nil && r.Size > 0 && !strings.Contains(r.File, "/") {
			m[r.File] = int64(r.Size)
		}
	}
	return m
})

// attrLimit returns the most bytes the file rel may hold: a binary file
// of a PCI function's folder its bound, any other MaxAttributeSize-1.
func attrLimit(rel string) int64 {
	dir, name := path.Split(rel)
	if n, ok := binaryFiles()[name]; ok && dir != "" && pciFunctionName.MatchString(path.Base(dir[:len(dir)-1])) {
		return n
	}
	return MaxAttributeSize - 1
}

// rawAttr is attr for a binary file: its bytes untrimmed.
func (fs FS) rawAttr(rel string) rawAttr {
	v, ok, err := fs.readRawOptional(rel)
	return rawAttr{Path: rel, Value: v, Present: ok || err != nil, Err: err}
}

// decoded is the fact of a binary file read (f, its bytes in Value) as
// decode makes it; a file absent or unreadable stays as f says.
func decoded(f diagnose.Fact, decode func([]byte) diagnose.Fact) diagnose.Fact {
	if f.Status != diagnose.Read {
		return f
	}
	d := decode([]byte(f.Value))
	d.Source = f.Source
	return d
}
