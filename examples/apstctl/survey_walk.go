package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/survey"
	"github.com/nvmeapst/nvmeapst/internal/safeio"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// surveySkippedExts are the file name extensions "apstctl survey" skips
// without trying to parse: documentation, tables and images that sit next
// to captures in a collection (README.md, MANIFEST.tsv, a survey's own
// SVG). Every other file is tried, and listed as unreadable if it is not a
// capture.
var surveySkippedExts = map[string]bool{
	".md": true, ".markdown": true, ".rst": true, ".tsv": true, ".csv": true,
	".svg": true, ".html": true, ".htm": true, ".pdf": true, ".png": true,
	".jpg": true, ".jpeg": true, ".gif": true,
}

// surveySkips reports whether the walk skips an entry quietly: a hidden
// file or directory (name starting with "."), or a file with one of
// surveySkippedExts.
func surveySkips(name string, dir bool) bool {
	if strings.HasPrefix(name, ".") && name != "." && name != ".." {
		return true
	}
	return !dir && surveySkippedExts[strings.ToLower(filepath.Ext(name))]
}

// surveySlot is one file of the walk on its way from the walker through a
// worker to the report.
type surveySlot struct {
	path   string
	err    string // why the file is unreadable; "" for a drive
	reason string // err's class (survey_reasons.go)
	format string
	row    survey.Row
	// regular is set when the walk listed the file as a regular file: its
	// read skips the check before the open (safeio.Reader.ReadRegularFile).
	regular bool
	// named is set for a file named on the command line (a root of the
	// walk that is not a directory): a pipe or FIFO is read then.
	named bool
	// bundle marks a bundle of apstctl collect, whose controllers' rows
	// or problems are items (survey_bundle.go).
	bundle bool
	items  []surveyBundleItem
}

// surveyBatch is a run of consecutive files of the walk, handed from the
// walker to a worker and from the worker to the report as one: the
// goroutines meet once per batch, not once per file.
type surveyBatch struct {
	slots []surveySlot // cap surveyBatchLen; reused
	n     int          // slots in use
}

const (
	// surveyBatchLen is the number of files in a batch.
	surveyBatchLen = 32
	// surveyBatchesPerWorker is the number of batches in flight per
	// worker: read and parsed, or waiting for the ones before them to be
	// reported.
	surveyBatchesPerWorker = 4
)

// surveyFiles surveys every file under the roots: one goroutine walks them
// in lexical order and hands them out in batches, o.workers goroutines
// read, parse and survey them, and the calling goroutine reports them in
// the walk's order, so the report is the same whatever the number of
// workers. At most o.workers × surveyBatchesPerWorker × surveyBatchLen
// files are in flight.
func (r *surveyRun) surveyFiles(ctx context.Context, o *surveyOptions, configs []analysis.Config, roots []string) error {
	if err := r.out.begin(configs, r.survey.Options().KernelQuirks); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	k := o.workers * surveyBatchesPerWorker
	batches := make([]surveyBatch, k)
	for i := range batches {
		batches[i].slots = make([]surveySlot, surveyBatchLen)
	}
	free := make(chan struct{}, k) // a token per batch not in flight
	for range k {
		free <- struct{}{}
	}
	jobs := make(chan int, k) // sequence numbers of batches to read
	done := make(chan int, k) // sequence numbers of batches to report

	var skipped int
	go func() {
		defer close(jobs)
		seq := 0
		var cur *surveyBatch
		send := func() {
			if cur != nil && cur.n > 0 {
				jobs <- seq
				seq++
			}
			cur = nil
		}
		root := "" // the root being walked
		dispatch := func(path, reason string, bundle, regular bool) bool {
			if cur == nil {
				select {
				case <-free:
				case <-ctx.Done():
					return false
				}
				cur = &batches[seq%k]
				cur.n = 0
			}
			s := &cur.slots[cur.n]
			s.path, s.err, s.format, s.bundle, s.regular = path, reason, "", bundle, regular
			s.named = path == root
			cur.n++
			if cur.n == surveyBatchLen {
				send()
			}
			return true
		}
		// A file named twice (a directory given twice, or once through a
		// link, or a directory and one inside it) is surveyed once.
		var seen map[string]struct{}
		if len(roots) > 1 {
			seen = map[string]struct{}{}
		}
		for _, root = range roots {
			var first func(string) bool
			if seen != nil {
				first = firstTime(root, seen)
			}
			if !surveyWalk(ctx, root, dispatch, first, &skipped) {
				return
			}
		}
		send()
	}()
	var wg sync.WaitGroup
	for range o.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rd := safeio.Reader{Limit: capture.MaxSize}
			c := new(powerstate.Controller) // reused: one per worker, not one per file
			for seq := range jobs {
				b := &batches[seq%k]
				for i := range b.n {
					switch s := &b.slots[i]; {
					case s.err != "" || ctx.Err() != nil:
					case s.bundle:
						r.surveyBundle(ctx, s)
					default:
						r.surveyFile(ctx, &rd, c, s)
					}
				}
				done <- seq
			}
		}()
	}
	go func() {
		wg.Wait()
		close(done)
	}()

	ready := make([]bool, k)
	next := 0
	var err error
	for seq := range done {
		if err != nil {
			continue // draining after a failure
		}
		ready[seq%k] = true
		for ready[next%k] {
			ready[next%k] = false
			if ctx.Err() != nil { // ^C: the batch may not have been read
				err = context.Cause(ctx)
				break
			}
			b := &batches[next%k]
			for i := 0; i < b.n && err == nil; i++ {
				err = r.report(&b.slots[i])
			}
			if err != nil {
				cancel()
				break
			}
			next++
			free <- struct{}{}
		}
	}
	if err == nil && ctx.Err() != nil { // the caller's context: ^C
		err = context.Cause(ctx)
	}
	cancel()
	if err != nil {
		return err
	}
	r.skipped += skipped
	return r.out.end(r)
}

// firstTime returns a function that reports whether a path of the walk of
// root is met for the first time, keyed in seen by the path with root's
// symbolic links resolved, so that every spelling of a file (through
// another spelling of the root, a link to it, or a root inside another)
// has one key.
func firstTime(root string, seen map[string]struct{}) func(path string) bool {
	real, err := filepath.Abs(root)
	if err == nil {
		if r, err := filepath.EvalSymlinks(real); err == nil {
			real = r
		}
	}
	return func(path string) bool {
		key := path
		if rel, err := filepath.Rel(root, path); err == nil {
			key = filepath.Join(real, rel)
		}
		if _, ok := seen[key]; ok {
			return false
		}
		seen[key] = struct{}{}
		return true
	}
}

// surveyWalk walks root in lexical order and hands each file to dispatch,
// with the reason when it is refused unread; it counts in skipped the files
// skipped by name. A directory that is a bundle of apstctl collect (root
// included) is handed to dispatch whole (bundle true) and not entered. A
// symbolic link given as the root is followed. It returns false when
// dispatch does (the walk was cancelled). regular tells dispatch that the
// walk listed the file as a regular file. first, when not nil, says
// whether a path is met for the first time: one met before (another root
// held it) is neither dispatched nor counted, and a directory met before
// is not entered.
func surveyWalk(ctx context.Context, root string, dispatch func(path, reason string, bundle, regular bool) bool, first func(string) bool, skipped *int) bool {
	walkRoot := root
	if fi, err := os.Lstat(root); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if st, err := os.Stat(root); err == nil && st.IsDir() {
			walkRoot = root + string(filepath.Separator) // Lstat of "link/" is its target's
		}
	}
	ok := true
	_ = filepath.WalkDir(walkRoot, func(path string, d fs.DirEntry, err error) error {
		if ctx.Err() != nil {
			ok = false
			return fs.SkipAll
		}
		// (A directory that cannot be read comes a second time, with
		// err: it is listed then.)
		if first != nil && (err == nil || d == nil) && !first(path) {
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if err != nil {
			// A directory that cannot be read is listed and skipped.
			if !dispatch(path, safeio.Reason(err), false, false) {
				ok = false
				return fs.SkipAll
			}
			return nil
		}
		if path != walkRoot && surveySkips(d.Name(), d.IsDir()) {
			if d.IsDir() {
				return fs.SkipDir
			}
			*skipped++
			return nil
		}
		if d.IsDir() {
			// One Lstat per directory, none per file: is it a bundle?
			bundle, reason := surveyBundleDir(path)
			if !bundle && reason == "" {
				return nil
			}
			if !dispatch(filepath.Clean(path), reason, bundle, false) {
				ok = false
				return fs.SkipAll
			}
			return fs.SkipDir
		}
		reason := ""
		if t := d.Type(); t&fs.ModeSymlink == 0 && !t.IsRegular() && (path != walkRoot || t&fs.ModeNamedPipe == 0) {
			// A named pipe, socket or device: refused without opening it,
			// except a pipe or FIFO named on the command line (the root),
			// which surveyFile reads.
			reason = walkRefusal(t)
		}
		if !dispatch(path, reason, false, d.Type().IsRegular()) {
			ok = false
			return fs.SkipAll
		}
		return nil
	})
	return ok
}

// walkRefusal is why a file met in a walk is not read: it is not a
// regular file, and, for a FIFO, that one named on the command line would
// be (a FIFO in a directory could block the walk, or be fed by anyone).
func walkRefusal(t fs.FileMode) string {
	r := "not a regular file: " + safeio.Kind(t)
	if t&fs.ModeNamedPipe != 0 {
		r += " (a walk reads regular files only; name a pipe on the command line to read it)"
	}
	return r
}

// danglingLink says where the symbolic link at path points when that does
// not exist ("a dangling symbolic link (to T, which does not exist)"), and
// is "" when path is no link.
func danglingLink(path string) string {
	t, err := os.Readlink(path)
	if err != nil {
		return ""
	}
	hop := t
	if !filepath.IsAbs(hop) {
		hop = filepath.Join(filepath.Dir(path), hop)
	}
	if _, err := os.Lstat(hop); err == nil {
		return "a dangling symbolic link (to " + t + ", a link that leads to no file)"
	}
	return "a dangling symbolic link (to " + t + ", which does not exist)"
}

// surveyFile reads, parses and surveys the file of slot s (on a worker),
// leaving the row, or the reason the file is unreadable, in s. A pipe or
// FIFO named on the command line (s.named: `apstctl survey <(cat
// CAPTURE)`) is read, at most capture.MaxSize bytes, the wait for its
// writer ending with ctx; one met in a walk is refused unopened.
func (r *surveyRun) surveyFile(ctx context.Context, rd *safeio.Reader, c *powerstate.Controller, s *surveySlot) {
	var b []byte
	var err error
	if s.regular {
		b, err = rd.ReadRegularFile(s.path)
	} else {
		b, err = rd.ReadFile(s.path)
	}
	if s.named && errors.Is(err, safeio.ErrNotRegular) && isNamedPipe(s.path) {
		b, err = readNamedPipeContext(ctx, s.path, capture.MaxSize)
		if errors.Is(err, safeio.ErrTooLarge) {
			err = fmt.Errorf("larger than %d bytes", capture.MaxSize)
		}
	}
	if err != nil {
		var nr *safeio.NotRegularError
		s.err, s.reason = safeio.Reason(err), reasonRead
		switch {
		case errors.As(err, &nr) && !nr.WantDir:
			s.err, s.reason = walkRefusal(nr.Mode), reasonNotRegular
		case errors.Is(err, fs.ErrNotExist):
			if d := danglingLink(s.path); d != "" {
				s.err = d
			}
		}
		return
	}
	if *c, err = parseSurveyCapture(b); err != nil {
		s.err, s.reason = err.Error(), captureReason(err)
		return
	}
	if err := r.survey.AddInto(&s.row, s.path, c); err != nil {
		s.err, s.reason = err.Error(), reasonSurvey
		return
	}
	s.format = c.Format.String()
}

// parseSurveyCapture parses a capture held in b, which the caller reuses
// afterwards: capture.ParseBytes neither copies nor retains it.
func parseSurveyCapture(b []byte) (powerstate.Controller, error) {
	c, err := capture.ParseBytes(b)
	if err != nil {
		err = captureHint(err, b)
	}
	return c, err
}

// report writes slot s's drive or unreadable file (on the reporting
// goroutine, in the walk's order).
func (r *surveyRun) report(s *surveySlot) error {
	switch {
	case s.err != "":
		return r.reportUnreadable(surveyUnreadable{Path: s.path, Error: s.err, Reason: s.reason})
	case s.bundle:
		return r.reportBundle(s)
	}
	return r.reportDrive(&s.row, &surveySource{format: s.format})
}

// reportUnreadable lists an unreadable file.
func (r *surveyRun) reportUnreadable(u surveyUnreadable) error {
	r.unreadable.add(u)
	r.tick()
	return r.out.unreadable(u)
}

// reportDrive writes a drive's row.
func (r *surveyRun) reportDrive(row *survey.Row, src *surveySource) error {
	if r.hold != nil {
		if err := r.hold.release(); err != nil {
			return err
		}
	}
	if err := r.out.drive(row, src); err != nil {
		return err
	}
	if r.plot != nil {
		r.plot.drive(row)
	}
	r.countQuirkNotes(row.QuirksInferredFrom != "", len(row.QuirksUncheckedPCI) > 0)
	r.assumed.add(row.Assumed)
	r.drives++
	r.tick()
	return nil
}

// countQuirkNotes counts a drive whose quirks were inferred or unchecked.
func (r *surveyRun) countQuirkNotes(inferred, unchecked bool) {
	if inferred {
		r.quirksInferred++
	}
	if unchecked {
		r.quirksUnchecked++
	}
}

// tick writes a progress line every 1000 captures when progress is on.
func (r *surveyRun) tick() {
	if r.progress == nil || (r.drives+r.unreadable.len())%1000 != 0 {
		return
	}
	fmt.Fprintf(r.progress, "\rapstctl survey: %d captures, %d unreadable", r.drives, r.unreadable.len())
}

// endProgress clears the progress line, if one was written.
func (r *surveyRun) endProgress() {
	if r.progress != nil && r.drives+r.unreadable.len() >= 1000 {
		fmt.Fprint(r.progress, "\r\x1b[K")
	}
}
