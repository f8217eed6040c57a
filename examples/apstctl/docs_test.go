package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// docFiles are the documents whose command lines must run as shown: the
// README, the walk-throughs and the CLI contract.
var docFiles = []string{
	"README.md", "docs/should-the-default-be-25ms.md", "docs/spec/cli.md",
	"docs/survey.md", "docs/replay.md", "docs/measure.md", "docs/persist.md", "docs/diagnose.md", "docs/metrics.md",
}

// A docCommand is a command line of a document with the output it shows.
type docCommand struct {
	file, line string
	lineNo     int
	args       []string // after "apstctl"
	stdin      string   // "< FILE"
	shown      []string // the output lines shown, nil when none is
	showsOut   bool     // the line started with "$ ": the lines after it are its output
	blockEnd   int      // the index of the block's closing fence
	outStart   int      // the index of the first output line
}

// docCommands extracts the apstctl command lines of a document's code
// blocks: "$ apstctl ARGS" (followed by its output up to the next "$ " line
// or the end of the block) and, in shell blocks, "apstctl ARGS" and
// "go run ./examples/apstctl ARGS" lines (run, output not compared).
func docCommands(t *testing.T, file string, lines []string) []docCommand {
	t.Helper()
	var out []docCommand
	inBlock := false
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if strings.HasPrefix(l, "```") {
			inBlock = !inBlock
			continue
		}
		if !inBlock {
			continue
		}
		shows := strings.HasPrefix(l, "$ ")
		cmdLine := strings.TrimPrefix(l, "$ ")
		var rest string
		switch {
		case strings.HasPrefix(cmdLine, "apstctl ") || cmdLine == "apstctl":
			rest = strings.TrimPrefix(cmdLine, "apstctl")
		case strings.HasPrefix(cmdLine, "go run ./examples/apstctl"):
			rest = strings.TrimPrefix(cmdLine, "go run ./examples/apstctl")
		default:
			continue
		}
		if j := strings.Index(rest, " #"); j >= 0 && !shows {
			rest = rest[:j]
		}
		words, err := shellWords(rest)
		require.NoError(t, err, "%s:%d: %s", file, i+1, l)
		dc := docCommand{file: file, line: l, lineNo: i + 1, showsOut: shows}
		if n := len(words); n >= 2 && words[n-2] == "<" {
			dc.stdin, words = words[n-1], words[:n-2]
		}
		dc.args = words
		if shows {
			dc.outStart = i + 1
			j := i + 1
			for ; j < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[j]), "```") && !strings.HasPrefix(lines[j], "$ "); j++ {
				dc.shown = append(dc.shown, lines[j])
			}
			dc.blockEnd = j
			i = j - 1 // the output is not a command line
			for len(dc.shown) > 0 && strings.TrimSpace(dc.shown[len(dc.shown)-1]) == "" {
				dc.shown = dc.shown[:len(dc.shown)-1]
			}
		}
		out = append(out, dc)
	}
	return out
}

// shellWords splits a command line as sh does for the simple cases the
// docs use: blanks separate words, single and double quotes group them.
func shellWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'' || c == '"':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				return nil, fmt.Errorf("unterminated %c", c)
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// matchShown reports whether got (the command's output) is what the
// document shows: the same lines, or, where the document shows "..." on a
// line of its own, the shown runs of lines in order with anything between
// them.
func matchShown(shown, got []string) bool {
	var runs [][]string
	cur := []string{}
	elided := false
	for _, l := range shown {
		if strings.TrimSpace(l) == "..." {
			runs = append(runs, cur)
			cur = []string{}
			elided = true
			continue
		}
		cur = append(cur, strings.TrimRight(l, " "))
	}
	runs = append(runs, cur)
	trimmed := make([]string, len(got))
	for i, l := range got {
		trimmed[i] = strings.TrimRight(l, " ")
	}
	if !elided {
		return strings.Join(runs[0], "\n") == strings.Join(trimmed, "\n")
	}
	pos := 0
	for k, run := range runs {
		if len(run) == 0 {
			continue
		}
		found := -1
		for i := pos; i+len(run) <= len(trimmed); i++ {
			if k == 0 && i > 0 {
				break // the first run starts the output
			}
			if strings.Join(trimmed[i:i+len(run)], "\n") == strings.Join(run, "\n") {
				found = i
				break
			}
		}
		if found < 0 {
			return false
		}
		pos = found + len(run)
	}
	return true
}

// Every apstctl command line of the README and the docs runs as shown,
// and prints what the document shows after a "$ " line (standard output
// and standard error, as a terminal shows them). With -update, a block
// that shows the whole output (no "..." line) is rewritten from what the
// command prints.
func TestDocCommands(t *testing.T) {
	inRepoRoot(t)
	for _, file := range docFiles {
		b, err := os.ReadFile(file)
		require.NoError(t, err)
		lines := strings.Split(string(b), "\n")
		cmds := docCommands(t, file, lines)
		require.NotEmpty(t, cmds, file)
		changed := false
		for k := len(cmds) - 1; k >= 0; k-- { // from the end, so that rewriting keeps the indices
			dc := cmds[k]
			if needsLiveMachine(append(dc.args, "")) {
				continue
			}
			var stdin []byte
			if dc.stdin != "" {
				stdin, err = os.ReadFile(dc.stdin)
				require.NoError(t, err, "%s:%d", file, dc.lineNo)
			}
			args := append([]string(nil), dc.args...)
			for i, a := range args {
				if strings.HasPrefix(a, "/tmp/") {
					args[i] = filepath.Join(t.TempDir(), filepath.Base(a))
				}
			}
			code, out, errOut := apstctl(t, stdin, args...)
			got := strings.Split(strings.TrimRight(out+errOut, "\n"), "\n")
			if !dc.showsOut {
				assert.Equal(t, 0, code, "%s:%d: %s\n%s", file, dc.lineNo, dc.line, errOut)
				continue
			}
			if matchShown(dc.shown, got) {
				continue
			}
			elided := false
			for _, l := range dc.shown {
				elided = elided || strings.TrimSpace(l) == "..."
			}
			if *update && !elided {
				lines = append(lines[:dc.outStart], append(got, lines[dc.blockEnd:]...)...)
				changed = true
				continue
			}
			t.Errorf("%s:%d: %s\nshows:\n%s\nprints (exit %d):\n%s", file, dc.lineNo, dc.line,
				strings.Join(dc.shown, "\n"), code, strings.Join(got, "\n"))
		}
		if changed {
			require.NoError(t, os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644))
		}
	}
}

func TestMatchShown(t *testing.T) {
	got := []string{"a", "b", "c", "d"}
	assert.True(t, matchShown([]string{"a", "b", "c", "d"}, got))
	assert.False(t, matchShown([]string{"a", "b", "d"}, got), "a dropped line needs ...")
	assert.True(t, matchShown([]string{"a", "...", "d"}, got))
	assert.True(t, matchShown([]string{"a", "b", "..."}, got))
	assert.False(t, matchShown([]string{"b", "..."}, got), "the output starts with the first line shown")
	assert.False(t, matchShown([]string{"a", "...", "x"}, got))
	assert.True(t, matchShown([]string{"...", "c", "d"}, got))
}
