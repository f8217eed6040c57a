package kernlog_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// A resume that fails on an AMD laptop whose firmware lacks
// StorageD3Enable, as a reply mail quotes it: the quoting goes, the
// wrapped line is joined, the function's PM error joins the controller's
// incident although the log lacks the boot's "pci function" line, and the
// line without a device is the system's (the lines of the kernel commit
// that added the StorageD3Enable quirks, 6e597263f990).
func Example() {
	log := `> [ 83.556118] nvme nvme0: I/O 161 QID 2 timeout, aborting
> [ 95.332114] nvme nvme0: I/O 25 QID 0 timeout, reset controller
> [ 95.332843] nvme nvme0: Abort status: 0x371
> [ 95.332909] PM: dpm_run_callback(): pci_pm_resume+0x0/0xe0 returns -16
> [ 95.332936] nvme 0000:03:00.0: PM: failed to resume async:
> error -16
`
	l, err := kernlog.Read(context.Background(), strings.NewReader(log), kernlog.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, in := range l.Incidents {
		fmt.Println(strings.TrimSpace(in.Name() + " " + in.PCI))
		for _, e := range in.Events {
			fmt.Printf("  lines %d-%d %s %s errno %d: %s\n", e.Line, e.EndLine, e.Kind, e.Phase, e.Errno, e.Raw)
		}
	}
	fmt.Println("unread lines:", l.UnreadLines)
	// Output:
	// nvme0 0000:03:00.0
	//   lines 1-1 io-timeout  errno 0: [ 83.556118] nvme nvme0: I/O 161 QID 2 timeout, aborting
	//   lines 2-2 admin-timeout  errno 0: [ 95.332114] nvme nvme0: I/O 25 QID 0 timeout, reset controller
	//   lines 3-3 abort-status  errno 0: [ 95.332843] nvme nvme0: Abort status: 0x371
	//   lines 4-4 pm-error resume errno -16: [ 95.332909] PM: dpm_run_callback(): pci_pm_resume+0x0/0xe0 returns -16
	//   lines 5-6 pm-error resume errno -16: [ 95.332936] nvme 0000:03:00.0: PM: failed to resume async: error -16
	// unread lines: 0
}

// A log as a mail archive stores it, quoted-printable (a soft break "="
// at the end of a line, "=3D" for "="), from a virtual machine: it reads
// as the mail was sent, and the hypervisor the kernel detected is kept
// (Log.Hypervisor).
func ExampleReadString_quotedPrintable() {
	log := "[    0.000000] Hypervisor detected: KVM\n" +
		"[   81.448128] nvme nvme0: controller is down; will reset: CSTS=3D0xffffffff=\n" +
		", PCI_STATUS=3D0x10\n"
	l, err := kernlog.ReadString(log, kernlog.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	e, _ := l.Incidents[0].First(kernlog.ControllerDown)
	fmt.Printf("lines %d-%d: %s\n", e.Line, e.EndLine, e.Text)
	fmt.Printf("CSTS %#x, PCI_STATUS %#x\n", e.CSTS, e.PCIStatus)
	fmt.Println("hypervisor:", l.Hypervisor.Text)
	// Output:
	// lines 2-3: nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10
	// CSTS 0xffffffff, PCI_STATUS 0x10
	// hypervisor: KVM
}

// A log attached to a bug report as dmesg.txt.gz is read as its text, and
// says so; an xz file is named and refused with the command that gives its
// text.
func ExampleRead_compressed() {
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	fmt.Fprintln(w, "[ 9999.000000] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10")
	w.Close()
	l, err := kernlog.Read(context.Background(), &gz, kernlog.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(l.Compression, l.Incidents[0].Controller, l.Incidents[0].Events[0].Kind)

	_, err = kernlog.Read(context.Background(), strings.NewReader("\xfd7zXZ\x00\x00\x04"), kernlog.Options{})
	fmt.Println(errors.Is(err, kernlog.ErrBinary), err)
	// Output:
	// gzip nvme0 controller-down
	// true kernlog: input is binary, not a text kernel log: it is xz-compressed: decompress it first (xz -dc FILE)
}

// A USB enclosure's failures are a disk's on another transport: no event
// of an NVMe drive, but Log.OtherDisks with the disk, its host, the
// transport and, for the USB reset, the port.
func ExampleLog_otherDisks() {
	log := "[  115.691139] sd 0:0:0:0: [sda] tag#19 uas_eh_abort_handler 0 uas-tag 1 inflight: CMD IN\n" +
		"[  115.727145] scsi host0: uas_eh_device_reset_handler start\n" +
		"[  115.864065] usb 2-1: reset SuperSpeed Gen 1 USB device number 2 using xhci_hcd\n"
	l, err := kernlog.ReadString(log, kernlog.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("incidents:", len(l.Incidents))
	for _, d := range l.OtherDisks {
		fmt.Printf("line %d: %s on %s, %s, USB %v, port %q\n", d.Line, d.Disk, d.Host, d.Transport, d.USB(), d.Port)
	}
	// Output:
	// incidents: 0
	// line 1: sda on scsi host0, uas, USB true, port ""
	// line 2: sda on scsi host0, uas, USB true, port ""
	// line 3: sda on scsi host0, uas, USB true, port "2-1"
}

// A syslog server's file holds several machines' kernel lines: Log.Hosts
// names them, and Options.Host reads one machine's alone, so that node2's
// nvme0 is not taken for node1's.
func ExampleOptions_host() {
	log := "Dec  5 04:55:59 node1 kernel: nvme nvme0: I/O 12 QID 3 timeout, aborting\n" +
		"Dec  5 04:56:30 node2 kernel: nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n"
	all, err := kernlog.ReadString(log, kernlog.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("hosts:", all.Hosts)
	one, err := kernlog.ReadString(log, kernlog.Options{Host: "node2"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, in := range one.Incidents {
		for _, e := range in.Events {
			fmt.Printf("%s line %d: %s\n", in.Controller, e.Line, e.Kind)
		}
	}
	fmt.Println("left out:", one.OtherHostLines)
	_, err = kernlog.ReadString(log, kernlog.Options{Host: "node9"})
	fmt.Println(errors.Is(err, kernlog.ErrNoSuchHost))
	// Output:
	// hosts: [node1 node2]
	// nvme0 line 2: controller-down
	// left out: 1
	// true
}

// A hung-task report whose stack runs through the NVMe driver's code is a
// hung-task event with that frame as its Stack, and the report's taint
// line gives the release and taint flags a paste without its boot lacks
// (a power-off blocked in nvme_wait_freeze_timeout, posted zc-11, whose
// "Not tainted" line is given a W flag here).
func ExampleLog_hungDriver() {
	log := "[   75.549201] INFO: task systemd-shutdow:1 blocked for more than 15 seconds.\n" +
		"[   75.549636]       Tainted: G        W 6.7.0-rc5-00173-g34d71db9cce2 #4540\n" +
		"[   75.551857]  blk_mq_freeze_queue_wait_timeout+0xf4/0x18c\n" +
		"[   75.552157]  nvme_wait_freeze_timeout+0x68/0xa4\n"
	l, err := kernlog.ReadString(log, kernlog.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("release:", l.Release, "taint:", l.Taint)
	for _, in := range l.Incidents {
		for _, e := range in.Events {
			fmt.Printf("line %d: %s, stack line %d: %s\n", e.Line, e.Kind, e.StackLine, e.Stack)
		}
	}
	// Output:
	// release: 6.7.0-rc5-00173-g34d71db9cce2 taint: W
	// line 1: hung-task, stack line 4: [   75.552157]  nvme_wait_freeze_timeout+0x68/0xa4
}

// An AER report's status line names its errors: here an ACS Violation at
// a root port as a laptop resumed (linux-pci, Message-ID:
// <CAAd53p7FfRCgfC5dGL3HyP+rbVtR2VCfMPYBBvJ=-DFCWFeVPA@mail.gmail.com>).
func ExampleEvent_AERErrors() {
	log := "[   50.947829] pcieport 0000:00:1b.0: PCIe Bus Error: severity=Uncorrected (Non-Fatal), type=Transaction Layer, (Receiver ID)\n" +
		"[   50.947830] pcieport 0000:00:1b.0:   device [8086:06ac] error status/mask=00200000/00010000\n" +
		"[   50.947831] pcieport 0000:00:1b.0:    [21] ACSViol                (First)\n"
	l, err := kernlog.ReadString(log, kernlog.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, in := range l.Incidents {
		for _, e := range in.Events {
			fmt.Printf("line %d: %s %s, status %#x: %v\n", e.Line, e.Kind, e.Severity, e.AERStatus, e.AERErrors())
		}
	}
	// Output:
	// line 1: aer-error Uncorrected (Non-Fatal), status 0x200000: [ACSViol]
}

// Below says from the PCI core's bridge lines whether a function sits below
// a port: here the drive is below its root port and not below a
// Thunderbolt switch's port, and the log never printed another port's
// buses.
func ExampleLog_Below() {
	log := "[    0.437377] pci 0000:00:1d.0: PCI bridge to [bus 3c]\n" +
		"[   44.636428] pci 0000:02:00.0: PCI bridge to [bus 03]\n" +
		"[    2.619705] nvme nvme0: pci function 0000:3c:00.0\n"
	l, err := kernlog.ReadString(log, kernlog.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, port := range []string{"0000:00:1d.0", "0000:02:00.0", "0000:00:1c.0"} {
		below, known := l.Below(port, "0000:3c:00.0")
		fmt.Printf("%s: below %v, known %v\n", port, below, known)
	}
	// Output:
	// 0000:00:1d.0: below true, known true
	// 0000:02:00.0: below false, known true
	// 0000:00:1c.0: below false, known false
}

// A log store's export, newest first: a CSV report of Kibana's Discover,
// its header naming the columns. The log is read oldest first, as tac
// would give it, each line numbered from the log's end.
func ExampleLog_newestFirst() {
	log := `"@timestamp",message,"host.name"` + "\n" +
		`"Dec 5, 2024 @ 04:55:54.123","nvme 0000:04:00.0: Unable to change power state from D3cold to D0, device inaccessible",web1` + "\n" +
		`"Dec 5, 2024 @ 04:55:52.123","nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10",web1` + "\n" +
		`"Dec 5, 2024 @ 04:55:51.123","nvme nvme0: pci function 0000:04:00.0",web1` + "\n"
	l, err := kernlog.ReadString(log, kernlog.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("newest first:", l.NewestFirst, "hosts:", l.Hosts)
	for _, in := range l.Incidents {
		for _, e := range in.Events {
			fmt.Printf("%s line %d (%s): %s\n", in.Controller, e.Line, e.Time.Wall.Format("15:04:05"), e.Kind)
		}
	}
	// Output:
	// newest first: true hosts: [web1]
	// nvme0 line 2 (04:55:52): controller-down
	// nvme0 line 3 (04:55:54): resume-failure
}
