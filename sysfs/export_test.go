package sysfs

import (
	"os"
	"testing"

	"github.com/nvmeapst/nvmeapst/internal/testfixture"
)

// CopyFixture copies the fixture tree at dir (relative to this package:
// "../testdata/sys", the module's tree, or one of testdata/) into a fresh
// temporary directory, keeping symbolic links as links, and returns the
// copy's root. Tests that write use it so that the fixtures stay untouched.
func CopyFixture(t testing.TB, dir string) string { return testfixture.CopyTree(t, dir) }

// WithWriteHook returns a copy of fs whose writes call write instead of
// writing the file, so that tests can play a kernel that changes values.
func WithWriteHook(fs FS, write func(path, value string) error) FS {
	h := hooks{}
	if fs.hooks != nil {
		h = *fs.hooks
	}
	h.write = write
	fs.hooks = &h
	return fs
}

// WithMaxDirEntries returns a copy of fs whose directory listings stop at n
// entries instead of MaxDirEntries.
func WithMaxDirEntries(fs FS, n int) FS {
	h := hooks{}
	if fs.hooks != nil {
		h = *fs.hooks
	}
	h.maxDir = n
	fs.hooks = &h
	return fs
}

// LessNatural exposes lessNatural to the external tests.
var LessNatural = lessNatural

// WithWriteDataError returns a copy of fs whose one write of a value fails
// with err after writing nothing, as a full disk or an I/O error would.
func WithWriteDataError(fs FS, err error) FS {
	h := hooks{}
	if fs.hooks != nil {
		h = *fs.hooks
	}
	h.writeData = func(*os.File, []byte) (int, error) { return 0, err }
	fs.hooks = &h
	return fs
}

// ParseNamespaceEntry exposes parseNamespaceEntry to the external tests.
var ParseNamespaceEntry = parseNamespaceEntry
