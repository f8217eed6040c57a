package powerstate

import (
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
)

// jsonWalker reads one JSON value token by token, keeping the byte offsets
// so that errors can name the line. Keys are matched exactly (unlike
// encoding/json's case-insensitive struct matching).
type jsonWalker struct {
	f    Format
	src  string // the whole capture
	base int    // offset of the JSON value in src
	dec  *json.Decoder
	// A cache for line: the line number of byte offset linePos, so that
	// numbering the lines of a document in order stays linear.
	linePos, lineNum int
}

// newJSONWalker starts at the first line of s whose first non-blank
// character is '{', so that a shell prompt or command line pasted before
// the JSON is skipped.
func newJSONWalker(f Format, s string) (*jsonWalker, error) {
	l := lineReader{s: s}
	for {
		line, _, ok := l.next()
		if !ok {
			return nil, &ParseError{Format: f, Line: l.n + 1, Expected: "a JSON object", Err: ErrNoPowerStates}
		}
		t := strings.TrimLeft(line, " \t")
		if strings.HasPrefix(t, "{") {
			base := l.start + len(line) - len(t)
			dec := json.NewDecoder(strings.NewReader(s[base:]))
			dec.UseNumber()
			return &jsonWalker{f: f, src: s, base: base, dec: dec}, nil
		}
	}
}

// line returns the line of the next token (or of offset off, if >= 0).
func (w *jsonWalker) line(off int64) int {
	pos := w.base + int(off)
	// Skip the separators before the next token.
	for pos < len(w.src) && strings.IndexByte(" \t\r\n,:", w.src[pos]) >= 0 {
		pos++
	}
	if pos > len(w.src) {
		pos = len(w.src)
	}
	if w.lineNum == 0 || pos < w.linePos {
		w.linePos, w.lineNum = 0, 1
	}
	// Count the terminators between the cached offset and pos as lineOf
	// does ("\r\n" counts once).
	w.lineNum += lineOf(w.src[w.linePos:pos], pos-w.linePos) - 1
	if w.linePos < pos && w.src[pos-1] == '\r' && pos < len(w.src) && w.src[pos] == '\n' {
		// A "\r" at the end of the counted span followed by "\n" was counted
		// as a lone "\r"; it is part of "\r\n", counted with the "\n".
		w.lineNum--
	}
	w.linePos = pos
	return w.lineNum
}

// lastLine returns the line of the last non-blank character of s: where a
// truncated JSON document stops.
func lastLine(s string) int {
	return lineOf(s, len(strings.TrimRight(s, " \t\r\n"))-1)
}

// here is the offset of the next token.
func (w *jsonWalker) here() int64 { return w.dec.InputOffset() }

// tokenErr converts an error from the decoder.
func (w *jsonWalker) tokenErr(err error, expected string) error {
	var se *json.SyntaxError
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return truncErr(w.f, lastLine(w.src), expected)
	case errors.As(err, &se):
		off := int(se.Offset) - 1
		if off < 0 {
			off = 0
		}
		if w.base+off >= len(strings.TrimRight(w.src, " \t\r\n")) {
			return truncErr(w.f, lastLine(w.src), expected)
		}
		return &ParseError{Format: w.f, Line: lineOf(w.src, w.base+off), Expected: expected,
			Err: errorsJoin(ErrSyntax, err)}
	}
	return &ParseError{Format: w.f, Line: w.line(w.here()), Expected: expected, Err: errorsJoin(ErrSyntax, err)}
}

// errorsJoin wraps cause in sentinel, keeping cause's text.
func errorsJoin(sentinel, cause error) error {
	return &wrapped{sentinel: sentinel, cause: cause}
}

type wrapped struct{ sentinel, cause error }

func (e *wrapped) Error() string {
	return strings.TrimPrefix(e.sentinel.Error(), "powerstate: ") + ": " + e.cause.Error()
}
func (e *wrapped) Unwrap() []error { return []error{e.sentinel, e.cause} }

// token reads the next token.
func (w *jsonWalker) token(expected string) (json.Token, error) {
	t, err := w.dec.Token()
	if err != nil {
		return nil, w.tokenErr(err, expected)
	}
	return t, nil
}

// delim reads the delimiter d.
func (w *jsonWalker) delim(d json.Delim, expected string) error {
	off := w.here()
	t, err := w.token(expected)
	if err != nil {
		return err
	}
	if got, ok := t.(json.Delim); !ok || got != d {
		return syntaxErr(w.f, w.line(off), expected, tokenText(t))
	}
	return nil
}

// object reads an object, calling fn for each key; fn must consume the
// value (with one of the value methods or skip).
func (w *jsonWalker) object(what string, fn func(key string) error) error {
	if err := w.delim('{', what+" (a JSON object)"); err != nil {
		return err
	}
	for w.dec.More() {
		t, err := w.token("a key of " + what)
		if err != nil {
			return err
		}
		key, ok := t.(string)
		if !ok {
			return syntaxErr(w.f, w.line(w.here()), "a key of "+what, tokenText(t))
		}
		if err := fn(key); err != nil {
			return err
		}
	}
	return w.delim('}', "the end of "+what)
}

// array reads an array, calling fn for each element; fn must consume it.
func (w *jsonWalker) array(what string, fn func(i int, line int) error) error {
	if err := w.delim('[', what+" (a JSON array)"); err != nil {
		return err
	}
	for i := 0; w.dec.More(); i++ {
		if err := fn(i, w.line(w.here())); err != nil {
			return err
		}
	}
	return w.delim(']', "the end of "+what)
}

// skip consumes one value, however nested.
func (w *jsonWalker) skip(what string) error {
	depth := 0
	for {
		t, err := w.token(what)
		if err != nil {
			return err
		}
		if d, ok := t.(json.Delim); ok {
			switch d {
			case '{', '[':
				depth++
			default:
				depth--
			}
		}
		if depth <= 0 {
			return nil
		}
	}
}

// uint reads an unsigned integer of at most bits bits.
func (w *jsonWalker) uint(what string, bits int) (uint64, error) {
	off := w.here()
	expected := "an unsigned " + strconv.Itoa(bits) + "-bit integer for " + what
	t, err := w.token(expected)
	if err != nil {
		return 0, err
	}
	n, ok := t.(json.Number)
	if !ok {
		return 0, syntaxErr(w.f, w.line(off), expected, tokenText(t))
	}
	v, err := strconv.ParseUint(string(n), 10, bits)
	if err != nil {
		return 0, syntaxErr(w.f, w.line(off), expected, string(n))
	}
	return v, nil
}

// int reads a signed integer.
func (w *jsonWalker) int(what string) (int64, error) {
	off := w.here()
	expected := "an integer for " + what
	t, err := w.token(expected)
	if err != nil {
		return 0, err
	}
	n, ok := t.(json.Number)
	if !ok {
		return 0, syntaxErr(w.f, w.line(off), expected, tokenText(t))
	}
	v, err := strconv.ParseInt(string(n), 10, 32)
	if err != nil {
		return 0, syntaxErr(w.f, w.line(off), expected, string(n))
	}
	return v, nil
}

// string reads a string.
func (w *jsonWalker) string(what string) (string, error) {
	off := w.here()
	expected := "a string for " + what
	t, err := w.token(expected)
	if err != nil {
		return "", err
	}
	s, ok := t.(string)
	if !ok {
		return "", syntaxErr(w.f, w.line(off), expected, tokenText(t))
	}
	return s, nil
}

// bool reads a boolean.
func (w *jsonWalker) bool(what string) (bool, error) {
	off := w.here()
	expected := "true or false for " + what
	t, err := w.token(expected)
	if err != nil {
		return false, err
	}
	b, ok := t.(bool)
	if !ok {
		return false, syntaxErr(w.f, w.line(off), expected, tokenText(t))
	}
	return b, nil
}

// tokenText renders a token for an error message.
func tokenText(t json.Token) string {
	switch v := t.(type) {
	case json.Delim:
		return v.String()
	case string:
		return strconv.Quote(v)
	case json.Number:
		return string(v)
	case bool:
		return strconv.FormatBool(v)
	case nil:
		return "null"
	}
	return "?"
}
