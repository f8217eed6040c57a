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

// Listed reports whether the views list t as tried: the settings the user
// gave, and those of the log's command line a rule weighed
// (diagnose.Tried.Weighed), not the line's other words (root=, quiet).
func Listed(t *diagnose.Tried) bool { return !t.FromLog || t.Weighed }

// Tried is a listed setting as the text shows it, its string passed
// through text: "pcie_aspm=off (did not help)", with "[the log's command
// line]" after one of the log's command line; and whether it is listed.
func Tried(t *diagnose.Tried, text func(string) string) (string, bool) {
	if !Listed(t) {
		return "", false
	}
	s := text(t.String())
	if t.FromLog {
		s += " [the log's command line]"
	}
	return s, true
}

// Plain is the identity: the strings as the library gives them, for JSON.
func Plain(s string) string { return s }
