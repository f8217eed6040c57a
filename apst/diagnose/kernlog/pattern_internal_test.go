package kernlog

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// allPatterns returns every pattern of re() by its field's name.
func allPatterns(t testing.TB) map[string]*pattern {
	v := reflect.ValueOf(re()).Elem()
	out := map[string]*pattern{}
	for i := range v.NumField() {
		f := v.Field(i)
		require.Equal(t, reflect.TypeFor[*pattern](), f.Type(), "field %s", v.Type().Field(i).Name)
		out[v.Type().Field(i).Name] = (*pattern)(f.UnsafePointer())
	}
	require.NotEmpty(t, out)
	return out
}

// tokens are characters the patterns' classes and boundaries tell apart,
// and a few longer pieces.
var tokens = append(strings.Split(" ,:;.=-_()[]{}/\\!?\t\n\f\r\v0123456789afxzAFXZ", ""),
	"0x", "ffffffff", "123456789", "-5", "1234567890123456789012", "é", "\u2028", "\xff", "\xe2\x80", "nvme0n1", "nvme12c3n4p5", "0000:01:00.0")

// chars are the tokens of one character.
var chars = func() []string {
	var c []string
	for _, s := range tokens {
		if utf8.RuneCountInString(s) == 1 {
			c = append(c, s)
		}
	}
	return c
}()

// generate appends to b a string that re matches, mostly: each choice may
// go one step past what re allows, and a class may give a token instead.
func generate(t *rapid.T, re *syntax.Regexp, b *strings.Builder) {
	switch re.Op {
	case syntax.OpLiteral:
		b.WriteString(string(re.Rune))
	case syntax.OpCharClass:
		if rapid.IntRange(0, 29).Draw(t, "off") == 0 {
			b.WriteString(rapid.SampledFrom(tokens).Draw(t, "token"))
			return
		}
		r := rapid.IntRange(0, len(re.Rune)/2-1).Draw(t, "range")
		lo, hi := re.Rune[2*r], min(re.Rune[2*r+1], re.Rune[2*r]+200)
		b.WriteRune(rune(rapid.IntRange(int(lo), int(hi)).Draw(t, "rune")))
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		b.WriteString(rapid.SampledFrom(chars).Draw(t, "char"))
	case syntax.OpCapture, syntax.OpConcat:
		for _, s := range re.Sub {
			generate(t, s, b)
		}
	case syntax.OpAlternate:
		generate(t, rapid.SampledFrom(re.Sub).Draw(t, "alt"), b)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := re.Min, re.Max
		switch re.Op {
		case syntax.OpStar:
			lo, hi = 0, 3
		case syntax.OpPlus:
			lo, hi = 1, 3
		case syntax.OpQuest:
			lo, hi = 0, 1
		}
		if hi < 0 {
			hi = lo + 3
		}
		n := rapid.IntRange(lo, hi).Draw(t, "count")
		if rapid.IntRange(0, 9).Draw(t, "off") == 0 {
			n = rapid.SampledFrom([]int{max(lo-1, 0), hi + 1}).Draw(t, "past")
		}
		for range n {
			generate(t, re.Sub[0], b)
		}
	}
}

// Each pattern matches as package regexp matches its expression: the same
// leftmost match and submatches, or none, on strings made from the
// expression (most match it, some go one step past) between tokens, with
// a byte or two changed.
func TestPatternMatchesAsRegexp(t *testing.T) {
	for name, p := range allPatterns(t) {
		t.Run(name, func(t *testing.T) {
			want := regexp.MustCompile(p.expr)
			tree, err := syntax.Parse(p.expr, syntax.Perl)
			require.NoError(t, err)
			matched, total := 0, 0
			rapid.Check(t, func(t *rapid.T) {
				// Ten inputs a check: a match of a long pattern is rare.
				for range 10 {
					var b strings.Builder
					for range max(0, rapid.IntRange(-3, 3).Draw(t, "before")) {
						b.WriteString(rapid.SampledFrom(tokens).Draw(t, "token"))
					}
					for range rapid.IntRange(1, 2).Draw(t, "times") {
						generate(t, tree, &b)
					}
					for range rapid.IntRange(0, 3).Draw(t, "after") {
						b.WriteString(rapid.SampledFrom(tokens).Draw(t, "token"))
					}
					s := b.String()
					for range max(0, rapid.IntRange(-4, 2).Draw(t, "edits")) {
						if s == "" {
							break
						}
						i := rapid.IntRange(0, len(s)-1).Draw(t, "at")
						s = s[:i] + rapid.SampledFrom(append(tokens, "")).Draw(t, "edit") + s[i+1:]
					}
					w := want.FindStringSubmatch(s)
					total++
					if w != nil {
						matched++
					}
					assert.Equal(t, w, p.FindStringSubmatch(s), "%q on %q", p.expr, s)
					assert.Equal(t, want.FindString(s), p.FindString(s), "%q on %q", p.expr, s)
				}
			})
			assert.Greater(t, matched, total/100, "too few inputs match: the check is weak")
			assert.Less(t, matched, total, "every input matches: the check is weak")
		})
	}
}

// The patterns match as package regexp on every line of the package's
// real logs, and on each line from each of its colons on.
func TestPatternMatchesAsRegexpOnLogs(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "posted", "*.log"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	pats := map[*pattern]*regexp.Regexp{}
	for _, p := range allPatterns(t) {
		pats[p] = regexp.MustCompile(p.expr)
	}
	matched := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		for line := range strings.Lines(string(b)) {
			line = strings.TrimRight(line, "\n")
			for p, want := range pats {
				for s := line; ; {
					w := want.FindStringSubmatch(s)
					if w != nil {
						matched++
					}
					require.Equal(t, w, p.FindStringSubmatch(s), "%s: %q on %q", f, p.expr, s)
					_, rest, ok := strings.Cut(s, ": ")
					if !ok {
						break
					}
					s = rest
				}
			}
		}
	}
	assert.Greater(t, matched, 100)
}

// A syntax the matcher does not read is refused when the pattern is made,
// not matched wrongly.
func TestPatternRefusesUnknownSyntax(t *testing.T) {
	for _, expr := range []string{`a\d`, `(a`, `[a`, `a)`, `*a`, `é`, `[é]`, `(?:a?)*`, `(?:a|b?)+`, `(a{0,2})*`} {
		assert.Panics(t, func() { mustPattern(expr) }, expr)
	}
}

// The matcher prefers as package regexp does where the package's own
// patterns do not tell: the earlier branch of |, the longer greedy and
// the shorter lazy repeat, a group's last iteration.
func TestPatternPrefersAsRegexp(t *testing.T) {
	exprs := []string{`(a|ab)(c|bcd)(d*)`, `(a+?)(a*)`, `(?:ab|a)(b?)`, `(x{1,3}?)(x*)`, `(.{1,3}?)(.*)`,
		`(?:(a)|(b))*c`, `((?:a|b){2,3}?)(b*)`, `(\S{0,2})(\S+)`, `\b(a|b)+\b`, `^([^x]{1,3})(a?)`}
	rapid.Check(t, func(t *rapid.T) {
		expr := rapid.SampledFrom(exprs).Draw(t, "expr")
		s := strings.Join(rapid.SliceOfN(rapid.SampledFrom([]string{"a", "b", "c", "d", "x", " ", "é"}), 0, 12).Draw(t, "chars"), "")
		assert.Equal(t, regexp.MustCompile(expr).FindStringSubmatch(s), mustPattern(expr).FindStringSubmatch(s), "%q on %q", expr, s)
	})
}

// FuzzPatterns holds every pattern to package regexp's answer on any
// line, from its start and from each of its ": " on (where a message
// starts after a prefix). (A backtracking matcher could also run long on
// a pattern that let it; the patterns' repeats are bounded, and 40 s of
// this target at 10,000 inputs a second found none that took a second.)
func FuzzPatterns(f *testing.F) {
	for _, s := range []string{
		"controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10",
		"I/O Cmd(0x2) @ LBA 131209936, 200 blocks, I/O Error (sct 0x3 / sc 0x71)",
		"pcieport 0000:00:1c.0: AER: Corrected error received: 0000:01:00.0",
		"PM: failed to resume async: error -16",
		"dpm_run_callback(): pci_pm_resume+0x0/0xe0 returns -16",
		"Buffer I/O error on dev nvme0n1p2, logical block 0, async page read",
		"nvme 0000:01:00.0: Unable to change power state from D3cold to D0, device inaccessible",
		strings.Repeat("(0x", 40) + strings.Repeat(" @ LBA 1, 1 blocks, ", 40),
	} {
		f.Add(s)
	}
	pats := map[*pattern]*regexp.Regexp{}
	for _, p := range allPatterns(f) {
		pats[p] = regexp.MustCompile(p.expr)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if len(line) > MaxLineLength {
			return
		}
		for p, want := range pats {
			for s := line; ; {
				require.Equal(t, want.FindStringSubmatch(s), p.FindStringSubmatch(s), "%q on %q", p.expr, s)
				_, rest, ok := strings.Cut(s, ": ")
				if !ok {
					break
				}
				s = rest
			}
		}
	})
}
