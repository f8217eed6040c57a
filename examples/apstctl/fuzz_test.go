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
	{"plan", "-o", "json", "--kernel", "v4.11", "-"},
	{"sweep", "-o", "json", "-"},
	{"compare", "-", "--with", "ps-max-latency-us=25000", "--with", "policy=windows-balanced-dc"},
	{"simulate", "--gap", "3s", "-"},
	{"recommend", "--max-stall", "25ms", "-"},
	{"decode", "-"},
	{"convert", "--to", "nvme-cli-json", "-"},
	{"check", "../../testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin", "-"},
	{"diagnose", "--log", "-"},
	{"diagnose", "-o", "json", "--log", "-", "--tried", "pcie_aspm=off:no"},
}

// FuzzCommands feeds arbitrary bytes as the capture (or, to diagnose, the
// kernel log) of every command that reads one: whatever comes, the command
// must not panic, must exit 0 or 2 (or 1 for check's mismatch), and must
// explain a failure on standard error.
func FuzzCommands(f *testing.F) {
	for _, pattern := range []string{
		"../../testdata/identify/*.bin",
		"../../testdata/corpus/nvme-cli/synthetic/Samsung_SSD_990*",
		"../../testdata/corpus/smartctl/Samsung_SSD_990*",
		"testdata/feature/*",
	} {
		paths, _ := filepath.Glob(pattern)
		for _, p := range paths {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b, uint8(0))
				f.Add(b, uint8(8))
			}
		}
	}
	f.Add([]byte("get-feature:0x0c (Autonomous Power State Transition), Current value:0x00000001\n"), uint8(6))
	f.Add([]byte("[    1.0] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n"), uint8(9))
	f.Add([]byte("Dec  5 04:55:59 host kernel: nvme nvme0: I/O 9 QID 0 timeout, reset controller\n"), uint8(10))
	f.Fuzz(func(t *testing.T, capture []byte, which uint8) {
		args := fuzzCommands[int(which)%len(fuzzCommands)]
		var out, errOut bytes.Buffer
		code := run(args, bytes.NewReader(capture), &out, &errOut)
		switch {
		case code == exitOK:
		case code == exitFailure && args[0] == "check":
		case code == exitUsage:
			if errOut.Len() == 0 {
				t.Fatalf("%v: exit 2 without a message", args)
			}
		default:
			t.Fatalf("%v: exit %d, want 0 or 2; stderr %q", args, code, errOut.String())
		}
	})
}
