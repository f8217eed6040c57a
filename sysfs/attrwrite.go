package sysfs

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"

	"github.com/nvmeapst/nvmeapst/internal/safeio"
)

// writeData writes b to f in one call (a test may stand in for it).
func (fs FS) writeData(f *os.File, b []byte) (int, error) {
	if fs.hooks != nil && fs.hooks.writeData != nil {
		return fs.hooks.writeData(f, b)
	}
	return f.Write(b)
}

// writeCopy replaces the regular file rel of a copy of the tree (a bundle,
// a test's fake root) with value: a temporary file beside it
// (".NAME.tmp-*") with its owner and mode is written and renamed over it,
// so that the file holds the old value or the new one, whatever fails or
// interrupts the write. A file that is a symbolic link (rare in a copy) is
// written in place instead, then cut to the value's length.
func (fs FS) writeCopy(r *os.Root, rel, value string) (err error) {
	name := filepath.FromSlash(rel)
	old, err := r.Lstat(name)
	if err != nil {
		return fmt.Errorf("sysfs: %w", fs.fullPath(rel, err))
	}
	if old.Mode()&os.ModeSymlink != 0 {
		return fs.writeInPlace(r, rel, value)
	}
	dir, base := filepath.Split(name)
	var t *os.File
	var tmp string
	for range 100 {
		tmp = filepath.Join(dir, "."+base+".tmp-"+strconv.FormatUint(uint64(rand.Uint32()), 10))
		if t, err = r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600); !os.IsExist(err) {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("sysfs: %s: %w", fs.path(rel), err)
	}
	defer func() {
		if err != nil {
			t.Close()
			r.Remove(tmp)
		}
	}()
	if err := safeio.KeepOwnerMode(t, old); err != nil {
		return fmt.Errorf("sysfs: %s: %w; nothing written", fs.path(rel), err)
	}
	if _, err := fs.writeData(t, []byte(value)); err != nil {
		return fmt.Errorf("sysfs: %s: %w; nothing written", fs.path(rel), err)
	}
	if err := t.Close(); err != nil {
		return fmt.Errorf("sysfs: %s: %w; nothing written", fs.path(rel), err)
	}
	if err := r.Rename(tmp, name); err != nil {
		r.Remove(tmp)
		return fmt.Errorf("sysfs: %s: %w; nothing written", fs.path(rel), err)
	}
	return nil
}

// writeInPlace writes value over the start of the file rel and cuts it to
// the value's length.
func (fs FS) writeInPlace(r *os.Root, rel, value string) error {
	f, err := safeio.OpenFileInRoot(r, filepath.FromSlash(rel), os.O_WRONLY)
	if err != nil {
		return fmt.Errorf("sysfs: %w", fs.fullPath(rel, err))
	}
	_, werr := fs.writeData(f, []byte(value))
	if werr == nil {
		werr = f.Truncate(int64(len(value)))
	}
	cerr := f.Close()
	if werr != nil {
		return fmt.Errorf("sysfs: %w", werr)
	}
	if cerr != nil {
		return fmt.Errorf("sysfs: %w", cerr)
	}
	return nil
}
