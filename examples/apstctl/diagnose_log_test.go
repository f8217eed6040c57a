package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/internal/testfixture"
)

// diagnose --log - of an endless pipe of zeros is refused as binary after
// a bounded read, not read forever.
func TestDiagnoseRefusesEndlessZeros(t *testing.T) {
	z := testfixture.NewZeros(512 << 20)
	var out, errOut bytes.Buffer
	code := run([]string{"diagnose", "--log", "-"}, z, &out, &errOut)
	assert.Equal(t, 2, code, errOut.String())
	assert.Empty(t, out.String())
	assert.Equal(t, "apstctl diagnose: --log: kernlog: input is binary, not a text kernel log: line 1 holds NUL bytes (the first at byte offset 0) and runs past 1048576 bytes without a line end\n", errOut.String())
	assert.Less(t, z.Taken, 4<<20, "read on past the bound")
}

// diagnose --log refuses, exit 2, input that is no kernel log and says what
// it looks like: NUL bytes in one long line, a line of 50 MB, a blkparse
// trace, JSON of no journal; with --root as without.
func TestDiagnoseRefusesWhatIsNoKernelLog(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	zeros := write("zeros", strings.Repeat("\x00", 100000))
	bigline := write("bigline", strings.Repeat("a", 50<<20))
	ndjson := write("s.ndjson", `{"configs":[{"name":"ps-max-latency-us=100000"}]}`+"\n")
	const blkparse = "testdata/replay/writeback.blkparse"
	for _, tc := range []struct {
		file, says string
	}{
		{zeros, "input is binary, not a text kernel log: its one line holds NUL bytes (the first at byte offset 0) and is no kernel event"},
		{bigline, "not a kernel log: a line is longer than any kernel log line: line 1 runs past 1048576 bytes without a line end"},
		{blkparse, "not a kernel log: none of its"},
		{ndjson, "not a kernel log: its one line has no kernel time stamp"},
	} {
		for _, root := range []bool{false, true} {
			args := []string{"diagnose", "--log", tc.file}
			if root {
				args = append(args, "--root", "../../sysfs/testdata/laptop-tlp")
			}
			code, stdout, stderr := apstctl(t, nil, args...)
			assert.Equal(t, 2, code, "%v: %s", args, stderr)
			assert.Empty(t, stdout, args)
			assert.Contains(t, stderr, "apstctl diagnose: --log: kernlog: "+tc.says, args)
		}
	}
	for _, tc := range []struct{ file, says string }{
		{blkparse, "; it looks like a block I/O trace (blkparse, biosnoop or a fio iolog), which 'apstctl replay CAPTURE TRACE' reads"},
		{ndjson, "; it looks like JSON, but holds no kernel log's records"},
	} {
		_, _, stderr := apstctl(t, nil, "diagnose", "--log", tc.file)
		assert.Contains(t, stderr, tc.says, tc.file)
	}
}

// diagnose --log names a controller the log names, or none: another is
// refused (exit 2), with the ones the log names; a log that names no
// controller at all is read for any.
func TestDiagnoseControllerNotInLog(t *testing.T) {
	const log = "../../apst/diagnose/testdata/apst.log"
	code, stdout, stderr := apstctl(t, nil, "diagnose", "--log", log, "nvme5")
	assert.Equal(t, 2, code, stderr)
	assert.Empty(t, stdout)
	assert.Equal(t, "apstctl diagnose: --log: the log does not name nvme5; it names nvme0: name one of those or none (the log's most severe failure is diagnosed), or give the log of the boot nvme5 failed in\n", stderr)

	code, stdout, stderr = apstctl(t, nil, "diagnose", "--log", log, "/dev/nvme0")
	assert.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "nvme0: ")

	code, stdout, stderr = apstctl(t, []byte("[ 1.0] usb 1-1: new high-speed USB device number 2 using xhci_hcd\n"), "diagnose", "--log", "-", "nvme5")
	assert.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "no failure seen in the kernel log for nvme5")
}

// diagnose --log takes a PCI address instead of a name, for a log that
// names the drive by its address alone (a hw-probe dmesg whose boot lines
// the ring buffer lost, posted zu-01): in the kernel's form or lspci's
// without the domain. An address the log never names is refused with those
// it does; an address without --log is a usage error (a machine's or a
// bundle's controllers have names). A name the log does not tie to its
// failing function is pointed to the function.
func TestDiagnoseByAddress(t *testing.T) {
	report := func(sec int, addr string) string {
		return fmt.Sprintf("[%6d.000000] nvme %s: AER: aer_status: 0x00000001, aer_mask: 0x00000000\n", sec, addr) +
			fmt.Sprintf("[%6d.000002] nvme %s: AER: aer_layer=Physical Layer, aer_agent=Receiver ID\n", sec, addr)
	}
	log := []byte(report(100, "0000:46:00.0") + report(101, "0000:46:00.0") + report(102, "0000:46:00.0") +
		report(900, "0000:c1:00.0") + report(901, "0000:c1:00.0"))
	code, stdout, stderr := apstctl(t, log, "diagnose", "--log", "-")
	require.Equal(t, 0, code, stderr)
	assert.True(t, strings.HasPrefix(stdout, "the drive at 0000:46:00.0: "), stdout)
	for _, arg := range []string{"0000:c1:00.0", "c1:00.0", "0000:C1:00.0"} {
		code, stdout, stderr = apstctl(t, log, "diagnose", "--log", "-", arg, "-o", "json")
		require.Equal(t, 0, code, "%s: %s", arg, stderr)
		var v struct {
			Address string `json:"address"`
		}
		require.NoError(t, json.Unmarshal([]byte(stdout), &v))
		assert.Equal(t, "0000:c1:00.0", v.Address, arg)
	}

	code, stdout, stderr = apstctl(t, log, "diagnose", "--log", "-", "05:00.0")
	assert.Equal(t, 2, code, stderr)
	assert.Empty(t, stdout)
	assert.Equal(t, "apstctl diagnose: --log: the log does not name 0000:05:00.0; it names 0000:46:00.0, 0000:c1:00.0: give one of those or none (the log's most severe failure is diagnosed), or the log of the boot 0000:05:00.0 failed in\n", stderr)

	code, stdout, stderr = apstctl(t, nil, "diagnose", "0000:46:00.0")
	assert.Equal(t, 2, code, stderr)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "a PCI address (0000:46:00.0) goes with --log alone")

	code, stdout, stderr = apstctl(t, log, "diagnose", "--log", "-", "nvme0")
	assert.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, "no failure seen in the kernel log for nvme0, but line 2 is a failure of the device at 0000:46:00.0, which the log ties to no controller: give its PCI address instead of a name to diagnose it")
}

// diagnose --tried refuses a setting a letter or two off one the
// diagnosis knows, a usage error naming the one meant.
func TestDiagnoseTriedTypo(t *testing.T) {
	code, stdout, stderr := apstctl(t, nil, "diagnose", "--log", "../../apst/diagnose/testdata/aspm.log", "--tried", "pcie_apsm=off")
	assert.Equal(t, 2, code, stderr)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, `apstctl diagnose: --tried pcie_apsm=off: diagnose: "pcie_apsm=off": unknown setting "pcie_apsm": did you mean "pcie_aspm=off"?`)
	code, _, stderr = apstctl(t, nil, "diagnose", "--log", "../../apst/diagnose/testdata/aspm.log", "--tried", "acpi=off,pcie_aspm=off")
	assert.Equal(t, 0, code, stderr)
}

// A diagnose argument that is no controller name says what it was
// probably meant as: a saved log goes with --log (with the command, quoted
// for a shell), a namespace is not its controller; anything else gets the
// plain refusal. Exit 2 each time, nothing read.
func TestDiagnoseNameHints(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "kern")
	require.NoError(t, os.WriteFile(saved, []byte("[    1.0] nvme nvme0: pci function 0000:01:00.0\n"), 0o644))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"diagnose", saved}, `"` + saved + `" is not a controller name (want nvmeN); to diagnose a saved kernel log, give it with --log: apstctl diagnose --log ` + saved},
		{[]string{"diagnose", "kern log.txt"}, `"kern log.txt" is not a controller name (want nvmeN); to diagnose a saved kernel log, give it with --log: apstctl diagnose --log 'kern log.txt'`},
		{[]string{"diagnose", "-"}, `"-" is not a controller name (want nvmeN); to diagnose a saved kernel log, give it with --log: apstctl diagnose --log -`},
		{[]string{"diagnose", "a\x1b.log"}, `"a\x1b.log" is not a controller name (want nvmeN); to diagnose a saved kernel log, give it with --log`},
		{[]string{"diagnose", "/dev/nvme0n1"}, `"/dev/nvme0n1" is not a controller name (want nvmeN); that is a namespace: give its controller (ls /sys/class/nvme lists them)`},
		{[]string{"diagnose", "nvme1c1n1"}, `"nvme1c1n1" is not a controller name (want nvmeN); that is a namespace: give its controller (ls /sys/class/nvme lists them)`},
		{[]string{"diagnose", "--log", saved, "x.log"}, `"x.log" is not a controller name (want nvmeN)`},
		{[]string{"diagnose", "sda"}, `"sda" is not a controller name (want nvmeN)`},
		{[]string{"diagnose", "nfoovme0n1"}, `"nfoovme0n1" is not a controller name (want nvmeN)`},
		{[]string{"diagnose", "nvme0c1"}, `"nvme0c1" is not a controller name (want nvmeN)`},
		{[]string{"diagnose", "nvme0n1p1"}, `"nvme0n1p1" is not a controller name (want nvmeN)`},
	} {
		code, out, errOut := apstctl(t, nil, tc.args...)
		assert.Equal(t, 2, code, "%q: %s", tc.args, errOut)
		assert.Empty(t, out)
		assert.Equal(t, "apstctl diagnose: "+tc.want+"\n", errOut, "%q", tc.args)
	}
}

// diagnose's JSON names the controllers the log connected over a fabric
// and the line that did (a blktests run over nvme-loop, posted f-02).
func TestDiagnoseFabricsJSON(t *testing.T) {
	log := []byte("[  176.037674] nvme nvme1: new ctrl: \"blktests-subsystem-1\"\n" +
		"[  177.240516] print_req_error: I/O error, dev nvme1n1, sector 0 flags 801\n")
	code, stdout, stderr := apstctl(t, log, "diagnose", "--log", "-", "-o", "json")
	require.Equal(t, 0, code, stderr)
	var v struct {
		Summary string `json:"summary"`
		Log     struct {
			Fabrics map[string]int `json:"fabrics"`
		} `json:"log"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &v))
	assert.Equal(t, map[string]int{"nvme1": 1}, v.Log.Fabrics)
	assert.Contains(t, v.Summary, "nvme1: an NVMe over Fabrics controller (line 1)")
}

// diagnose --host reads one machine's lines of a syslog server's file:
// the note and the JSON say which, and what was left out; a host the log
// does not name, a name no syslog line could hold, and --host without
// --log are refused (exit 2).
func TestDiagnoseHost(t *testing.T) {
	log := []byte("Dec  5 04:55:59 node1 kernel: nvme nvme0: I/O 12 QID 3 timeout, aborting\n" +
		"Dec  5 04:56:29 node1 kernel: nvme nvme0: I/O 12 QID 3 timeout, reset controller\n" +
		"Dec  5 04:56:30 node2 kernel: nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n" +
		"Dec  5 04:56:30 node2 kernel: nvme nvme0: Removing after probe failure status: -19\n")
	code, stdout, stderr := apstctl(t, log, "diagnose", "--log", "-")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stdout, `note: the log holds the kernel lines of 2 hosts ("node1", "node2"), read as one machine's`)

	code, stdout, stderr = apstctl(t, log, "diagnose", "-ojson", "--log", "-", "--host", "node2")
	require.Equal(t, 0, code, stderr)
	var v struct {
		Log struct {
			Hosts          []string `json:"hosts"`
			Host           string   `json:"host"`
			OtherHostLines int64    `json:"other_host_lines"`
		} `json:"log"`
		Notes []string `json:"notes"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &v))
	assert.Equal(t, []string{"node1", "node2"}, v.Log.Hosts)
	assert.Equal(t, "node2", v.Log.Host)
	assert.Equal(t, int64(2), v.Log.OtherHostLines)
	assert.Contains(t, v.Notes, `the log holds the kernel lines of 2 hosts ("node1", "node2"): only "node2"'s were read, and 2 line(s) of the others were left out`)

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--log", "-", "--host", "node9"}, `apstctl diagnose: --log: kernlog: no line of that host: Host "node9", but the log's NVMe and PCIe lines name "node1", "node2"` + "\n"},
		{[]string{"--log", "-", "--host", "node 2"}, `apstctl diagnose: --log: kernlog: invalid options: Host "node 2" is not a host's name as a syslog line writes it (letters, digits, '-', '.', '_', ':')` + "\n"},
		{[]string{"--host", "node2"}, "apstctl diagnose: --host goes with --log alone: a bundle or the live machine is one host\nsee 'apstctl diagnose --help'\n"},
	} {
		code, stdout, stderr := apstctl(t, log, append([]string{"diagnose"}, tc.args...)...)
		assert.Equal(t, 2, code, "%v: %s", tc.args, stderr)
		assert.Empty(t, stdout)
		assert.Equal(t, tc.want, stderr, "%v", tc.args)
	}
}

// diagnose --each-host diagnoses each host of a syslog server's file on
// its own: a line a host first, then each host's diagnosis; JSON is an
// array, a diagnosis a host. A log of one host is diagnosed as without
// the flag; --each-host with --host, --id-ctrl, a controller's name,
// --root or without --log is refused (exit 2).
func TestDiagnoseEachHost(t *testing.T) {
	log := []byte("Dec  5 04:55:59 node1 kernel: nvme nvme0: I/O 12 QID 3 timeout, aborting\n" +
		"Dec  5 04:56:29 node1 kernel: nvme nvme0: I/O 12 QID 3 timeout, reset controller\n" +
		"Dec  5 04:56:30 node2 kernel: nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n" +
		"Dec  5 04:56:30 node2 kernel: nvme nvme0: Removing after probe failure status: -19\n")
	code, stdout, stderr := apstctl(t, log, "diagnose", "--each-host", "--log", "-")
	require.Equal(t, 0, code, stderr)
	lines := strings.Split(stdout, "\n")
	require.Greater(t, len(lines), 4)
	assert.Equal(t, "the log holds the kernel lines of 2 hosts, each diagnosed on its own:", lines[0])
	assert.True(t, strings.HasPrefix(lines[1], "  node1: nvme0: undecided between apst and platform (line 1 fits both)."), lines[1])
	assert.True(t, strings.HasPrefix(lines[2], "  node2: nvme0: undecided between apst and aspm (line 3 fits both)."), lines[2])
	assert.Equal(t, "== host node1 ==", lines[4])
	assert.Contains(t, stdout, "\n== host node2 ==\nnvme0: undecided between apst and aspm (line 3 fits both).")
	assert.Contains(t, stdout, `note: the log holds the kernel lines of 2 hosts ("node1", "node2"): only "node2"'s were read, and 2 line(s) of the others were left out`)

	code, stdout, stderr = apstctl(t, log, "diagnose", "-ojson", "--log", "-", "--each-host")
	require.Equal(t, 0, code, stderr)
	var v []struct {
		Summary string `json:"summary"`
		Log     struct {
			Hosts []string `json:"hosts"`
			Host  string   `json:"host"`
		} `json:"log"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &v))
	require.Len(t, v, 2)
	for i, h := range []string{"node1", "node2"} {
		assert.Equal(t, h, v[i].Log.Host)
		assert.Equal(t, []string{"node1", "node2"}, v[i].Log.Hosts)
	}
	assert.Contains(t, v[1].Summary, "undecided between apst and aspm")

	one := []byte("Dec  5 04:56:30 node2 kernel: nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n")
	_, plain, _ := apstctl(t, one, "diagnose", "--log", "-")
	code, stdout, stderr = apstctl(t, one, "diagnose", "--log", "-", "--each-host")
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, plain, stdout, "a log of one host reads as without --each-host")
	code, stdout, _ = apstctl(t, one, "diagnose", "--log", "-", "--each-host", "-ojson")
	require.Equal(t, 0, code)
	require.NoError(t, json.Unmarshal([]byte(stdout), &v))
	assert.Len(t, v, 1)

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--log", "-", "--each-host", "--host", "node2"}, "--each-host and --host contradict"},
		{[]string{"--each-host"}, "--each-host goes with --log alone"},
		{[]string{"--log", "-", "--each-host", "nvme0"}, "a controller name or PCI address names one host's drive"},
		{[]string{"--log", "-", "--each-host", "--id-ctrl", "x.bin"}, "--id-ctrl is one drive's capture"},
	} {
		code, stdout, stderr := apstctl(t, log, append([]string{"diagnose"}, tc.args...)...)
		assert.Equal(t, 2, code, "%v: %s", tc.args, stderr)
		assert.Empty(t, stdout)
		assert.Contains(t, stderr, tc.want, "%v", tc.args)
	}
}
