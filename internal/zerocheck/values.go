package zerocheck

import (
	"fmt"
	"go/ast"
	"path"
	"strconv"
	"strings"
)

// stdValues are the arguments given for types of the standard library:
// values a caller would pass that do nothing (an empty reader, a writer
// that discards), so that what a call does is what its zero struct makes
// it do.
var stdValues = map[string]string{
	"context.Context":    "context.Background()",
	"io.Reader":          `strings.NewReader("")`,
	"io.Writer":          "io.Discard",
	"io.ReadCloser":      `io.NopCloser(strings.NewReader(""))`,
	"io.ReaderAt":        `strings.NewReader("")`,
	"time.Duration":      "time.Duration(0)",
	"time.Time":          "time.Time{}",
	"*math/rand.Rand":    "rand.New(rand.NewSource(1))",
	"*math/rand/v2.Rand": "rand.New(rand.NewPCG(1, 2))",
}

// stdImports are the packages the values of stdValues use.
var stdImports = map[string][]string{
	"context.Context":    {"context"},
	"io.Reader":          {"strings"},
	"io.Writer":          {"io"},
	"io.ReadCloser":      {"io", "strings"},
	"io.ReaderAt":        {"strings"},
	"time.Duration":      {"time"},
	"time.Time":          {"time"},
	"*math/rand.Rand":    {"math/rand"},
	"*math/rand/v2.Rand": {"math/rand/v2"},
}

// builtinZero is the zero value of the predeclared types.
func builtinZero(name string) (string, bool) {
	switch name {
	case "string":
		return `""`, true
	case "bool":
		return "false", true
	case "error", "any":
		return "nil", true
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64",
		"uintptr", "byte", "rune", "float32", "float64", "complex64", "complex128":
		return "0", true
	}
	return "", false
}

// args returns one argument per parameter: a zero struct (a pointer to
// one for *T, one for a variadic ...T), and the values of value otherwise;
// a variadic parameter of another type gets no argument.
func (g *gen) args(p *pkg, file *ast.File, params *ast.FieldList) ([]string, error) {
	var out []string
	for _, f := range params.List {
		n := max(len(f.Names), 1)
		t := f.Type
		if e, ok := t.(*ast.Ellipsis); ok {
			td := g.lookup(p, file, e.Elt)
			if td == nil || !g.isStruct(td) {
				continue
			}
			t = e.Elt
		}
		v, err := g.value(p, file, t)
		if err != nil {
			return nil, err
		}
		for range n {
			out = append(out, v)
		}
	}
	return out, nil
}

// value is the expression given for an argument of type t, written in
// file of package p.
func (g *gen) value(p *pkg, file *ast.File, t ast.Expr) (string, error) {
	switch x := t.(type) {
	case *ast.Ident:
		if v, ok := builtinZero(x.Name); ok && p.types[x.Name] == nil {
			return v, nil
		}
		td := p.types[x.Name]
		if td == nil {
			return "", fmt.Errorf("%w: unknown type %s", errSkip, x.Name)
		}
		return g.zeroNamed(td, false)
	case *ast.SelectorExpr:
		if td := g.lookup(p, file, x); td != nil {
			return g.zeroNamed(td, false)
		}
		return g.std(file, x, false)
	case *ast.StarExpr:
		if td := g.lookup(p, file, x.X); td != nil {
			return g.zeroNamed(td, true)
		}
		if sel, ok := x.X.(*ast.SelectorExpr); ok {
			return g.std(file, sel, true)
		}
		return "", fmt.Errorf("%w: no value for a pointer to a builtin type", errSkip)
	case *ast.ArrayType:
		if x.Len == nil {
			return "nil", nil
		}
		ts, err := g.typeString(p, file, x)
		if err != nil {
			return "", err
		}
		return ts + "{}", nil
	case *ast.MapType, *ast.ChanType, *ast.InterfaceType:
		return "nil", nil
	case *ast.FuncType:
		return g.funcLit(p, file, x)
	case *ast.IndexExpr, *ast.IndexListExpr:
		return g.seqLit(p, file, x)
	}
	return "", fmt.Errorf("%w: no value for a parameter of type %T", errSkip, t)
}

// std is the value of stdValues for a type of the standard library.
func (g *gen) std(file *ast.File, sel *ast.SelectorExpr, ptr bool) (string, error) {
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return "", fmt.Errorf("%w: unexpected type expression", errSkip)
	}
	ip := importPath(file, id.Name)
	key := path.Base(ip) + "." + sel.Sel.Name
	if ptr {
		key = "*" + ip + "." + sel.Sel.Name
	}
	v, ok := stdValues[key]
	if !ok {
		return "", fmt.Errorf("%w: no value for %s (add one to stdValues)", errSkip, key)
	}
	for _, im := range stdImports[key] {
		g.imports[im] = stdName(im)
	}
	return v, nil
}

// stdName is the name a standard library package is used by.
func stdName(p string) string {
	if b := path.Base(p); strings.HasPrefix(b, "v") && isDigits(b[1:]) {
		return path.Base(path.Dir(p))
	}
	return path.Base(p)
}

// zeroNamed is the zero value of the module's type td (through aliases):
// T{} for a struct, a pointer to one when ptr, a no-op function for a
// function type, nil for an interface, T(0) and the like for the others.
func (g *gen) zeroNamed(td *typeDecl, ptr bool) (string, error) {
	if !td.spec.Name.IsExported() {
		return "", fmt.Errorf("%w: unexported type %s.%s", errSkip, td.pkg.name, td.spec.Name.Name)
	}
	if td.spec.TypeParams != nil {
		return "", fmt.Errorf("%w: generic type %s.%s", errSkip, td.pkg.name, td.spec.Name.Name)
	}
	q := g.use(td.pkg) + "." + td.spec.Name.Name
	if ptr {
		if g.isStruct(td) {
			return "&" + q + "{}", nil
		}
		return "new(" + q + ")", nil
	}
	u := td.spec.Type
	if td.spec.Assign.IsValid() {
		if next := g.lookup(td.pkg, td.file, u); next != nil {
			return g.zeroNamed(next, false)
		}
	}
	switch x := u.(type) {
	case *ast.StructType:
		return q + "{}", nil
	case *ast.InterfaceType:
		return "nil", nil
	case *ast.FuncType:
		return g.funcLit(td.pkg, td.file, x)
	case *ast.Ident:
		if v, ok := builtinZero(x.Name); ok && v != "nil" {
			if v == `""` || v == "false" {
				return q + "(" + v + ")", nil
			}
			return q + "(0)", nil
		}
	}
	return "*new(" + q + ")", nil
}

// funcLit is a function literal of type ft that does nothing: its results
// are zero, the last one an error saying so when it is an error.
func (g *gen) funcLit(p *pkg, file *ast.File, ft *ast.FuncType) (string, error) {
	var ps []string
	for _, f := range ft.Params.List {
		ts, err := g.typeString(p, file, f.Type)
		if err != nil {
			return "", err
		}
		for range max(len(f.Names), 1) {
			ps = append(ps, ts)
		}
	}
	var rs []string
	if ft.Results != nil {
		for _, f := range ft.Results.List {
			ts, err := g.typeString(p, file, f.Type)
			if err != nil {
				return "", err
			}
			for range max(len(f.Names), 1) {
				rs = append(rs, "r"+strconv.Itoa(len(rs))+" "+ts)
			}
		}
	}
	s := "func(" + strings.Join(ps, ", ") + ")"
	if len(rs) == 0 {
		return s + " {}", nil
	}
	body := "return"
	if last := rs[len(rs)-1]; strings.HasSuffix(last, " error") {
		body = strings.Fields(last)[0] + " = errNoop\nreturn"
		g.usesNoop = true
		g.imports["errors"] = "errors"
	}
	return s + " (" + strings.Join(rs, ", ") + ") {\n" + body + "\n}", nil
}

// seqLit is an empty iter.Seq or iter.Seq2.
func (g *gen) seqLit(p *pkg, file *ast.File, t ast.Expr) (string, error) {
	var x ast.Expr
	var targs []ast.Expr
	switch v := t.(type) {
	case *ast.IndexExpr:
		x, targs = v.X, []ast.Expr{v.Index}
	case *ast.IndexListExpr:
		x, targs = v.X, v.Indices
	}
	sel, ok := x.(*ast.SelectorExpr)
	if !ok {
		return "", fmt.Errorf("%w: an instantiated generic type of the module", errSkip)
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok || importPath(file, id.Name) != "iter" {
		return "", fmt.Errorf("%w: an instantiated generic type", errSkip)
	}
	var ts []string
	for _, a := range targs {
		s, err := g.typeString(p, file, a)
		if err != nil {
			return "", err
		}
		ts = append(ts, s)
	}
	return "func(func(" + strings.Join(ts, ", ") + ") bool) {}", nil
}

// typeString writes type t of file in package p as the generated file
// names it.
func (g *gen) typeString(p *pkg, file *ast.File, t ast.Expr) (string, error) {
	switch x := t.(type) {
	case *ast.Ident:
		if td := p.types[x.Name]; td != nil {
			if !x.IsExported() {
				return "", fmt.Errorf("%w: unexported type %s.%s", errSkip, p.name, x.Name)
			}
			return g.use(p) + "." + x.Name, nil
		}
		return x.Name, nil
	case *ast.SelectorExpr:
		id, ok := x.X.(*ast.Ident)
		if !ok {
			break
		}
		ip := importPath(file, id.Name)
		if q := g.mod.byPath[ip]; q != nil {
			return g.use(q) + "." + x.Sel.Name, nil
		}
		if ip == "" {
			break
		}
		g.imports[ip] = stdName(ip)
		return stdName(ip) + "." + x.Sel.Name, nil
	case *ast.StarExpr:
		s, err := g.typeString(p, file, x.X)
		return "*" + s, err
	case *ast.ArrayType:
		s, err := g.typeString(p, file, x.Elt)
		if err != nil {
			return "", err
		}
		if x.Len == nil {
			return "[]" + s, nil
		}
		if l, ok := x.Len.(*ast.BasicLit); ok {
			return "[" + l.Value + "]" + s, nil
		}
		return "", fmt.Errorf("%w: an array whose length is a constant", errSkip)
	case *ast.Ellipsis:
		s, err := g.typeString(p, file, x.Elt)
		return "..." + s, err
	case *ast.MapType:
		k, err := g.typeString(p, file, x.Key)
		if err != nil {
			return "", err
		}
		v, err := g.typeString(p, file, x.Value)
		return "map[" + k + "]" + v, err
	case *ast.InterfaceType:
		if x.Methods == nil || len(x.Methods.List) == 0 {
			return "any", nil
		}
	case *ast.FuncType:
		var ps, rs []string
		for _, f := range x.Params.List {
			s, err := g.typeString(p, file, f.Type)
			if err != nil {
				return "", err
			}
			for range max(len(f.Names), 1) {
				ps = append(ps, s)
			}
		}
		if x.Results != nil {
			for _, f := range x.Results.List {
				s, err := g.typeString(p, file, f.Type)
				if err != nil {
					return "", err
				}
				for range max(len(f.Names), 1) {
					rs = append(rs, s)
				}
			}
		}
		s := "func(" + strings.Join(ps, ", ") + ")"
		switch len(rs) {
		case 0:
		case 1:
			s += " " + rs[0]
		default:
			s += " (" + strings.Join(rs, ", ") + ")"
		}
		return s, nil
	case *ast.IndexExpr:
		b, err := g.typeString(p, file, x.X)
		if err != nil {
			return "", err
		}
		a, err := g.typeString(p, file, x.Index)
		return b + "[" + a + "]", err
	case *ast.IndexListExpr:
		b, err := g.typeString(p, file, x.X)
		if err != nil {
			return "", err
		}
		var as []string
		for _, i := range x.Indices {
			a, err := g.typeString(p, file, i)
			if err != nil {
				return "", err
			}
			as = append(as, a)
		}
		return b + "[" + strings.Join(as, ", ") + "]", nil
	}
	return "", fmt.Errorf("%w: a parameter of type %T", errSkip, t)
}
