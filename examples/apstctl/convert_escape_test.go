package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/internal/safeio"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// Captures whose strings hold ESC, BEL, CR/LF and a byte that is not UTF-8.
const (
	escapeText = "testdata/escape/escid.txt" // model AGA\x1b]0;pwned\x07\x1b[2J"\x*?[ \xff
	escapeJSON = "testdata/escape/escid.json"
)

// The text formats convert writes carry a model's control characters
// escaped, with a note, and read back as the escaped text.
func TestConvertEscapesText(t *testing.T) {
	raw, err := os.ReadFile(escapeText)
	require.NoError(t, err)
	orig, err := capture.ParseBytes(raw)
	require.NoError(t, err)
	require.True(t, safeio.HasControl(orig.Model))
	for _, to := range []string{"nvme-cli-text", "smartctl-text"} {
		t.Run(to, func(t *testing.T) {
			code, out, errOut := runCmd(runConvert, "--to", to, escapeText)
			require.Equal(t, exitOK, code, errOut)
			assert.False(t, safeio.HasControl(strings.ReplaceAll(out, "\n", "")), "raw control characters in:\n%s", out)
			assert.Contains(t, out, `AGA\x1b]0;pwned\x07\x1b[2J"\\x*?[ \xff`)
			assert.Contains(t, errOut, "the model number holds control characters")
			back, err := capture.ParseBytes([]byte(out))
			require.NoError(t, err, out)
			assert.Equal(t, safeio.EscapeTerminal(orig.Model), back.Model, "reads back escaped")
			assert.Equal(t, orig.Firmware, back.Firmware)
		})
	}
	// escid.json's firmware F\x1b[31m is 9 bytes escaped: it does not fit
	// the 8 of the field, and nothing is written.
	code, out, errOut := runCmd(runConvert, "--to", "nvme-cli-text", escapeJSON)
	assert.Equal(t, exitUsage, code)
	assert.Empty(t, out)
	assert.Contains(t, errOut, `the firmware revision "F\x1b[31m" holds control characters`)
	assert.Contains(t, errOut, "--to nvme-cli-json or binary")
	assert.False(t, safeio.HasControl(strings.TrimSuffix(errOut, "\n")))
}

// JSON carries every string exactly, with what a terminal acts on as
// \uHHHH escapes.
func TestEscapeJSONTerminal(t *testing.T) {
	for _, s := range []string{"plain", "del\x7f", "c1\u0085\u009b", "bidi\u202e\u2066", "ünï", "esc\x1b"} {
		b, err := json.Marshal(s)
		require.NoError(t, err)
		e := escapeJSONTerminal(string(b))
		assert.False(t, safeio.HasControl(e), "%q -> %q", s, e)
		var back string
		require.NoError(t, json.Unmarshal([]byte(e), &back))
		assert.Equal(t, s, back)
	}
}

// A binary image is not written to a terminal (exit 2, nothing written);
// to a pipe, a file or --output it is.
func TestConvertBinaryTerminal(t *testing.T) {
	var term terminalBuffer
	var errOut bytes.Buffer
	code := runConvert([]string{"--to", "binary", evoImage}, nil, &term, &errOut)
	assert.Equal(t, exitUsage, code)
	assert.Zero(t, term.Len())
	assert.Contains(t, errOut.String(), "binary data not written to a terminal")
	term.Reset()
	code = runConvert([]string{"--to", "binary", "--output", "-", evoImage}, nil, &term, &errOut)
	assert.Equal(t, exitUsage, code, "- is standard output, the terminal")
	assert.Zero(t, term.Len())

	code, out, errText := runCmd(runConvert, "--to", "binary", evoImage)
	require.Equal(t, exitOK, code, errText)
	assert.Len(t, out, 4096)
	file := filepath.Join(t.TempDir(), "id.bin")
	term.Reset()
	code = runConvert([]string{"--to", "binary", "--output", file, evoImage}, nil, &term, &errOut)
	require.Equal(t, exitOK, code, errOut.String())
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Len(t, b, 4096)
}
