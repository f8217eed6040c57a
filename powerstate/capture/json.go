package capture

import (
	"strconv"
	"strings"
)

// jsonWalker walks one JSON document in place: the caller asks for what it
// expects next (an object, an array, a number, a string) and the walker
// checks the syntax as it goes. Keys are matched exactly by the caller
// (unlike encoding/json's case-insensitive struct matching). Strings
// without escapes are returned as views of the source; numbers are parsed
// from the source without building a token. Every problem goes to the
// failFn with the line it is on, wrapping ErrSyntax, or ErrTruncated when
// the document ends first.
type jsonWalker struct {
	src  string
	pos  int
	fail failFn
	// The line number of offset linePos, so that numbering the lines of a
	// document in order stays linear.
	linePos, lineNum int
	depth            int
	lastStart        int // offset of the value UintOK read last
	// The element being read, for messages: scope[index] (set by
	// SetScope), so that callers name what they read without building
	// strings for every value.
	scope string
	index int
}

// SetScope names the array element the next values belong to, as
// scope[index], in the messages of failures; an empty scope clears it.
func (w *jsonWalker) SetScope(scope string, index int) { w.scope, w.index = scope, index }

// name returns what, qualified by the scope: "psds[3].max_power", or
// "psds[3]" for an empty what.
func (w *jsonWalker) name(what string) string {
	if w.scope == "" {
		return what
	}
	el := w.scope + "[" + strconv.Itoa(w.index) + "]"
	if what == "" {
		return el
	}
	return el + "." + what
}

// lineAt returns the line of offset off, moving the cache forward.
func (w *jsonWalker) lineAt(off int) int {
	off = min(off, len(w.src))
	if off < w.linePos {
		w.linePos, w.lineNum = 0, 1
	}
	seg := w.src[w.linePos:off]
	if strings.IndexByte(seg, '\r') < 0 {
		w.lineNum += strings.Count(seg, "\n")
	} else {
		for i := w.linePos; i < off; i++ {
			switch w.src[i] {
			case '\n':
				w.lineNum++
			case '\r':
				if crEnds(w.src, i) {
					w.lineNum++
				}
			}
		}
	}
	w.linePos = off
	return w.lineNum
}

// space skips white space.
func (w *jsonWalker) space() {
	for w.pos < len(w.src) {
		switch w.src[w.pos] {
		case ' ', '\t', '\r', '\n':
			w.pos++
		default:
			return
		}
	}
}

// Peek returns the first byte of the next value ('{', '[', '"', 't', 'f',
// 'n', a digit or '-'), or 0 at the end of the source.
func (w *jsonWalker) Peek() byte {
	w.space()
	if w.pos >= len(w.src) {
		return 0
	}
	return w.src[w.pos]
}

// expect consumes the byte c after white space.
func (w *jsonWalker) expect(c byte, k kind, what string) error {
	w.space()
	if w.pos >= len(w.src) {
		return w.truncated(k, what, 0)
	}
	if w.src[w.pos] != c {
		return w.syntax(w.pos, k, what, 0, w.tokenText(w.pos))
	}
	w.pos++
	return nil
}

// Object reads an object, calling fn for each key with the line the key is
// on; fn must consume the value (with one of the value methods or Skip).
// what names the object in messages.
func (w *jsonWalker) Object(what string, fn func(key string, line int) error) error {
	return w.members('{', '}', kindObject, kindObjectEnd, what, func() error {
		w.space()
		if w.pos >= len(w.src) {
			return w.truncated(kindKey, what, 0)
		}
		line := w.lineAt(w.pos)
		if w.src[w.pos] != '"' {
			return w.syntax(w.pos, kindKey, what, 0, w.tokenText(w.pos))
		}
		key, err := w.str(kindKey, what)
		if err != nil {
			return err
		}
		if err := w.expect(':', kindColon, what); err != nil {
			return err
		}
		return fn(key, line)
	})
}

// Array reads an array, calling fn for each element with its index and
// line; fn must consume it.
func (w *jsonWalker) Array(what string, fn func(i, line int) error) error {
	i := 0
	return w.members('[', ']', kindArray, kindArrayEnd, what, func() error {
		if w.Peek() == 0 {
			return w.truncated(kindElement, what, 0)
		}
		err := fn(i, w.lineAt(w.pos))
		i++
		return err
	})
}

// members reads an object or an array: the bracket opener (a value of kind
// k), then, unless closer follows at once, each member with each, every one
// followed by a comma or closer (kind end).
func (w *jsonWalker) members(opener, closer byte, k, end kind, what string, each func() error) error {
	if err := w.expect(opener, k, what); err != nil {
		return err
	}
	if w.depth++; w.depth > maxDepth {
		return w.syntax(w.pos-1, kindNesting, what, 0, w.src[w.pos-1:w.pos])
	}
	defer func() { w.depth-- }()
	if w.Peek() == closer {
		w.pos++
		return nil
	}
	for {
		if err := each(); err != nil {
			return err
		}
		w.space()
		if w.pos >= len(w.src) {
			return w.truncated(end, what, 0)
		}
		switch w.src[w.pos] {
		case ',':
			w.pos++
		case closer:
			w.pos++
			return nil
		default:
			return w.syntax(w.pos, end, what, 0, w.tokenText(w.pos))
		}
	}
}

// Skip consumes one value, however nested, checking its syntax.
func (w *jsonWalker) Skip(what string) error {
	switch w.Peek() {
	case 0:
		return w.truncated(kindValue, what, 0)
	case '{':
		return w.Object(what, func(string, int) error { return w.Skip(what) })
	case '[':
		return w.Array(what, func(int, int) error { return w.Skip(what) })
	case '"':
		_, err := w.str(kindValue, what)
		return err
	case 't':
		return w.literal("true", kindValue, what)
	case 'f':
		return w.literal("false", kindValue, what)
	case 'n':
		return w.literal("null", kindValue, what)
	}
	_, _, err := w.number(kindValue, what, 0)
	return err
}
