package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/nvmeapst/nvmeapst/powerstate"
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

// walk surveys every file under root (or root itself when it is a file),
// in lexical order.
func (r *surveyRun) walk(root string) {
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if r.err != nil {
			return fs.SkipAll
		}
		if err != nil {
			r.unreadable = append(r.unreadable, surveyUnreadable{Path: path, Error: err.Error()})
			return nil // a directory that cannot be read is skipped
		}
		if path != root && surveySkips(d.Name(), d.IsDir()) {
			if d.IsDir() {
				return fs.SkipDir
			}
			r.skipped++
			return nil
		}
		if d.IsDir() {
			return nil
		}
		r.file(path)
		return nil
	})
}

// file reads, parses and surveys one capture.
func (r *surveyRun) file(path string) {
	c, err := readSurveyCapture(path)
	if err != nil {
		r.unreadable = append(r.unreadable, surveyUnreadable{Path: path, Error: err.Error()})
		return
	}
	if err := r.survey.AddInto(&r.row, path, &c); err != nil {
		r.unreadable = append(r.unreadable, surveyUnreadable{Path: path, Error: err.Error()})
		return
	}
	if err := r.out.drive(&r.row, &c); err != nil {
		r.err = err
		return
	}
	if r.plot != nil {
		r.plot.drive(&r.row)
	}
}

// readSurveyCapture opens a regular file of at most 1 MiB and parses it.
func readSurveyCapture(path string) (powerstate.Controller, error) {
	f, err := os.Open(path)
	if err != nil {
		return powerstate.Controller{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return powerstate.Controller{}, err
	}
	if !fi.Mode().IsRegular() {
		return powerstate.Controller{}, errors.New("not a regular file")
	}
	if fi.Size() > powerstate.MaxCaptureSize {
		return powerstate.Controller{}, fmt.Errorf("%d bytes: a capture is at most %d bytes", fi.Size(), powerstate.MaxCaptureSize)
	}
	return powerstate.Parse(f)
}
