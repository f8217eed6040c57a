package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every shell's completion names every command of apstctl help, and for
// each command every flag it takes (long names and their short forms),
// and none it refuses as doing nothing for it (sweep's bound flags).
func TestCompletionsListEveryCommandAndFlag(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish"} {
		code, out, errOut := apstctl(t, nil, "completion", shell)
		require.Equal(t, 0, code, errOut)
		for _, c := range commands() {
			assert.Contains(t, out, c.name, "%s: command %s", shell, c.name)
			if c.flags == nil {
				continue
			}
			for n := range c.ignores {
				if shell == "fish" {
					assert.NotContains(t, out, "__fish_seen_subcommand_from "+c.name+"' -l "+n+" ", "%s: %s --%s", shell, c.name, n)
				} else {
					section := completionSection(out, shell, c.name)
					assert.NotContains(t, section, spelling(n)+" ", "%s: %s --%s", shell, c.name, n)
					assert.NotContains(t, section, spelling(n)+"[", "%s: %s --%s", shell, c.name, n)
				}
			}
			for _, n := range c.flagOrder() {
				switch shell {
				case "fish":
					assert.Contains(t, out, "__fish_seen_subcommand_from "+c.name+"' -l "+n, "%s: %s --%s", shell, c.name, n)
				default:
					section := completionSection(out, shell, c.name)
					assert.Contains(t, section, spelling(n), "%s: %s --%s", shell, c.name, n)
					if s, ok := c.flags.short[n]; ok {
						assert.Contains(t, section, "-"+s, "%s: %s -%s", shell, c.name, s)
					}
				}
			}
		}
	}
}

// completionSection is the part of a bash or zsh script that lists the
// flags of command name.
func completionSection(script, shell, name string) string {
	marker := "        " + name + ") "
	if shell == "zsh" {
		marker = "\n    " + name + ")\n"
	}
	i := strings.Index(script, marker)
	if i < 0 {
		return ""
	}
	rest := script[i+len(marker):]
	if j := strings.Index(rest, ";;"); j >= 0 {
		return rest[:j]
	}
	return rest
}

// helpFlag is a flag as apstctl help CMD prints it.
type helpFlag struct {
	long      string   // the long name, without dashes
	spellings []string // --long, -o and the long aliases (also --format)
	meta      string   // the metavariable, "" for a boolean
	usage     string   // the usage line, with its (default ...; also ...)
}

var (
	helpHeadRE  = regexp.MustCompile(`^  (?:-([a-z]), )?--([a-z0-9-]+)(?: (\S+))?$`)
	helpAlsoRE  = regexp.MustCompile(`also (--[a-z0-9-]+(?:, --[a-z0-9-]+)*)\)$`)
	helpWordsRE = regexp.MustCompile(`^[a-z0-9-]+(\|[a-z0-9-]+)+$`)
)

// helpFlags parses the flags of apstctl help name.
func helpFlags(t *testing.T, name string) []helpFlag {
	t.Helper()
	code, out, errOut := apstctl(t, nil, "help", name)
	require.Equal(t, 0, code, errOut)
	_, flags, ok := strings.Cut(out, "\nFlags:\n")
	if !ok {
		return nil
	}
	var fl []helpFlag
	lines := strings.Split(flags, "\n")
	for i := 0; i+1 < len(lines) && strings.HasPrefix(lines[i], "  -"); i += 2 {
		m := helpHeadRE.FindStringSubmatch(lines[i])
		require.NotNil(t, m, "%s: %q", name, lines[i])
		f := helpFlag{long: m[2], spellings: []string{"--" + m[2]}, meta: m[3], usage: strings.TrimSpace(lines[i+1])}
		if m[1] != "" {
			f.spellings = append(f.spellings, "-"+m[1])
		}
		if a := helpAlsoRE.FindStringSubmatch(f.usage); a != nil {
			f.spellings = append(f.spellings, strings.Split(a[1], ", ")...)
		}
		fl = append(fl, f)
	}
	return fl
}

// helpListedWords are the fixed values of the flags whose help lists them
// in prose (those whose metavariable lists them, a|b|c, are read from it),
// as the help writes them: one of them, or with list a comma list. cmd ""
// is every command with the flag.
var helpListedWords = []struct {
	cmd, flag string
	list      bool
	words     []string
}{
	{"", "output-format", false, []string{"normal", "text", "json"}}, // normal (text) or json
	{"convert", "to", false, []string{"binary", "nvme-cli-text", "normal", "nvme-cli-json", "json", "smartctl-text"}},
	{"persist", "scope", false, []string{"all", "model", "family", "pci", "serial"}},
	{"persist", "form", true, []string{"udev", "cmdline", "modprobe", "tmpfiles", "tuned"}},
	{"", "quirks", true, []string{"no-apst", "no-deepest-ps", "none"}},
}

// fixedWordsOf returns the fixed values help lists for flag f of command
// cmd, whether they form a comma list, and whether it lists any.
func fixedWordsOf(t *testing.T, cmd string, f helpFlag) ([]string, bool, bool) {
	if helpWordsRE.MatchString(f.meta) {
		return strings.Split(f.meta, "|"), false, true
	}
	for _, pass := range []bool{true, false} { // a command's own row first
		for _, row := range helpListedWords {
			if row.flag == f.long && (row.cmd == cmd) == pass && (pass || row.cmd == "") {
				for _, w := range row.words {
					assert.Regexp(t, `(^|[ (])`+regexp.QuoteMeta(w)+`[ ,;)]`, f.usage, "%s --%s: the help lists %s", cmd, f.long, w)
				}
				return row.words, row.list, true
			}
		}
	}
	return nil, false, false
}

// zshSpecAction returns the action of the _arguments spec of spelling name in a
// command's section of the zsh script (after the description), and
// whether there is one.
func zshSpecAction(section, name string) (string, bool) {
	m := regexp.MustCompile(`'(?:\([^)]*\)|\*)?` + regexp.QuoteMeta(name) + `\[[^\]]*\]([^']*)'`).FindStringSubmatch(section)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// zshWords returns the words a zsh action offers: a list (w1 w2) or
// _values -s , NAME w1 w2 (a comma list).
func zshWords(action string) ([]string, bool) {
	parts := strings.SplitN(action, ":", 3)
	if len(parts) < 3 {
		return nil, false
	}
	act := parts[2]
	if rest, ok := strings.CutPrefix(act, "_values -s , "); ok {
		return strings.Fields(rest)[1:], true
	}
	if strings.HasPrefix(act, "(") && strings.HasSuffix(act, ")") {
		return strings.Fields(act[1 : len(act)-1]), false
	}
	return nil, false
}

// fishLine returns the complete line of the flag long of command cmd.
func fishLine(script, cmd, long string) string {
	for _, line := range strings.Split(script, "\n") {
		if strings.Contains(line, "__fish_seen_subcommand_from "+cmd+"' -l "+long+" ") {
			return line
		}
	}
	return ""
}

var fishWordsRE = regexp.MustCompile(` -x -a '(.*?)' -d '`)

// fishWords returns the words a fish complete line offers for its flag's
// value: -a 'w1 w2', or a __fish_complete_list of them (a comma list).
func fishWords(line string) ([]string, bool) {
	m := fishWordsRE.FindStringSubmatch(line)
	if m == nil {
		return nil, false
	}
	if rest, ok := strings.CutPrefix(m[1], `(__fish_complete_list , "printf \'%s\\n\' `); ok {
		return strings.Fields(strings.TrimSuffix(rest, `")`)), true
	}
	if strings.HasPrefix(m[1], "(") { // a function's names (directories)
		return nil, false
	}
	return strings.Fields(m[1]), false
}

// For every flag whose help lists fixed values (a|b|c, or in its usage),
// the zsh and fish completions offer exactly those, as one value or a
// comma list (fish, with -x, no file names beside them); every other flag
// offers none, a flag of a FILE or CAPTURE file names, one of a DIR
// directories. Every spelling help lists (-o, --format, --file) is in all
// three scripts. With fish installed, fish itself completes each.
func TestCompletionValuesAsHelpLists(t *testing.T) {
	scripts := map[string]string{}
	for _, shell := range []string{"bash", "zsh", "fish"} {
		code, out, errOut := apstctl(t, nil, "completion", shell)
		require.Equal(t, 0, code, errOut)
		scripts[shell] = out
	}
	type query struct {
		line  string
		words []string
	}
	var queries []query
	seen := map[string]bool{}
	for _, c := range commands() {
		bash := strings.Fields(strings.Trim(strings.TrimPrefix(completionSection(scripts["bash"], "bash", c.name), "opts="), `"`))
		zsh := completionSection(scripts["zsh"], "zsh", c.name)
		for _, f := range helpFlags(t, c.name) {
			if _, refused := c.ignores[f.long]; refused {
				continue
			}
			words, list, fixed := fixedWordsOf(t, c.name, f)
			seen[f.long] = seen[f.long] || fixed
			t.Run(c.name+" --"+f.long, func(t *testing.T) {
				for _, w := range words { // offered, so taken
					assert.NoError(t, c.flags.lookup(f.long).Value.Set(w), w)
				}
				for _, s := range f.spellings {
					assert.Contains(t, bash, s, "bash")
					action, ok := zshSpecAction(zsh, s)
					require.True(t, ok, "zsh: %s", s)
					zw, zl := zshWords(action)
					if fixed {
						assert.Equal(t, words, zw, "zsh %s: %s", s, action)
						assert.Equal(t, list, zl, "zsh %s: a comma list", s)
					} else {
						assert.Nil(t, zw, "zsh %s: %s", s, action)
					}
					switch f.meta {
					case "FILE", "CAPTURE":
						assert.True(t, strings.HasSuffix(action, ":_files"), "zsh %s: %s", s, action)
					case "DIR":
						assert.True(t, strings.HasSuffix(action, ":_files -/"), "zsh %s: %s", s, action)
					case "":
						assert.Empty(t, action, "zsh %s", s)
					}
				}
				line := fishLine(scripts["fish"], c.name, f.long)
				require.NotEmpty(t, line, "fish")
				for _, s := range f.spellings[1:] {
					if strings.HasPrefix(s, "--") {
						assert.Contains(t, line, " -l "+s[2:]+" ", "fish")
					} else {
						assert.Contains(t, line, " -s "+s[1:]+" ", "fish")
					}
				}
				fw, fl := fishWords(line)
				if fixed {
					assert.Equal(t, words, fw, "fish: %s", line)
					assert.Equal(t, list, fl, "fish: a comma list: %s", line)
					assert.NotContains(t, line, " -F", "fish: no file names for a choice")
				} else {
					assert.Nil(t, fw, "fish: %s", line)
				}
				switch f.meta {
				case "FILE", "CAPTURE":
					assert.Contains(t, line, " -r -F ", "fish")
				case "DIR":
					assert.Contains(t, line, " -x -a '(__fish_complete_directories)' ", "fish")
				}
			})
			if fixed {
				for _, s := range f.spellings {
					queries = append(queries, query{"apstctl " + c.name + " " + s + " ", words})
				}
				if list {
					queries = append(queries, query{"apstctl " + c.name + " " + f.spellings[0] + " " + words[0] + ",", nil})
				}
			}
		}
	}
	for _, row := range helpListedWords {
		assert.True(t, seen[row.flag], "no command's help has --%s", row.flag)
	}
	assert.True(t, seen["platform"], "diagnose --platform: a|b|c read from its metavariable")
	fish, err := exec.LookPath("fish")
	if err != nil {
		t.Log("no fish: the scripts' text checked only")
		return
	}
	file := filepath.Join(t.TempDir(), "apstctl.fish")
	require.NoError(t, os.WriteFile(file, []byte(scripts["fish"]), 0o644))
	var prog strings.Builder
	fmt.Fprintf(&prog, "cd %s; source %s\n", fishQuote(t.TempDir()), fishQuote(file))
	for _, q := range queries {
		fmt.Fprintf(&prog, "echo '== '%s; complete -C %s\n", fishQuote(q.line), fishQuote(q.line))
	}
	cmd := exec.Command(fish, "--no-config", "-c", prog.String())
	b, err := cmd.Output()
	require.NoError(t, err)
	got := map[string][]string{}
	var cur string
	for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		if q, ok := strings.CutPrefix(line, "== "); ok {
			cur = q
			got[cur] = []string{}
			continue
		}
		word, _, _ := strings.Cut(line, "\t")
		got[cur] = append(got[cur], word)
	}
	for _, q := range queries {
		if q.words == nil { // after a comma: the words again, each after the list so far
			prefix := q.line[strings.LastIndex(q.line, " ")+1:]
			require.NotEmpty(t, got[q.line], "fish: %s", q.line)
			for _, w := range got[q.line] {
				assert.True(t, strings.HasPrefix(w, prefix), "fish: %s: %s", q.line, w)
			}
			continue
		}
		assert.ElementsMatch(t, q.words, got[q.line], "fish: %s", q.line)
	}
}
