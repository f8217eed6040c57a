package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// </dev/null and </dev/zero are no person typing: a command reading
// standard input from them does not ask for a paste, and progress is not
// drawn on them; a file is no terminal either, a pseudo-terminal is.
func TestIsTerminal(t *testing.T) {
	for _, name := range notTerminals {
		f, err := os.Open(name)
		if err != nil {
			continue // not on this system
		}
		assert.False(t, isTerminal(f), name)
		assert.False(t, isTerminalInput(f), name)
		f.Close()
	}
	p := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(p, nil, 0o600))
	f, err := os.Open(p)
	require.NoError(t, err)
	defer f.Close()
	assert.False(t, isTerminal(f))
	pt, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer pt.Close()
	assert.True(t, isTerminal(pt), "a pseudo-terminal is a terminal")
}
