// Package promtext writes the Prometheus text exposition format, version
// 0.0.4: the format node_exporter's textfile collector reads and a /metrics
// endpoint serves with Content-Type "text/plain; version=0.0.4;
// charset=utf-8" (ContentType).
//
// The format, as the Prometheus documentation ("Exposition formats") gives
// it: per metric family an optional "# HELP name text" line (backslash and
// newline escaped as \\ and \n) and "# TYPE name type" line, then one line
// per sample, "name{label="value",...} value" with label values escaped as
// \\, \" and \n, values as Go's ParseFloat reads them plus +Inf, -Inf and
// NaN; every line ends with a newline; a family's samples are contiguous.
// Timestamps are optional and never written here: the textfile collector
// refuses them.
//
// A Writer appends to a buffer it reuses, so that an exporter that writes
// the same families on every scrape allocates nothing once it has grown.
// The package checks names against the format's grammar and records the
// first error rather than writing a line that is not the format.
package promtext

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"unicode/utf8"
)

// ContentType is the HTTP Content-Type of the format.
const ContentType = "text/plain; version=0.0.4; charset=utf-8"

// Types of a metric family.
const (
	Gauge   = "gauge"
	Counter = "counter"
	Untyped = "untyped"
)

// ErrInvalid is wrapped by the error a Writer records for a name, a type or
// an order that the format does not allow.
var ErrInvalid = errors.New("promtext: invalid exposition")

// Label is one label of a sample.
type Label struct {
	Name, Value string
}

// Writer builds an exposition in a buffer. The zero value is ready to use.
// A Writer is for one goroutine.
type Writer struct {
	buf    []byte
	family string
	seen   map[string]bool
	err    error
}

// Reset empties the buffer (keeping its storage) and forgets the families
// written, for the next scrape.
func (w *Writer) Reset() {
	w.buf, w.family, w.err = w.buf[:0], "", nil
	clear(w.seen)
}

// Bytes returns the exposition written since the last Reset; it is valid
// until the next call of a method of w.
func (w *Writer) Bytes() []byte { return w.buf }

// Err returns the first error: a name the grammar refuses, an unknown
// type, a family written twice or a sample outside its family.
func (w *Writer) Err() error { return w.err }

// WriteTo writes the exposition to out, unless an error was recorded.
func (w *Writer) WriteTo(out io.Writer) (int64, error) {
	if w.err != nil {
		return 0, w.err
	}
	n, err := out.Write(w.buf)
	return int64(n), err
}

func (w *Writer) fail(format string, args ...any) {
	if w.err == nil {
		w.err = fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...)
	}
}

// Family starts the family name: its HELP and TYPE lines. Its samples
// follow, before the next family.
func (w *Writer) Family(name, typ, help string) {
	if !ValidMetricName(name) {
		w.fail("metric name %q", name)
		return
	}
	switch typ {
	case Gauge, Counter, Untyped:
	default:
		w.fail("type %q of %s", typ, name)
		return
	}
	if w.seen == nil {
		w.seen = map[string]bool{}
	}
	if w.seen[name] {
		w.fail("family %s written twice", name)
		return
	}
	w.seen[name] = true
	w.family = name
	w.buf = append(w.buf, "# HELP "...)
	w.buf = append(w.buf, name...)
	w.buf = append(w.buf, ' ')
	w.buf = appendEscaped(w.buf, help, false)
	w.buf = append(w.buf, "\n# TYPE "...)
	w.buf = append(w.buf, name...)
	w.buf = append(w.buf, ' ')
	w.buf = append(w.buf, typ...)
	w.buf = append(w.buf, '\n')
}

// Sample writes one sample of the current family (whose name it must
// carry) with the labels in the order given.
func (w *Writer) Sample(name string, v float64, labels ...Label) {
	if name != w.family {
		w.fail("sample %s outside its family (current %q)", name, w.family)
		return
	}
	w.buf = append(w.buf, name...)
	if len(labels) > 0 {
		w.buf = append(w.buf, '{')
		for i, l := range labels {
			if !ValidLabelName(l.Name) {
				w.fail("label name %q of %s", l.Name, name)
				return
			}
			for _, prev := range labels[:i] {
				if prev.Name == l.Name {
					w.fail("label %s twice in a sample of %s", l.Name, name)
					return
				}
			}
			if i > 0 {
				w.buf = append(w.buf, ',')
			}
			w.buf = append(w.buf, l.Name...)
			w.buf = append(w.buf, '=', '"')
			w.buf = appendEscaped(w.buf, l.Value, true)
			w.buf = append(w.buf, '"')
		}
		w.buf = append(w.buf, '}')
	}
	w.buf = append(w.buf, ' ')
	w.buf = AppendValue(w.buf, v)
	w.buf = append(w.buf, '\n')
}

// AppendValue appends v as the format writes a value: the shortest decimal
// that reads back as v, +Inf, -Inf or NaN.
func AppendValue(b []byte, v float64) []byte {
	switch {
	case math.IsInf(v, 1):
		return append(b, "+Inf"...)
	case math.IsInf(v, -1):
		return append(b, "-Inf"...)
	case math.IsNaN(v):
		return append(b, "NaN"...)
	}
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}

// appendEscaped appends s escaped: backslash and newline always, the double
// quote in a label value. Invalid UTF-8 is replaced (the format is UTF-8).
func appendEscaped(b []byte, s string, quote bool) []byte {
	for _, r := range s {
		switch {
		case r == '\\':
			b = append(b, `\\`...)
		case r == '\n':
			b = append(b, `\n`...)
		case r == '"' && quote:
			b = append(b, `\"`...)
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return b
}

// ValidMetricName reports whether s matches [a-zA-Z_:][a-zA-Z0-9_:]*.
func ValidMetricName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == ':' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// ValidLabelName reports whether s matches [a-zA-Z_][a-zA-Z0-9_]* and does
// not start with "__" (reserved for Prometheus itself).
func ValidLabelName(s string) bool {
	if s == "" || len(s) >= 2 && s[:2] == "__" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
