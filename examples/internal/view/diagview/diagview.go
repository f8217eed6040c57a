// Package diagview converts a diagnosis's evidence and tests
// (apst/diagnose) to the shapes apstctl and the web page show
// (examples/internal/view).
package diagview

import (
	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/examples/internal/view"
)

// Lines is ls as view.Evidence, each string passed through text (the
// identity for JSON, view.Escape for a page that shows them); nil stays
// nil, as the library gives it.
func Lines(ls []diagnose.Line, text func(string) string) []view.Evidence {
	if ls == nil {
		return nil
	}
	v := make([]view.Evidence, len(ls))
	for i, l := range ls {
		v[i] = view.Evidence{Source: text(l.Source), Text: text(l.Text), Line: l.Line, Quote: text(l.Quote)}
	}
	return v
}

// Test is t as a view.Test, each string passed through text.
func Test(t *diagnose.Test, text func(string) string) view.Test {
	v := view.Test{Action: text(t.Action), Command: text(t.Command), Cost: text(t.Cost), Setting: text(t.Setting)}
	if t.Where != nil {
		v.Where = make([]string, len(t.Where))
		for i, w := range t.Where {
			v.Where[i] = text(w)
		}
	}
	return v
}

// Plain is the identity: the strings as the library gives them, for JSON.
func Plain(s string) string { return s }
