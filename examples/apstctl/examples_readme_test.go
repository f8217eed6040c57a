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

// examples/README.md lists every directory of examples/ but internal, and
// says of each that is not a runnable program that it is not: a directory
// is a program exactly when it holds a package main.
func TestExamplesReadme(t *testing.T) {
	inRepoRoot(t)
	readme, err := os.ReadFile("examples/README.md")
	require.NoError(t, err)
	rows := map[string]string{}
	for _, m := range regexp.MustCompile("(?m)^\\| \\[`([^`]+)`\\]\\([^)]*\\) \\| (.*) \\|$").FindAllStringSubmatch(string(readme), -1) {
		rows[m[1]] = m[2]
	}
	entries, err := os.ReadDir("examples")
	require.NoError(t, err)
	for _, e := range entries {
		if !e.IsDir() || e.Name() == "internal" {
			continue
		}
		row, ok := rows[e.Name()]
		if !assert.True(t, ok, "examples/README.md has no row for examples/%s", e.Name()) {
			continue
		}
		program := false
		gofiles, err := filepath.Glob(filepath.Join("examples", e.Name(), "*.go"))
		require.NoError(t, err)
		for _, f := range gofiles {
			b, err := os.ReadFile(f)
			require.NoError(t, err)
			if regexp.MustCompile(`(?m)^package main$`).Match(b) {
				program = true
			}
		}
		notProgram := strings.Contains(row, "not a program") || strings.Contains(row, "not a Go program")
		assert.NotEqual(t, program, notProgram, "examples/%s: package main %v, but the README row says %q", e.Name(), program, row)
	}
}
