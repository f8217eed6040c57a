package capture

import (
	"strings"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// newJSON starts a JSON walker at the first line of s whose first non-blank
// character is '{', so that a shell prompt or command line pasted before
// the JSON is skipped. Its failures are *ParseError of format f.
func newJSON(f powerstate.Format, s string) (*jsonWalker, error) {
	l := newLineReader(s)
	for {
		line, _, ok := l.Next()
		if !ok {
			return nil, &ParseError{Format: f, Line: l.N() + 1, Expected: "a JSON object", Err: ErrNoPowerStates}
		}
		t := strings.TrimLeft(line, " \t")
		if strings.HasPrefix(t, "{") {
			base := l.Start() + len(line) - len(t)
			return newJSONWalker(s, base, failFunc(f)), nil
		}
	}
}

// failFunc returns the failFn that builds a *ParseError of format f.
func failFunc(f powerstate.Format) failFn {
	return func(line int, expected string, err error) error {
		return &ParseError{Format: f, Line: line, Expected: expected, Err: err}
	}
}
