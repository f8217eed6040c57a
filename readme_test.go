package nvmeapst_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReadmeExample: the README's Go code block is the body of
// Example_readme, which go test runs and whose output it checks, so the
// README's example compiles and prints the kernel's answer.
func TestReadmeExample(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	_, block, ok := strings.Cut(string(readme), "## Example\n")
	require.True(t, ok, "README.md has no ## Example")
	_, block, ok = strings.Cut(block, "```go\n")
	require.True(t, ok, "README.md has no ```go block under ## Example")
	block, _, ok = strings.Cut(block, "```")
	require.True(t, ok)

	src, err := os.ReadFile("readme_example_test.go")
	require.NoError(t, err)
	_, body, ok := strings.Cut(string(src), "func Example_readme() {\n")
	require.True(t, ok)
	body, _, ok = strings.Cut(body, "\t// Output:")
	require.True(t, ok)
	var lines []string
	for _, l := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
		lines = append(lines, strings.TrimPrefix(l, "\t"))
	}
	require.Equal(t, strings.Join(lines, "\n")+"\n", block, "README.md's Go example must be Example_readme's body")
}

// TestReadmeScreenshotsPath: the README's -screenshots path is relative to
// examples/web, where go test runs the browser test, and names docs/web
// from there (docs/web given as is would write to examples/web/docs/web).
func TestReadmeScreenshotsPath(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	_, rest, ok := strings.Cut(string(readme), "`-screenshots ")
	require.True(t, ok, "README.md no longer names -screenshots")
	dir, _, ok := strings.Cut(rest, "`")
	require.True(t, ok)
	require.Equal(t, filepath.Join("docs", "web"), filepath.Join("examples", "web", dir))
	fi, err := os.Stat(filepath.Join("examples", "web", dir))
	require.NoError(t, err)
	require.True(t, fi.IsDir())
}

// TestReadmeTestBinaries: the number of test binaries the README says a
// first go test ./... compiles is the number of packages with tests.
func TestReadmeTestBinaries(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	m := regexp.MustCompile(`and (\d+) test binaries:`).FindSubmatch(readme)
	require.NotNil(t, m, "README.md no longer says how many test binaries go test ./... compiles")
	dirs := map[string]bool{}
	require.NoError(t, filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "." && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), "_test.go") {
			dirs[filepath.Dir(path)] = true
		}
		return nil
	}))
	require.Equal(t, strconv.Itoa(len(dirs)), string(m[1]), "packages with tests: update the README's count (and its figures)")
}
