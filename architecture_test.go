package nvmeapst_test

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const module = "github.com/nvmeapst/nvmeapst"

// impure are the standard packages a pure package may not import.
var impure = []string{"os", "net", "syscall", "os/exec", "os/signal", "io/fs"}

// archRule is one row of docs/architecture.md's import table.
type archRule struct {
	pure    bool
	any     bool
	allowed []string
	denied  []string
}

// archRules reads the import table of docs/architecture.md.
func archRules(t *testing.T) map[string]archRule {
	b, err := os.ReadFile("docs/architecture.md")
	require.NoError(t, err)
	_, table, ok := strings.Cut(string(b), "## Import rules")
	require.True(t, ok)
	rules := map[string]archRule{}
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 5 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		name := strings.Trim(strings.Fields(cells[1])[0], "`")
		r := archRule{pure: strings.TrimSpace(cells[2]) == "pure"}
		deps := strings.TrimSpace(cells[3])
		switch {
		case deps == "any":
			r.any = true
		case strings.HasPrefix(deps, "any but "):
			r.any = true
			for _, d := range strings.Split(strings.TrimPrefix(deps, "any but "), ",") {
				r.denied = append(r.denied, strings.Trim(strings.Fields(d)[0], "`"))
			}
		case deps != "":
			for _, d := range strings.Split(deps, ",") {
				r.allowed = append(r.allowed, strings.Trim(strings.TrimSpace(d), "`"))
			}
		}
		rules[name] = r
	}
	require.NotEmpty(t, rules)
	return rules
}

// rel is a module import path relative to the module ("." for the root).
func rel(path string) string {
	if path == module {
		return "."
	}
	return strings.TrimPrefix(path, module+"/")
}

// TestArchitecture: every package's imports keep the rules of
// docs/architecture.md, as go list shows them.
func TestArchitecture(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}:{{join .Imports " "}}`, "./...").Output()
	require.NoError(t, err)
	rules := archRules(t)
	seen := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, imports, _ := strings.Cut(line, ":")
		name := rel(path)
		seen[name] = true
		r, ok := rules[name]
		if !assert.True(t, ok, "%s has no row in docs/architecture.md's import table", name) {
			continue
		}
		for _, imp := range strings.Fields(imports) {
			if r.pure {
				assert.False(t, slices.Contains(impure, imp), "%s is pure but imports %s", name, imp)
			}
			if !strings.HasPrefix(imp, module) {
				continue
			}
			dep := rel(imp)
			switch {
			case r.any:
				assert.False(t, slices.Contains(r.denied, dep), "%s imports %s, which its row denies", name, dep)
			default:
				assert.True(t, slices.Contains(r.allowed, dep), "%s imports %s, which its row in docs/architecture.md does not allow", name, dep)
			}
		}
	}
	for name := range rules {
		assert.True(t, seen[name], "docs/architecture.md has a row for %s, which go list does not know", name)
	}
}

// TestEveryPackageListed: the README's package table and the root
// package's doc name every package outside internal/ and examples/.
func TestEveryPackageListed(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "./...").Output()
	require.NoError(t, err)
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	doc, err := os.ReadFile("doc.go")
	require.NoError(t, err)
	for _, path := range strings.Fields(string(out)) {
		name := rel(path)
		if name == "." || strings.HasPrefix(name, "internal/") || strings.HasPrefix(name, "examples/") {
			continue
		}
		assert.Contains(t, string(readme), "| `"+name+"`", "README.md's package table lists %s", name)
		assert.Contains(t, string(doc), name, "doc.go names %s", name)
	}
}
