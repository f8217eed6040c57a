package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A file a flag writes on a full disk: the message names the path the
// user gave, not the hidden temporary file beside it, and the old file
// survives.
func TestOutputFileNoSpaceNamesUserPath(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=12k"); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v)", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, 0) })
	for _, tt := range []struct{ flag, name string }{{"--output", "o.txt"}, {"--svg", "o.svg"}} {
		p := filepath.Join(dir, tt.name)
		require.NoError(t, os.WriteFile(p, []byte("old\n"), 0o644))
		code, _, errOut := apstctl(t, nil, "survey", tt.flag, p, corpusDir+"/smartctl")
		assert.Equal(t, exitFailure, code, errOut)
		assert.Equal(t, "apstctl survey: "+tt.flag+": write "+p+": no space left on device\n", errOut)
		assert.NotContains(t, errOut, ".tmp-", tt.flag)
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		assert.Equal(t, "old\n", string(b))
	}
}
