package zerocheck

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/format"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Module is the import path of the module whose packages Generate reads.
const Module = "github.com/nvmeapst/nvmeapst"

// File is where go run ./internal/tools/zerocalls writes Generate's output,
// relative to the module root.
const File = "internal/zerocheck/zero_calls_test.go"

// skippedDirs are the directories of the module that hold no library
// package: commands, internal packages, data and documentation.
var skippedDirs = map[string]bool{"examples": true, "internal": true, "testdata": true, "docs": true}

// Generate reads the library packages of the module rooted at root (every
// directory outside examples, internal, testdata and docs) and returns the
// Go source of File: one call per exported function and method whose
// receiver or parameters include an exported struct type of the module,
// and the list of those it cannot call, each with its reason. The output is
// gofmt'ed and the same for the same sources.
func Generate(root string) ([]byte, error) {
	m, err := load(root)
	if err != nil {
		return nil, err
	}
	g := &gen{mod: m, imports: map[string]string{}}
	for _, p := range m.pkgs {
		for _, f := range p.funcs {
			g.add(p, f)
		}
	}
	return g.source()
}

// pkg is one library package as Generate sees it.
type pkg struct {
	path  string // import path
	name  string // package clause
	types map[string]*typeDecl
	funcs []*ast.FuncDecl
	// everywhere holds the functions ("F", "T.M") declared in a file built
	// on every GOOS, not only on Linux.
	everywhere map[string]bool
	files      map[*ast.FuncDecl]*ast.File
}

// typeDecl is a type declaration and the file it is in (for its imports).
type typeDecl struct {
	spec *ast.TypeSpec
	file *ast.File
	pkg  *pkg
}

// module is every library package, by import path.
type module struct {
	pkgs   []*pkg
	byPath map[string]*pkg
}

// linux is the build context the generated test is built in; other is
// one more, to find what only Linux has.
var (
	linux = build.Context{GOOS: "linux", GOARCH: "amd64", Compiler: "gc", CgoEnabled: false}
	other = build.Context{GOOS: "darwin", GOARCH: "arm64", Compiler: "gc", CgoEnabled: false}
)

func load(root string) (*module, error) {
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return nil, fmt.Errorf("zerocheck: %w (run it from the module root)", err)
	}
	if first, _, _ := strings.Cut(string(gomod), "\n"); strings.TrimSpace(first) != "module "+Module {
		return nil, fmt.Errorf("zerocheck: %s is not the root of module %s", root, Module)
	}
	m := &module{byPath: map[string]*pkg{}}
	var dirs []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		base := d.Name()
		if rel != "." && (skippedDirs[filepath.ToSlash(rel)] || strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_") || base == "testdata") {
			return filepath.SkipDir
		}
		dirs = append(dirs, rel)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("zerocheck: %w", err)
	}
	for _, rel := range dirs {
		p, err := loadPkg(root, rel)
		if err != nil {
			return nil, err
		}
		if p != nil {
			m.pkgs = append(m.pkgs, p)
			m.byPath[p.path] = p
		}
	}
	if len(m.pkgs) == 0 {
		return nil, fmt.Errorf("zerocheck: no Go package under %s", root)
	}
	return m, nil
}

func loadPkg(root, rel string) (*pkg, error) {
	dir := filepath.Join(root, rel)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("zerocheck: %w", err)
	}
	p := &pkg{path: path.Join(Module, filepath.ToSlash(rel)), types: map[string]*typeDecl{},
		everywhere: map[string]bool{}, files: map[*ast.FuncDecl]*ast.File{}}
	if rel == "." {
		p.path = Module
	}
	fset := token.NewFileSet()
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		onLinux, err := linux.MatchFile(dir, n)
		if err != nil {
			return nil, fmt.Errorf("zerocheck: %w", err)
		}
		if !onLinux {
			continue
		}
		elsewhere, err := other.MatchFile(dir, n)
		if err != nil {
			return nil, fmt.Errorf("zerocheck: %w", err)
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("zerocheck: %w", err)
		}
		if p.name == "" {
			p.name = f.Name.Name
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				if d.Tok != token.TYPE {
					continue
				}
				for _, s := range d.Specs {
					ts := s.(*ast.TypeSpec)
					p.types[ts.Name.Name] = &typeDecl{spec: ts, file: f, pkg: p}
				}
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				if elsewhere {
					p.everywhere[funcName(d)] = true
				}
				p.funcs = append(p.funcs, d)
				p.files[d] = f
			}
		}
	}
	if p.name == "" || p.name == "main" {
		return nil, nil
	}
	slices.SortStableFunc(p.funcs, func(a, b *ast.FuncDecl) int { return strings.Compare(funcName(a), funcName(b)) })
	return p, nil
}

// funcName is "F" or "T.M".
func funcName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	return recvBase(d.Recv.List[0].Type) + "." + d.Name.Name
}

// recvBase is the receiver's type name, without * and type parameters.
func recvBase(t ast.Expr) string {
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch x := t.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.IndexExpr:
		return recvBase(x.X)
	case *ast.IndexListExpr:
		return recvBase(x.X)
	}
	return "?"
}

// call is one generated call.
type call struct {
	name string // "persist.Render", "persist.Scope.Validate"
	body string // the statements of the call's func literal
}

// skip is a function Generate lists but cannot call.
type skip struct {
	name, why string
}

type gen struct {
	mod     *module
	imports map[string]string // import path to the name it is used by
	calls   []call
	skips   []skip
	// usesNoop: a function argument returns errNoop, which the file then
	// declares.
	usesNoop bool
}

// errSkip is wrapped by the reasons a function cannot be called.
var errSkip = errors.New("cannot call")

func (g *gen) add(p *pkg, d *ast.FuncDecl) {
	// What writing the values of a function that is not called would have
	// imported or declared is undone.
	imports, usesNoop, calls := maps.Clone(g.imports), g.usesNoop, len(g.calls)
	defer func() {
		if len(g.calls) == calls {
			g.imports, g.usesNoop = imports, usesNoop
		}
	}()
	name := p.name + "." + funcName(d)
	file := p.files[d]
	hasStruct := false
	var recv string
	if d.Recv != nil {
		rt := d.Recv.List[0].Type
		ptr := false
		if s, ok := rt.(*ast.StarExpr); ok {
			rt, ptr = s.X, true
		}
		id, ok := rt.(*ast.Ident)
		if !ok {
			if _, isIdx := rt.(*ast.IndexExpr); isIdx || isIndexList(rt) {
				if g.mentionsStruct(p, file, d) {
					g.skips = append(g.skips, skip{name, "a method of a generic type"})
				}
			}
			return
		}
		if !id.IsExported() {
			return
		}
		td := p.types[id.Name]
		if td == nil {
			return
		}
		if g.isStruct(td) {
			hasStruct = true
		}
		v, err := g.recvValue(td, ptr)
		if err != nil {
			if hasStruct || g.mentionsStruct(p, file, d) {
				g.skips = append(g.skips, skip{name, err.Error()})
			}
			return
		}
		recv = v
	}
	if !hasStruct && !g.mentionsStruct(p, file, d) {
		return
	}
	if d.Type.TypeParams != nil {
		g.skips = append(g.skips, skip{name, "generic: a zero value needs its type arguments chosen"})
		return
	}
	if !p.everywhere[funcName(d)] {
		g.skips = append(g.skips, skip{name, "declared only in files built on Linux"})
		return
	}
	args, err := g.args(p, file, d.Type.Params)
	if err != nil {
		g.skips = append(g.skips, skip{name, err.Error()})
		return
	}
	fn := g.use(p) + "." + d.Name.Name
	if recv != "" {
		fn = recv + "." + d.Name.Name
	}
	expr := fn + "(" + strings.Join(args, ", ") + ")"
	var body string
	switch {
	case d.Type.Results == nil || len(d.Type.Results.List) == 0:
		body = expr + "\nreturn nil"
	case g.isSeqResult(file, d.Type.Results):
		body = "for range " + expr + " {\n}\nreturn nil"
	default:
		body = "return results(" + expr + ")"
	}
	g.calls = append(g.calls, call{name: name, body: body})
}

// recvValue is the receiver of a call: T{} or (&T{}) for a struct,
// new(T) or (*new(T)) for another type.
func (g *gen) recvValue(td *typeDecl, ptr bool) (string, error) {
	if g.isStruct(td) {
		v, err := g.zeroNamed(td, ptr)
		if ptr {
			v = "(" + v + ")"
		}
		return v, err
	}
	if _, err := g.zeroNamed(td, false); err != nil {
		return "", err
	}
	q := g.use(td.pkg) + "." + td.spec.Name.Name
	if ptr {
		return "new(" + q + ")", nil
	}
	return "(*new(" + q + "))", nil
}

func isIndexList(e ast.Expr) bool { _, ok := e.(*ast.IndexListExpr); return ok }

// isSeqResult reports whether the results are one iter.Seq or iter.Seq2,
// which the call ranges over so that the iterator's body runs too.
func (g *gen) isSeqResult(file *ast.File, res *ast.FieldList) bool {
	if len(res.List) != 1 || len(res.List[0].Names) > 1 {
		return false
	}
	var x ast.Expr
	switch t := res.List[0].Type.(type) {
	case *ast.IndexExpr:
		x = t.X
	case *ast.IndexListExpr:
		x = t.X
	default:
		return false
	}
	sel, ok := x.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && importPath(file, id.Name) == "iter" && (sel.Sel.Name == "Seq" || sel.Sel.Name == "Seq2")
}

// mentionsStruct reports whether a parameter of d is an exported struct
// type of the module, by value or pointer (variadic included).
func (g *gen) mentionsStruct(p *pkg, file *ast.File, d *ast.FuncDecl) bool {
	for _, f := range d.Type.Params.List {
		t := f.Type
		if e, ok := t.(*ast.Ellipsis); ok {
			t = e.Elt
		}
		if s, ok := t.(*ast.StarExpr); ok {
			t = s.X
		}
		if td := g.lookup(p, file, t); td != nil && td.spec.Name.IsExported() && g.isStruct(td) {
			return true
		}
	}
	return false
}

// lookup finds the module type a type expression names, or nil.
func (g *gen) lookup(p *pkg, file *ast.File, t ast.Expr) *typeDecl {
	switch x := t.(type) {
	case *ast.Ident:
		return p.types[x.Name]
	case *ast.SelectorExpr:
		id, ok := x.X.(*ast.Ident)
		if !ok {
			return nil
		}
		q := g.mod.byPath[importPath(file, id.Name)]
		if q == nil {
			return nil
		}
		return q.types[x.Sel.Name]
	}
	return nil
}

// isStruct reports whether td is a struct type (through aliases).
func (g *gen) isStruct(td *typeDecl) bool {
	for range 8 {
		if td.spec.TypeParams != nil {
			return false
		}
		if _, ok := td.spec.Type.(*ast.StructType); ok {
			return true
		}
		if !td.spec.Assign.IsValid() {
			return false
		}
		next := g.lookup(td.pkg, td.file, td.spec.Type)
		if next == nil {
			return false
		}
		td = next
	}
	return false
}

// importPath is the path of the import a file names name, "" if none.
func importPath(f *ast.File, name string) string {
	for _, im := range f.Imports {
		p := strings.Trim(im.Path.Value, `"`)
		n := path.Base(p)
		if strings.HasPrefix(n, "v") && strings.Count(p, "/") > 0 && isDigits(n[1:]) {
			n = path.Base(path.Dir(p))
		}
		if im.Name != nil {
			n = im.Name.Name
		}
		if n == name {
			return p
		}
	}
	return ""
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// use records that the generated file imports p and returns its name there.
func (g *gen) use(p *pkg) string {
	g.imports[p.path] = p.name
	return p.name
}

func (g *gen) source() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("// Code generated by go run ./internal/tools/zerocalls; DO NOT EDIT.\n\n")
	b.WriteString("package zerocheck_test\n\nimport (\n")
	paths := make([]string, 0, len(g.imports))
	for p := range g.imports {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, module := range []bool{false, true} {
		for _, p := range paths {
			if (p == Module || strings.HasPrefix(p, Module+"/")) != module {
				continue
			}
			if stdName(p) != g.imports[p] {
				fmt.Fprintf(&b, "%s %q\n", g.imports[p], p)
			} else {
				fmt.Fprintf(&b, "%q\n", p)
			}
		}
		if !module {
			b.WriteString("\n")
		}
	}
	b.WriteString(")\n\n")
	if g.usesNoop {
		b.WriteString("// errNoop is the error the function arguments below return.\n")
		b.WriteString("var errNoop = errors.New(\"zerocheck: a function argument that does nothing\")\n\n")
	}
	b.WriteString("// zeroCalls calls each exported function and method of the library whose\n")
	b.WriteString("// receiver or parameters include an exported struct type, with zero values.\n")
	b.WriteString("var zeroCalls = []zeroCall{\n")
	for _, c := range g.calls {
		fmt.Fprintf(&b, "{%q, func() []any {\n%s\n}},\n", c.name, c.body)
	}
	b.WriteString("}\n\n")
	b.WriteString("// zeroSkipped lists the functions that take such a type but are not called,\n")
	b.WriteString("// each with its reason.\n")
	b.WriteString("var zeroSkipped = []zeroSkip{\n")
	for _, s := range g.skips {
		fmt.Fprintf(&b, "{%q, %q},\n", s.name, s.why)
	}
	b.WriteString("}\n")
	out, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("zerocheck: generated source: %w\n%s", err, b.Bytes())
	}
	return out, nil
}
