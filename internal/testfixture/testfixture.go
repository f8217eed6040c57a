// Package testfixture locates the test data that several packages of the
// module share: the corpus of captures, the Identify Controller images, the
// sysfs tree and the bundle, all under testdata/ at the module root.
//
// Golden cases and fuzz corpora stay with the package they belong to; only
// what more than one package reads lives here, so that a fixture exists once.
// Paths are found from this file's location, so tests may run from any
// package directory. It is for tests only.
package testfixture

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Identify Controller images (4096 bytes) under testdata/identify.
const (
	// Samsung990EVOPlus is a Samsung SSD 990 EVO Plus 1TB, firmware 2B2QKXG7.
	Samsung990EVOPlus = "identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin"
	// IntelSSDPEKKW256G7 is an Intel 600p SSDPEKKW256G7, firmware PSF109C
	// (PCI ID 8086:f1a5, NO_DEEPEST_PS in the kernel's PCI table).
	IntelSSDPEKKW256G7 = "identify/intel-ssdpekkw256g7-PSF109C.bin"
	// SKhynixPC401 is an SK hynix PC401 512GB image from the corpus.
	SKhynixPC401 = "corpus/binary/synthetic/SKhynix_PC401_NVMe_512GB_80003E00.id-ctrl.bin"
)

// Dir returns the absolute path of the module's testdata directory.
func Dir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		panic("testfixture: cannot locate the module's testdata directory")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata")
}

// Path returns the absolute path of rel, a slash-separated path under the
// module's testdata directory.
func Path(rel string) string { return filepath.Join(Dir(), filepath.FromSlash(rel)) }

// ReadFile returns the contents of rel under the module's testdata
// directory, failing the test when it cannot be read.
func ReadFile(tb testing.TB, rel string) []byte {
	tb.Helper()
	b, err := os.ReadFile(Path(rel))
	if err != nil {
		tb.Fatalf("testfixture: %v", err)
	}
	return b
}

// Glob returns the paths under the module's testdata directory that match
// pattern (slash-separated, relative to testdata), sorted; it fails the test
// when none does.
func Glob(tb testing.TB, pattern string) []string {
	tb.Helper()
	paths, err := filepath.Glob(Path(pattern))
	if err != nil || len(paths) == 0 {
		tb.Fatalf("testfixture: no file matches %s (%v)", pattern, err)
	}
	return paths
}

// SmartctlReports returns the number of real smartctl reports in the
// corpus: the rows of testdata/corpus/smartctl/MANIFEST.tsv after its
// header, so that adding a report (its file and its row) needs no change in
// any test.
func SmartctlReports(tb testing.TB) int {
	tb.Helper()
	b := ReadFile(tb, "corpus/smartctl/MANIFEST.tsv")
	n := 0
	for i, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if i > 0 && strings.TrimSpace(l) != "" {
			n++
		}
	}
	if n == 0 {
		tb.Fatal("testfixture: corpus/smartctl/MANIFEST.tsv lists no report")
	}
	return n
}

// CopyTree copies the directory tree at dir (a fixture sysfs tree or
// bundle: Path("sys"), or a package's own testdata tree) into a fresh
// directory of tb.TempDir() named as dir's last element, keeping symbolic
// links as links, and returns the copy's root. Tests that write, or that
// break a file, do it on the copy so that the fixtures stay untouched.
func CopyTree(tb testing.TB, dir string) string {
	tb.Helper()
	dst := filepath.Join(tb.TempDir(), filepath.Base(dir))
	if err := os.CopyFS(dst, os.DirFS(dir)); err != nil {
		tb.Fatalf("testfixture: copy %s: %v", dir, err)
	}
	return dst
}
