package sysfs

import (
	"bytes"
	"errors"
	"fmt"
	iofs "io/fs"
	"path"
	"slices"
	"strings"
	"syscall"

	"github.com/nvmeapst/nvmeapst/internal/safeio"
)

// AttrReader reads the attributes of a tree over and over, the way an
// exporter scrapes, without allocating once its buffer has grown. Each
// directory is opened once per use and its files are read relative to it
// (safeio.Dir), never through a symbolic link, into one reused buffer.
// What it reads is what FS reads: only inside the tree (a link on the way
// to a directory is resolved inside the tree, as FS.Power resolves the
// device link, and refused when it leaves it), regular files only, at most
// MaxAttributeSize-1 bytes unless asked for more, and a path the snapshot
// records as unreadable is an error wrapping ErrUnreadableInSnapshot.
//
// NewAttrReader fails with an error matching errors.ErrUnsupported where
// the system has no safeio.Dir (systems other than Linux): read through FS
// there. An AttrReader holds the tree's root open until Close and is for
// one goroutine.
//
// The zero AttrReader has opened no tree: Root returns the zero AttrDir,
// whose reads fail with an error that says to use FS.NewAttrReader, and
// Close does nothing.
type AttrReader struct {
	fs    FS
	root  safeio.Dir
	buf   []byte
	key   []byte
	names []byte
}

// NewAttrReader opens the tree for reading attributes again and again.
func (fs FS) NewAttrReader() (*AttrReader, error) {
	if err := fs.check(); err != nil {
		return nil, err
	}
	d, err := safeio.OpenDir(fs.root)
	if err != nil {
		return nil, fmt.Errorf("sysfs: %w", err)
	}
	return &AttrReader{fs: fs, root: d}, nil
}

// errZeroAttr is the error of a zero AttrReader or AttrDir: neither reads
// anything until NewAttrReader has opened the tree.
var errZeroAttr = errors.New("sysfs: a zero AttrReader or AttrDir: open the tree with FS.NewAttrReader")

// Close releases the tree's root.
func (r *AttrReader) Close() error {
	if r == nil || r.fs.root == "" {
		return nil
	}
	return r.root.Close()
}

// maxDirParts bounds the elements an AttrDir's path is kept in.
const maxDirParts = 4

// AttrDir is a directory of the tree an AttrReader opened. Close it once
// done with it. Its path is kept as the parts it was opened with, so that
// opening "nvme0" under "class/nvme" joins no string.
//
// The zero AttrDir is no directory: Dir, Read, ReadRaw and ControllerNames
// fail with an error that says to open the tree with FS.NewAttrReader; Rel
// is "" and Close does nothing.
type AttrDir struct {
	r     *AttrReader
	d     safeio.Dir
	parts [maxDirParts]string
	n     int
}

// Root returns the tree's root as an AttrDir (not to be closed).
func (r *AttrReader) Root() AttrDir {
	if r == nil || r.fs.root == "" {
		return AttrDir{}
	}
	return AttrDir{r: r, d: r.root}
}

// Close closes d (the root is closed by AttrReader.Close).
func (d AttrDir) Close() {
	if d.n > 0 {
		d.d.Close()
	}
}

// Rel returns d's slash-separated path relative to the root.
func (d AttrDir) Rel() string { return path.Join(d.parts[:d.n]...) }

// appendKey appends d's path and then name, slash-separated, to b.
func (d AttrDir) appendKey(b []byte, name string) []byte {
	for i := range d.n {
		if len(b) > 0 {
			b = append(b, '/')
		}
		b = append(b, d.parts[i]...)
	}
	if name != "" {
		if len(b) > 0 {
			b = append(b, '/')
		}
		b = append(b, name...)
	}
	return b
}

// unreadable returns the snapshot's error for key or one of its parents.
func (r *AttrReader) unreadable(key []byte) error {
	s := r.fs.snap
	if s == nil || len(s.unreadable) == 0 {
		return nil
	}
	for p := key; len(p) > 0; {
		if _, ok := s.unreadable[string(p)]; ok {
			return s.unreadableErr(r.fs, string(key))
		}
		i := bytes.LastIndexByte(p, '/')
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return nil
}

// Dir opens the directory rel under d (slash-separated, at most a few
// elements). A directory that does not exist is ok false with a nil
// error; one that exists but cannot be opened, or that the snapshot
// records as unreadable, is an error naming its path, and so is one a copy
// lacks that holds a file the snapshot records as unreadable (a bundle
// whose collect could not read power/pm_qos_latency_tolerance_us has no
// power folder): what it held is unknown, not absent.
func (d AttrDir) Dir(rel string) (AttrDir, bool, error) {
	if d.r == nil {
		return AttrDir{}, false, errZeroAttr
	}
	r := d.r
	r.key = d.appendKey(r.key[:0], rel)
	if err := r.unreadable(r.key); err != nil {
		return AttrDir{}, false, err
	}
	out := AttrDir{r: r, parts: d.parts, n: d.n}
	if out.n >= maxDirParts {
		out.parts, out.n = [maxDirParts]string{d.Rel()}, 1
	}
	out.parts[out.n] = rel
	out.n++
	cur, owned := d.d, false
	for elem := range strings.SplitSeq(rel, "/") {
		next, err := cur.Sub(elem)
		if owned {
			cur.Close()
		}
		switch {
		case err == nil:
			cur, owned = next, true
			continue
		case errors.Is(err, safeio.ErrLink):
			// A link (a live sysfs: class/nvme/nvme0, device): resolved
			// inside the tree, then opened from the root without links.
			return r.resolved(out)
		case errors.Is(err, iofs.ErrNotExist):
			return AttrDir{}, false, r.fs.snap.unreadableBelow(r.fs, out.Rel())
		}
		return AttrDir{}, false, fmt.Errorf("sysfs: %s: %w", r.fs.path(out.Rel()), err)
	}
	out.d = cur
	if !owned { // rel was empty: the same directory, opened anew
		return AttrDir{}, false, fmt.Errorf("sysfs: %q is not a directory path", rel)
	}
	return out, true, nil
}

// resolved opens dir's path after resolving the links on it inside the
// tree (FS.resolve).
func (r *AttrReader) resolved(dir AttrDir) (AttrDir, bool, error) {
	rel := dir.Rel()
	res, err := r.fs.resolve(rel)
	switch {
	case isNotExist(err):
		return AttrDir{}, false, nil
	case err != nil:
		return AttrDir{}, false, err
	}
	cur, owned := r.root, false
	for elem := range strings.SplitSeq(res, "/") {
		next, err := cur.Sub(elem)
		if owned {
			cur.Close()
		}
		if err != nil {
			if errors.Is(err, iofs.ErrNotExist) {
				return AttrDir{}, false, nil
			}
			return AttrDir{}, false, fmt.Errorf("sysfs: %s (%s): %w", r.fs.path(rel), res, err)
		}
		cur, owned = next, true
	}
	if !owned {
		return AttrDir{}, false, fmt.Errorf("sysfs: %s resolves to the root", r.fs.path(rel))
	}
	return AttrDir{r: r, d: cur, parts: [maxDirParts]string{res}, n: 1}, true, nil
}

// Read returns attribute name of d (one path element) without surrounding
// white space, in the reader's buffer: valid until the next read. A file
// that does not exist is ok false with a nil error; one that exists but
// cannot be read, is MaxAttributeSize bytes or more, or that the snapshot
// records as unreadable, is an error naming its full path.
func (d AttrDir) Read(name string) (value []byte, ok bool, err error) {
	b, ok, err := d.ReadRaw(name, MaxAttributeSize-1)
	return bytes.TrimSpace(b), ok, err
}

// ReadRaw is Read untrimmed, for a file of up to limit bytes (a bundle's
// 4096-byte Identify image).
func (d AttrDir) ReadRaw(name string, limit int64) (value []byte, ok bool, err error) {
	if d.r == nil {
		return nil, false, errZeroAttr
	}
	r := d.r
	r.key = d.appendKey(r.key[:0], name)
	if err := r.unreadable(r.key); err != nil {
		return nil, false, err
	}
	b, err := d.d.ReadFileInto(r.buf, name, limit)
	if cap(b) > cap(r.buf) {
		r.buf = b[:0]
	}
	switch {
	case err == nil:
		return b, true, nil
	case err == syscall.ENOENT:
		return nil, false, nil
	case errors.Is(err, safeio.ErrTooLarge):
		return nil, false, fmt.Errorf("%w: %s: %d bytes or more", ErrInvalidAttribute, r.fs.path(string(r.key)), limit+1)
	case errors.Is(err, safeio.ErrLink):
		// A link to an attribute: read the way FS reads it, inside the tree.
		v, rerr := r.fs.ReadFile(string(r.key))
		if isNotExist(rerr) {
			return nil, false, nil
		}
		if rerr != nil {
			return nil, false, rerr
		}
		return v, true, nil
	}
	return nil, false, fmt.Errorf("sysfs: %s: %w", r.fs.path(string(r.key)), err)
}

// PCIFunction opens the folder of the PCI function of controller name,
// whose folder ctrl is (class/nvme/NAME, opened by this reader): the one
// FS.Power reads d3cold_allowed, power/control and link/ from. It is the
// folder the snapshot records (a bundle keeps links as folders), else
// ctrl's device when it resolves to a PCI function's folder. ok is false
// for a controller that is not a PCI function, and for a copy that does not
// hold the folder.
func (r *AttrReader) PCIFunction(ctrl AttrDir, name string) (AttrDir, bool, error) {
	if r == nil || ctrl.r == nil {
		return AttrDir{}, false, errZeroAttr
	}
	if s := r.fs.snap; s != nil && s.pciPaths[name] != "" {
		p := s.pciPaths[name]
		if !pciFunctionName.MatchString(path.Base(p)) {
			return AttrDir{}, false, nil
		}
		return r.Root().Dir(p)
	}
	dev, ok, err := ctrl.Dir("device")
	if !ok || err != nil {
		return AttrDir{}, false, err
	}
	if dev.n != 1 || !pciFunctionName.MatchString(path.Base(dev.parts[0])) {
		// Not reached through a link to a PCI function's folder: a
		// copy's device folder, or a fabrics controller's.
		dev.Close()
		return AttrDir{}, false, nil
	}
	return dev, true, nil
}

// ControllerNames is FS.ControllerNames read through d, the tree's
// class/nvme opened by this reader: the entries named nvmeN, with the
// controllers the snapshot lists, in natural order, appended to dst[:0].
// A name equal to one of prev is prev's string, so that a scrape that
// finds the same controllers as the last allocates no name. A class/nvme
// that lists none is an error wrapping ErrNoControllers.
func (d AttrDir) ControllerNames(dst, prev []string) ([]string, error) {
	dst = dst[:0]
	if d.r == nil {
		return dst, errZeroAttr
	}
	limit := MaxDirEntries
	if d.r.fs.hooks != nil && d.r.fs.hooks.maxDir > 0 {
		limit = d.r.fs.hooks.maxDir
	}
	var err error
	d.r.names, err = d.d.Names(d.r.names, limit, func(name []byte) {
		if !controllerName.Match(name) {
			return
		}
		for _, p := range prev {
			if p == string(name) {
				dst = append(dst, p)
				return
			}
		}
		dst = append(dst, string(name))
	})
	if err != nil {
		return dst[:0], fmt.Errorf("sysfs: %s: %w", d.r.fs.path(d.Rel()), err)
	}
	if s := d.r.fs.snap; s != nil {
		for _, n := range s.controllers {
			if controllerName.MatchString(n) && !slices.Contains(dst, n) {
				dst = append(dst, n)
			}
		}
	}
	if len(dst) == 0 {
		return dst, fmt.Errorf("%w (%s)", ErrNoControllers, d.r.fs.path(d.Rel()))
	}
	slices.SortFunc(dst, cmpNatural)
	return dst, nil
}
