package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostile is a string with a screen clear, a forged line, a bidi override
// and a raw C1 CSI (0x9b, not UTF-8).
const hostile = "x\x1b[2J\x1b[H\r\nFAKE \u202eevil\u202c \x9b31m"

// noControls fails when s holds a control character a terminal acts on.
func noControls(t *testing.T, what, s string) {
	t.Helper()
	for _, bad := range []string{"\x1b", "\r", "\u202e", "\x9b", "\u0085"} {
		assert.NotContains(t, s, bad, "%s holds %q", what, bad)
	}
}

// Every text path escapes what a drive, a machine or a file name says:
// inspect's sysfs strings (model, state) and verdict, measure's model and
// firmware, and stderr messages naming a file.
func TestUntrustedStringsEscapedOnEveryTextPath(t *testing.T) {
	root := copyBundle(t)
	for _, attr := range []string{"class/nvme/nvme2/state", "class/nvme/nvme2/model", "class/nvme/nvme2/firmware_rev"} {
		require.NoError(t, os.WriteFile(filepath.Join(root, attr), []byte(hostile+"\n"), 0o644))
	}
	_, out, errOut := apstctl(t, nil, "inspect", "--root", root)
	noControls(t, "inspect", out+errOut)
	assert.Contains(t, out, `\x1b[2J`)

	dir := hostileCapture(t)
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	code, out, errOut := apstctl(t, nil, "measure", "--simulate", filepath.Join(dir, ents[0].Name()), "--trials", "2")
	require.Equal(t, exitOK, code, errOut)
	noControls(t, "measure", out+errOut)
	assert.Contains(t, out, `\x1b[2J\rforged`)

	for _, args := range [][]string{{"plan", "nofile" + hostile}, {"replay", evoImage, "nofile" + hostile}, {"survey", "nodir" + hostile}} {
		_, out, errOut := apstctl(t, nil, args...)
		noControls(t, args[0], out+errOut)
		assert.Contains(t, errOut, `\u202eevil`, "%q", args)
		assert.Contains(t, errOut, `\x9b31m`, "%q", args)
	}
}

// JSON keeps a hostile string's value, escaped: a log line's or a drive's
// bidirectional and C1 controls are \u escapes in every JSON report (they
// were written raw, and reordered what a terminal or a pager showed).
func TestUntrustedStringsEscapedInJSON(t *testing.T) {
	const line = "[   12.000000] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10 \u202eevil\u202c \u0085x\n"
	code, out, errOut := apstctl(t, []byte(line), "diagnose", "--log", "-", "-o", "json")
	require.Equal(t, exitOK, code, errOut)
	noControls(t, "diagnose -o json", out)
	assert.Contains(t, out, `\u202eevil\u202c`)

	root := copyBundle(t)
	require.NoError(t, os.WriteFile(filepath.Join(root, "class/nvme/nvme2/model"), []byte("M\u202eodel\u0085x\n"), 0o644))
	_, out, errOut = apstctl(t, nil, "inspect", "--root", root, "-o", "json")
	noControls(t, "inspect -o json", out+errOut)
	assert.Contains(t, out, `M\u202eodel\u0085x`)
}
