package sniff

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// maxShapeKeys and maxShapeText bound what Shape quotes of an input.
const (
	maxShapeKeys = 4
	maxShapeText = 60
)

// Shape says what b is when it looks like none of the kinds, as a noun
// phrase for a refusal: JSON with the first keys of its object ("JSON of
// another tool (an object with the keys "name", "version")"), a
// JSON array, or text with its first line. It is "" when b looks like one
// of the kinds, is empty or white space, or is binary (NUL bytes, whose
// magic numbers the capture readers name). What it quotes is as the input
// has it: the caller escapes it (safeio.EscapeTerminal).
func Shape(b []byte) string {
	head := b[:min(len(b), maxSniff)]
	t := bytes.TrimLeft(head, " \t\r\n\ufeff")
	if len(t) == 0 || !text(head) || Of(b) != Unknown {
		return ""
	}
	switch t[0] {
	case '[':
		dec := json.NewDecoder(bytes.NewReader(t))
		if _, err := dec.Token(); err == nil {
			if _, err := dec.Token(); err == nil { // not "[Unit]"
				return "JSON of another tool (an array)"
			}
		}
	case '{':
		if keys := jsonKeys(t); len(keys) > 0 {
			return "JSON of another tool (an object with the keys " + strings.Join(keys, ", ") + ")"
		}
	}
	line, _, _ := bytes.Cut(t, []byte("\n"))
	line = bytes.TrimRight(line, "\r")
	return `text of another kind (its first line is "` + clip(string(line)) + `")`
}

// jsonKeys returns the first keys of the JSON object t starts with,
// quoted, and "..." after them when there are more; nil when t
// does not start with one.
func jsonKeys(t []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(t))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	var keys []string
	for len(keys) <= maxShapeKeys {
		tok, err := dec.Token()
		key, ok := tok.(string)
		if err != nil || !ok {
			break
		}
		keys = append(keys, `"`+clip(key)+`"`)
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			break
		}
	}
	if len(keys) > maxShapeKeys {
		keys = append(keys[:maxShapeKeys], "...")
	}
	return keys
}

// clip cuts s to about maxShapeText bytes, at the start of a character,
// with "..." for what it left out.
func clip(s string) string {
	if len(s) <= maxShapeText {
		return s
	}
	i := maxShapeText
	for i > maxShapeText-utf8.UTFMax && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "..."
}
