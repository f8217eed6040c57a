// Package kernlog reads the kernel log lines of an NVMe drop-out.
//
// It reads the lines that matter when an NVMe drive drops out, resets or
// stalls (kernel-apst.md §15), from a pasted or live log, and groups them
// into incidents per controller.
//
// # Shapes
//
// [Read] streams any log a user is likely to paste, and reads each of these
// shapes to the same events as plain dmesg:
//
//   - dmesg ("[   12.345678] nvme nvme0: ..."), dmesg -T ("[Tue Dec  1
//     10:00:00 2026] ...", in any locale: "[Ter Set 19 06:01:41 2017]",
//     a month Read does not know leaving the date out), dmesg -H ("[Sep12 13:16] ...", "[Dec 4 08:00]
//     ..." early in a month, then "[  +0.000009] ..." after each line, the
//     times added up from the minute, whose second no line gives:
//     [Timestamp.NoSecond]), dmesg -d ("[   12.345678 <    0.000123>] ...", and
//     --time-format=delta's "[<    0.000123>] ...", which dates nothing),
//     dmesg -x
//     ("kern  :err   : [...] ..."), dmesg --time-format=iso, dmesg --json
//     (a record over lines: its "msg" is read as the line dmesg prints,
//     with the record's "time", and that line is the event's Raw), a
//     printk level ("<3>[...] ...");
//   - printk caller ids after the time, attached or apart ("[   81.448128][
//     T64] nvme ...", "[   81.448128] [    C3] ...", "[T64]"), in dmesg, in
//     syslog lines that keep the dmesg time and after a journal's prefix;
//   - journalctl -k in the short, short-precise, short-monotonic, short-iso
//     short-full ("Tue 2026-12-01 10:00:00 UTC host kernel: ...") and
//     short-unix ("1764583200.123456 host kernel: ...") formats, with its "-- Boot 3f0c... --" separators (a new boot), -o cat
//     (bare messages), and -o json: one JSON object a line, of which only
//     the kernel's records are read (_TRANSPORT or SYSLOG_IDENTIFIER
//     "kernel"), their MESSAGE a string or an array of bytes, their time
//     the kernel's (_SOURCE_MONOTONIC_TIMESTAMP, else
//     __MONOTONIC_TIMESTAMP) and __REALTIME_TIMESTAMP, a change of _BOOT_ID
//     a new boot; -o json-seq, the same record after a record separator
//     (RFC 7464); -o json-pretty, a record over lines ("{", a
//     "KEY" : value field a line, "}"), read whole as -o json's line is,
//     its event quoted from its MESSAGE line; and -o verbose and -o export
//     (a record a field a line, its fields in any order), read when the
//     record ends as -o json's record is, with its time (-o verbose's
//     from the cursor of its first line), its event quoted from its
//     MESSAGE line ("MESSAGE=nvme nvme0: ..."); a record that names no
//     program is read as the kernel's;
//   - log shippers' JSON records, one a line, that hold none of the
//     journal's fields: Elasticsearch's and Filebeat's documents ("message",
//     "@timestamp", "host.name"; an elasticdump line's "_source"), Grafana
//     Loki's logcli --output jsonl ("line", "timestamp", the host among its
//     "labels"), a Splunk export ("result" with "_raw", "_time", "host"),
//     Fluent Bit's kmsg input ("msg", its "sec" and "usec" since boot), a
//     GELF message ("short_message"), Google Cloud Logging's entries a
//     line (textPayload or jsonPayload.message), CloudWatch Logs' events
//     a line (message, timestamp, logStreamName) and Papertrail's JSON
//     events. A message that carries a log
//     line's own prefix (a syslog line) is read as that line; a bare one
//     is the kernel's unless the record names another program ("process",
//     "programname", "appname", "ident"), whose message is kept as
//     relayed. The record's time (RFC 3339 with its offset, or a number
//     of seconds since 1970, or of their thousandths, millionths or
//     billionths) and host fill what the message does not say;
//   - log stores' CSV exports: Kibana's CSV report of a Discover search
//     (its header the columns' field names: "@timestamp",message,...; the
//     time as Kibana shows it, "Dec 5, 2024 @ 04:55:59.123", in a zone it
//     does not say) and Splunk's export of events ("_time","host",...,
//     "_raw"): a header with a message's column (message, _raw, line,
//     msg, log) makes every row after it one line, read by its columns as
//     a shipper's record is, as are CloudWatch Logs Insights' (@timestamp,
//     @message, @logStream) and Azure Monitor's Syslog table's
//     (TimeGenerated [UTC], Computer, SyslogMessage; the US English time
//     "12/5/2024, 4:55:59.123 AM") and Synology's Log Center's (a title
//     line, then Level, Log, Time, User, Event); and Kibana's Discover rows copied as
//     text ("Dec 5, 2024 @ 04:55:59.123", a tab, the message);
//   - the clouds' tools' JSON documents over lines, their default output
//     (aws logs filter-log-events, gcloud logging read --format=json, az
//     monitor log-analytics query, aws logs get-query-results): the
//     document is read whole (at most 64 MiB) and each record in it (an
//     array's element that holds a message, or a row of field and value
//     pairs) read as a shipper's record is, at the line it starts on (a
//     document on one line numbers its records one a line, as jq -c
//     would print them), and gcloud logging read's default YAML (an
//     entry's textPayload or jsonPayload.message, timestamp and
//     resource_name label, a wrapped value joined);
//   - aws logs tail's lines (an ISO time, the log stream's name, the
//     message or a whole syslog line) and talosctl dmesg's of several
//     nodes (the node's name or address first): the stream or node is
//     the line's host;
//   - syslog files with an RFC 3164 or ISO time and a host, with or without
//     the dmesg time after "kernel:" (dmesg's or dmesg -T's, fed to a
//     logger), and journal and syslog times whose
//     month is spelt in another language ("Mär 21", " 3月 13"; a month
//     Read does not know leaves the date out, Timestamp.NoDate), with a
//     facility and level before the program (BusyBox's syslogd: "router
//     kern.err kernel: ..."), OpenWrt's logread ("Sat Dec  5 04:55:59 2026
//     kern.warn kernel: ..."); Grafana Loki's logcli
//     (2026-12-05T04:55:59Z {host="node3"} nvme ...); the syslog
//     protocol's lines (RFC 5424, with or without structured data:
//     "<3>1 2026-12-05T04:55:59Z host kernel - - - nvme ...", and without
//     the "<PRI>", as some collectors store them: "1 2026-12-05T...");
//   - any of these newest first (journalctl -r; an export sorted by time,
//     descending, as Kibana's Discover, Google Cloud Logging and CloudWatch
//     Logs Insights list it): when its events' times step back at least
//     twice and more than four times as often as on, the log is read again
//     reversed, as tac gives it, its line numbers counted from its end
//     (Log.NewestFirst; at most 131,072 lines or 32 MiB of NVMe and PCIe
//     lines are kept to do so, and a log of more is read as it comes);
//   - any of these with their line ends lost (every message on one line, as
//     some web forms paste): a second head of the shape and layout the line
//     starts with (a time of the same kind, laid out alike, after a blank
//     and any quote marks; a host and "kernel: " again) starts a message,
//     another program's line of such a log too, in every shape above but
//     those whose head is not the time's (a line number, a file name, a
//     table's or markup's cells), the JSON and record forms, and lines with
//     no time or host at all;
//   - any of these with what copying added to them taken off first: a
//     terminal's escape sequences (dmesg --color=always), a web page's
//     no-break, figure, narrow and zero-width spaces, byte order marks and
//     a word processor's soft hyphens and typographic dashes,
//     HTML's entities (&quot;, &gt;) from a page's source;
//   - a bare "kernel: nvme ...", after a time of day ("07:45:58 kernel:
//     ..."), an ISO time or the dmesg time, or after a host's name alone
//     (a journal line with its time cut off: "thinkpad kernel: ...");
//   - a date in an order of its own before the time of day and the
//     kernel's name, as NAS pages, log viewers and locales write it
//     ("12/05/2026 10:00:00 host kernel: ...", "05.12.2026 ...", "2026 Dec
//     5 ...", "Dec 05 2026 ..."): whether "12/05" is the month is not
//     known, so the date is left out (Timestamp.NoDate) unless the month
//     is named and the year given ("Mar 14 2025 03:22:41");
//   - a time of day or a date and time in brackets before each line, as a
//     logger's or a terminal's time-stamping writes them ("[18:14:04]
//     nvme ...", "[2024-12-05 04:55:59] nvme ...");
//   - /dev/kmsg records ("6,1234,5678901,-,caller=T64;message");
//   - any of these after grep's file name and line number
//     ("/var/log/kern.log.1:Dec  5 ...", "syslog:812:2026-12-05T...", "812:[
//     12.345678] ...") or a listing's line number ("   812<tab>[
//     12.345678] ...", cat -n), which Event.Raw leaves out;
//   - all of these indented, with tabs, CRLF or CR line ends, quoted ("> ",
//     ">> >") as in a reply mail or a bug report, ("  |  ") as some
//     commit messages quote a log, or ("# ") as comments of a script or a
//     Nix file, after another program's output on a console ("Jobs: 6 ([
//     519.858094] nvme nvme1: ...", a shell prompt, a serial capture's own
//     time: "[10:00:00.123] [  519.858094] ...": read from the time stamp,
//     its time kept where the line reads as an event without it too), a single message quoted in a sentence ("I see `nvme nvme0:
//     I/O 34 QID 13 timeout, aborting` in the journal"), after the level a serial console's
//     capture puts before each line ("CRIT: ", "WARN: ", "INFO: "; the
//     kernel's own "INFO: task ..." and "INFO: rcu..." keep theirs),
//     made bold in Markdown ("**...**"), a Markdown table's row ("| ...
//     |"; a row of several cells when its first is a time stamp, the
//     message in its last and the device's prefix or the program in the
//     cell before: "| 12.345678 | nvme nvme0 | controller is down; ... |",
//     "| Dec 05 10:00:00 | kernel | nvme nvme0: ... |"; a row whose first
//     cell is no time is not read, and listed unread if it looks like a
//     failure), or inside a forum's BBCode code tags pasted raw
//     (the opening tag before the first line's time, the closing one
//     after its message);
//   - and wrapped by a mail client or a bug tracker at 72 to 80 columns. A
//     physical line that cannot start a message (it has no time stamp or
//     prefix of its own and does not read as the start of a kernel message:
//     "CSTS=0xffffffff, PCI_STATUS=0x10", "device inaccessible", "(Receiver
//     ID)", "default_ps_max_latency_us=0 ...", a lower-case word) joins the
//     line before it when that line ends incomplete (a trailing blank, as
//     format=flowed mail leaves, a comma, colon, semicolon, open
//     parenthesis or quote; or a device's prefix with nothing after it,
//     "pcieport 0000:00:06.0:") or holds a keyword but reads as no event alone,
//     and when the line before holds no keyword but the two read as an event
//     ("Buffer I/O error on dev" + "nvme0n1, logical block ..."). After a
//     time-stamped line that format=flowed broke, any line without a stamp
//     joins. A line that reads as an event on its own is never joined to,
//     so that stray text does not change a log's events; a word broken in
//     two stays broken. In a log whose messages carry their time stamp or
//     prefix (nine in ten of the messages read), a line without one continues
//     the message before it even where it starts with a capital ("PCIe Bus
//     Error: severity=Corrected, type=Physical" cut before "Error"), a stamp
//     alone takes the next line as its
//     message, a stamp and one word ("kernel: [ 43.59] nvme") takes the
//     rest, and a message broken in three ("2-byte config write to" +
//     "0000:01:00.0" + "offset 0x7a may corrupt adjacent RW1C bits") is
//     joined whole. A message of a fixed format cut before its end ("type=
//     Physical" without "Layer, (Receiver ID)", "Corrected error received:"
//     without the device, "PCI_STATUS read" without "failed (134)",
//     "timeout, completion" without "polled", "Unable to change power state
//     ..." without "inaccessible", "I/O tag 960 (33c0) opcode" without
//     its queue, "min host memory (64 MiB) above" without its limit) takes
//     the next line whatever it starts with; so does a line that ends in a
//     device's prefix and a tag ("pcieport 0000:00:06.0: AER:"), or in a
//     word no message ends in ("ignoring ctrl due to"). A failure word
//     broken across the lines ("duplicate" + "subnqn") joins them. At most
//     MaxWrapLines physical lines (a quoted-printable line's soft breaks
//     counted) and MaxWrapLength bytes make one message.
//     TestThreadsInEveryShape (in package diagnose) re-pastes every real
//     thread's log quoted, indented, with CRLF, wrapped at 78, 72, 64,
//     60, 56 and 48 columns and quoted-printable: the same answer and no
//     line unread; narrower
//     wraps (40 columns) still lose lines of some logs, where a message is
//     broken in four;
//   - and as a mail archive stores a quoted-printable message (RFC 2045):
//     a line that ends in a soft break ("=") goes on on the next line
//     without a blank ("Unable to change power st=" + "ate from D3cold to
//     D0, ..."), "=3D" is an "=" ("CSTS=3D0x3"), and a line's last "=20"
//     its blank (format=flowed mail's soft break, once encoded). A raw
//     mail's "Content-Transfer-Encoding: quoted-printable" header says so
//     at once; until then, and until the log shows an "=3D", only a line as long as an encoder makes it (73
//     to 76 characters) whose next line does not start a message of its
//     own is taken for one, and a "=20" only before such a line; a wrap at
//     72 or 80 columns after "CSTS=" is not, nor "nr_cpus=20" at the end
//     of the command line. A kernel line longer than 80 characters says
//     the log is no stored mail body: nothing after it is decoded.
//     TestQuotedPrintableReadsAsPlain encodes every shape above with the
//     standard library's encoder: the same incidents.
//
// Lines that other programs logged (systemd, smartd, "mount[353]: ...")
// are no kernel lines.
// A line that is not one of the events below is skipped, never an error.
//
// # Events
//
// Each event ([Kind]) keeps its message as logged (Event.Text) and the line
// as it appears in the log (Event.Raw: the time stamp and all, without the
// surrounding whitespace and quoting, a wrapped message's lines joined with
// one space), with the numbers of its first and last physical lines
// (Event.Line, Event.EndLine), so that evidence can quote the log exactly.
//
// The controller down with CSTS and PCI_STATUS, the "faulty power saving
// mode" hint and the parameters it suggests, I/O and admin command
// timeouts in the old and the 6.x shapes with the action the driver took
// ("completion polled" included), abort status, probe and reset failures,
// a failed Set Features APST, D3cold (or D3hot) resume failures (in the
// PCI core's current and older spellings), AER reports (the root port's
// "error received" line naming the device, in both spellings, and the
// device's "PCIe Bus Error" line with severity and layer, and the status
// line after it into Event.AERStatus), pciehp link-down
// reports, block I/O errors ("I/O error, dev nvme0n1", the older
// "blk_update_request: I/O error", "Buffer I/O error on dev nvme0n1p2") and
// nvme's with the NVMe status, a disk whose capacity fell to zero
// ([DiskGone]: the disk vanished), the "pci function" line that ties a
// controller to its PCI address, the PCI core's enumeration line that gives
// an NVMe function's vendor:device ID ([PCIDevice], into Log.DeviceIDs, for
// the kernel's PCI quirk table), the line of a controller connected over
// a fabric ([FabricsConnect]: "new ctrl: NQN ...", into Log.Fabrics), a
// function bound to a driver that hands it to a virtual machine or user
// space (vfio-pci, pciback, pci-stub: into Log.Passthrough), the
// deletion of a controller ([Reset] with [ActionDeleted]: "Removing ctrl:
// NQN ..."), the kernel release and command line
// (init/main.c's "Kernel command line:" and x86's earlier "Command line:"),
// and the machine and the hypervisor ([Machine]: "DMI: ..." at boot, a
// device tree's "Machine model: ..." or a crash dump's "Hardware name:
// ..."; [Hypervisor]: x86's "Hypervisor
// detected: KVM"), into Log.Machine and Log.Hypervisor.
//
// The failure lines of a disk on another transport (a USB-attached disk's
// uas aborts and resets, a SCSI command's "FAILED Result:", the block
// layer's "I/O error, dev sdc", libata's "failed command:") are no event:
// they go to Log.OtherDisks, with the disk, the SCSI host and its driver
// as the log ties them. A Thunderbolt/USB4 host's failure to activate
// the PCIe tunnel to a device it found is a [LinkDown] of the host's
// function ([ActionTunnelFailed]); the driver's other lines name its host,
// never a drive, and are not left unread.
//
// And the system and platform around a failure: the system going to sleep
// and coming back ([SuspendEntry], [SuspendExit] with the mode: deep,
// s2idle, S3, hibernation), devices that failed to suspend or resume
// ([PMError], with the phase and the errno), what the PCI core did with
// ASPM ([ASPMPlatform]), the speed a PCIe host controller trained its link
// at ([HostLinkUp]), interrupts nobody handled ([LostInterrupt]), the
// host memory buffer ([HostMemoryBuffer], with its size), the PCIe error
// recovery of a device ([AERRecovery]; s390's zPCI error event, the
// machine's firmware reporting a function's error, with
// [ActionPlatformError], tying the function to the controller whose
// handler speaks right after it), an NVMe function's memory BAR that the
// PCI core could not assign ([PlatformFault] with [ActionBARUnassigned]:
// held until the boot shows it was assigned after all or the driver
// enabled the device, which take it back), and any other line of the NVMe
// driver that names a controller, a namespace or a function and holds a
// failure word ([DriverError]), so that no such line is dropped silently.
//
// Kernel warnings and crashes ([PlatformFault] with [ActionKernelBug]:
// "WARNING: CPU: ..." and, since 6.19, "WARNING: FILE:LINE at ...",
// "BUG: ...", "kernel BUG at", a watchdog's lockup,
// arm64's "Internal error: Oops", x86's "general protection fault" and
// "Oops: ...", the last read as part of the crash before it) are held while
// their dump goes by: the first dump line (within 600 lines and, when the lines have times,
// 2 seconds) that places the
// crash in the NVMe driver's code (its worker, a call-trace frame, the
// faulting instruction, the source file a warning names; not a frame the
// unwinder marks "? ") is kept as Event.Stack; events other CPUs print
// in the middle of the dump wait behind the crash, so incidents keep log
// order. Such a crash names no controller; the log's only one is its. A
// hung-task report ("INFO: task ... blocked for more than 122 seconds.")
// is held the same way: one whose stack runs through the driver's code is
// a [HungTask] event with that Stack, the driver itself hung; another,
// unless its task is named after an NVMe disk, is Log.BlockedTask. A
// dump's taint line gives Log.Taint and, when the boot has no "Linux
// version" line, Log.Release; POWER's EEH line that froze an endpoint is
// Log.EEH; the firmware's _OSC method that failed ("acpi PNP0A08:00: _OSC
// failed (AE_ERROR); disabling ASPM") is Log.OSC; a shell's command pasted
// with the log that removed a PCI device ("echo 1 >
// /sys/bus/pci/devices/0000:01:00.0/remove") is Log.RemoveRequest.
//
// A file system's (or md's, bcache's, a device mapper's) report of an I/O
// error on an NVMe disk ([FileSystemError]: "XFS (nvme0n1p2): log I/O
// error -5", btrfs's "errs: wr 1, ..." at an error, not its counters at
// mount; a corruption found, "error 117", is not an I/O error) joins no
// incident: it is the consequence of a failure the drive's lines tell. The
// first MaxUnread are kept in Log.FileSystemErrors, so that a paste of
// them alone can be told from a log with no failure. A file system's
// trouble of its own on an NVMe disk (a corrupt journal, a checksum) is
// no I/O error: the first such line is Log.FileSystemReport.
//
// # What could not be read
//
// Lines that look like NVMe or PCIe failure messages, naming nvme or a PCI
// function together with a failure word ("controller is down", "timeout",
// "CSTS", "D3cold", "reset", "I/O error", "failed", "inaccessible", "AER"),
// but that Read did not read as an event are counted in Log.UnreadLines,
// and the first MaxUnread of them listed in Log.Unread with their line
// numbers; a file system's other complaints about a partition, the detail lines
// of an AER report and the lines a healthy boot prints ("PME# supported
// from D0 D3hot D3cold", "AER: enabled with IRQ") are not. A log with no
// incident and no unread line shows no failure; one with unread lines lets
// the caller say that N lines look like NVMe or PCIe messages but could not
// be read. A syslog or journal line of another program that repeats such
// a message ("host smartd[912]: nvme nvme0: controller is down; ...") is
// neither an event nor unread: Log.Relayed keeps the first MaxUnread with
// their Program, and Log.RelayedLines counts them.
//
// Android's logcat -b kernel is no shape Read knows: logd moves a
// message's prefix into the line's tag, so that the driver's name and a
// function's address cannot be told back for sure. A line whose message
// kept its words is read, without its time (the block layer's "E
// : I/O error, dev nvme0n1, ...", and a function's "I nvme 0000:
// 01:00.0: Unable to change power state ..." without its address); one
// whose "nvme nvme0:" became the tag ("E nvme0   : controller is down;
// ...") is listed unread.
//
// # Incidents and how events are joined
//
// An incident is a run of events of one controller without a quiet gap
// longer than Options.Gap, within one boot. Events that name no device
// (sleep, lost interrupts, a PM error of no device) form the system's
// incidents (Incident.Name "kernel"). An event that names only a PCI
// address, a port or a disk is tied to a controller through every link the
// log gives, whether it comes before or after the event:
//
//   - the "pci function" lines, and Options.Addresses;
//   - when the log names exactly one NVMe PCI function (a line whose
//     driver is "nvme" with a PCI address) and exactly one controller, the
//     two (added to Log.Addresses);
//   - a port that reported a function's AER errors is above it: its own
//     events (a link down, an AER recovery) are the function's controller's;
//     so is a port whose buses, as the PCI core's enumeration sets them up
//     ("pci 0000:00:1c.0: PCI bridge to [bus 01]"), are one bus holding
//     one NVMe function (a port above a slot; a switch's, with several
//     buses, or a bus of two functions ties nothing);
//   - the PCI core's recovery of a function an AER report names runs the
//     error handlers of the drivers below the port: when the nvme driver
//     prints for that function and one controller's handler speaks in the
//     recovery ("frozen state error detected", "restart after slot
//     reset", within 64 lines and 10 s of the report), the function is
//     that controller's (added to Log.Addresses); two controllers'
//     handlers (a switch above both) tie it to neither;
//   - when still nothing ties it, an address's incident within Options.Gap
//     of one controller's incident in the same boot (any of the boot, in a
//     log without times) joins it, if exactly one controller has an
//     incident then, unless another driver (a network card's, a USB
//     controller's) prints for that address or the incident holds only
//     informational events; a controller whose function the log's bridge
//     lines put elsewhere is not counted (the port's own buses, "pci" or
//     "pcieport 0000:00:1c.0: PCI bridge to [bus 01]", do not hold its
//     bus, or a sibling bridge on the port's bus holds it);
//   - when several controllers have an incident then, the nvme driver's
//     lines of an NVMe function join the controller whose lines come right
//     before and right after them (the PCI core's "Unable to change power
//     state from D3cold to D0" of a reset comes between that controller's
//     "controller is down" and its "Disabling device"); lines whose
//     neighbours are two controllers', and a port's, join none.
//
// An incident first opened under an address or a disk that turns out to be
// a controller's is merged with that controller's incidents it overlaps
// within the gap (events in log order), so the same failure gives the same
// incidents with or without the boot's "pci function" line.
//
// Disks are tied to controllers by the log's own lines, not by their
// numbers, since under native multipath nvme1n1 is namespace 1 of
// subsystem 1 whatever its controllers are: a path name (nvme1c0n1 is
// controller nvme0's path), the partition scan ("nvme1n1: p1 p2") that
// follows one controller's probe ("nvme nvme0: 8/0/0 default/read/poll
// queues") within a few seconds, or the log naming one controller only.
// The mapping is in Log.Namespaces; an event whose disk only its number
// ties to a controller has Event.GuessedController set.
//
// # Limits
//
// Memory is bounded whatever the input: a line longer than [MaxLineLength]
// is skipped without being held (counted in [Log.LongLines], or in
// [Log.BinaryLines] when it holds a NUL byte), and one that runs past
// [MaxLongLine] (no kernel or journal line comes near it: a file without
// line ends, a pipe of zeros) ends the read at once with [ErrLineTooLong],
// or [ErrBinary] naming the first NUL byte's offset; at most
// [MaxEvents] events are kept (the rest are counted in [Log.DroppedEvents]
// and still close or extend incidents they belong to only by count); at
// most [MaxIncidents] incidents are kept, the latest (the others counted in
// [Log.DroppedIncidents]); at most [MaxAddresses]
// PCI addresses are mapped to controllers (the rest counted in
// [Log.DroppedAddresses]), and as many disks to controllers (the rest
// counted in [Log.DroppedNamespaces]); at most [MaxUnread] unread lines are
// listed; a wrapped message is joined over [MaxWrapLines] lines of at most
// [MaxWrapLength] bytes. A 1 GB log is read in one pass with memory
// independent of its size. A gzip- or bzip2-compressed log is read as its
// text ([Log.Compression]); input that holds NUL bytes and no event at
// all, or another compressed file or a systemd journal file (named, with
// the command that gives its text), is refused with [ErrBinary]; text in which nothing reads as a kernel log
// (no time stamp or log prefix, no event, no driver's message naming a
// device, no message only the kernel's own code prints, such as "perf:
// interrupt took too long" or a task's "segfault at", no failure-looking
// line: an Identify capture or a smartctl report
// given in a log's place; lines too long to read and no other text, as a
// log joined into one line is) with [ErrNotKernelLog], input that is empty or
// blank lines alone with [ErrEmpty]; another kernel's NVMe
// log (FreeBSD's nvme(4), Windows's stornvme events, ESXi's vmkernel log),
// or SPDK's user-space driver's, with no line of Linux's nvme or port
// drivers with [ErrNotLinux]. A log that is one but holds nothing
// of a drive reads as no failure.
//
// The package is pure: it reads only the io.Reader it is given (and
// decompresses it with the standard library), keeps no global state and is
// safe for concurrent use.
package kernlog
