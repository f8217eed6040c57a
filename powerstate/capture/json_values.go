package capture

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// literal consumes true, false or null.
func (w *jsonWalker) literal(lit string, k kind, what string) error {
	w.space()
	rest := w.src[w.pos:]
	if strings.HasPrefix(rest, lit) {
		w.pos += len(lit)
		return nil
	}
	if strings.HasPrefix(lit, rest) {
		return w.truncated(k, what, 0)
	}
	return w.syntax(w.pos, k, what, 0, w.tokenText(w.pos))
}

// number consumes a JSON number and returns its text and whether it is an
// unsigned integer (digits only).
func (w *jsonWalker) number(k kind, what string, bits int) (string, bool, error) {
	w.space()
	start := w.pos
	i := w.pos
	s := w.src
	bad := func() (string, bool, error) {
		if i >= len(s) {
			return "", false, w.truncated(k, what, bits)
		}
		return "", false, w.syntax(start, k, what, bits, w.tokenText(start))
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		j := i
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
		return i - j
	}
	first := i
	n := digits()
	if n == 0 || n > 1 && s[first] == '0' {
		return bad()
	}
	plain := s[start] != '-'
	if i < len(s) && s[i] == '.' {
		i++
		plain = false
		if digits() == 0 {
			return bad()
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		plain = false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return bad()
		}
	}
	if i >= len(s) {
		// A number at the very end may have been cut.
		return "", false, w.truncated(k, what, bits)
	}
	w.pos = i
	return s[start:i], plain, nil
}

// valueText consumes any value and returns its source text, for messages.
func (w *jsonWalker) valueText(k kind, what string, bits int) (string, error) {
	w.space()
	start := w.pos
	if w.pos >= len(w.src) {
		return "", w.truncated(k, what, bits)
	}
	if err := w.Skip(what); err != nil {
		return "", err
	}
	return w.src[start:w.pos], nil
}

// Uint reads an unsigned integer of at most bits bits; anything else is an
// ErrSyntax failure naming what.
func (w *jsonWalker) Uint(what string, bits int) (uint64, error) {
	v, ok, found, err := w.UintOK(what, bits)
	if err == nil && !ok {
		err = w.syntax(w.lastStart, kindUint, what, bits, found)
	}
	return v, err
}

// UintOK reads any value and reports whether it is an unsigned integer of
// at most bits bits; found is the value's text when it is not. Only a
// malformed document is an error.
func (w *jsonWalker) UintOK(what string, bits int) (v uint64, ok bool, found string, err error) {
	w.space()
	w.lastStart = w.pos
	if c := w.Peek(); c == '-' || '0' <= c && c <= '9' {
		text, plain, err := w.number(kindUint, what, bits)
		if err != nil {
			return 0, false, "", err
		}
		if plain {
			if v, ok := parseUint(text, bits); ok {
				return v, true, "", nil
			}
		}
		return 0, false, text, nil
	}
	text, err := w.valueText(kindUint, what, bits)
	return 0, false, text, err
}

// parseUint parses decimal digits that fit in bits bits, without the
// error values strconv builds.
func parseUint(s string, bits int) (uint64, bool) {
	if s == "" || len(s) > 20 {
		return 0, false
	}
	var v uint64
	for i := range len(s) {
		d := uint64(s[i] - '0')
		if v > (1<<64-1-d)/10 {
			return 0, false
		}
		v = v*10 + d
	}
	if bits < 64 && v>>bits != 0 {
		return 0, false
	}
	return v, true
}

// Int reads a signed integer that fits in 32 bits.
func (w *jsonWalker) Int(what string) (int64, error) {
	w.space()
	start := w.pos
	if c := w.Peek(); c == '-' || '0' <= c && c <= '9' {
		text, _, err := w.number(kindInt, what, 0)
		if err != nil {
			return 0, err
		}
		neg := text[0] == '-'
		if v, ok := parseUint(strings.TrimPrefix(text, "-"), 32); ok {
			if neg && v <= 1<<31 {
				return -int64(v), nil
			}
			if !neg && v < 1<<31 {
				return int64(v), nil
			}
		}
		return 0, w.syntax(start, kindInt, what, 0, text)
	}
	text, err := w.valueText(kindInt, what, 0)
	if err != nil {
		return 0, err
	}
	return 0, w.syntax(start, kindInt, what, 0, text)
}

// String reads a string. Without escapes the result is a view of the
// source.
func (w *jsonWalker) String(what string) (string, error) {
	if c := w.Peek(); c != '"' {
		start := w.pos
		text, err := w.valueText(kindString, what, 0)
		if err != nil {
			return "", err
		}
		return "", w.syntax(start, kindString, what, 0, text)
	}
	return w.str(kindString, what)
}

// Bool reads true or false.
func (w *jsonWalker) Bool(what string) (bool, error) {
	switch w.Peek() {
	case 't':
		return true, w.literal("true", kindBool, what)
	case 'f':
		return false, w.literal("false", kindBool, what)
	}
	start := w.pos
	text, err := w.valueText(kindBool, what, 0)
	if err != nil {
		return false, err
	}
	return false, w.syntax(start, kindBool, what, 0, text)
}

// str reads a string token at the current position (after white space).
func (w *jsonWalker) str(k kind, what string) (string, error) {
	w.space()
	start := w.pos
	s := w.src
	if start >= len(s) {
		return "", w.truncated(k, what, 0)
	}
	if s[start] != '"' {
		return "", w.syntax(start, k, what, 0, w.tokenText(start))
	}
	i := start + 1
	for i < len(s) {
		c := s[i]
		switch {
		case c == '"':
			w.pos = i + 1
			return s[start+1 : i], nil
		case c == '\\':
			return w.strEscaped(start, k, what)
		case c < 0x20:
			return "", w.fail(w.lineAt(start), w.expected(k, what, 0)+" (a control character in a string)", foundErr(ErrSyntax, s[start:i+1]))
		}
		i++
	}
	return "", w.truncated(k, what, 0)
}

// strEscaped decodes a string with escapes starting at start.
func (w *jsonWalker) strEscaped(start int, k kind, what string) (string, error) {
	s := w.src
	var b []byte
	bad := func(off int, how, found string) error {
		return w.fail(w.lineAt(off), w.expected(k, what, 0)+" ("+how+")", foundErr(ErrSyntax, found))
	}
	for i := start + 1; i < len(s); {
		c := s[i]
		switch {
		case c == '"':
			w.pos = i + 1
			return string(b), nil
		case c < 0x20:
			return "", bad(start, "a control character in a string", s[start:i+1])
		case c != '\\':
			b = append(b, c)
			i++
			continue
		}
		if i+1 >= len(s) {
			return "", w.truncated(k, what, 0)
		}
		switch e := s[i+1]; e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, n, ok := hex4(s[i+2:])
			if !ok {
				if i+2+n >= len(s) {
					return "", w.truncated(k, what, 0)
				}
				return "", bad(i, `\u and 4 hexadecimal digits`, s[i:min(len(s), i+6)])
			}
			i += 6
			if utf16.IsSurrogate(r) && strings.HasPrefix(s[i:], `\u`) {
				if r2, _, ok := hex4(s[i+2:]); ok {
					if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
						r = d
						i += 6
					}
				}
			}
			b = utf8.AppendRune(b, r)
			continue
		default:
			return "", bad(i, "a JSON escape", s[i:i+2])
		}
		i += 2
	}
	return "", w.truncated(k, what, 0)
}

// hex4 parses 4 hexadecimal digits; n is how many were valid.
func hex4(s string) (rune, int, bool) {
	var r rune
	for n := range 4 {
		if n >= len(s) {
			return 0, n, false
		}
		c := s[n]
		switch {
		case '0' <= c && c <= '9':
			r = r<<4 | rune(c-'0')
		case 'a' <= c && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case 'A' <= c && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, n, false
		}
	}
	return r, 4, true
}
