package safeio

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile replaces the file path with what write writes, atomically: the
// content goes to a temporary file in the same directory (".NAME.tmp-*"),
// which is flushed, given exactly perm (no umask applies, as it would with
// os.WriteFile; on Windows only the read-only bit), fsynced and renamed over
// path, and the directory is fsynced where the system allows it. write gets
// a buffered writer whose errors are checked for it (it may ignore them; see
// [Writer]).
//
// On any error (write's own, a failed write such as ENOSPC, fsync, rename)
// the temporary file is removed and the file at path, if there was one, is
// untouched. A symbolic link at path is followed, so the file it points to
// is replaced and the link stays. An existing path that is not a regular
// file (a device such as /dev/stdout, a named pipe, a directory) is refused
// with an error matching [ErrNotRegular]: renaming over it would replace the
// node, not write to it.
func WriteFile(path string, perm fs.FileMode, write func(io.Writer) error) (err error) {
	if path == "" {
		return &fs.PathError{Op: "write", Path: path, Err: errors.New("empty file name")}
	}
	target, err := writeTarget(path)
	if err != nil {
		return err
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	closed := false
	defer func() {
		if err != nil {
			if !closed {
				f.Close()
			}
			os.Remove(tmp)
		}
	}()
	bw := bufio.NewWriterSize(f, 64<<10)
	cw := NewWriter(bw)
	if err := write(cw); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := cw.Err(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Chmod(perm); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	closed = true
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, target); err != nil {
		return err
	}
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("write %s: renamed, but syncing directory %s: %w", path, dir, err)
	}
	return nil
}

// writeTarget follows symbolic links at path and refuses a target that
// exists and is not a regular file.
func writeTarget(path string) (string, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return path, nil
	}
	if err != nil {
		return "", err
	}
	target := path
	if fi.Mode()&fs.ModeSymlink != 0 {
		if target, err = filepath.EvalSymlinks(path); err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				return "", err
			}
			// A dangling link: write where it points.
			link, lerr := os.Readlink(path)
			if lerr != nil {
				return "", lerr
			}
			if !filepath.IsAbs(link) {
				link = filepath.Join(filepath.Dir(path), link)
			}
			return link, nil
		}
		if fi, err = os.Stat(target); err != nil {
			return "", err
		}
	}
	if err := checkRegular(path, fi); err != nil {
		return "", err
	}
	return target, nil
}
