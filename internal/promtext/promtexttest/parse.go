// Package promtexttest reads the Prometheus text exposition format (version
// 0.0.4) strictly, for tests: every line is checked against the format's
// grammar, so that a test can tell an exposition a scraper accepts from one
// it would refuse or misread.
//
// The grammar, from the Prometheus documentation ("Exposition formats",
// text-based format): lines end with \n; blank lines are ignored; "# HELP
// name docstring" (docstring escapes \\ and \n only) and "# TYPE name
// type" (counter, gauge, histogram, summary or untyped; at most once per
// name, before the family's first sample); other lines starting with # are
// comments; a sample is name, optionally {label="value",...} (label values
// escape \\, \" and \n), a value (a Go float, +Inf, -Inf or NaN) and an
// optional integer timestamp, separated by blanks. The samples of one
// family are contiguous and no series (name and label set) repeats.
package promtexttest

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// ErrGrammar is wrapped by every error of Parse.
var ErrGrammar = errors.New("promtexttest: not the text exposition format 0.0.4")

// Sample is one line of a family.
type Sample struct {
	Name   string
	Labels map[string]string
	Value  float64
	// Timestamp is set when the line has one.
	Timestamp *int64
}

// Family is a metric family: its HELP and TYPE and its samples.
type Family struct {
	Name, Help, Type string
	Samples          []Sample
}

// Parse reads an exposition and returns its families in order.
func Parse(text string) ([]Family, error) {
	if text != "" && !strings.HasSuffix(text, "\n") {
		return nil, fmt.Errorf("%w: the last line does not end with a newline", ErrGrammar)
	}
	var fams []*Family
	byName := map[string]*Family{}
	closed := map[string]bool{} // families whose samples have ended
	series := map[string]bool{}
	var cur *Family
	family := func(name string) *Family {
		if f := byName[name]; f != nil {
			return f
		}
		f := &Family{Name: name}
		byName[name] = f
		fams = append(fams, f)
		return f
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if text == "" {
		lines = nil
	}
	for i, line := range lines {
		n := i + 1
		fail := func(format string, args ...any) error {
			return fmt.Errorf("%w: line %d %q: %s", ErrGrammar, n, line, fmt.Sprintf(format, args...))
		}
		if strings.TrimLeft(line, " \t") == "" {
			continue
		}
		if strings.HasPrefix(line, "#") {
			f := strings.Fields(line[1:])
			if len(f) < 2 || f[0] != "HELP" && f[0] != "TYPE" {
				continue // a comment
			}
			rest := strings.TrimLeft(line[1:], " \t")
			rest = strings.TrimLeft(rest[4:], " \t")
			name, arg, _ := strings.Cut(rest, " ")
			if !validMetricName(name) {
				return nil, fail("metric name %q", name)
			}
			fam := family(name)
			if closed[name] || cur != nil && cur.Name != name && len(fam.Samples) > 0 {
				return nil, fail("%s of %s after its samples", f[0], name)
			}
			switch f[0] {
			case "HELP":
				if fam.Help != "" {
					return nil, fail("second HELP for %s", name)
				}
				h, err := unescape(arg, false)
				if err != nil {
					return nil, fail("%v", err)
				}
				fam.Help = h
			case "TYPE":
				if fam.Type != "" {
					return nil, fail("second TYPE for %s", name)
				}
				if len(fam.Samples) > 0 {
					return nil, fail("TYPE of %s after its first sample", name)
				}
				switch arg {
				case "counter", "gauge", "histogram", "summary", "untyped":
				default:
					return nil, fail("type %q", arg)
				}
				fam.Type = arg
			}
			if cur != nil && cur.Name != name {
				closed[cur.Name] = len(cur.Samples) > 0 || closed[cur.Name]
			}
			cur = fam
			continue
		}
		s, err := parseSample(line)
		if err != nil {
			return nil, fail("%v", err)
		}
		fname := familyOf(s.Name, byName)
		if closed[fname] {
			return nil, fail("sample of %s apart from the family's other samples", fname)
		}
		if cur != nil && cur.Name != fname {
			closed[cur.Name] = len(cur.Samples) > 0 || closed[cur.Name]
		}
		fam := family(fname)
		cur = fam
		key := seriesKey(s)
		if series[key] {
			return nil, fail("series %s twice", key)
		}
		series[key] = true
		fam.Samples = append(fam.Samples, s)
	}
	out := make([]Family, len(fams))
	for i, f := range fams {
		out[i] = *f
	}
	return out, nil
}

// familyOf is the family a sample belongs to: its own name, or for the
// _sum, _count and _bucket lines of a histogram or summary the base name.
func familyOf(name string, byName map[string]*Family) string {
	for _, suf := range []string{"_bucket", "_sum", "_count"} {
		if base, ok := strings.CutSuffix(name, suf); ok {
			if f := byName[base]; f != nil && (f.Type == "histogram" || f.Type == "summary") {
				return base
			}
		}
	}
	return name
}

// seriesKey names a series: the name and the labels sorted.
func seriesKey(s Sample) string {
	names := make([]string, 0, len(s.Labels))
	for k := range s.Labels {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString(s.Name)
	for _, k := range names {
		fmt.Fprintf(&b, ",%s=%q", k, s.Labels[k])
	}
	return b.String()
}

// parseSample reads one sample line.
func parseSample(line string) (Sample, error) {
	i := 0
	for i < len(line) && line[i] != '{' && line[i] != ' ' && line[i] != '\t' {
		i++
	}
	s := Sample{Name: line[:i], Labels: map[string]string{}}
	if !validMetricName(s.Name) {
		return s, fmt.Errorf("metric name %q", s.Name)
	}
	rest := line[i:]
	if strings.HasPrefix(rest, "{") {
		rest = rest[1:]
		for {
			rest = strings.TrimLeft(rest, " \t")
			if strings.HasPrefix(rest, "}") {
				rest = rest[1:]
				break
			}
			j := strings.IndexByte(rest, '=')
			if j < 0 {
				return s, errors.New("label without =")
			}
			name := strings.TrimRight(rest[:j], " \t")
			if !validLabelName(name) {
				return s, fmt.Errorf("label name %q", name)
			}
			if _, dup := s.Labels[name]; dup {
				return s, fmt.Errorf("label %s twice", name)
			}
			rest = strings.TrimLeft(rest[j+1:], " \t")
			if !strings.HasPrefix(rest, `"`) {
				return s, fmt.Errorf("label %s: value not quoted", name)
			}
			end, val, err := quoted(rest[1:])
			if err != nil {
				return s, fmt.Errorf("label %s: %w", name, err)
			}
			s.Labels[name] = val
			rest = strings.TrimLeft(rest[2+end:], " \t") // past the closing quote
			switch {
			case strings.HasPrefix(rest, ","):
				rest = rest[1:]
			case strings.HasPrefix(rest, "}"):
			default:
				return s, fmt.Errorf("after label %s: want , or }", name)
			}
		}
	}
	if rest == "" || rest[0] != ' ' && rest[0] != '\t' {
		return s, errors.New("no blank before the value")
	}
	f := strings.Fields(rest)
	if len(f) < 1 || len(f) > 2 {
		return s, fmt.Errorf("want a value and an optional timestamp, got %d fields", len(f))
	}
	v, err := parseValue(f[0])
	if err != nil {
		return s, err
	}
	s.Value = v
	if len(f) == 2 {
		ts, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			return s, fmt.Errorf("timestamp %q", f[1])
		}
		s.Timestamp = &ts
	}
	return s, nil
}

// quoted reads a label value after its opening quote: the index of the
// closing quote and the value unescaped.
func quoted(s string) (int, string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			return i, b.String(), nil
		case '\\':
			if i+1 >= len(s) {
				return 0, "", errors.New("escape at the end")
			}
			i++
			switch s[i] {
			case '\\':
				b.WriteByte('\\')
			case '"':
				b.WriteByte('"')
			case 'n':
				b.WriteByte('\n')
			default:
				return 0, "", fmt.Errorf("escape \\%c", s[i])
			}
		case '\n':
			return 0, "", errors.New("raw newline")
		default:
			b.WriteByte(c)
		}
	}
	return 0, "", errors.New("unterminated value")
}

// unescape reads a HELP docstring (\\ and \n).
func unescape(s string, quote bool) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 >= len(s) {
			return "", errors.New("escape at the end of HELP")
		}
		i++
		switch s[i] {
		case '\\':
			b.WriteByte('\\')
		case 'n':
			b.WriteByte('\n')
		case '"':
			if !quote {
				return "", errors.New(`escape \" in HELP`)
			}
			b.WriteByte('"')
		default:
			return "", fmt.Errorf("escape \\%c in HELP", s[i])
		}
	}
	return b.String(), nil
}

// parseValue reads a sample value.
func parseValue(s string) (float64, error) {
	switch s {
	case "+Inf", "Inf":
		return math.Inf(1), nil
	case "-Inf":
		return math.Inf(-1), nil
	case "NaN":
		return math.NaN(), nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, fmt.Errorf("value %q", s)
	}
	return v, nil
}

func validMetricName(s string) bool {
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

func validLabelName(s string) bool {
	if s == "" {
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
