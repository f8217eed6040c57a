package capture

import (
	"fmt"
	"strconv"
)

// The kinds of value a failure names.
type kind uint8

const (
	kindValue kind = iota
	kindUint
	kindInt
	kindString
	kindBool
	kindKey
	kindObject
	kindArray
	kindColon
	kindObjectEnd
	kindArrayEnd
	kindElement
	kindNesting
)

// expected says what was expected of what, built only for a failure.
func (w *jsonWalker) expected(k kind, what string, bits int) string {
	n := w.name(what)
	switch k {
	case kindUint:
		return "an unsigned " + strconv.Itoa(bits) + "-bit integer for " + n
	case kindInt:
		return "an integer for " + n
	case kindString:
		return "a string for " + n
	case kindBool:
		return "true or false for " + n
	case kindKey:
		return "a key of " + n
	case kindObject:
		return n + " (a JSON object)"
	case kindArray:
		return n + " (a JSON array)"
	case kindColon:
		return "':' after a key of " + n
	case kindObjectEnd:
		return "',' or the end of " + n
	case kindArrayEnd:
		return "',' or the end of " + n
	case kindElement:
		return "an element of " + n
	case kindNesting:
		return "at most " + strconv.Itoa(maxDepth) + " nested values in " + n
	}
	// A new string even for an empty scope: what may be a view of the
	// source, which an error must not keep.
	return "a value for " + n
}

// maxDepth bounds the nesting the walker follows.
const maxDepth = 10000

// newJSONWalker starts a walker at offset base of src.
func newJSONWalker(src string, base int, fail failFn) *jsonWalker {
	return &jsonWalker{src: src, pos: base, fail: fail, lineNum: 1}
}

// Pos returns the offset of the walker in the source.
func (w *jsonWalker) Pos() int { return w.pos }

// Line returns the line of the next token.
func (w *jsonWalker) Line() int {
	w.space()
	return w.lineAt(w.pos)
}

// truncated reports the end of the document before a value of kind k.
func (w *jsonWalker) truncated(k kind, what string, bits int) error {
	return w.fail(lastLine(w.src), w.expected(k, what, bits), ErrTruncated)
}

// syntax reports found at off where a value of kind k was expected.
func (w *jsonWalker) syntax(off int, k kind, what string, bits int, found string) error {
	return w.fail(w.lineAt(off), w.expected(k, what, bits), foundErr(ErrSyntax, found))
}

// foundErr wraps sentinel with the offending text, quoted and cut to 60
// bytes.
func foundErr(sentinel error, found string) error {
	if len(found) > 60 {
		found = found[:60] + "..."
	}
	return fmt.Errorf("%w: found %q", sentinel, found)
}

// tokenText returns the text of the token at off, for an error message.
func (w *jsonWalker) tokenText(off int) string {
	end := off
	for end < len(w.src) && end-off < 60 {
		c := w.src[end]
		if c == ',' || c == '}' || c == ']' || c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == ':' {
			if end == off {
				end++
			}
			break
		}
		end++
	}
	return w.src[off:end]
}
