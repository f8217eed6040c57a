package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cli.md's table "Where the views are written" names, for each JSON
// object, the Go types and the file of examples/apstctl that declares
// them: every type named is declared in one of the files of its row.
func TestCLIDocViewFiles(t *testing.T) {
	inRepoRoot(t)
	b, err := os.ReadFile("docs/spec/cli.md")
	require.NoError(t, err)
	doc := string(b)
	i := strings.Index(doc, "### Where the views are written")
	require.GreaterOrEqual(t, i, 0, "cli.md has the table of view files")
	section := doc[i:]
	if j := strings.Index(section, "\n## "); j >= 0 {
		section = section[:j]
	}
	code := regexp.MustCompile("`([A-Za-z0-9_.]+)`")
	rows := 0
	for line := range strings.Lines(section) {
		cells := strings.Split(strings.TrimSpace(line), "|")
		if len(cells) != 5 || strings.HasPrefix(cells[1], " ---") || strings.Contains(cells[1], "JSON object") {
			continue
		}
		rows++
		var types, files []string
		for _, m := range code.FindAllStringSubmatch(cells[1], -1) {
			types = append(types, m[1])
		}
		for _, m := range code.FindAllStringSubmatch(cells[2], -1) {
			files = append(files, m[1])
		}
		require.NotEmpty(t, types, line)
		require.NotEmpty(t, files, line)
		var src strings.Builder
		for _, f := range files {
			b, err := os.ReadFile(filepath.Join("examples/apstctl", f))
			require.NoError(t, err, line)
			src.Write(b)
		}
		for _, typ := range types {
			assert.Regexp(t, regexp.MustCompile(`(?m)^type `+regexp.QuoteMeta(typ)+` `), src.String(),
				"cli.md says %s is declared in %v", typ, files)
		}
	}
	assert.GreaterOrEqual(t, rows, 10, "rows of the table read")
}
