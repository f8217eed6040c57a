package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/analysis/trace"
)

// blkparseDefault is a line of blkparse's default layout, "%D %2c %8s
// %5T.%9t %5p %2a %3d " and a Q, G, I, D or C trailer: the fields
// right-aligned in their widths, wider ones pushing the rest right.
var blkparseDefault = regexp.MustCompile(`^( {0,2}\d+),(\d+ {0,2}) ( ?\d+) ( {0,7}\d+) ( {0,4}\d+)\.(\d{9}) ( {0,4}\d+)  ([QGIDC])   R (\d+) \+ 8 \[(fio|0)\]$`)

// tracegen writes blkparse's default layout with the actions asked for,
// fields widened past their widths, and a trace the replay reads; bad
// flags are refused.
func TestTracegen(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args  []string
		acts  string
		lines int
	}{
		{[]string{"-actions", "QGIDC", "-n", "40"}, "QGIDC", 200},
		{[]string{"-actions", "DC", "-n", "40", "-cpus", "12", "-devices", "2"}, "DC", 80},
		{[]string{"-actions", "DC", "-n", "40", "-first-seq", "99999990", "-time-offset", "99999.99s", "-pid", "1234567"}, "DC", 80},
	} {
		out := filepath.Join(dir, "t")
		require.NoError(t, run(append(tc.args, "-out", out)))
		b, err := os.ReadFile(out)
		require.NoError(t, err)
		lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		require.Len(t, lines, tc.lines, "%q", tc.args)
		for _, l := range lines {
			m := blkparseDefault.FindStringSubmatch(l)
			require.NotNil(t, m, "%q: %q", tc.args, l)
			require.Contains(t, tc.acts, m[8])
			require.Equal(t, m[8] == "C", m[10] == "0", "%q", l)
		}
		opt := trace.Options{}
		if strings.Contains(strings.Join(tc.args, " "), "-devices") {
			opt.Device = "259,1"
		}
		f, err := os.Open(out)
		require.NoError(t, err)
		r, err := trace.NewReader(f, opt)
		require.NoError(t, err)
		n := 0
		for _, err := range r.All() {
			require.NoError(t, err)
			n++
		}
		require.NoError(t, f.Close())
		want := 80
		if opt.Device != "" {
			want = 40
		}
		require.Equal(t, want, n, "%q", tc.args)
	}
	b, err := os.ReadFile(filepath.Join(dir, "t"))
	require.NoError(t, err)
	// The first D takes the 4th sequence number (Q, G and I before it are
	// traced, not printed); the fields widen past 8 digits and 99999 s.
	require.True(t, strings.HasPrefix(string(b), "259,0    0 99999993 99999.990000000 1234567  D   R 0 + 8 [fio]\n259,0    0 99999994 99999.990100000     0  C   R 0 + 8 [0]\n"))
	require.Contains(t, string(b), "259,0    0 100000003 99999.994737000 1234567  D ")
	require.Contains(t, string(b), "259,0    0 100000013 100000.004001000 1234567  D ")
	for _, args := range [][]string{{"-actions", "QX"}, {"-actions", "QD"}, {"-pid", "0"}, {"-cpus", "0"}, {"-n", "0"}, {"x"}} {
		require.Error(t, run(append(args, "-out", filepath.Join(dir, "bad"))), "%q", args)
	}
}
