package nvmeapst_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
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

// funcNames returns the top-level functions and methods (as "Type.Name")
// that dirs' Go files define, test files aside, whatever their build tags,
// each with the file that defines it.
func funcNames(t *testing.T, dirs ...string) map[string]string {
	t.Helper()
	names := map[string]string{}
	fset := token.NewFileSet()
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		require.NotEmpty(t, files, "no Go files in %s", dir)
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
			require.NoError(t, err)
			for _, decl := range f.Decls {
				fd, ok := decl.(*ast.FuncDecl)
				if !ok {
					continue
				}
				name := fd.Name.Name
				if fd.Recv != nil && len(fd.Recv.List) == 1 {
					name = recvName(fd.Recv.List[0].Type) + "." + name
				}
				names[name] = file
			}
		}
	}
	return names
}

// recvName is the name of a method's receiver type: T of T, *T, T[P] or *T[P].
func recvName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return "?"
		}
	}
}

// TestNoSharedFunctionNames: no top-level function or method name is
// defined in both the command (examples/apstctl) and the page
// (examples/web, examples/web/app), main and init aside (every program
// has them): code the two share lives in examples/internal, not in two
// copies under one name.
func TestNoSharedFunctionNames(t *testing.T) {
	cmd := funcNames(t, "examples/apstctl")
	page := funcNames(t, "examples/web", "examples/web/app")
	require.Contains(t, cmd, "runCommand", "the parse found the command's functions")
	require.Contains(t, page, "serve", "the parse found the page's functions")
	for name, file := range cmd {
		if name == "main" || name == "init" {
			continue
		}
		if other, ok := page[name]; ok {
			t.Errorf("%s is defined in both %s and %s: move the shared code to examples/internal", name, file, other)
		}
	}
}

// The pure packages a user's program imports, and the page's wasm, link no
// cryptography: crypto/sha256 (which apst/survey/shard needs for a
// survey's identity) brings the FIPS module's initialisation with it, 185
// KB of the page's wasm when apst/survey held the shard codec.
func TestPurePackagesLinkNoCrypto(t *testing.T) {
	if testing.Short() {
		t.Skip("go list of the js/wasm build")
	}
	cmd := exec.Command("go", "list", "-deps", "./powerstate", "./apst", "./apst/analysis", "./apst/survey", "./apst/persist", "./apst/diagnose", "./examples/web/app")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	require.NoError(t, err)
	for _, dep := range strings.Fields(string(out)) {
		assert.False(t, dep == "crypto" || strings.HasPrefix(dep, "crypto/"), "the page's packages link %s", dep)
	}
}

// TestExamplesImportNoInternal: the examples of the public packages
// compile in a user's module, which cannot import this module's internal
// packages (apst/measure's ExampleRun found its fixture through
// internal/testfixture), and call no function of another test file, which
// the documentation's copy of the example (its file's declarations) lacks
// (apst/analysis's ExampleCheck called exampleController of
// example_analysis_test.go).
func TestExamplesImportNoInternal(t *testing.T) {
	fset := token.NewFileSet()
	files := 0
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == "internal" || name == "examples" || name == "testdata" || name == "docs" || strings.HasPrefix(name, ".") && path != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil || !strings.Contains(string(src), "\nfunc Example") {
			return err
		}
		files++
		for _, imp := range f.Imports {
			if p := strings.Trim(imp.Path.Value, `"`); strings.HasPrefix(p, module+"/") && slices.Contains(strings.Split(p, "/"), "internal") {
				t.Errorf("%s: an example imports %s, which a user's module cannot", path, p)
			}
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || !strings.HasPrefix(fd.Name.Name, "Example") {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				// An identifier the file does not declare (no Obj) is a
				// builtin or another file's.
				if call, ok := n.(*ast.CallExpr); ok {
					if id, ok := call.Fun.(*ast.Ident); ok && id.Obj == nil && types.Universe.Lookup(id.Name) == nil {
						t.Errorf("%s: %s calls %s, declared in another file", path, fd.Name.Name, id.Name)
					}
				}
				return true
			})
		}
		return nil
	})
	require.NoError(t, err)
	require.NotZero(t, files, "the walk found the examples")
}
