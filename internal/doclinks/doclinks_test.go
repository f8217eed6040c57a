package doclinks

import (
	"go/ast"
	"go/doc"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nvmeapst/nvmeapst/internal/testfixture"
)

const modulePath = "github.com/nvmeapst/nvmeapst"

// names is what a package declares at package level: types, functions,
// constants and variables, and "T.M" for the methods and fields of type T.
type names map[string]bool

// loadNames parses the non-test files of the package in dir and returns its
// documentation and names; ok is false when dir holds no Go package.
func loadNames(t *testing.T, dir, importPath string) (*doc.Package, names, bool) {
	t.Helper()
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, false
	}
	var files []*ast.File
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.ParseComments)
		if err != nil {
			t.Fatalf("doclinks: %v", err)
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return nil, nil, false
	}
	p, err := doc.NewFromFiles(fset, files, importPath, doc.PreserveAST)
	if err != nil {
		t.Fatalf("doclinks: %s: %v", dir, err)
	}
	ns := names{}
	addValues := func(vs []*doc.Value) {
		for _, v := range vs {
			for _, n := range v.Names {
				ns[n] = true
			}
		}
	}
	addValues(p.Consts)
	addValues(p.Vars)
	for _, f := range p.Funcs {
		ns[f.Name] = true
	}
	for _, ty := range p.Types {
		ns[ty.Name] = true
		addValues(ty.Consts)
		addValues(ty.Vars)
		for _, f := range ty.Funcs {
			ns[f.Name] = true
		}
		for _, m := range ty.Methods {
			ns[ty.Name+"."+m.Name] = true
		}
		for _, spec := range ty.Decl.Specs {
			ts, ok := spec.(*ast.TypeSpec)
			if !ok {
				continue
			}
			switch tt := ts.Type.(type) {
			case *ast.StructType:
				for _, fld := range tt.Fields.List {
					for _, n := range fld.Names {
						ns[ty.Name+"."+n.Name] = true
					}
				}
			case *ast.InterfaceType:
				for _, m := range tt.Methods.List {
					for _, n := range m.Names {
						ns[ty.Name+"."+n.Name] = true
					}
				}
			}
		}
	}
	return p, ns, true
}

// bracketed matches what a doc link looks like: [Name], [Name.Name],
// [pkg.Name.Name], optionally with a leading *.
// An index expression (x[i], Configs[Config]) or an ALL_CAPS placeholder is
// not taken for one.
var bracketed = regexp.MustCompile(`(^|[^A-Za-z0-9_\]])\[\*?([A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*){0,2})\]`)

var placeholder = regexp.MustCompile(`^[A-Z0-9_]+$`)

func TestDocLinksResolve(t *testing.T) {
	root := filepath.Dir(testfixture.Dir())
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("doclinks: go env GOROOT: %v", err)
	}
	goroot := strings.TrimSpace(string(out))
	cache := map[string]names{}
	resolve := func(importPath string) names {
		if ns, ok := cache[importPath]; ok {
			return ns
		}
		var dir string
		if rest, ok := strings.CutPrefix(importPath, modulePath); ok {
			dir = filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(rest, "/")))
		} else {
			dir = filepath.Join(goroot, "src", filepath.FromSlash(importPath))
		}
		_, ns, _ := loadNames(t, dir, importPath)
		cache[importPath] = ns
		return ns
	}
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if n := d.Name(); path != root && (n == "testdata" || strings.HasPrefix(n, ".")) {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(root, path)
		importPath := modulePath
		if rel != "." {
			importPath += "/" + filepath.ToSlash(rel)
		}
		p, own, ok := loadNames(t, path, importPath)
		if !ok {
			return nil
		}
		cache[importPath] = own
		check := func(where, text string) {
			d := p.Parser().Parse(text)
			var walk func(where string, ts []comment.Text)
			walk = func(where string, ts []comment.Text) {
				for _, x := range ts {
					switch x := x.(type) {
					case *comment.DocLink:
						ns := own
						if x.ImportPath != "" {
							ns = resolve(x.ImportPath)
						}
						name := x.Name
						if x.Recv != "" {
							name = x.Recv + "." + x.Name
						}
						if ns == nil || name != "" && !ns[name] {
							t.Errorf("%s: %s: doc link [%s] does not resolve", rel, where, strings.TrimPrefix(x.ImportPath+"."+name, "."))
						}
					case comment.Plain:
						for _, m := range bracketed.FindAllStringSubmatch(string(x), -1) {
							if !placeholder.MatchString(m[2]) {
								t.Errorf("%s: %s: [%s] looks like a doc link but resolves to nothing", rel, where, m[2])
							}
						}
					case *comment.Link:
						walk(where, x.Text)
					case *comment.Italic:
					}
				}
			}
			for _, b := range d.Content {
				switch b := b.(type) {
				case *comment.Paragraph:
					walk(where, b.Text)
				case *comment.Heading:
					walk(where, b.Text)
				case *comment.List:
					for _, it := range b.Items {
						for _, ib := range it.Content {
							if pb, ok := ib.(*comment.Paragraph); ok {
								walk(where, pb.Text)
							}
						}
					}
				}
			}
		}
		check("package doc", p.Doc)
		vals := func(vs []*doc.Value) {
			for _, v := range vs {
				check(strings.Join(v.Names, ","), v.Doc)
			}
		}
		vals(p.Consts)
		vals(p.Vars)
		for _, f := range p.Funcs {
			check(f.Name, f.Doc)
		}
		for _, ty := range p.Types {
			check(ty.Name, ty.Doc)
			vals(ty.Consts)
			vals(ty.Vars)
			for _, f := range ty.Funcs {
				check(f.Name, f.Doc)
			}
			for _, m := range ty.Methods {
				check(ty.Name+"."+m.Name, m.Doc)
			}
			for _, spec := range ty.Decl.Specs {
				if ts, ok := spec.(*ast.TypeSpec); ok {
					if st, ok := ts.Type.(*ast.StructType); ok {
						for _, fld := range st.Fields.List {
							if fld.Doc != nil && len(fld.Names) > 0 {
								check(ty.Name+"."+fld.Names[0].Name, fld.Doc.Text())
							}
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
