package diagnose_test

import (
	"errors"
	"fmt"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// A pasted log whose controller stopped answering with its link up: APST
// and ASPM read the same, so the answer is undecided and names the boot
// that tells them apart. Told that APST off did not help, it says ASPM.
// The lines are those of a real thread (testdata/threads,
// ml-spacemit-k1-bpi-f3-aspm-l1.log).
func ExampleDiagnose() {
	l, err := kernlog.ReadString(`[    5.199513] nvme nvme0: pci function 0000:01:00.0
[   48.108400] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10
[   48.113885] nvme nvme0: Does your device have a faulty power saving mode enabled?
[   48.246914] nvme nvme0: Disabling device after reset failure: -19
`, kernlog.Options{})
	if err != nil {
		panic(err)
	}
	d := diagnose.Diagnose(diagnose.Input{Log: l})
	fmt.Println(d.Undecided, d.Separate.Setting)
	fmt.Println(d.Causes[0].Evidence[0].Quote)

	d = diagnose.Diagnose(diagnose.Input{Log: l, Tried: diagnose.ParseTried("nvme_core.default_ps_max_latency_us=0")})
	fmt.Println(d.Causes[0].Layer, d.Causes[0].Likelihood, d.APSTRuledOut)
	// Output:
	// [apst aspm] nvme_core.default_ps_max_latency_us=0
	// [   48.108400] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10
	// aspm possible true
}

// ParseTriedFlag reads what apstctl diagnose --tried takes.
func ExampleParseTriedFlag() {
	t, err := diagnose.ParseTriedFlag("pcie_aspm=off:helped,nvme.noacpi=1")
	fmt.Println(t, err)
	// Output: [pcie_aspm=off (helped) nvme.noacpi=1 (did not help)] <nil>
}

// ParseCommandLine reads the log's kernel command line as the kernel
// splits it: a comma and a colon belong to the value, quotes hold blanks,
// and what follows "--" is init's.
func ExampleParseCommandLine() {
	for _, t := range diagnose.ParseCommandLine(`console=ttyS0,115200n8 nvme.quirks=144d:a808:no_apst dyndbg="file nvme.c +p" -- single`) {
		fmt.Println(t)
	}
	// Output:
	// console=ttyS0,115200n8 (did not help)
	// nvme.quirks=144d:a808:no_apst (did not help)
	// dyndbg=file nvme.c +p (did not help)
}

// DecodeSlotPower reads the slot power limit of a function's config file:
// here a root port's Slot Capabilities (value 250 at scale 0.1 W), then
// what an unprivileged read gets, the header alone.
func ExampleDecodeSlotPower() {
	config := make([]byte, 256)
	config[0x06] = 0x10                     // Status: capability list
	config[0x34] = 0x40                     // first capability
	config[0x40], config[0x41] = 0x10, 0x00 // PCI Express, last
	config[0x42], config[0x43] = 0x42, 0x01 // root port, slot implemented
	config[0x55], config[0x56] = 0xfd, 0x04 // Slot Capabilities: limit 250, scale 1
	p, err := diagnose.DecodeSlotPower(config)
	fmt.Println(p, p.Slot, err)
	_, err = diagnose.DecodeSlotPower(config[:64])
	fmt.Println(errors.Is(err, diagnose.ErrConfigNeedsRoot))
	// Output:
	// 25 W true <nil>
	// true
}

// A paste of a failure's consequences without the failure (here a file
// system's I/O error on the drive's partition, as a linux-block report
// quotes it) is no "no failure seen": the summary says what is missing and
// Consequences quotes the lines.
func ExampleDiagnosis_consequences() {
	l, err := kernlog.ReadString("[  517.654795] XFS (nvme0n1p2): log I/O error -5\n", kernlog.Options{})
	if err != nil {
		panic(err)
	}
	d := diagnose.Diagnose(diagnose.Input{Log: l})
	fmt.Println(d.Failure, len(d.Causes))
	for _, c := range d.Consequences {
		fmt.Printf("line %d: %s\n", c.Line, c.Text)
	}
	// Output:
	// false 0
	// line 1: XFS met an I/O error on nvme0n1p2
}
