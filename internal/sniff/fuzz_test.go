package sniff_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/nvmeapst/nvmeapst/internal/sniff"
)

// FuzzOf: whatever the input, Of tells one kind and never panics; Looks
// says nothing of the kind a command reads itself, and something of any
// other kind it tells.
func FuzzOf(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(""))
	f.Add([]byte("{\"recommended_us\": 1}"))
	f.Fuzz(func(t *testing.T, b []byte) {
		k := sniff.Of(b)
		if k != sniff.Unknown && (k.String() == "" || k.Reader() == "") {
			t.Fatalf("kind %d has no name or no reader", k)
		}
		if got := sniff.Looks(b, k); got != "" {
			t.Fatalf("Looks(b, %v) = %q: a command's own kind is said nothing of", k, got)
		}
		if k != sniff.Unknown && sniff.Looks(b) == "" {
			t.Fatalf("Of says %v but Looks says nothing", k)
		}
		if shape := sniff.Shape(b); k != sniff.Unknown && shape != "" {
			t.Fatalf("Of says %v and Shape says %q", k, shape)
		}
	})
}
