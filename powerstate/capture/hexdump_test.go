package capture

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/internal/testfixture"
)

var hexLayouts = map[string]hexLayout{"hexdump -C": hexC, "xxd": hexXXD, "od -A x -t x1z": hexOD, "nvme-cli": hexNVMeCLI}

// TestHexDumpLayouts: data of any length with runs of repeated lines reads
// back from every layout, indented, quoted or with prose around it.
func TestHexDumpLayouts(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var data []byte
		for range rapid.IntRange(0, 12).Draw(t, "runs") {
			line := rapid.SliceOfN(rapid.Byte(), 16, 16).Draw(t, "line")
			for range rapid.IntRange(1, 5).Draw(t, "repeat") {
				data = append(data, line...)
			}
		}
		data = append(data, rapid.SliceOfN(rapid.Byte(), 0, 40).Draw(t, "tail")...)
		if len(data) == 0 {
			return
		}
		name := rapid.SampledFrom([]string{"hexdump -C", "xxd", "od -A x -t x1z", "nvme-cli"}).Draw(t, "layout")
		dump := testfixture.HexDump(data, name)
		wrap := rapid.SampledFrom([]string{"", "    ", "> > "}).Draw(t, "indent")
		var b strings.Builder
		b.WriteString("$ nvme id-ctrl --raw-binary /dev/nvme0 | " + name + "\n")
		for _, l := range strings.SplitAfter(dump, "\n") {
			if l != "" {
				b.WriteString(wrap + l)
			}
		}
		b.WriteString("\n$ echo done\n")
		d, err := readHexDump(b.String(), 0)
		require.NoError(t, err)
		require.Equal(t, hexLayouts[name], d.Layout)
		require.Equal(t, data, d.Data)
		first := 2
		if name == "nvme-cli" {
			first = 3 // after its column ruler
		}
		require.Equal(t, first, d.First)
	})
}

func TestHexDumpErrors(t *testing.T) {
	data := make([]byte, 4096)
	copy(data, "Samsung SSD 990 EVO Plus 1TB")
	c := testfixture.HexDump(data, "hexdump -C")
	lines := strings.SplitAfter(c, "\n")
	for _, tc := range []struct {
		name, in, expected string
		cut                bool
	}{
		{"cut after the star", strings.Join(lines[:len(lines)-2], ""), `the offset after the "*"`, true},
		{"a line left out", lines[0] + strings.Join(lines[2:], ""), "the line at offset 00000010", false},
		{"star first after a line", lines[0] + lines[1] + "*\n*\n", `"*" repeats`, false},
		{"a length past the limit", lines[0] + lines[1] + lines[2] + "*\n" + "ffffff00\n", "at most", false},
		{"xxd out of order", "00000000: 4d14 4d14  M.M.\n00000010: 0000 0000  ....\n", "the line at offset 00000004", false},
	} {
		_, err := readHexDump(tc.in, 4096)
		var he *hexDumpError
		require.True(t, errors.As(err, &he), "%s: %v", tc.name, err)
		assert.Contains(t, he.Expected, tc.expected, tc.name)
		assert.Equal(t, tc.cut, he.Cut, tc.name)
	}
	// Text without a dump has none; a dump alone in prose is found.
	d, err := readHexDump("no dump here\n0010: 00 11\n", 0)
	require.NoError(t, err)
	assert.Equal(t, hexNone, d.Layout)
	assert.True(t, isHexDumpStart("0000: 18 64 00 00"))
	assert.False(t, isHexDumpStart("0010: 18 64 00 00"))
	assert.False(t, isHexDumpStart("0000 1864 0000"), "hexdump without -C (16-bit words) is no layout read")
}

// FuzzReadHexDump: any text reads without a panic within the limit, and
// the bytes a dump gives, dumped again, read back the same.
func FuzzReadHexDump(f *testing.F) {
	for _, layout := range []string{"hexdump -C", "xxd", "od -A x -t x1z", "nvme-cli"} {
		f.Add(testfixture.HexDump([]byte("Samsung SSD 990 EVO Plus 1TB\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"), layout))
	}
	f.Add("00000000  00 01  |..|\n*\n00000100\n")
	f.Fuzz(func(t *testing.T, s string) {
		d, err := readHexDump(s, 4096)
		if len(d.Data) > 4096 {
			t.Fatalf("%d bytes past the limit", len(d.Data))
		}
		if err != nil || d.Layout == hexNone || len(d.Data) == 0 {
			return
		}
		again, err := readHexDump(testfixture.HexDump(d.Data, "xxd"), 4096)
		if err != nil || string(again.Data) != string(d.Data) {
			t.Fatalf("dumped again: %v, %q != %q", err, again.Data, d.Data)
		}
	})
}
