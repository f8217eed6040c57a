package kernlog

// Log is what Read found.
//
// The zero Log is a log of nothing: no line read, no event, no incident,
// and Below knows no bridge.
type Log struct {
	// Release is the kernel release of the last boot the log shows
	// ("Linux version ..."), with the stable update a distribution's X.Y.0-N
	// release is built on where the line gives it, in apst.ParseRelease's
	// form ("5.4.0-72-generic (Ubuntu 5.4.0-72.80-generic 5.4.106)",
	// "5.10.0-28-amd64 (Debian 5.10.209-2)"), or, when the boot has no such
	// line, the release a kernel dump's taint line names ("CPU: 3 PID: 1
	// Comm: ... Not tainted 6.1.0-18-amd64 #1 Debian 6.1.76-1", a hung
	// task's "Tainted: G E 6.13.2 #1"); CommandLine its command line;
	// empty when the log does not have them.
	Release     string
	CommandLine string
	// CommandLineEvent is the event CommandLine was read from (its line
	// number and the line as it appears, which evidence quotes), nil when
	// the log does not have one.
	CommandLineEvent *Event
	// Machine and Hypervisor are the last boot's Machine and Hypervisor
	// events (the machine as its firmware names it, the hypervisor the
	// kernel ran under), nil when the log does not have them.
	Machine, Hypervisor *Event
	// DriverFrame is the first line of a stack dump that runs through the
	// NVMe driver's code ("lr : nvme_timeout+0x50/0x350", "Workqueue:
	// nvme-reset-wq nvme_reset_work") outside the dump of any kernel bug
	// (a warning, an oops) the log holds: a dump pasted without its first
	// lines, or a hung task's (Kind is empty; Line and Raw say where). Nil
	// when there is none.
	DriverFrame *Event
	// Taint is the last boot's taint flags, from the first kernel dump's
	// taint line ("OE" of "Tainted: G OE 6.8.0-117-generic
	// #117-Ubuntu": a module built out of the tree, unsigned), G (all
	// modules GPL) left out: P says a proprietary module was loaded, O
	// an out-of-tree one, which the kernel's developers ask a report to
	// be reproduced without. Empty when the dump says "Not tainted" or
	// the log has no dump.
	Taint string
	// FileSystemReport is the first line of a file system that reports
	// trouble of its own on an NVMe disk, no I/O error ("EXT4-fs error
	// (device nvme0n1p2): ext4_lookup:1700: inode #917524: comm rm: iget:
	// checksum invalid", "JBD2: journal transaction 80849 on nvme0n1p2-8
	// is corrupt."): a corruption it found in what the drive returned
	// without an error, or a mount's notice. Kind is empty, Disk and
	// Driver set as a FileSystemError's. Nil when there is none.
	FileSystemReport *Event
	// EEH is the first line of POWER's Enhanced Error Handling that
	// froze a partitionable endpoint ("EEH: Frozen PHB#18-PE#10000
	// detected", arch/powerpc/kernel/eeh.c; "EEH: Detected PCI bus error
	// on PHB#0-PE#100" of older kernels): the platform's report of a PCIe
	// error, whose recovery the nvme driver's "frozen state error
	// detected" line is part of. Kind is empty. Nil when there is none.
	EEH *Event
	// OSC is the first line that says the firmware's _OSC method, the
	// ACPI handshake through which the OS takes control of PCIe features
	// (native hot-plug, AER, PME, ASPM), failed with an error other than
	// its absence ("acpi PNP0A08:00: _OSC failed (AE_ERROR); disabling
	// ASPM" of older kernels, "_OSC: platform retains control of PCIe
	// features (AE_ERROR)" of newer ones; drivers/acpi/pci_root.c): broken
	// firmware tables, or tables a user overrode. Kind is empty. Nil when
	// there is none.
	OSC *Event
	// BlockedTask is the first hung-task report that names no NVMe disk
	// ("INFO: task fdisk:3791 blocked for more than 966 seconds.", a
	// task waiting on I/O the log does not tie to a device; one named
	// after an NVMe disk, or whose stack runs through the NVMe driver's
	// code, is a HungTask event). Kind is empty. Nil when there is none.
	BlockedTask *Event
	// Boots is the number of "Linux version" lines.
	Boots int
	// Lines is the number of lines read; LongLines those longer than
	// MaxLineLength (skipped), BinaryLines those holding NUL bytes
	// (skipped, whatever their length).
	Lines       int64
	LongLines   int64
	BinaryLines int64
	// Events is the number of events recognised; DroppedEvents those not
	// kept (beyond MaxEvents or MaxIncidentEvents), DroppedIncidents the
	// incidents dropped beyond MaxIncidents (the oldest).
	Events           int64
	DroppedEvents    int64
	DroppedIncidents int64
	// NewestFirst says that the log's lines ran newest first (an export
	// sorted by time, descending: Kibana's Discover, Google Cloud
	// Logging, CloudWatch Logs Insights; journalctl -r): its events'
	// times stepped back far more often than on, and Read read it again
	// reversed, oldest first, as tac would give it: every line number
	// (an event's, an unread line's) then counts from the log's end,
	// line 1 its last line.
	NewestFirst bool
	// Backwards counts lines whose time stamp is earlier than the one
	// before in the same boot (a log pasted out of order, or merged).
	Backwards int64
	// Addresses maps PCI addresses to controllers, from Options, the log's
	// "pci function" lines and, when the log names exactly one NVMe PCI
	// function and one controller, that pair; at most MaxAddresses of them
	// (a line naming a known address updates it). DroppedAddresses counts
	// the lines of addresses beyond.
	Addresses        map[string]string
	DroppedAddresses int64
	// Namespaces maps the log's NVMe disks ("nvme1n1"; a partition is its
	// disk's) to the controller the log ties them to: by the partition scan
	// that follows a controller's probe, or because the log names one
	// controller only (a path name needs no entry: nvme1c0n1 names
	// controller nvme0 itself). At most MaxAddresses; DroppedNamespaces
	// counts the disks beyond.
	Namespaces        map[string]string
	DroppedNamespaces int64
	// Controllers are the controllers the log names ("nvme0"): by a line
	// of their own, a "pci function" line, a disk the log ties to them or
	// an incident; in the order of their numbers, at most MaxAddresses
	// (those of Options.Addresses among them). Empty when the log names
	// none.
	Controllers []string
	// DeviceIDs maps the PCI addresses of the NVMe functions the PCI core
	// enumerated in the log ("pci 0000:04:00.0: [144d:a80c] type 00 class
	// 0x010802") to their vendor:device IDs ("144d:a80c"), which the
	// kernel's PCI quirk tables match; at most MaxAddresses.
	DeviceIDs map[string]string
	// Fabrics maps the controllers the log shows connected over a fabric
	// to the first line that says so (FabricsConnect); at most
	// MaxAddresses.
	Fabrics map[string]Event
	// Passthrough maps the PCI functions the log shows bound to a driver
	// that hands them to a virtual machine (vfio-pci, Xen's pciback,
	// pci-stub: "pciback 0000:05:00.0: xen_pciback: seizing device") to
	// the first such line (its Driver the driver); at most MaxAddresses.
	Passthrough map[string]Event
	// RemoveRequest is the first command in the log that asked the PCI
	// core to remove a device ("echo 1 > /sys/bus/pci/devices/0000:01:00.0/remove",
	// a shell's line pasted with the kernel's): the device's lines after
	// it (its -19, the disk gone) are the removal's; nil for none.
	RemoveRequest *Event
	// Unread lists the first MaxUnread lines that look like NVMe or PCIe
	// failure messages (they name nvme or a PCI function together with a
	// failure word) but were not read as an event; UnreadLines counts them
	// all. A log with no event and no such line shows no failure.
	Unread      []UnreadLine
	UnreadLines int64
	// Relayed are the first MaxUnread lines of programs other than the
	// kernel (a syslog or journal line of smartd, of a log relay) that
	// repeat an NVMe or PCIe failure message of the kernel's, each with
	// its Program; RelayedLines counts them all. They are not the kernel's
	// lines and join no incident: a log that has them and no failure
	// lacks the kernel's own lines.
	Relayed      []UnreadLine
	RelayedLines int64
	// FileSystemErrors are the first MaxUnread reports of a file system
	// that met an I/O error on an NVMe disk (FileSystemError events, in no
	// incident); FileSystemErrorLines counts them all. A log that has them
	// and no failure of the drive's lost the lines that say why.
	FileSystemErrors     []Event
	FileSystemErrorLines int64
	// OtherDisks are the first MaxUnread failure lines of disks the kernel
	// drives through another transport than NVMe: a USB-attached disk's
	// (an NVMe drive in a USB enclosure among them), a SATA or SAS
	// disk's; OtherDiskLines counts them all. They join no incident: a
	// log whose failures are theirs alone has no failure of an NVMe
	// drive, and says whose it has.
	OtherDisks     []OtherDiskLine
	OtherDiskLines int64
	// Incidents are the incidents in the order they started.
	Incidents []Incident
	// Hosts are the hosts whose NVMe and PCIe kernel lines (the lines
	// Read reads) the log holds, in the order they first appear, when its
	// lines name them (syslog and journal lines: "node2 kernel: ...", a
	// journal record's _HOSTNAME, a Loki label set's host: {host="node2"});
	// at most MaxHosts, and MoreHosts says that lines of further hosts
	// came. More than
	// one is a log of several machines, whose drives of the same name are
	// not one drive (Options.Host reads one machine's lines). Host is
	// Options.Host, and OtherHostLines counts the NVMe and PCIe kernel
	// lines it left out.
	Hosts          []string
	MoreHosts      bool
	Host           string
	OtherHostLines int64
	// Compression is the compressed file Read opened to read the log in
	// ("gzip", "bzip2"; a bug tracker's dmesg.txt.gz, logrotate's
	// kern.log.2.gz); empty for text.
	Compression string
	// bridges are the buses below each bridge, as the PCI core's "PCI
	// bridge to [bus 03-39]" lines give them (Below).
	bridges map[string]busRange
}

// UnreadLine is a line that looks like an NVMe or PCIe failure message but
// was not read: its number (of its first physical line) and its text
// without quoting, at most MaxTextLength bytes.
//
// The zero UnreadLine is no line of a log: Line 0 (lines count from 1), no
// text and no program.
type UnreadLine struct {
	Line int
	Text string
	// Program is, in Log.Relayed, the program a syslog or journal line
	// attributes the line to ("smartd"); empty in Log.Unread.
	Program string
}

// Incident is a run of events of one controller (or of one PCI address the
// log and the options do not tie to a controller, or of the system: sleep
// and interrupt lines) without a quiet gap longer than Options.Gap, within
// one boot.
//
// The zero Incident holds no event: Has and First find none, and Name is
// "kernel", as for an incident that names no controller or PCI address.
type Incident struct {
	// Controller is the controller ("nvme0"); empty when the events name
	// only a PCI address, which PCI then holds, or no device.
	Controller string
	PCI        string
	// Boot is the boot the incident happened in, counted from 0 (the part
	// of the log before the first "Linux version" line is boot 0 as well).
	Boot int
	// Start and End are the times of its first and last events that carry
	// one (a line without a time stamp leaves them to the next that has
	// one); zero when none does.
	Start Timestamp
	End   Timestamp
	// Events are the events kept, in log order; Omitted is how many were
	// not kept between the first and the last ones.
	Events  []Event
	Omitted int
	// Counts is the number of events of each kind, kept or not; a run of
	// sleep lines of one direction (a suspend's "PM: suspend entry",
	// "OOM killer disabled." and "Preparing to enter system sleep state",
	// or a resume's several lines) counts once.
	Counts map[Kind]int

	tail []Event // ring of the last events while reading
	next int     // index of the oldest event of a full tail
	key  string  // the key Read opened it under ("nvme0", "pci X", "disk X", "kernel")
	slp  int8    // the last sleep line: 1 an entry, 2 an exit
}

// Has reports whether the incident has an event of kind k.
func (in *Incident) Has(k Kind) bool { return in.Counts[k] > 0 }

// First returns the first kept event of kind k.
func (in *Incident) First(k Kind) (Event, bool) {
	for _, e := range in.Events {
		if e.Kind == k {
			return e, true
		}
	}
	return Event{}, false
}

// Name is the controller, or the PCI address when the controller is
// unknown, or "kernel" for events of no device.
func (in *Incident) Name() string {
	switch {
	case in.Controller != "":
		return in.Controller
	case in.PCI != "":
		return in.PCI
	}
	return "kernel"
}
