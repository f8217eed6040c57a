//go:build unix

package safeio

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// keepOwner gives f the owner and group of old where they differ.
func keepOwner(f *os.File, old fs.FileInfo) error {
	want, ok := old.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	have, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || have.Uid == want.Uid && have.Gid == want.Gid {
		return nil
	}
	if err := f.Chown(int(want.Uid), int(want.Gid)); err != nil {
		return fmt.Errorf("keeping owner %d:%d: %w", want.Uid, want.Gid, err)
	}
	return nil
}
