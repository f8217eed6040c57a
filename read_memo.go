package nvmeapst

import (
	"slices"
	"sync"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// readMemo keeps the results of the pure, costly steps of a report keyed
// by their whole input, so that the next read of an unchanged controller
// does not redo them: the Identify image decoded (keyed by the image's
// bytes) and, for that image, analysis.Check of a drive's feature under
// given parameters (its search for configurations that reproduce a table
// is most of a report's computing). The key is the content, never a file's
// identity or age: a changed image, feature, bound or module parameter is
// another key, so a memoized answer is always the one the inputs of this
// read give. Every call still reads every file and command anew.
//
// It is shared by every System (the answers depend on the content alone),
// safe for concurrent use, and bounded: past maxMemoImages images it is
// emptied and starts again.
var readMemo = &contentMemo{images: map[string]*imageMemo{}}

// maxMemoImages bounds the images readMemo keeps (a machine has a few
// controllers; a fleet tool reading many bundles empties it now and then).
const maxMemoImages = 64

// maxMemoChecks bounds the checks kept per image.
const maxMemoChecks = 16

// contentMemo is readMemo's type.
type contentMemo struct {
	mu     sync.Mutex
	images map[string]*imageMemo
}

// imageMemo is what is kept of one Identify image.
type imageMemo struct {
	ctrl   powerstate.Controller
	err    error
	checks map[checkKey]checkMemo
}

// checkKey is the input of analysis.Check beside the image.
type checkKey struct {
	p apst.Params
	f apst.Feature
}

// checkMemo is analysis.Check's answer.
type checkMemo struct {
	v   analysis.Verdict
	err error
}

// decode returns the image decoded (powerstate.DecodeIdentify) and the
// image's memo, for check. The Controller is the caller's: its Notes are a
// copy.
func (c *contentMemo) decode(img []byte) (*powerstate.Controller, *imageMemo, error) {
	c.mu.Lock()
	m, ok := c.images[string(img)]
	c.mu.Unlock()
	if !ok {
		ctrl, err := powerstate.DecodeIdentify(img)
		m = &imageMemo{ctrl: ctrl, err: err}
		c.mu.Lock()
		if len(c.images) >= maxMemoImages {
			clear(c.images)
		}
		c.images[string(img)] = m
		c.mu.Unlock()
	}
	if m.err != nil {
		return nil, m, m.err
	}
	ctrl := m.ctrl
	ctrl.Notes = slices.Clone(ctrl.Notes)
	return &ctrl, m, nil
}

// check is analysis.Check(ident, p, f) of the image m was decoded from
// (ident is that decoding). The Verdict is the caller's: its slices are
// copies.
func (c *contentMemo) check(m *imageMemo, ident *powerstate.Controller, p apst.Params, f apst.Feature) (analysis.Verdict, error) {
	if m == nil {
		return analysis.Check(ident, p, f)
	}
	k := checkKey{p: p, f: f}
	c.mu.Lock()
	e, ok := m.checks[k]
	c.mu.Unlock()
	if !ok {
		v, err := analysis.Check(ident, p, f)
		e = checkMemo{v: v, err: err}
		c.mu.Lock()
		if m.checks == nil || len(m.checks) >= maxMemoChecks {
			m.checks = map[checkKey]checkMemo{}
		}
		m.checks[k] = e
		c.mu.Unlock()
	}
	v := e.v
	v.Differences = slices.Clone(v.Differences)
	v.ReproducedBy = slices.Clone(v.ReproducedBy)
	v.Notes = slices.Clone(v.Notes)
	return v, e.err
}
