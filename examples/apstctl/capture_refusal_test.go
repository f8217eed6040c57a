package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// notCaptureFiles writes files that are not an Identify Controller capture
// into dir: their names, with what the refusal must say they look like and
// the survey's reason.
func notCaptureFiles(t *testing.T, dir string) map[string][2]string {
	t.Helper()
	random := make([]byte, 4096)
	r := rand.New(rand.NewPCG(7, 7))
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	pdf := make([]byte, 4096)
	copy(pdf, "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n")
	ns := make([]byte, 4096) // nvme id-ns -b of a 1 TB namespace of 512-byte blocks
	binary.LittleEndian.PutUint64(ns[0:], 1953525168)
	binary.LittleEndian.PutUint64(ns[8:], 1953525168)
	binary.LittleEndian.PutUint64(ns[16:], 412342112)
	binary.LittleEndian.PutUint32(ns[128:], 9<<16)
	files := map[string]struct {
		b            []byte
		looks, cause string
	}{
		"zero.bin":   {make([]byte, 4096), "all zero bytes", reasonZero},
		"random.bin": {random, "random bytes", reasonRandom},
		"doc.dat":    {pdf, "a PDF document", reasonOtherFile},
		"id-ns.bin":  {ns, "an Identify Namespace image", reasonNamespace},
		"empty.txt":  {nil, "the capture is empty", reasonEmpty},
		"blank.txt":  {[]byte("\n  \n"), "the capture is empty", reasonEmpty},
		"report.dat": {append([]byte{0x1f, 0x8b, 8, 0}, make([]byte, 600)...), "gzip-compressed data", reasonOtherFile},
	}
	out := make(map[string][2]string, len(files))
	for name, f := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), f.b, 0o644))
		out[name] = [2]string{f.looks, f.cause}
	}
	return out
}

// TestNotACaptureIsRefused: every command that reads an Identify
// Controller capture refuses what is not one with what it looks like
// (exit 2), and --force reads 4096 bytes anyway with a note.
func TestNotACaptureIsRefused(t *testing.T) {
	dir := t.TempDir()
	files := notCaptureFiles(t, dir)
	trace := filepath.Join(dir, "trace.plain")
	require.NoError(t, os.WriteFile(trace, []byte("0.0\n5.0\n"), 0o644))
	commands := [][]string{
		{"plan", "F"},
		{"sweep", "F"},
		{"check", "F", feature100},
		{"compare", "F", "--with", "ps-max-latency-us=25000"},
		{"convert", "--to", "nvme-cli-text", "F"},
		{"recommend", "F", "--max-stall", "25ms"},
		{"simulate", "F", "--gap", "1s"},
		{"replay", "F", trace},
		{"persist", "F", "--bound", "25000"},
		{"diagnose", "--log", "../../apst/diagnose/testdata/apst.log", "--id-ctrl", "F"},
	}
	for name, want := range files {
		path := filepath.Join(dir, name)
		for _, cmd := range commands {
			args := make([]string, len(cmd))
			for i, a := range cmd {
				if a == "F" {
					a = path
				}
				args[i] = a
			}
			code, _, stderr := apstctl(t, nil, args...)
			assert.Equal(t, 2, code, "%s %s: %s", cmd[0], name, stderr)
			assert.Contains(t, stderr, want[0], "%s %s", cmd[0], name)
		}
	}
	// --force reads an image anyway, and says so.
	code, stdout, stderr := apstctl(t, nil, "plan", "--force", filepath.Join(dir, "zero.bin"))
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "read with --force although it does not look like an Identify Controller image: it looks like all zero bytes")
	// but not what is no image at all.
	code, _, stderr = apstctl(t, nil, "plan", "--force", filepath.Join(dir, "empty.txt"))
	assert.Equal(t, 2, code, stderr)
	code, _, stderr = apstctl(t, nil, "diagnose", "--log", "../../apst/diagnose/testdata/apst.log", "--force")
	assert.Equal(t, 2, code, "--force without --id-ctrl: %s", stderr)
}

// TestSurveyCountsNotCapturesAsUnreadable: a survey lists them as
// unreadable, counted by reason, in text and JSON.
func TestSurveyCountsNotCapturesAsUnreadable(t *testing.T) {
	dir := t.TempDir()
	files := notCaptureFiles(t, dir)
	img, err := os.ReadFile(evoImage)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "evo.bin"), img, 0o644))
	code, stdout, stderr := apstctl(t, nil, "survey", dir)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "1 drive surveyed; 7 unreadable files")
	counts := map[string]int{}
	for _, want := range files {
		counts[want[1]]++
	}
	assert.Contains(t, stdout, "unreadable by reason: "+reasonCounts(counts))
	code, stdout, stderr = apstctl(t, nil, "survey", "-o", "json", dir)
	require.Equal(t, 0, code, stderr)
	var doc struct {
		Summary struct {
			ByReason map[string]int `json:"unreadable_by_reason"`
		} `json:"summary"`
		Unreadable []surveyUnreadable `json:"unreadable"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &doc))
	assert.Equal(t, counts, doc.Summary.ByReason)
	reasons := map[string]string{}
	for _, u := range doc.Unreadable {
		reasons[filepath.Base(u.Path)] = u.Reason
	}
	for name, want := range files {
		assert.Equal(t, want[1], reasons[name], name)
	}
}

// diagnose --log refuses text that is no kernel log, exit 2, and says what
// it looks like: a capture given in the log's place is told to go in
// --id-ctrl.
func TestDiagnoseRefusesWhatIsNotALog(t *testing.T) {
	dir := t.TempDir()
	idctrl := filepath.Join(dir, "id-ctrl.txt")
	require.NoError(t, os.WriteFile(idctrl, []byte("NVME Identify Controller:\nvid       : 0x1cc1\nssvid     : 0x1cc1\nmn        : ADATA SX8200PNP\n"), 0o644))
	prose := filepath.Join(dir, "note.txt")
	require.NoError(t, os.WriteFile(prose, []byte("my drive drops out every day\n"), 0o644))
	for _, tc := range []struct{ file, says string }{
		{idctrl, "it looks like an Identify Controller capture (nvme-cli-text): give it as --id-ctrl, and the kernel log of the boot that failed as --log"},
		{prose, "paste the kernel log as the system wrote it"},
	} {
		code, stdout, stderr := apstctl(t, nil, "diagnose", "--log", tc.file)
		assert.Equal(t, 2, code, stderr)
		assert.Empty(t, stdout)
		assert.Contains(t, stderr, "not a kernel log")
		assert.Contains(t, stderr, tc.says)
	}
	// Binary input: a journal file, a binary Identify capture.
	journal := filepath.Join(dir, "system.journal")
	require.NoError(t, os.WriteFile(journal, []byte("LPKSHHRH\x00\x00\x00\x00\x02\x00\x00\x00"), 0o644))
	for _, tc := range []struct{ file, says string }{
		{journal, "it is a systemd journal file: give its kernel messages as text (journalctl --file FILE -k -o short-monotonic --no-pager)"},
		{"../../testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin", "it looks like a binary Identify Controller capture (nvme id-ctrl -b): give it as --id-ctrl"},
	} {
		code, stdout, stderr := apstctl(t, nil, "diagnose", "--log", tc.file)
		assert.Equal(t, 2, code, stderr)
		assert.Empty(t, stdout)
		assert.Contains(t, stderr, "input is binary")
		assert.Contains(t, stderr, tc.says)
	}
}

// diagnose --log reads a gzip-compressed log (a bug tracker's
// dmesg.txt.gz) as its text, and says it did, in text and JSON.
func TestDiagnoseReadsCompressedLog(t *testing.T) {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	_, err := zw.Write([]byte("[12345.678901] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n"))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	gz := filepath.Join(t.TempDir(), "dmesg.txt.gz")
	require.NoError(t, os.WriteFile(gz, b.Bytes(), 0o644))
	code, stdout, stderr := apstctl(t, nil, "diagnose", "--log", gz)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "nvme0: undecided between apst and aspm")
	assert.Contains(t, stdout, "kernel log: 1 line, 1 event, 1 incident, read from gzip-compressed input")
	code, stdout, stderr = apstctl(t, nil, "diagnose", "-ojson", "--log", gz)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, `"compression": "gzip"`)
}
