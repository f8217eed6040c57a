package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
)

// The bundle's nvme2 is a Samsung 990 EVO Plus whose drive holds the table
// of the 100 ms module default (testdata/README.md); its apst.bin is the raw
// 256-byte buffer, which does not record APSTE.
var (
	id990      = testfixture.Path("bundle/ioctl/nvme2/identify.bin")
	feature990 = testfixture.Path("bundle/ioctl/nvme2/apst.bin")
)

func TestCheckCaptureMatch(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(&out, []string{id990, feature990}))
	s := out.String()
	assert.Contains(t, s, "Samsung SSD 990 EVO Plus 1TB: match under kernel=current,ps-max-latency-us=100000\n")
	assert.Contains(t, s, "reproduced by kernel=current,ps-max-latency-us=100000 for bounds 43000us..unlimited (the parameters given)")
	assert.Contains(t, s, "APSTE (bit 0 of completion dword 0) is unknown")
}

func TestCheckCaptureMismatch(t *testing.T) {
	var out bytes.Buffer
	err := run(&out, []string{"-with", "ps-max-latency-us=25000", id990, feature990})
	require.ErrorIs(t, err, errMismatch)
	s := out.String()
	assert.Contains(t, s, "mismatch under kernel=current,ps-max-latency-us=25000\n")
	assert.Contains(t, s, "  ps3: kernel -, drive ->ps4@2000ms\n")
	assert.Contains(t, s, "ps_max_latency_us 43000us..unlimited instead of 25000us")
}

func TestCheckCaptureAPSTEDisabled(t *testing.T) {
	// A get-feature hex dump whose header says APSTE=0 while the table is
	// the kernel's: APSTE differs and no configuration reproduces it.
	raw, err := os.ReadFile(feature990)
	require.NoError(t, err)
	var tab apst.Table
	require.NoError(t, tab.UnmarshalBinary(raw))
	var b bytes.Buffer
	b.WriteString("get-feature:0x0c (Autonomous Power State Transition), Current value:0x00000000\n")
	for off := 0; off < len(raw); off += 16 {
		b.WriteString(hexLine(off, raw[off:off+16]))
	}
	path := filepath.Join(t.TempDir(), "apst.txt")
	require.NoError(t, os.WriteFile(path, b.Bytes(), 0o644))
	var out bytes.Buffer
	err = run(&out, []string{id990, path})
	require.ErrorIs(t, err, errMismatch)
	assert.Contains(t, out.String(), "APSTE: kernel true, drive disabled")
	assert.NotContains(t, out.String(), "reproduced by")
}

func hexLine(off int, b []byte) string {
	const digits = "0123456789abcdef"
	s := []byte{digits[off>>12&15], digits[off>>8&15], digits[off>>4&15], digits[off&15], ':'}
	for _, c := range b {
		s = append(s, ' ', digits[c>>4], digits[c&15])
	}
	return string(s) + "\n"
}

func TestCheckCaptureErrors(t *testing.T) {
	var out bytes.Buffer
	assert.ErrorContains(t, run(&out, []string{id990}), "usage")
	assert.ErrorContains(t, run(&out, []string{feature990, feature990}), feature990)
	assert.ErrorContains(t, run(&out, []string{id990, id990}), id990)
}
