package udev_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/persist/udev"
)

func TestParseRules(t *testing.T) {
	rs, err := udev.ParseRules("# comment\n\n" +
		`ACTION=="add|change", SUBSYSTEM=="nvme", \` + "\n" +
		`  ATTR{model}=="A \"quoted\" model", ATTR{power/pm_qos_latency_tolerance_us}="0"` + "\n" +
		`PROGRAM="/bin/true", RESULT=="x", RUN+="/bin/echo", ENV{X}:="1", LABEL="end"` + "\r\n" +
		`KERNEL=="nvme*",GOTO="end"` + "\n")
	require.NoError(t, err)
	require.Len(t, rs, 3)
	assert.Equal(t, 3, rs[0].Line)
	assert.Equal(t, udev.Expr{Key: "ATTR", Attr: "model", Op: udev.OpMatch, Value: `A "quoted" model`}, rs[0].Exprs[2])
	assert.Equal(t, udev.OpMatch, rs[1].Exprs[0].Op, "PROGRAM= is read as ==, as udev does")
	assert.Equal(t, 6, rs[2].Line)
}

func TestParseRulesErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{`KERNAL=="nvme0"`, `unknown key "KERNAL"`},
		{`KERNEL="nvme0"`, "KERNEL does not take ="},
		{`ATTR=="x"`, "ATTR needs an {attribute}"},
		{`KERNEL{x}=="y"`, "KERNEL takes no {attribute}"},
		{`ATTR{}=="y"`, "empty attribute"},
		{`ATTR{model=="y"`, "no closing }"},
		{`KERNEL=="nvme0`, "unterminated string"},
		{`KERNEL==nvme0`, "want a value in double quotes"},
		{`KERNEL=="a" subsystem=="b"`, `expression 2, after KERNEL=="a": want a key`},
		{`KERNEL=="a", junk`, "want a key"},
		{`KERNEL~"a"`, "want an operator"},
		{`kernel=="a"`, "want a key"},
		{`OWNER=="root"`, "OWNER does not take =="},
		{`ATTRS{vendor}:="x"`, "ATTRS does not take :="},
	} {
		_, err := udev.ParseRules("\n" + tc.text)
		require.ErrorIs(t, err, udev.ErrRuleSyntax, tc.text)
		assert.ErrorContains(t, err, "line 2: ", tc.text)
		assert.ErrorContains(t, err, tc.want, tc.text)
	}
	_, err := udev.ParseRules(strings.Repeat("#", udev.MaxRulesSize+1))
	assert.ErrorIs(t, err, udev.ErrRuleSyntax)
	_, err = udev.ParseRules(strings.Repeat(`KERNEL=="a", `, udev.MaxRuleExprs+1) + `KERNEL=="a"`)
	assert.ErrorContains(t, err, "more than")
}

// A rule keyed on the 990 EVO Plus family matches both capacities and no

func TestGlobMatch(t *testing.T) {
	rs, err := udev.ParseRules(`SUBSYSTEM=="nvme", ATTR{model}=="Samsung SSD 9[0-9]0 EVO*|WD*", ATTR{power/pm_qos_latency_tolerance_us}="1"`)
	require.NoError(t, err)
	for model, want := range map[string]bool{
		"Samsung SSD 990 EVO Plus 1TB": true, "Samsung SSD 970 EVO 1TB": true, "Samsung SSD 9x0 EVO": false,
		"WD Blue": true, "Samsung SSD 990 PRO 4TB": false, "Samsung SSD 990 EVO Plus 4TB   ": true,
	} {
		_, ok := udev.Tolerance(rs.Apply(udev.Drive{Model: model, HasTolerance: true}))
		assert.Equal(t, want, ok, model)
	}
}

func FuzzParseRules(f *testing.F) {
	for _, s := range []string{
		`ACTION=="add|change", SUBSYSTEM=="nvme", KERNEL=="nvme[0-9]*", ATTR{model}=="Samsung SSD 990 EVO Plus *", TEST=="power/pm_qos_latency_tolerance_us", ATTR{power/pm_qos_latency_tolerance_us}="25000"`,
		"KERNEL==\"a\", \\\nGOTO=\"x\"\nLABEL=\"x\"",
		`ENV{A}=e"\n\t\"", RUN+="x"`,
		`ATTR{x}=="[!a-z]*?"`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		rs, err := udev.ParseRules(text)
		if err != nil {
			return
		}
		// What parses writes back in a form that parses to the same rules.
		for _, r := range rs {
			back, err := udev.ParseRules(r.String())
			if err != nil {
				t.Fatalf("%q: written back as %q: %v", text, r.String(), err)
			}
			if len(back) != 1 || len(back[0].Exprs) != len(r.Exprs) {
				t.Fatalf("%q: written back as %q: %d rules", text, r.String(), len(back))
			}
			for i := range r.Exprs {
				if back[0].Exprs[i] != r.Exprs[i] {
					t.Fatalf("%q: expression %d %+v came back as %+v", text, i, r.Exprs[i], back[0].Exprs[i])
				}
			}
		}
		// Applying them never panics and terminates (GOTO only jumps forward).
		rs.Apply(udev.Drive{Model: "m", Serial: "s", HasTolerance: true})
	})
}

// Lines are read as udev reads them (systemd's read_line and
// udev_rules_parse_file): a comment line is skipped also when it ends in a
// backslash or sits inside a continuation, a carriage return or a NUL ends
// a line as a newline does, and what udev ignores is refused.
func TestParseRulesLines(t *testing.T) {
	const write = `ATTR{power/pm_qos_latency_tolerance_us}="0"`
	for _, tc := range []struct {
		name, text string
		lines      []int    // the line each rule starts on
		first      []string // the keys of the first rule
		err        string
	}{
		{name: "commented-out first line of a continued rule",
			text:  "# ACTION==\"add\", \\\nKERNEL==\"nvme0\", " + write + "\n",
			lines: []int{2}, first: []string{"KERNEL", "ATTR"}},
		{name: "comment inside a continuation",
			text:  "ACTION==\"add|change\", \\\n# why\n  KERNEL==\"nvme0\", " + write + "\n",
			lines: []int{1}, first: []string{"ACTION", "KERNEL", "ATTR"}},
		{name: "indented comment ending in a backslash",
			text:  "   # old rule \\\n" + write + "\n",
			lines: []int{2}, first: []string{"ATTR"}},
		{name: "CR ends a comment",
			text:  "# note\r" + write + "\n",
			lines: []int{2}, first: []string{"ATTR"}},
		{name: "NUL ends a comment",
			text:  "# note\x00" + write + "\n",
			lines: []int{2}, first: []string{"ATTR"}},
		{name: "CR LF is one end, LF LF an empty line",
			text:  "# a\r\n\n" + write + "\r\n",
			lines: []int{3}, first: []string{"ATTR"}},
		{name: "continuation over CR LF",
			text:  "KERNEL==\"nvme0\", \\\r\n" + write + "\r\n",
			lines: []int{1}, first: []string{"KERNEL", "ATTR"}},
		{name: "continuation at the end of the text",
			text: "KERNEL==\"nvme0\", " + write + " \\\n",
			err:  "line 1: the text ends in a continuation"},
		{name: "line longer than udev reads",
			text: `ATTR{model}=="` + strings.Repeat("a", udev.MaxLineSize) + `", ` + write,
			err:  "line 1: 16444 bytes: udev reads lines of at most 16383 bytes"},
		{name: "continued rule longer than udev reads",
			text: strings.Repeat(`KERNEL=="`+strings.Repeat("n", 100)+`", \`+"\n", 200) + write,
			err:  "the rule continued from line 1 is longer than 16383 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs, err := udev.ParseRules(tc.text)
			if tc.err != "" {
				require.ErrorIs(t, err, udev.ErrRuleSyntax)
				assert.ErrorContains(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			var lines []int
			for _, r := range rs {
				lines = append(lines, r.Line)
			}
			require.Equal(t, tc.lines, lines)
			var keys []string
			for _, e := range rs[0].Exprs {
				keys = append(keys, e.Key)
			}
			assert.Equal(t, tc.first, keys)
		})
	}
}

// udev separates expressions by any run of commas and whitespace: a rule
// without commas, with doubled ones or a trailing one is a rule, as udev
// loads it (udevadm verify notes only the style).
func TestParseRulesSeparators(t *testing.T) {
	want := []udev.Expr{
		{Key: "KERNEL", Op: udev.OpMatch, Value: "nvme0"},
		{Key: "ATTR", Attr: "power/pm_qos_latency_tolerance_us", Op: udev.OpAssign, Value: "0"},
	}
	for _, text := range []string{
		`KERNEL=="nvme0", ATTR{power/pm_qos_latency_tolerance_us}="0"`,
		`KERNEL=="nvme0" ATTR{power/pm_qos_latency_tolerance_us}="0"`,
		"KERNEL==\"nvme0\"\tATTR{power/pm_qos_latency_tolerance_us}=\"0\"",
		`KERNEL=="nvme0"ATTR{power/pm_qos_latency_tolerance_us}="0"`,
		`KERNEL=="nvme0",, ATTR{power/pm_qos_latency_tolerance_us}="0",`,
		`, KERNEL=="nvme0" ,ATTR{power/pm_qos_latency_tolerance_us}="0"`,
	} {
		rs, err := udev.ParseRules(text)
		require.NoError(t, err, text)
		require.Len(t, rs, 1, text)
		assert.Equal(t, want, rs[0].Exprs, text)
	}
}

// An i prefix (systemd 256 and later) makes a match case-insensitive, also
// with e; udev refuses it on TEST, PROGRAM and IMPORT and ignores it on an
// assignment.
func TestParseRulesCaseInsensitive(t *testing.T) {
	const write = `, TEST=="power/pm_qos_latency_tolerance_us", ATTR{power/pm_qos_latency_tolerance_us}="5500"`
	for _, tc := range []struct {
		rule  string
		model string
		want  bool
		err   string
	}{
		{rule: `SUBSYSTEM=="nvme", ATTR{model}==i"samsung ssd 990*"`, model: "Samsung SSD 990 EVO Plus 1TB", want: true},
		{rule: `SUBSYSTEM=="nvme", ATTR{model}=="samsung ssd 990*"`, model: "Samsung SSD 990 EVO Plus 1TB", want: false},
		{rule: `SUBSYSTEM==i"NVME", ATTR{model}==ie"SAMSUNG\tSSD*"`, model: "samsung\tssd", want: true},
		{rule: `SUBSYSTEM=="nvme", ATTRS{model}==ei"samsung ssd 990 evo plus 1tb"`, model: "Samsung SSD 990 EVO Plus 1TB", want: true},
		{rule: `SUBSYSTEM=="nvme", ATTR{model}!=i"SAMSUNG*"`, model: "Samsung SSD 990 EVO Plus 1TB", want: false},
		{rule: `SUBSYSTEM=="nvme", TEST==i"power"`, err: "TEST takes no i prefix"},
		{rule: `SUBSYSTEM=="nvme", ATTR{model}==ii"x"`, err: "want a value in double quotes"},
		{rule: `SUBSYSTEM=="nvme", ATTR{model}==x"x"`, err: "want a value in double quotes"},
	} {
		rs, err := udev.ParseRules(tc.rule + write)
		if tc.err != "" {
			require.ErrorIs(t, err, udev.ErrRuleSyntax, tc.rule)
			assert.ErrorContains(t, err, tc.err, tc.rule)
			continue
		}
		require.NoError(t, err, tc.rule)
		_, ok := udev.Tolerance(rs.Apply(udev.Drive{Model: tc.model, HasTolerance: true}))
		assert.Equal(t, tc.want, ok, tc.rule)
		back, err := udev.ParseRules(rs[0].String())
		require.NoError(t, err, rs[0].String())
		assert.Equal(t, rs[0].Exprs, back[0].Exprs, "written back as %s", rs[0].String())
	}
	for _, rule := range []string{
		`SUBSYSTEM=="nvme", ATTR{power/pm_qos_latency_tolerance_us}=i"0"`,
		`SUBSYSTEM=="nvme", PROGRAM=i"/bin/true"`,
		`SUBSYSTEM=="nvme", ENV{X}+=ei"1"`,
	} {
		_, err := udev.ParseRules(rule)
		require.ErrorIs(t, err, udev.ErrRuleSyntax, rule)
		assert.ErrorContains(t, err, "an i prefix goes only with == and !=", rule)
	}
}

// udev reads ATTR{...}+= and := as = (with a warning), and refuses ENV -=.
func TestParseRulesAssignOps(t *testing.T) {
	for _, op := range []string{"=", "+=", ":="} {
		rs, err := udev.ParseRules(`SUBSYSTEM=="nvme", ATTR{power/pm_qos_latency_tolerance_us}` + op + `"0"`)
		require.NoError(t, err, op)
		w, ok := udev.Tolerance(rs.Apply(udev.Drive{HasTolerance: true}))
		require.True(t, ok, op)
		assert.Equal(t, "0", w.Value, op)
	}
	_, err := udev.ParseRules(`ENV{X}-="1"`)
	assert.ErrorContains(t, err, "ENV does not take -=")
}

// udev compares a value without * ? [ as a plain string (strcmp), where a
// backslash is itself, and one with them by fnmatch(3), where it escapes.
func TestMatchPlainAndGlob(t *testing.T) {
	for _, tc := range []struct {
		pattern, s string
		want       bool
	}{
		{`a\b`, `a\b`, true},
		{`a\b`, `ab`, false},
		{`a\b|c`, `c`, true},
		{`a\b*`, `ab`, true},
		{`a\b*`, `a\b`, false},
		{`a\*`, `a*`, true},
		{`a\*`, `ax`, false},
		{`|x`, ``, true},
		{`x|`, `y`, false},
	} {
		assert.Equal(t, tc.want, udev.Match(tc.pattern, tc.s), "%q %q", tc.pattern, tc.s)
	}
}
