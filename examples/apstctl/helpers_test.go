package main

import (
	"bytes"
	"io"
	"testing"
)

// Fixtures, relative to this package's directory.
const (
	evoImage   = "../../testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin"
	intelImage = "../../testdata/identify/intel-ssdpekkw256g7-PSF109C.bin"
	// bundleDir is a bundle of the library's fixture machine: nvme2 holds
	// the table of the 100 ms module default although 25 ms is set.
	bundleDir   = "../../testdata/bundle"
	feature100  = "testdata/feature/samsung-990-evo-plus-100ms.txt"
	feature25   = "testdata/feature/samsung-990-evo-plus-25ms.txt"
	featureRaw  = "testdata/feature/samsung-990-evo-plus-100ms.raw"
	corpusDir   = "../../testdata/corpus"
	smartctlEVO = corpusDir + "/smartctl/Samsung_SSD_990_EVO_Plus_1TB_2B2QKXG7.txt"
)

// apstctl runs the command line in-process and returns its exit status and
// output.
func apstctl(t *testing.T, stdin []byte, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, bytes.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// cmdFunc is the command called name as a function of its arguments.
func cmdFunc(name string) func([]string, io.Reader, io.Writer, io.Writer) int {
	return func(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
		return run(append([]string{name}, args...), stdin, stdout, stderr)
	}
}

// The commands as functions, for the tests written per command.
var (
	runCheck         = cmdFunc("check")
	runSweep         = cmdFunc("sweep")
	runCompare       = cmdFunc("compare")
	runSimulate      = cmdFunc("simulate")
	runRecommend     = cmdFunc("recommend")
	runDecode        = cmdFunc("decode")
	runConvert       = cmdFunc("convert")
	runInspect       = cmdFunc("inspect")
	runCollect       = cmdFunc("collect")
	runSetLatency    = cmdFunc("set-latency")
	runSetCPULatency = cmdFunc("set-cpu-latency")
)

// runCmd runs one of the commands in-process without standard input.
func runCmd(f func([]string, io.Reader, io.Writer, io.Writer) int, args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := f(args, bytes.NewReader(nil), &out, &errOut)
	return code, out.String(), errOut.String()
}

// terminalBuffer is a standard error that says it is a terminal, for the
// progress lines.
type terminalBuffer struct{ bytes.Buffer }

func (*terminalBuffer) IsTerminal() bool { return true }
