package sysfs

import (
	"errors"
	"fmt"
	iofs "io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/nvmeapst/nvmeapst/internal/safeio"
)

// DefaultMountPoint is where sysfs is mounted on a live Linux system.
const DefaultMountPoint = "/sys"

// MaxAttributeSize bounds every attribute read: a sysfs attribute holds
// less than one page (the kernel's show handlers print into a 4096-byte
// page), so a file of MaxAttributeSize bytes or more is reported as an error
// wrapping ErrInvalidAttribute rather than silently truncated. The one
// binary file read, a PCI function's config (configuration space: 64, 256
// or 4096 bytes), is read whole, up to 4096 bytes.
const MaxAttributeSize = 4096

// MaxDirEntries bounds every directory listing (class/nvme, a controller's
// folder): a tree holding more entries in one (a hostile bundle or copy;
// a machine has at most a few hundred controllers, each with a few dozen
// entries) is an error matching safeio.ErrTooLarge naming the directory,
// read no further than about that many entries.
const MaxDirEntries = 1 << 16

// IncompleteMarker is the file that marks a snapshot of a tree still being
// written (a bundle that "apstctl collect" has not finished). [NewFS]
// refuses a directory that holds it, so that an interrupted copy is never
// read as a machine.
const IncompleteMarker = ".nvmeapst-incomplete"

// FS is a sysfs tree rooted at a mount point. Build one with [NewFS] or
// [NewDefaultFS]: the zero value has no root, and every method of it fails
// with an error wrapping [ErrZeroFS] instead of reading relative to the
// working directory. An FS holds no open files and is safe for concurrent
// use.
//
// Every path is resolved inside the root (os.Root): symbolic links are
// followed, as sysfs needs, but only while they stay inside the tree, so a
// snapshot from elsewhere cannot make the package read /etc/passwd. Every
// file is opened without blocking and must be a regular file: a named pipe,
// socket or device in a tree is an error wrapping [ErrNotRegular], never a
// hang.
type FS struct {
	root  string
	snap  *snapshot // nil unless WithSnapshot
	hooks *hooks    // nil except in tests
	// open is the tree opened for the duration of one exported call that
	// reads many files (see session); nil in every FS a caller holds.
	open *os.Root
	// sess is the session of a copy FS.Session returned; nil otherwise.
	sess *session
}

// hooks lets the package's own tests stand in for the kernel on writes.
type hooks struct {
	write func(path, value string) error
	// writeData, when set, stands for the one write of a value.
	writeData func(f *os.File, b []byte) (int, error)
	// maxDir, when positive, stands for MaxDirEntries.
	maxDir int
	// read, when set, is called with every path read (WithReadHook).
	read func(rel string)
}

// NewFS returns an FS rooted at mountPoint, which must be a directory (a live
// /sys, or a copy of the parts this package reads). A directory holding
// [IncompleteMarker], or named like the temporary directory of an
// unfinished collect (".NAME.tmp-123"), is refused with an error wrapping
// [ErrIncomplete].
func NewFS(mountPoint string) (FS, error) {
	if mountPoint == "" {
		return FS{}, fmt.Errorf("sysfs: NewFS: empty mount point (want a directory such as %s)", DefaultMountPoint)
	}
	fi, err := os.Stat(mountPoint)
	if err != nil {
		return FS{}, fmt.Errorf("sysfs: %w", err)
	}
	if !fi.IsDir() {
		return FS{}, fmt.Errorf("sysfs: mount point %s is not a directory", mountPoint)
	}
	if tmpDirName.MatchString(filepath.Base(filepath.Clean(mountPoint))) {
		return FS{}, fmt.Errorf("%w: %s is the temporary directory of a collect that did not finish", ErrIncomplete, mountPoint)
	}
	if _, err := os.Lstat(filepath.Join(mountPoint, IncompleteMarker)); err == nil {
		return FS{}, fmt.Errorf("%w: %s holds %s: a collect did not finish writing it", ErrIncomplete, mountPoint, IncompleteMarker)
	} else if !errors.Is(err, os.ErrNotExist) {
		return FS{}, fmt.Errorf("sysfs: %w", err)
	}
	return FS{root: mountPoint}, nil
}

// tmpDirName matches the temporary directory names of a collect.
var tmpDirName = regexp.MustCompile(`^\..+\.tmp-[0-9]+$`)

// NewDefaultFS returns an FS rooted at DefaultMountPoint.
func NewDefaultFS() (FS, error) { return NewFS(DefaultMountPoint) }

// Root returns the mount point the FS reads ("" for the zero FS).
func (fs FS) Root() string { return fs.root }

// check refuses the zero FS.
func (fs FS) check() error {
	if fs.root == "" {
		return ErrZeroFS
	}
	return nil
}

// path joins the root and a slash-separated relative path, for messages.
func (fs FS) path(rel string) string {
	return filepath.Join(fs.root, filepath.FromSlash(rel))
}

// openRoot returns the tree as an os.Root, which confines every lookup to
// it, and the function that releases it: the session's root when there is
// one, a root opened for this one lookup otherwise.
func (fs FS) openRoot() (*os.Root, func(), error) {
	if fs.open != nil {
		return fs.open, func() {}, nil
	}
	if s, ok := fs.active(); ok {
		r := s.root
		s.mu.Unlock()
		return r, func() {}, nil
	}
	if err := fs.check(); err != nil {
		return nil, nil, err
	}
	r, err := os.OpenRoot(fs.root)
	if err != nil {
		return nil, nil, fmt.Errorf("sysfs: %w", err)
	}
	return r, func() { r.Close() }, nil
}

// session returns a copy of fs that keeps the tree open until done is
// called, so that an exported method reading many files opens the root
// once. The FS a caller holds still holds no open file.
func (fs FS) session() (FS, func(), error) {
	if fs.open != nil || fs.sess != nil {
		return fs, func() {}, nil
	}
	r, done, err := fs.openRoot()
	if err != nil {
		return fs, nil, err
	}
	fs.open = r
	return fs, done, nil
}

// fullPath makes the path of a *fs.PathError from an os.Root call the full
// path of rel, so that messages say which file of which tree failed.
//
// The operation is named as people know it (stat, open, readdir: never
// os.Root's statat), and a path missing from a tree that has no class
// directory at all says so: "no sysfs at ROOT". Both keep wrapping the
// original error (os.ErrNotExist, os.ErrPermission).
func (fs FS) fullPath(rel string, err error) error {
	var pe *iofs.PathError
	if errors.As(err, &pe) && (pe.Path == filepath.FromSlash(rel) || pe.Path == fs.path(rel)) {
		if errors.Is(pe.Err, iofs.ErrNotExist) && (rel == "class/nvme" || path.Dir(rel) == "class/nvme") {
			if _, serr := os.Stat(filepath.Join(fs.Root(), "class")); serr != nil {
				return &noSysfsError{root: fs.Root(), err: pe}
			}
		}
		return &iofs.PathError{Op: plainOp(pe.Op), Path: fs.path(rel), Err: pe.Err}
	}
	return err
}

// plainOp names an os.Root operation as its plain form: statat is stat.
func plainOp(op string) string {
	switch op {
	case "statat", "openat", "readlinkat", "fstatat", "mkdirat", "unlinkat":
		return strings.TrimSuffix(op, "at")
	}
	return op
}

// noSysfsError is a path missing from a tree that is no sysfs at all (no
// class directory): the error says that, not which file was missing.
type noSysfsError struct {
	root string
	err  error
}

func (e *noSysfsError) Error() string {
	return fmt.Sprintf("no sysfs at %s (no class/nvme: it has no class directory at all)", e.root)
}

func (e *noSysfsError) Unwrap() error { return e.err }

// Is makes errors.Is(err, ErrNotSysfs) true.
func (e *noSysfsError) Is(target error) bool { return target == ErrNotSysfs }

// stat is os.Stat of rel inside the tree (symbolic links followed within
// it). A path the snapshot records as unreadable is an error.
func (fs FS) stat(rel string) (iofs.FileInfo, error) {
	if err := fs.snap.unreadableErr(fs, rel); err != nil {
		return nil, err
	}
	r, done, err := fs.openRoot()
	if err != nil {
		return nil, err
	}
	defer done()
	fi, err := r.Stat(filepath.FromSlash(rel))
	if err != nil {
		return nil, fmt.Errorf("sysfs: %w", fs.fullPath(rel, err))
	}
	return fi, nil
}

// readDir lists the directory rel inside the tree.
func (fs FS) readDir(rel string) ([]iofs.DirEntry, error) {
	if err := fs.snap.unreadableErr(fs, rel); err != nil {
		return nil, err
	}
	if ents, ok, err := fs.sessionReadDir(rel); ok {
		return ents, err
	}
	fs.readHook(rel)
	return fs.listDir(rel)
}

// listDir lists the directory rel inside the tree, without the snapshot's
// check, the session or the hook.
func (fs FS) listDir(rel string) ([]iofs.DirEntry, error) {
	r, done, err := fs.openRoot()
	if err != nil {
		return nil, err
	}
	defer done()
	limit := MaxDirEntries
	if fs.hooks != nil && fs.hooks.maxDir > 0 {
		limit = fs.hooks.maxDir
	}
	ents, err := safeio.ReadDirInRoot(r, filepath.FromSlash(rel), limit)
	if err != nil {
		return nil, fmt.Errorf("sysfs: %w", fs.fullPath(rel, err))
	}
	return ents, nil
}

// ReadFile returns the raw content of the attribute file rel (a
// slash-separated path relative to the root, such as one [FS.Files] lists).
// It reads it as every attribute is read: inside the tree, without blocking, regular
// files only, at most MaxAttributeSize-1 bytes (a PCI function's binary
// config file, whole: up to its 4096 bytes). A tool copying a tree uses
// it; a file the snapshot records as unreadable is an error wrapping
// [ErrUnreadableInSnapshot].
func (fs FS) ReadFile(rel string) ([]byte, error) {
	if err := fs.snap.unreadableErr(fs, rel); err != nil {
		return nil, err
	}
	if f, ok := fs.sessionAttr(rel); ok {
		v, err := f.value(fs, rel)
		if err != nil {
			return nil, err
		}
		return []byte(v), nil
	}
	fs.readHook(rel)
	return fs.readFile(rel)
}

// readFile reads the attribute file rel inside the tree, without the
// snapshot's check, the session or the hook.
func (fs FS) readFile(rel string) ([]byte, error) {
	r, done, err := fs.openRoot()
	if err != nil {
		return nil, err
	}
	defer done()
	limit := attrLimit(rel)
	b, err := safeio.ReadFileInRoot(r, filepath.FromSlash(rel), limit)
	switch {
	case errors.Is(err, safeio.ErrTooLarge):
		return nil, fmt.Errorf("%w: %s: %d bytes or more", ErrInvalidAttribute, fs.path(rel), limit+1)
	case err != nil:
		return nil, fmt.Errorf("sysfs: %w", fs.fullPath(rel, err))
	}
	return b, nil
}

// read reads one attribute and returns it with surrounding white space
// removed.
func (fs FS) read(rel string) (string, error) {
	raw, err := fs.readRaw(rel)
	return strings.TrimSpace(raw), err
}

// readRaw reads one attribute untrimmed.
func (fs FS) readRaw(rel string) (string, error) {
	if err := fs.snap.unreadableErr(fs, rel); err != nil {
		return "", err
	}
	if f, ok := fs.sessionAttr(rel); ok {
		return f.value(fs, rel)
	}
	b, err := fs.ReadFile(rel)
	return string(b), err
}

// readRawOptional is readRaw for an attribute whose absence is
// meaningful, as readOptional is read's: a missing file is ok false and no
// error (and, in a session, no error made).
func (fs FS) readRawOptional(rel string) (raw string, ok bool, err error) {
	if fs.sess != nil && fs.snap.unreadableErr(fs, rel) == nil {
		if f, ok := fs.sessionAttr(rel); ok {
			switch {
			case f.absent || f.err != nil && isNotExist(f.err):
				return "", false, nil
			case f.err != nil:
				return "", false, f.err
			}
			return f.v, true, nil
		}
	}
	raw, err = fs.readRaw(rel)
	if isNotExist(err) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return raw, true, nil
}

// readOptional is read for an attribute whose absence is meaningful: a
// missing file (or a missing directory on its path) returns ok false and no
// error. Any other failure (permission, not a regular file, a path leaving
// the tree, a file the snapshot could not read) is an error: unreadable is
// never taken for absent.
func (fs FS) readOptional(rel string) (value string, ok bool, err error) {
	if fs.sess != nil && fs.snap.unreadableErr(fs, rel) == nil {
		if f, ok := fs.sessionAttr(rel); ok {
			switch {
			case f.absent:
				return "", false, nil
			case f.err != nil && isNotExist(f.err):
				return "", false, nil
			case f.err != nil:
				return "", false, f.err
			}
			return strings.TrimSpace(f.v), true, nil
		}
	}
	v, err := fs.read(rel)
	if isNotExist(err) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return v, true, nil
}

// write writes value to an existing attribute. It never creates a file,
// and it refuses a file that is not a regular one (a named pipe would block
// the open). A kernel attribute (the tree is a live sysfs) gets the value
// in one write, in place, as the kernel's store handler wants it; a file of
// a copy of the tree is replaced atomically (writeCopy), so that a failed
// or interrupted write leaves it as it was, never empty or half-written.
func (fs FS) write(rel, value string) error {
	if err := fs.check(); err != nil {
		return err
	}
	p := fs.path(rel)
	if fs.hooks != nil && fs.hooks.write != nil {
		return fs.hooks.write(p, value)
	}
	r, done, err := fs.openRoot()
	if err != nil {
		return err
	}
	defer done()
	// No O_TRUNC: on a copy it would empty the file before the write.
	f, err := safeio.OpenFileInRoot(r, filepath.FromSlash(rel), os.O_WRONLY)
	if err != nil {
		return fmt.Errorf("sysfs: %w", fs.fullPath(rel, err))
	}
	if !isKernelAttribute(f) {
		f.Close()
		return fs.writeCopy(r, rel, value)
	}
	_, werr := fs.writeData(f, []byte(value))
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
