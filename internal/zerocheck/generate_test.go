package zerocheck_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/internal/zerocheck"
)

// writeModule writes a module of files (path: content) under a temporary
// directory and returns it.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	files["go.mod"] = "module " + zerocheck.Module + "\n\ngo 1.26.0\n"
	for p, s := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		require.NoError(t, os.MkdirAll(filepath.Dir(full), 0o755))
		require.NoError(t, os.WriteFile(full, []byte(s), 0o644))
	}
	return root
}

// Generate calls what takes a struct, with the values its doc promises,
// and lists what it cannot call with the reason.
func TestGenerate(t *testing.T) {
	root := writeModule(t, map[string]string{
		"a/a.go": `package a

import (
	"context"
	"io"
	"iter"
)

type S struct{ N int }
type Kind uint8
type Name string
type Source interface{ Next() error }
type Hook func(ctx context.Context, n int) (string, error)
type G[T any] struct{ v T }
type Alias = S
type hidden struct{}

func (s S) Value(k Kind, n Name) int                  { return 0 }
func (s *S) Pointer(ctx context.Context, r io.Reader) {}
func Take(p *S, w io.Writer, src Source, h Hook) error  { return nil }
func Many(xs ...S) int                                { return len(xs) }
func Others(xs ...int) int                            { return len(xs) }
func Seq(s S, in iter.Seq2[S, error]) iter.Seq[int]   { return nil }
func ByAlias(a Alias)                                 {}
func Generic[T any](s S, v T)                         {}
func (g G[T]) Method(s S)                             {}
func Hidden(s S, h hidden)                            {}
func NoStruct(n int) int                              { return n }
func (k Kind) String() string                         { return "" }
func (k Kind) With(s S) Kind                          { return k }
`,
		"a/a_linux.go":    "package a\n\nfunc OnLinux(s S) {}\n",
		"a/a_test.go":     "package a\n\nfunc TestOnly(s S) {}\n",
		"internal/i/i.go": "package i\n\ntype T struct{}\n\nfunc F(t T) {}\n",
		"examples/e/e.go": "package main\n\ntype T struct{}\n\nfunc F(t T) {}\n",
	})
	src, err := zerocheck.Generate(root)
	require.NoError(t, err)
	out := string(src)
	for _, want := range []string{
		`return results(a.S{}.Value(a.Kind(0), a.Name("")))`,
		`(&a.S{}).Pointer(context.Background(), strings.NewReader(""))`,
		`return results(a.Take(&a.S{}, io.Discard, nil, func(context.Context, int) (r0 string, r1 error) {`,
		`r1 = errNoop`,
		`return results(a.Many(a.S{}))`,
		`for range a.Seq(a.S{}, func(func(a.S, error) bool) {}) {`,
		`a.ByAlias(a.S{})`,
		`return results((*new(a.Kind)).With(a.S{}))`,
		`{"a.Generic", "generic: a zero value needs its type arguments chosen"}`,
		`{"a.G.Method", "a method of a generic type"}`,
		`{"a.Hidden", "cannot call: unexported type a.hidden"}`,
		`{"a.OnLinux", "declared only in files built on Linux"}`,
		`var errNoop = errors.New(`,
	} {
		assert.Contains(t, out, want)
	}
	for _, not := range []string{"a.Others", "a.NoStruct", "a.Kind.String", "TestOnly", "i.F", "package main"} {
		assert.NotContains(t, out, not)
	}
}

// Generate refuses a directory that is not the module's root.
func TestGenerateNotModuleRoot(t *testing.T) {
	_, err := zerocheck.Generate(t.TempDir())
	require.Error(t, err)
	assert.Regexp(t, `^zerocheck: `, err.Error())
}

// A function that is not called leaves no import or declaration behind:
// the generated file compiles without unused ones.
func TestGenerateNoLeftovers(t *testing.T) {
	root := writeModule(t, map[string]string{
		"b/b.go": `package b

import "context"

type S struct{}
type OpenFunc func(ctx context.Context) error

func (f OpenFunc) Open(ctx context.Context) error { return f(ctx) }
func Use(s S) {}
`,
	})
	src, err := zerocheck.Generate(root)
	require.NoError(t, err)
	out := string(src)
	assert.Contains(t, out, "b.Use(b.S{})")
	assert.NotContains(t, out, "errNoop")
	assert.NotContains(t, out, `"context"`)
}
