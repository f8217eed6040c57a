package sysfs

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst"
)

// toleranceString draws strings close to what users type: numbers in every
// base the kernel detects, signs, the keywords, newlines and garbage.
func toleranceString() *rapid.Generator[string] {
	piece := rapid.OneOf(
		rapid.SampledFrom([]string{"auto", "any", "\n", "-", "+", "0x", "0X", "0", " ", "\t", "2147483647", "2147483648", "4294967296", "x"}),
		rapid.StringMatching(`[0-9]{1,11}`),
		rapid.StringMatching(`[0-9a-fA-F]{1,9}`),
		rapid.String(),
	)
	return rapid.Custom(func(t *rapid.T) string {
		n := rapid.IntRange(0, 4).Draw(t, "pieces")
		s := ""
		for i := range n {
			s += piece.Draw(t, "piece"+string(rune('0'+i)))
		}
		return s
	})
}

// TestPropertySetLatencyToleranceWritesOnlyValid checks that whatever the
// input, SetLatencyTolerance never writes a string the kernel's parser
// rejects, writes nothing when the input is invalid, and otherwise leaves the
// file holding the input's value.
func TestPropertySetLatencyToleranceWritesOnlyValid(t *testing.T) {
	root := CopyFixture(t, "../testdata/sys")
	base, err := NewFS(root)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(root, "class/nvme/nvme0/power/pm_qos_latency_tolerance_us")

	rapid.Check(t, func(rt *rapid.T) {
		if err := os.WriteFile(file, []byte("100000\n"), 0o644); err != nil {
			rt.Fatal(err)
		}
		var writes []string
		fs := base
		fs.hooks = &hooks{write: func(p, v string) error {
			writes = append(writes, v)
			return os.WriteFile(p, []byte(v), 0o644)
		}}

		in := toleranceString().Draw(rt, "value")
		want, perr := apst.ParseTolerance(in)
		_, got, err := fs.SetLatencyTolerance("nvme0", in)

		for _, w := range writes {
			if _, err := apst.ParseTolerance(w); err != nil {
				rt.Fatalf("wrote %q, which the kernel rejects: %v", w, err)
			}
		}
		if perr != nil {
			if len(writes) != 0 {
				rt.Fatalf("input %q is invalid but %q was written", in, writes)
			}
			if !errors.Is(err, apst.ErrInvalidTolerance) {
				rt.Fatalf("input %q: error %v does not wrap ErrInvalidTolerance", in, err)
			}
			b, _ := os.ReadFile(file)
			if string(b) != "100000\n" {
				rt.Fatalf("input %q is invalid but the file changed to %q", in, b)
			}
			return
		}
		if err != nil {
			rt.Fatalf("input %q: %v", in, err)
		}
		if len(writes) != 1 {
			rt.Fatalf("input %q: %d writes, want 1", in, len(writes))
		}
		if got != want {
			rt.Fatalf("input %q: reads back %v, want %v", in, got, want)
		}
	})
}
