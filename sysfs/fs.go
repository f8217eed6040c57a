package sysfs

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// DefaultMountPoint is where sysfs is mounted on a live Linux system.
const DefaultMountPoint = "/sys"

// MaxAttributeSize is the most a read of one attribute returns: every
// attribute is read with a single read into a buffer of this size, and one
// that fills it is reported as an error rather than silently truncated.
const MaxAttributeSize = 4096

// FS is a sysfs tree rooted at a mount point. The zero value is not usable;
// build one with NewFS or NewDefaultFS. An FS holds no open files and is safe
// for concurrent use.
type FS struct {
	root  string
	hooks *hooks // nil except in tests
}

// hooks lets the package's own tests stand in for the kernel on writes.
type hooks struct {
	write func(path, value string) error
}

// NewFS returns an FS rooted at mountPoint, which must be a directory (a live
// /sys, or a copy of the parts this package reads).
func NewFS(mountPoint string) (FS, error) {
	fi, err := os.Stat(mountPoint)
	if err != nil {
		return FS{}, fmt.Errorf("sysfs: %w", err)
	}
	if !fi.IsDir() {
		return FS{}, fmt.Errorf("sysfs: mount point %s is not a directory", mountPoint)
	}
	return FS{root: mountPoint}, nil
}

// NewDefaultFS returns an FS rooted at DefaultMountPoint.
func NewDefaultFS() (FS, error) { return NewFS(DefaultMountPoint) }

// Root returns the mount point the FS reads.
func (fs FS) Root() string { return fs.root }

// path joins the root and a slash-separated relative path.
func (fs FS) path(rel string) string {
	return filepath.Join(fs.root, filepath.FromSlash(rel))
}

// read reads one attribute with a single bounded read and returns it with
// surrounding white space removed.
func (fs FS) read(rel string) (string, error) {
	raw, err := fs.readRaw(rel)
	return strings.TrimSpace(raw), err
}

// readRaw reads one attribute with a single read of at most
// MaxAttributeSize bytes and returns it untrimmed.
func (fs FS) readRaw(rel string) (string, error) {
	p := fs.path(rel)
	f, err := os.Open(p)
	if err != nil {
		return "", fmt.Errorf("sysfs: %w", err)
	}
	defer f.Close()
	buf := make([]byte, MaxAttributeSize)
	n, err := f.Read(buf)
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("sysfs: %w", err)
	}
	if n == len(buf) {
		return "", fmt.Errorf("%w: %s: larger than %d bytes", ErrInvalidAttribute, p, MaxAttributeSize)
	}
	return string(buf[:n]), nil
}

// readOptional is read for an attribute whose absence is meaningful: a
// missing file (or a missing directory on its path) returns ok false and no
// error. Any other failure, a permission error in particular, is an error.
func (fs FS) readOptional(rel string) (value string, ok bool, err error) {
	v, err := fs.read(rel)
	if errors.Is(err, os.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return v, true, nil
}

// write writes value to an existing attribute in a single write. It never
// creates a file.
func (fs FS) write(rel, value string) error {
	p := fs.path(rel)
	if fs.hooks != nil && fs.hooks.write != nil {
		return fs.hooks.write(p, value)
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return fmt.Errorf("sysfs: %w", err)
	}
	_, werr := f.Write([]byte(value))
	cerr := f.Close()
	if werr != nil {
		return fmt.Errorf("sysfs: %w", werr)
	}
	if cerr != nil {
		return fmt.Errorf("sysfs: %w", cerr)
	}
	return nil
}

// checkName accepts a controller or disk name that is one path element, so
// that no name can reach outside the directory it is looked up in.
func checkName(name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) || strings.ContainsRune(name, 0) {
		return fmt.Errorf("%w %q", ErrInvalidName, name)
	}
	return nil
}

// parseInt parses a decimal attribute value (what the kernel prints with %d
// or %lu) into the given bit size.
func parseInt(p, s string, bits int) (int64, error) {
	v, err := strconv.ParseInt(s, 10, bits)
	if err != nil {
		return 0, fmt.Errorf("%w: %s: %q is not a %d-bit decimal integer", ErrInvalidAttribute, p, s, bits)
	}
	return v, nil
}

func parseUint(p, s string, bits int) (uint64, error) {
	v, err := strconv.ParseUint(s, 10, bits)
	if err != nil {
		return 0, fmt.Errorf("%w: %s: %q is not an unsigned %d-bit decimal integer", ErrInvalidAttribute, p, s, bits)
	}
	return v, nil
}

// parseHex16 parses a PCI ID attribute such as "0x8086".
func parseHex16(p, s string) (uint16, error) {
	h, ok := strings.CutPrefix(strings.ToLower(s), "0x")
	v, err := strconv.ParseUint(h, 16, 16)
	if !ok || err != nil {
		return 0, fmt.Errorf("%w: %s: %q is not a 16-bit 0x-prefixed hexadecimal ID", ErrInvalidAttribute, p, s)
	}
	return uint16(v), nil
}

// lessNatural orders names like nvme2 before nvme10: runs of digits compare
// by value, everything else byte by byte.
func lessNatural(a, b string) bool {
	for a != "" && b != "" {
		if isDigit(a[0]) && isDigit(b[0]) {
			na, ra := splitDigits(a)
			nb, rb := splitDigits(b)
			ta, tb := strings.TrimLeft(na, "0"), strings.TrimLeft(nb, "0")
			if len(ta) != len(tb) {
				return len(ta) < len(tb)
			}
			if ta != tb {
				return ta < tb
			}
			if len(na) != len(nb) {
				return len(na) < len(nb)
			}
			a, b = ra, rb
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func splitDigits(s string) (digits, rest string) {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return s[:i], s[i:]
}

func isNotExist(err error) bool { return errors.Is(err, os.ErrNotExist) }
