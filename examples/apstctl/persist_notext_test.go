package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// persist --check refuses input that is not text (exit 2, nothing on
// standard output), saying what it is: a binary file's stray "w" at the
// start of a line was checked as a sysfs write, and the file passed.
func TestPersistCheckRefusesBinary(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, b, 0o644))
		return p
	}
	random := make([]byte, 5000)
	for i := range random {
		random[i] = byte(i*7919 + i/3)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"a binary file with a w line", []string{"--check", write("binw.bin", []byte("\x00\x01\x02\xff\xfe binary\nw\t\xd7\x05\x9b\x00\xaf garbage\n\x00\x00\x00\n"))},
			"binw.bin: binary data (NUL at byte offset 0, line 1), not a setting: --check reads UTF-8 text (udev rules,"},
		{"random bytes", []string{"--check", write("junk", random)}, "junk: binary data (NUL at byte offset 0, line 1)"},
		{"an Identify image, with what reads it", []string{"--check", evoImage},
			"binary data (NUL at byte offset 72, line 1), not a setting: --check reads UTF-8 text (udev rules, a modprobe.d options line, a kernel command line, sysfs writes, a tmpfiles.d w line or a tuned [sysfs] line); it looks like an Identify Controller image (nvme id-ctrl -b), which 'apstctl plan' reads"},
		{"UTF-16", []string{"--check", write("u16.rules", []byte("\xff\xfew\x00 \x00/\x00s\x00y\x00s\x00\n\x00"))}, "u16.rules: UTF-16 text (it starts with the byte order mark FF FE), not a setting"},
		{"invalid UTF-8 without NUL", []string{"--check", write("bad.conf", []byte("w /sys/class/nvme/nvme0/power/pm_qos_latency_tolerance_us - - - - \xc0\xc1\xf5\xf6\xf7\xf8\xf9\xfa\xfb\xfc\n"))},
			"bad.conf: binary data (10 of its 77 bytes are control characters or invalid UTF-8, the first at byte offset 66)"},
		{"standard input", []string{"--check", "-"}, "-: binary data (NUL at byte offset 0, line 1)"},
		{"--check-line", []string{"--check-line", "w \x01\x02\x03\x04\x05\x06"}, "--check-line: binary data (6 of its 8 bytes are control characters or invalid UTF-8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := apstctl(t, []byte("\x00\x01w x\n"), append([]string{"persist"}, tc.args...)...)
			assert.Equal(t, exitUsage, code, errOut)
			assert.Empty(t, out)
			assert.True(t, strings.HasPrefix(errOut, "apstctl persist: "), errOut)
			assert.Contains(t, errOut, tc.want)
			assert.Equal(t, 1, strings.Count(errOut, "\n"), "one line")
		})
	}
	// Text with a few bytes of another encoding in a comment is checked.
	latin1 := write("latin1.rules", []byte("# r\xe9glage \xe0 25 ms\n"+"options nvme_core default_ps_max_latency_us=25000\n"))
	code, out, errOut := apstctl(t, nil, "persist", "--check", latin1)
	assert.NotEqual(t, exitUsage, code, errOut) // 1: 25 ms is a mistake it names
	assert.Contains(t, out, "line 2 (modprobe.d): options nvme_core default_ps_max_latency_us=25000")
}
