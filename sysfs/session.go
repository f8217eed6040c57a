package sysfs

import (
	iofs "io/fs"
	"os"
	"path"
	"slices"
	"sync"
	"syscall"
)

// Session returns a copy of fs that reads the tree as one view until end
// is called. The tree is opened once, each directory a file is read from
// is kept open (where the system allows it, as an [AttrReader] does), and
// each file and directory listing is read at most once: a second read of
// the same path returns what the first one read, or the same error. A
// report that reads many files of the same controllers (nvmeapst's
// System.Inspect and System.Diagnose) reads through one, so that it reads
// each file once and sees one state of the machine.
//
// What a session reads is what fs reads: the same bytes, and errors with
// the same message wrapping the same causes; only when is different. Writes
// are not part of it: a write through the copy goes to the tree and reads
// the value before it and the value read back from the tree, but a later
// read of that path in the same session still returns the value the
// session read before, so take a new session after a write. After end the
// copy reads as fs does, every call anew. The copy may be used from several
// goroutines; end releases what it holds open and may be called more than
// once.
func (fs FS) Session() (sess FS, end func()) {
	if fs.sess != nil || fs.check() != nil {
		return fs, func() {}
	}
	s := &session{sessionStore: sessionStores.Get().(*sessionStore)}
	plain := fs
	plain.open = nil
	if r, err := os.OpenRoot(fs.root); err == nil {
		s.root = r
	}
	if a, err := plain.NewAttrReader(); err == nil {
		s.attrs = a
	}
	fs.sess = s
	return fs, s.end
}

// WithReadHook returns a copy of fs that calls hook with the
// slash-separated path, relative to the root, of every file its methods
// read and every directory they list, before reading it. The files are
// those of ReadFile and the attributes of Controller, PowerFacts,
// ModuleParams...; an AttrReader's reads are not seen. It is what a test
// that counts reads, or a trace, needs. A session (FS.Session) calls it
// once per path, on the read that reaches the tree. hook must be safe for
// concurrent use when the FS is used from several goroutines. A nil hook
// removes it.
func (fs FS) WithReadHook(hook func(rel string)) FS {
	h := hooks{}
	if fs.hooks != nil {
		h = *fs.hooks
	}
	h.read = hook
	fs.hooks = &h
	return fs
}

// readHook calls the read hook, if any.
func (fs FS) readHook(rel string) {
	if fs.hooks != nil && fs.hooks.read != nil {
		fs.hooks.read(rel)
	}
}

// session is what FS.Session shares between the copies of one session.
type session struct {
	mu            sync.Mutex
	ended         bool
	root          *os.Root    // nil when the tree could not be opened: read as without a session
	attrs         *AttrReader // nil where the system has no safeio.Dir
	opened        []string    // the directories of dirs kept open, oldest first
	*sessionStore             // nil once ended
}

// sessionStore is the storage of a session, which the next session
// reuses once it has ended (emptied: nothing of one session is seen by
// another, and a copy of an ended session reads as its FS does).
type sessionStore struct {
	files map[string]sessionFile
	dirs  map[string]sessionDir
	lists map[string]sessionList
	names map[string][]string
	buf   []byte
}

// sessionStores are the stores of ended sessions, for the next ones.
var sessionStores = sync.Pool{New: func() any {
	// Sized for a machine of a few controllers: about 20 files and 6
	// folders each.
	return &sessionStore{files: make(map[string]sessionFile, 96), dirs: make(map[string]sessionDir, 32),
		lists: map[string]sessionList{}, names: map[string][]string{}}
}}

// sessionFile is one file as read: its content, or absent (readFile's
// error made only when asked for), or the error of reading it.
type sessionFile struct {
	v      string
	absent bool
	err    error
}

// sessionDir is a directory kept open, or the reason files in it are read
// the plain way (ok false).
type sessionDir struct {
	d  AttrDir
	ok bool
	// absent: the folder does not exist (nor does any file in it).
	absent bool
}

// sessionList is one directory listing as read.
type sessionList struct {
	ents []iofs.DirEntry
	err  error
}

// end closes what the session holds open.
func (s *session) end() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return
	}
	s.ended = true
	for _, d := range s.dirs {
		if d.ok {
			d.d.Close()
		}
	}
	if s.attrs != nil {
		s.attrs.Close()
	}
	if s.root != nil {
		s.root.Close()
	}
	st := s.sessionStore
	s.sessionStore = nil
	clear(st.files)
	clear(st.dirs)
	clear(st.lists)
	clear(st.names)
	if cap(st.buf) <= 64<<10 {
		sessionStores.Put(st)
	}
}

// active reports whether fs reads through a live session, and locks it
// when so (the caller unlocks).
func (fs FS) active() (*session, bool) {
	s := fs.sess
	if s == nil {
		return nil, false
	}
	s.mu.Lock()
	if s.ended || s.root == nil {
		s.mu.Unlock()
		return nil, false
	}
	return s, true
}

// sessionAttr is one file read within a session: the first read of rel
// reads the tree (relative to its directory kept open, or as ReadFile
// does), later ones return what it read. ok is false without a live
// session.
func (fs FS) sessionAttr(rel string) (f sessionFile, ok bool) {
	s, ok := fs.active()
	if !ok {
		return sessionFile{}, false
	}
	defer s.mu.Unlock()
	if f, ok := s.files[rel]; ok {
		return f, true
	}
	fs.readHook(rel)
	f = fs.sessionRead(s, rel)
	s.files[rel] = f
	return f, true
}

// sessionRead reads rel relative to its directory kept open: a regular
// file read there, or one that does not exist, gives what readFile gives;
// anything else (a link, an error) is read by readFile itself, so that its
// answer and its message are readFile's.
func (fs FS) sessionRead(s *session, rel string) sessionFile {
	if dir, name := path.Split(rel); name != "" {
		dir = path.Clean(dir)
		d := s.dir(dir)
		if d.absent && dir != "class/nvme" && path.Dir(dir) != "class/nvme" {
			// No such folder: no such file, as readFile says it.
			return sessionFile{absent: true}
		}
		if d.ok {
			b, err := d.d.d.ReadFileInto(s.buf, name, attrLimit(rel))
			if cap(b) > cap(s.buf) {
				s.buf = b[:0]
			}
			switch {
			case err == nil:
				return sessionFile{v: intern(b)}
			case err == syscall.ENOENT:
				return sessionFile{absent: true}
			}
		}
	}
	plain := fs
	plain.sess, plain.open = nil, s.root
	b, err := plain.readFile(rel)
	if isNotExist(err) && fs.notExist(rel).Error() == err.Error() {
		return sessionFile{absent: true}
	}
	return sessionFile{v: string(b), err: err}
}

// maxSessionDirs bounds the directories a session keeps open (a machine
// of a few controllers opens about 6 each): past it, the one opened first
// is closed, so that a tree of thousands of controllers does not hold a
// descriptor per folder until the process runs out of them (EMFILE).
const maxSessionDirs = 256

// dir returns the directory rel kept open, opening it on first use (ok
// false where it cannot be: no safeio.Dir on this system, a directory
// that does not exist or cannot be opened, or the root). Opening one
// past maxSessionDirs closes the oldest, which a later use opens anew.
func (s *session) dir(rel string) sessionDir {
	if s.attrs == nil || rel == "." || rel == "" {
		return sessionDir{}
	}
	d, ok := s.dirs[rel]
	if ok {
		return d
	}
	// Opened under its parent when the session has the parent open (one
	// openat), from the root otherwise.
	parent, base := path.Dir(rel), path.Base(rel)
	from := s.attrs.Root()
	if parent != "." {
		p := s.dir(parent)
		switch {
		case p.absent:
			d = sessionDir{absent: true}
			s.dirs[rel] = d
			return d
		case p.ok:
			from = p.d
		default:
			base = rel
		}
	} else {
		base = rel
	}
	ad, dok, err := from.Dir(base)
	d = sessionDir{d: ad, ok: dok && err == nil, absent: !dok && err == nil}
	s.dirs[rel] = d
	if d.ok {
		// Closed after rel is open: the oldest may be its parent, from.
		s.opened = append(s.opened, rel)
		if len(s.opened) > maxSessionDirs {
			old := s.opened[0]
			s.opened = s.opened[1:]
			s.dirs[old].d.Close()
			delete(s.dirs, old)
		}
	}
	return d
}

// sessionIsDir reports whether rel is a directory the session has open
// (or can open): a directory of the tree, whatever the links on its
// path. False says nothing: stat it.
func (fs FS) sessionIsDir(rel string) bool {
	s, ok := fs.active()
	if !ok {
		return false
	}
	defer s.mu.Unlock()
	return s.dir(rel).ok
}

// sessionNamespaceNames returns the namespace entries of the controller
// folder rel (parseNamespaceEntry), sorted (the session's slice: not to be
// modified), listed once per session from
// the directory it keeps open; ok is false when the listing must be read
// by readDir (no live session, a directory not kept open, any error, which
// readDir then reports as it does).
func (fs FS) sessionNamespaceNames(rel string) (names []string, ok bool) {
	s, ok := fs.active()
	if !ok {
		return nil, false
	}
	defer s.mu.Unlock()
	if names, ok := s.names[rel]; ok {
		return names, true
	}
	d := s.dir(rel)
	if !d.ok {
		return nil, false
	}
	limit := MaxDirEntries
	if fs.hooks != nil && fs.hooks.maxDir > 0 {
		limit = fs.hooks.maxDir
	}
	fs.readHook(rel)
	var err error
	s.buf, err = d.d.d.Names(s.buf, limit, func(name []byte) {
		if len(name) < 6 || string(name[:4]) != "nvme" {
			return // not nvme{N}n{M}: no string made of it
		}
		if _, _, ok := parseNamespaceEntry(string(name)); ok {
			names = append(names, intern(name))
		}
	})
	if err != nil {
		return nil, false
	}
	slices.Sort(names)
	s.names[rel] = names
	return names, true
}

// sessionControllerNames is ControllerNames read from class/nvme kept
// open (AttrDir.ControllerNames), once per session; ok is false when it
// must be read by readDir (no live session, a folder not kept open, any
// error, which ControllerNames then reports as it does).
func (fs FS) sessionControllerNames() ([]string, bool) {
	const rel = "class/nvme"
	s, ok := fs.active()
	if !ok {
		return nil, false
	}
	defer s.mu.Unlock()
	if names, ok := s.names[rel]; ok {
		return slices.Clone(names), true
	}
	d := s.dir(rel)
	if !d.ok {
		return nil, false
	}
	fs.readHook(rel)
	names, err := d.d.ControllerNames(nil, nil)
	if err != nil {
		return nil, false
	}
	s.names[rel] = names
	return slices.Clone(names), true
}

// value is f as readRaw returns it.
func (f sessionFile) value(fs FS, rel string) (string, error) {
	if f.absent {
		return "", fs.notExist(rel)
	}
	return f.v, f.err
}

// notExist is readFile's error for a file that does not exist in a
// directory that does.
func (fs FS) notExist(rel string) error {
	return &wrapped{msg: "sysfs: ", err: &iofs.PathError{Op: "stat", Path: fs.path(rel), Err: syscall.ENOENT}}
}

// wrapped is fmt.Errorf("sysfs: %w", err) without fmt.
type wrapped struct {
	msg string
	err error
}

func (w *wrapped) Error() string { return w.msg + w.err.Error() }
func (w *wrapped) Unwrap() error { return w.err }

// sessionReadDir is readDir within a session.
func (fs FS) sessionReadDir(rel string) ([]iofs.DirEntry, bool, error) {
	s, ok := fs.active()
	if !ok {
		return nil, false, nil
	}
	defer s.mu.Unlock()
	if l, ok := s.lists[rel]; ok {
		return slices.Clone(l.ents), true, l.err
	}
	fs.readHook(rel)
	plain := fs
	plain.sess, plain.open = nil, s.root
	ents, err := plain.listDir(rel)
	s.lists[rel] = sessionList{ents: ents, err: err}
	return slices.Clone(ents), true, err
}
