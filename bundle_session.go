package nvmeapst

import (
	"path"
	"sync"

	"github.com/nvmeapst/nvmeapst/internal/safeio"
)

// sessionOpener is an Opener that can serve the commands of one call
// (a controllerRead) from what it keeps open for that call, until end.
type sessionOpener interface {
	openSession() (o Opener, end func())
}

// openSession returns a bundleOpener that keeps the bundle's folder, and
// the folders its command files are read from, open until end: a
// controllerRead reads each controller's Identify image and APST table
// relative to a folder kept open instead of opening the bundle anew for
// each file. What it reads is what bundleDevice.file reads; anything but
// a regular file read there is read the plain way, for the plain answer.
func (o *bundleOpener) openSession() (Opener, func()) {
	s := &bundleFiles{dirs: map[string]safeio.Dir{}}
	if d, err := safeio.OpenDir(o.dir); err == nil {
		s.top, s.topOK = d, true
	}
	return &bundleOpener{dir: o.dir, ctrls: o.ctrls, files: s}, s.end
}

// bundleFiles is what a bundleOpener's session keeps open.
type bundleFiles struct {
	mu    sync.Mutex
	ended bool
	top   safeio.Dir
	topOK bool
	dirs  map[string]safeio.Dir // by slash-separated folder; invalid: read the plain way
}

func (s *bundleFiles) end() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return
	}
	s.ended = true
	for _, d := range s.dirs {
		if d.Valid() {
			d.Close()
		}
	}
	if s.topOK {
		s.top.Close()
	}
}

// read reads the file clean (a clean relative path) of at most size
// bytes from its folder kept open; ok is false when it must be read the
// plain way.
func (s *bundleFiles) read(clean string, size int) (b []byte, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended || !s.topOK {
		return nil, false
	}
	dir, name := path.Split(clean)
	dir = path.Clean(dir)
	d := s.dir(dir)
	if !d.Valid() {
		return nil, false
	}
	b, err := d.ReadFileInto(nil, name, int64(size))
	if err != nil {
		return nil, false
	}
	return b, true
}

// dir returns the folder dir (clean, relative) kept open, opening it on
// first use under its parent kept open, without following a link (an
// invalid Dir when it cannot be opened).
func (s *bundleFiles) dir(dir string) safeio.Dir {
	if d, ok := s.dirs[dir]; ok {
		return d
	}
	parent, base := s.top, dir
	if p := path.Dir(dir); p != "." {
		parent, base = s.dir(p), path.Base(dir)
	}
	var d safeio.Dir
	if parent.Valid() && dir != "." {
		if sub, err := parent.Sub(base); err == nil {
			d = sub
		}
	}
	s.dirs[dir] = d
	return d
}

var _ sessionOpener = (*bundleOpener)(nil)

// openerFor returns the Opener a controllerRead uses: a session of
// s.Opener when it has one.
func openerFor(o Opener) (Opener, func()) {
	if so, ok := o.(sessionOpener); ok {
		return so.openSession()
	}
	return o, func() {}
}
