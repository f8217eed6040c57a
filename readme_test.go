package nvmeapst_test

import (
	"os"
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
