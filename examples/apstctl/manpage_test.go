package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// manDir holds the generated pages, from this package's directory.
const manDir = "../../docs/man"

// manPages returns every page by file name.
func manPages() map[string]string {
	pages := map[string]string{}
	var b bytes.Buffer
	cmds := commands()
	writeMainManPage(&b, cmds)
	pages["apstctl.1"] = b.String()
	for _, c := range cmds {
		b.Reset()
		writeManPage(&b, c)
		pages["apstctl-"+c.name+".1"] = b.String()
	}
	return pages
}

// The man pages in docs/man are what the help text gives (regenerate with
// -update), one per command and apstctl(1), and nothing else.
func TestManPages(t *testing.T) {
	pages := manPages()
	if *update {
		require.NoError(t, os.MkdirAll(manDir, 0o755))
		for name, text := range pages {
			require.NoError(t, os.WriteFile(filepath.Join(manDir, name), []byte(text), 0o644))
		}
	}
	files, err := filepath.Glob(filepath.Join(manDir, "*.1"))
	require.NoError(t, err)
	assert.Len(t, files, len(pages), "docs/man holds a page per command and apstctl.1")
	for name, want := range pages {
		got, err := os.ReadFile(filepath.Join(manDir, name))
		require.NoError(t, err, "run go test -run TestManPages -update")
		assert.Equal(t, want, string(got), "%s drifted from the help text: go test -run TestManPages -update", name)
	}
}

// roffRequest is a line that is a roff request; the pages use these only.
var roffRequest = regexp.MustCompile(`^\.(TH|SH|PP|TP|B|BR|nf|fi)( |$)`)

// Each page is roff man(7): .TH first, NAME, SYNOPSIS and DESCRIPTION in
// that order, only the requests above, no line of text that roff would
// take for a request, every backslash an escape it knows; and man -l
// renders it where man is installed.
func TestManPagesRoff(t *testing.T) {
	escape := regexp.MustCompile(`\\(.)`)
	for name, text := range manPages() {
		lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
		require.True(t, strings.HasPrefix(lines[0], ".TH "), name)
		var sections []string
		for i, l := range lines {
			if strings.HasPrefix(l, ".") || strings.HasPrefix(l, "'") {
				assert.Regexp(t, roffRequest, l, "%s:%d", name, i+1)
			}
			if s, ok := strings.CutPrefix(l, ".SH "); ok {
				sections = append(sections, s)
			}
			for _, m := range escape.FindAllStringSubmatch(l, -1) {
				assert.Contains(t, []string{"-", "e", "&"}, m[1], "%s:%d: \\%s", name, i+1, m[1])
			}
		}
		require.GreaterOrEqual(t, len(sections), 3, name)
		assert.Equal(t, []string{"NAME", "SYNOPSIS", "DESCRIPTION"}, sections[:3], name)
	}
	man, err := exec.LookPath("man")
	if err != nil {
		t.Skip("man is not installed: the roff structure is checked, not its rendering")
	}
	overstrike := regexp.MustCompile(".\x08")
	for name := range manPages() {
		cmd := exec.Command(man, "--warnings", "-l", filepath.Join(manDir, name))
		cmd.Env = append(os.Environ(), "MANPAGER=cat", "PAGER=cat", "MANWIDTH=100")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		require.NoError(t, err, "%s: %s", name, stderr.String())
		assert.Empty(t, stderr.String(), "%s: groff warnings", name)
		text := overstrike.ReplaceAllString(string(out), "")
		assert.Contains(t, text, "NAME", name)
		assert.Contains(t, text, "SYNOPSIS", name)
	}
}

// docs/spec/cli.md, the man pages and the help are one contract: the
// spec names every command the help lists (the pages are the help).
func TestCLISpecNamesEveryCommand(t *testing.T) {
	b, err := os.ReadFile("../../docs/spec/cli.md")
	require.NoError(t, err)
	spec := string(b)
	for _, c := range commands() {
		if c.name == "help" {
			continue
		}
		assert.True(t, strings.Contains(spec, "## "+c.name) || strings.Contains(spec, "`"+c.name+"`") || strings.Contains(spec, "apstctl "+c.name),
			"docs/spec/cli.md does not mention %s", c.name)
	}
}
