package testfixture

import (
	"os"
	"strings"
	"testing"
)

// GoldenLines compares got with the golden file at path line by line, so
// that a failure shows the lines that changed rather than two whole files;
// with update it first rewrites the file with got. rewrite says how to
// rewrite it ("go test ./pkg -run TestX -update"), for the failure's
// message. It stops at the first line that differs when stopFirst is set.
func GoldenLines(tb testing.TB, path, got string, update bool, rewrite string, stopFirst bool) {
	tb.Helper()
	if update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			tb.Fatalf("testfixture: %v", err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("testfixture: %v (%s writes it)", err, rewrite)
	}
	g, w := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	for i := range max(len(g), len(w)) {
		a, b := "", ""
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			tb.Errorf("line %d of %s:\n  want %q\n  got  %q\n(%s rewrites it; read the diff)", i+1, path, b, a, rewrite)
			if stopFirst {
				return
			}
		}
	}
}
