package sysfs

import (
	"fmt"
	"maps"
	"os"
	"path"
	"slices"
	"strings"
)

// Snapshot is what a copy of a tree records beside its files (a bundle's
// manifest does): the files that existed but could not be read when it was
// taken, and the controllers it was taken of. Without it a copy cannot tell
// a file that was unreadable from one that was absent, nor a controller that
// was never there from one whose files are missing.
//
// The zero Snapshot records nothing: an FS WithSnapshot of it reads the
// tree as one without a snapshot does.
type Snapshot struct {
	// Unreadable maps the slash-separated path, relative to the root, of
	// every file that could not be read to why ("permission denied", "not a
	// regular file: a named pipe (FIFO)"). A path also covers everything
	// below it, so "class/nvme/nvme3" makes every attribute of nvme3
	// unreadable.
	Unreadable map[string]string
	// Controllers lists the controllers the snapshot was taken of. One the
	// tree lacks is reported by Controllers and Controller as an error
	// wrapping ErrMissingController and os.ErrNotExist.
	Controllers []string
	// PCIPaths maps a controller to the folder of its PCI function relative
	// to the root ("devices/pci0000:00/0000:00:1d.0/0000:04:00.0"), which
	// a copy that keeps links as folders cannot resolve (see FS.Power).
	PCIPaths map[string]string
}

// snapshot is the FS's private copy of a Snapshot.
type snapshot struct {
	unreadable  map[string]string
	controllers []string
	pciPaths    map[string]string
}

// WithSnapshot returns a copy of fs that reads a tree with what the snapshot
// s records. Reading (or listing) a path s records as unreadable is an
// error wrapping [ErrUnreadableInSnapshot] with the reason, whether or not
// the copy holds a file there, and a controller s lists but the tree lacks
// is an error wrapping [ErrMissingController]. s is copied.
func (fs FS) WithSnapshot(s Snapshot) FS {
	fs.snap = &snapshot{
		unreadable:  maps.Clone(s.Unreadable),
		controllers: slices.Clone(s.Controllers),
		pciPaths:    maps.Clone(s.PCIPaths),
	}
	return fs
}

// unreadableErr returns the error for rel when the snapshot records it, or
// one of its parents, as unreadable; nil otherwise (and for a nil
// snapshot).
func (s *snapshot) unreadableErr(fs FS, rel string) error {
	if s == nil || len(s.unreadable) == 0 {
		return nil
	}
	for p := strings.TrimSuffix(rel, "/"); p != "." && p != "/" && p != ""; p = path.Dir(p) {
		if why, ok := s.unreadable[p]; ok {
			return fmt.Errorf("%w: %s: %s", ErrUnreadableInSnapshot, fs.path(rel), why)
		}
	}
	return nil
}

// unreadableBelow returns the error for a folder rel that a copy lacks
// when the snapshot records a file below it as unreadable, nil otherwise
// (and for a nil snapshot).
func (s *snapshot) unreadableBelow(fs FS, rel string) error {
	if s == nil || len(s.unreadable) == 0 {
		return nil
	}
	dir := strings.TrimSuffix(rel, "/") + "/"
	first := "" // the first in order, so that the error reads the same each time
	for p := range s.unreadable {
		if strings.HasPrefix(p, dir) && (first == "" || p < first) {
			first = p
		}
	}
	if first == "" {
		return nil
	}
	return fmt.Errorf("%w: %s (%s: %s)", ErrUnreadableInSnapshot, fs.path(rel), first, s.unreadable[first])
}

// missingController is the error for a controller the snapshot lists and
// the tree lacks, nil when the snapshot does not list it.
func (s *snapshot) missingController(fs FS, name string) error {
	if s == nil || !slices.Contains(s.controllers, name) {
		return nil
	}
	return fmt.Errorf("%w: %s (%s): %w", ErrMissingController, name, fs.path(controllerDir(name)), os.ErrNotExist)
}
