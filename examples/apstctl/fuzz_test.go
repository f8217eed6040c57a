package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// fuzzCommands are command lines that read a capture from standard input.
var fuzzCommands = [][]string{
	{"plan", "-"},
	{"plan", "--format", "json", "--kernel", "v4.11", "-"},
	{"sweep", "--format", "json", "-"},
	{"compare", "-", "--with", "ps-max-latency-us=25000", "--with", "policy=windows-balanced-dc"},
	{"simulate", "--gap", "3s", "-"},
	{"recommend", "--max-stall", "25ms", "-"},
	{"decode", "-"},
	{"convert", "--to", "nvme-cli-json", "-"},
}

// FuzzCommands feeds arbitrary bytes as the capture of every command that
// reads one: whatever comes, the command must not panic, must exit 0 or 2,
// and must explain a failure on standard error.
func FuzzCommands(f *testing.F) {
	for _, pattern := range []string{
		"../../testdata/identify/*.bin",
		"../../testdata/corpus/nvme-cli/synthetic/Samsung_SSD_990*",
		"../../testdata/corpus/smartctl/Samsung_SSD_990*",
	} {
		paths, _ := filepath.Glob(pattern)
		for _, p := range paths {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b, uint8(0))
			}
		}
	}
	f.Add([]byte("get-feature:0x0c (Autonomous Power State Transition), Current value:0x00000001\n"), uint8(6))
	f.Fuzz(func(t *testing.T, capture []byte, which uint8) {
		args := fuzzCommands[int(which)%len(fuzzCommands)]
		var out, errOut bytes.Buffer
		code := run(args, bytes.NewReader(capture), &out, &errOut)
		switch code {
		case exitOK:
		case exitUsage:
			if errOut.Len() == 0 {
				t.Fatalf("%v: exit 2 without a message", args)
			}
		default:
			t.Fatalf("%v: exit %d, want 0 or 2; stderr %q", args, code, errOut.String())
		}
	})
}
