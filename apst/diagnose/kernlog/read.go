package kernlog

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"strings"
	"time"
)

// Limits of Read (see the package documentation).
const (
	// MaxLineLength is the longest line Read looks at; a longer one is
	// skipped and counted in Log.LongLines (in Log.BinaryLines when it
	// holds a NUL byte). Kernel messages are at most 1024 bytes, journal
	// and syslog prefixes add less than 200.
	MaxLineLength = 64 << 10
	// MaxLongLine is the longest line Read skips: no kernel, journal or
	// syslog line comes near it, and a line that runs past it (a file
	// without line ends, a pipe of zeros, a decompression bomb) ends the
	// read with ErrLineTooLong, or ErrBinary when it holds a NUL byte.
	MaxLongLine = 1 << 20
	// MaxEvents is how many events Read keeps in its incidents; the
	// others are counted (Incident.Counts, Log.Events) but not kept.
	MaxEvents = 20000
	// MaxIncidents is how many incidents Read keeps, the most recent ones;
	// older ones are counted in Log.DroppedIncidents.
	MaxIncidents = 500
	// MaxIncidentEvents is how many events one incident keeps: the first
	// half and the last half, the ones between counted in
	// Incident.Omitted.
	MaxIncidentEvents = 64
	// MaxAddresses is how many PCI addresses Log.Addresses maps (with those
	// of Options): a machine has a few dozen NVMe functions; the "pci
	// function" lines of further addresses are counted in
	// Log.DroppedAddresses, not kept. Log.Namespaces and the links Read
	// keeps between ports and functions are bounded alike.
	MaxAddresses = 4096
	// MaxUnread is how many of the lines that look like NVMe or PCIe
	// failure messages but were not read Log.Unread lists (all are counted
	// in Log.UnreadLines).
	MaxUnread = 20
	// MaxWrapLines is how many physical lines Read joins into one wrapped
	// message, and MaxWrapLength how long the joined message may grow.
	MaxWrapLines  = 8
	MaxWrapLength = 4 << 10
	// DefaultGap is the quiet time after which a controller's next event
	// starts a new incident.
	DefaultGap = 5 * time.Minute
)

// ErrNoSuchHost is returned, with the Log as read, when Options.Host names
// a host that no line of the log names.
var ErrNoSuchHost = errors.New("kernlog: no line of that host")

// ErrBinary is returned for input that holds NUL bytes and no event: a
// binary file (a journal file, a core dump) rather than a text log.
var ErrBinary = errors.New("kernlog: input is binary, not a text kernel log")

// ErrNotKernelLog is returned for text in which nothing reads as a kernel
// log: no line has a time stamp or log prefix (dmesg's, journalctl's,
// syslog's, a journal record), none is a kernel event, none names an NVMe
// or PCI device as a driver's message does, and none looks like a failure
// that could not be read. An Identify capture, a smartctl report or prose
// given in place of a log is such text, and so are a blkparse trace
// ("259,0" is no /dev/kmsg record's start) and JSON whose records hold
// no log message (journalctl -o json's MESSAGE, a log shipper's message,
// line or _raw) or no kernel event; a
// log with nothing of the drive's in it is not (its stamps say what it
// is), and reads as no failure.
var ErrNotKernelLog = errors.New("kernlog: not a kernel log")

// ErrInvalidOptions is returned by Read for Options it cannot use (an
// Addresses key that is not a PCI address as the kernel prints it, a
// value that is not a controller name, more than MaxAddresses of them),
// before anything is read.
var ErrInvalidOptions = errors.New("kernlog: invalid options")

// ErrNotLinux is returned for another kernel's log (FreeBSD's, Windows's
// stornvme events, VMware ESXi's vmkernel log), or SPDK's user-space NVMe
// driver's, with no line of Linux's NVMe or PCIe port drivers: its NVMe
// lines look like Linux's but say nothing of Linux's decisions.
// errors.Is(err, ErrNotKernelLog) holds for it too.
var ErrNotLinux = fmt.Errorf("%w of Linux", ErrNotKernelLog)

// ErrLineTooLong is returned for input with a line longer than
// MaxLongLine and no NUL byte in it: no kernel log line is that long.
// errors.Is(err, ErrNotKernelLog) holds for it too.
var ErrLineTooLong = fmt.Errorf("%w: a line is longer than any kernel log line", ErrNotKernelLog)

// ErrEmpty is returned for input without text: nothing at all, or blank
// lines alone (a paste or a file lost on the way). It is no log without a
// failure; errors.Is(err, ErrNotKernelLog) holds for it too.
var ErrEmpty = fmt.Errorf("%w: it holds no text", ErrNotKernelLog)

// Read reads a kernel log from r and returns its events grouped into
// incidents. It stops at the end of r. UTF-16 text, after its byte order
// mark or without one, is read as its UTF-8. A gzip- or bzip2-compressed log (a bug
// tracker's dmesg.txt.gz, logrotate's kern.log.2.gz) is read as its text,
// and Log.Compression says so.
//
// The errors are ErrInvalidOptions (before anything is read, with an empty
// Log), a read error of r, the context's, ErrBinary (input that
// holds NUL bytes and no event, or a line with a NUL byte that runs past
// MaxLongLine; an xz, zstd or lz4 file, a ZIP archive or
// a systemd journal file, named, with the command that gives its text; a
// compressed file cut short or corrupt, wrapping the decompressor's error)
// and ErrNotKernelLog (text that is no kernel log; ErrEmpty, ErrNotLinux
// and ErrLineTooLong, a line longer than MaxLongLine, are kinds of it).
// A line longer than MaxLongLine ends the read at once. With any of them the returned Log holds
// what was read.
//
// ctx is looked at before r is read and between lines: a ctx done before
// the call reads nothing. A Read of r that blocks (a pipe, a socket) is not
// interrupted: close r, or give a reader that ends its Reads once ctx is
// done.
func Read(ctx context.Context, r io.Reader, opts Options) (*Log, error) {
	if err := opts.check(); err != nil {
		return newState(Options{}).finish(), err
	}
	if err := ctx.Err(); err != nil {
		return newState(Options{}).finish(), fmt.Errorf("kernlog: %w", err)
	}
	st := newState(opts)
	var sc scanner
	src, format, err := text(r)
	st.log.Compression = format
	if err == nil {
		if rest, doc := st.readJSONDoc(ctx, src); !doc {
			sc = scanner{log: st.log, limit: MaxLongLine, nulOff: -1}
			err = sc.scan(ctx, rest, st.escapedLines)
		} else if st.ctxErr != nil {
			err = fmt.Errorf("kernlog: line %d: %w", st.log.Lines, st.ctxErr)
		}
	}
	st.endQP()
	st.flush()
	st.endRecord()
	st.endCallback()
	st.endCrash()
	st.flushBARs()
	st.flushUnnamedBARs()
	if st.order.newestFirst() {
		st = st.oldestFirst(opts)
	}
	l := st.finish()
	if err != nil {
		return l, err
	}
	if err := st.hostErr(); err != nil {
		return l, err
	}
	if l.Events == 0 && l.BinaryLines > 0 {
		if l.Lines == 1 {
			return l, fmt.Errorf("%w: its one line holds NUL bytes (the first at byte offset %d%s) and is no kernel event", ErrBinary, sc.nulOff, sc.ofText(l))
		}
		return l, fmt.Errorf("%w: %d of %d lines hold NUL bytes (the first at line %d, byte offset %d%s) and none is a kernel event", ErrBinary, l.BinaryLines, l.Lines, sc.nulLine, sc.nulOff, sc.ofText(l))
	}
	if l.Events == 0 && l.LongLines > 0 && !st.text && !st.stamped && l.UnreadLines == 0 && l.RelayedLines == 0 {
		// Nothing but lines too long to read: a log whose line breaks
		// were lost on the way (joined into one line by a form or an
		// editor) is no log without a failure.
		what := "its one line is"
		if l.LongLines > 1 {
			what = fmt.Sprintf("its %d lines are", l.LongLines)
		}
		return l, fmt.Errorf("%w: %s longer than any kernel log line (%d bytes read at most), and no other line is text: were its line breaks lost on the way?", ErrNotKernelLog, what, MaxLineLength)
	}
	if st.foreign == "SPDK" && !st.linux {
		return l, fmt.Errorf("%w: line %d is SPDK's, a user-space NVMe driver's, and no line is Linux's nvme or PCIe port driver's: SPDK drives the controller itself, outside the kernel's power decisions this reads; give the kernel's log (journalctl -k) of a drive the kernel's nvme driver runs", ErrNotLinux, st.foreignLine)
	}
	if st.foreign == piBootloader && !st.linux {
		return l, fmt.Errorf("%w: line %d is the Raspberry Pi bootloader's (its EEPROM's log), and no line is Linux's: the bootloader could not read the drive, before Linux started; update it (sudo rpi-eeprom-update -a) and check the drive's link, then give the kernel log of a boot from another medium with the drive attached (journalctl -k)", ErrNotLinux, st.foreignLine)
	}
	if st.foreign != "" && !st.linux {
		return l, fmt.Errorf("%w: line %d is %s's, and no line is Linux's nvme or PCIe port driver's: give the log of a Linux machine", ErrNotLinux, st.foreignLine, st.foreign)
	}
	if !st.text && !st.stamped && l.Events == 0 && l.UnreadLines == 0 && l.RelayedLines == 0 && l.LongLines == 0 && l.BinaryLines == 0 {
		// Nothing to read is no log without a failure: the paste or the
		// file went missing on the way.
		if l.Lines == 0 {
			return l, ErrEmpty
		}
		if l.Lines == 1 {
			return l, fmt.Errorf("%w (1 blank line)", ErrEmpty)
		}
		return l, fmt.Errorf("%w (%d blank lines)", ErrEmpty, l.Lines)
	}
	if st.text && l.Events == 0 && l.UnreadLines == 0 && l.RelayedLines == 0 && !st.stamped && !st.shaped {
		if l.Lines == 1 {
			return l, fmt.Errorf("%w: its one line has no kernel time stamp or log prefix, is no kernel event and names no NVMe or PCI device as a driver's message does", ErrNotKernelLog)
		}
		return l, fmt.Errorf("%w: none of its %d lines has a kernel time stamp or log prefix, is a kernel event or names an NVMe or PCI device as a driver's message does", ErrNotKernelLog, l.Lines)
	}
	return l, nil
}

// Lines calls fn with each line of r (without its line ending) that is at
// most MaxLineLength bytes long, skipping longer ones, as Read does, and
// decompresses what Read decompresses. The slice is valid only during the
// call. Only a read error of r, ctx's error, or a compressed file Read
// refuses (ErrBinary) is returned. ctx is looked at as Read looks at it.
func Lines(ctx context.Context, r io.Reader, fn func(line []byte)) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("kernlog: %w", err)
	}
	src, _, err := text(r)
	if err != nil {
		return err
	}
	sc := scanner{log: &Log{}, nulOff: -1}
	return sc.scan(ctx, src, func(b []byte) { fn(bytes.TrimRight(b, "\r\n")) })
}

// Relevant reports whether a raw log line can hold an event Read
// recognises, or part of one: a cheap filter for keeping only the NVMe and
// PCIe lines of a log. Such a line names nvme, AER, a PCIe bus error, a
// power state change, a hotplug slot, a system sleep, ASPM, a lost
// interrupt, the kernel release or command line; it is a journal JSON
// record or a journalctl boot separator; it names a PCI function together
// with a failure word, or is the PCI core's line of an NVMe function's ID
// or of a bridge's buses; or it is a part of a wrapped message (the first,
// naming a PCI function, or the next, "CSTS=0x..." say).
func Relevant(line []byte) bool {
	return bytes.IndexByte(line, 0) < 0 && (interestingBytes(line) || specialLine(line) || failureLine(line) || usbResetLine(line) ||
		continuationBytes(line) || incompleteBytes(line) && hasPCIAddr(line))
}

// ReadString is Read of a string, for tests and examples.
func ReadString(s string, opts Options) (*Log, error) {
	return Read(context.Background(), bytes.NewReader([]byte(s)), opts)
}

// state is Read's work in progress.
type state struct {
	log *Log
	// ctx is Read's while a JSON or YAML document's records are read
	// (readJSONDoc), and ctxErr its error once it was found done.
	ctx    context.Context
	ctxErr error
	gap    time.Duration
	boot   int
	// bars holds, by function, a function's BAR that the PCI core failed
	// to assign, until it is taken back or made an event (heldBAR);
	// barCtrls names, by controller, the function of a held failure that
	// the nvme driver's "pci function" line tied to it (heldFor).
	bars     map[string]Event
	barCtrls map[string]string
	// otherClass holds the functions whose class line shows them as no
	// NVMe function; unnamed, the held failures of functions the log shows
	// neither as NVMe nor as another class (flushUnnamedBARs).
	otherClass map[string]bool
	unnamed    []Event
	// onlyHost is Options.Host; lastHost the host of the last line that
	// named one (Log.Hosts).
	onlyHost, lastHost string
	hostSeen           bool // a line of onlyHost
	// tainted is set by the boot's first taint line (Log.Taint).
	tainted bool
	last    Timestamp // time of the last line with one, this boot
	open    map[string]int
	kept    int
	first   int // index in log.Incidents of the oldest kept incident
	// ecBlocked is set by the embedded controller's "interrupt blocked"
	// of a suspend, cleared at a boot: its "interrupt unblocked" is a
	// resume only after one (every boot prints it too, at the EC's
	// probe).
	ecBlocked bool
	// chained is the controller the quoted messages before this one in a
	// sentence named, which a message naming no device is of
	// (quotedMessages).
	chained string
	hosts   scsiHosts   // the SCSI hosts and disks the log names (otherDisk)
	ghes    ghesRecords // the firmware's CPER records in course (ghesLine)
	// hostLinks are the PCIe host controllers whose link the log showed
	// down or up (hostInitAfterLink).
	hostLinks []string
	// aer is the last AER error report read, whose status line follows
	// it (aerStatus).
	aer aerReport

	qp     qp      // quoted-printable mail's soft breaks and escapes
	wrap   wrapped // the logical line being assembled
	prev   []byte  // the last physical line not held, and its number
	prevNo int
	// prev2 is the one before prev (a message a mail client broke in
	// three: "2-byte config write to" + "0000:01:00.0" + "offset 0x7a
	// may corrupt adjacent RW1C bits").
	prev2   []byte
	prev2No int
	prev2At Timestamp
	// human is the running time of a dmesg -H log ("[Sep12 13:16]" then
	// "[  +0.000009]" after each line), at the line being read.
	human   Timestamp
	humanOn bool
	prevAt  Timestamp // human at prev
	bootID  string    // _BOOT_ID of the last journal JSON record
	// jsonTime is the "time" of the dmesg --json record being read, for
	// its "msg".
	jsonTime   []byte
	jsonTimeOn bool
	pretty     prettyRecord // a journalctl -o json-pretty record being read
	rec        fieldRecord  // a journalctl -o export or -o verbose record
	csv        csvTable     // a CSV export's columns, from its header
	csvTitle   bool         // the first line was one word, which may title a CSV export
	order      order        // the logical lines kept while the log may run newest first
	unpasted   []byte       // the line being read, without what pasting added (unpaste)
	fresh      bool         // a journal boot separator passed and nothing since

	links links // what the log says of controllers, functions, disks
	crash crash // a kernel crash whose dump is being read
	// callback is a device-less PM callback failure waiting for the
	// device's own line after it (Line 0: none; heldCallback).
	callback Event
	// report is the line of the last report's first line that is no
	// event (a lockdep warning, a hung task naming no NVMe disk, a
	// "BUG: ..."): a dump after it is not a fragment (Log.DriverFrame).
	report int
	// stamped is set once a line has a time stamp or log prefix, shaped
	// once a held line names a device as a driver's message does
	// ("nvme nvme0: ..."): what tells a kernel log from other text.
	stamped, shaped bool
	// foreign is the other kernel a line was from and foreignLine that
	// line; linux is set by an event only Linux's drivers print.
	foreign     string
	foreignLine int
	linux       bool
	text        bool // a line not blank was read (until stamped)
}

func newState(opts Options) *state {
	gap := opts.Gap
	if gap <= 0 {
		gap = DefaultGap
	}
	l := &Log{Addresses: map[string]string{}, Namespaces: map[string]string{}, DeviceIDs: map[string]string{}, Fabrics: map[string]Event{}, Passthrough: map[string]Event{}}
	maps.Copy(l.Addresses, opts.Addresses)
	l.Host = opts.Host
	st := &state{log: l, gap: gap, open: map[string]int{}, onlyHost: opts.Host}
	st.links.init(opts.Addresses)
	return st
}

// lineNo is the number of the line being read.
func (st *state) lineNo() int { return int(min(st.log.Lines, 1<<31-1)) }

// line handles one line of the log without its line ending: physical
// lines from through last (more than one when quoted-printable mail broke
// it, see physical). It joins a wrapped message's lines and holds each
// line that may matter (it holds a keyword, names a PCI function with a
// failure word, or ends incomplete) until the next line tells whether
// that continues it; flush then hands the logical line to logical. Other
// lines are skipped at the cost of the filter.
func (st *state) line(b []byte, from, last int) {
	n := from
	if bytes.IndexByte(b, 0) >= 0 {
		st.log.BinaryLines++
		st.flush()
		return
	}
	b = afterGrep(b)
	if pasteMarks(b) {
		// Colours, no-break spaces, HTML entities: what a terminal, a
		// web page or its source added on the way (like b, the buffer
		// lasts until the next line; what is held is copied).
		st.unpasted = unpaste(st.unpasted, b)
		b = st.unpasted
	}
	if st.pretty.on || st.pretty.pending || len(b) < 16 && bytes.IndexByte(b, '{') >= 0 {
		rec, at, ok := st.journalPretty(b, n)
		if ok && rec == nil {
			return
		}
		if ok {
			b, n, last = rec, at, at // the record, at its MESSAGE line
		}
	}
	if len(b) > 8 && (b[0] == ' ' || b[0] == '"' || b[0] == '\t') {
		var ok bool
		if b, ok = st.dmesgJSON(b); ok && b == nil {
			return
		}
	}
	if len(b) > 1 && (st.humanOn || b[0] == '[' && b[1] >= 'A' || quoteByte(b[0])) {
		st.humanClock(b) // not for plain dmesg ("[   12.3]") or syslog lines
	}
	if !st.stamped {
		c := cleanBytes(b)
		if (!st.text || st.csvTitle) && len(c) > 0 && !st.csv.on {
			if st.csv, _ = csvHeader(string(b)); st.csv.on {
				st.text = true
				return // a CSV export's header: its rows are read by their columns
			}
			// A title of one word before the header (Synology's Log
			// Center: "System", then "Level,Log,Time,User,Event").
			st.csvTitle = !st.text && headerName(string(c))
		}
		st.stamped = logStart(c) || st.csv.on && bytes.Contains(c, []byte("kernel")) // once, in a log: its first line
		st.text = st.text || len(c) > 0
		st.shaped = st.shaped || coreKernelLine(c)
	}
	if st.wrap.on {
		// A continuation joins while the message spans fewer than
		// MaxWrapLines physical lines, a quoted-printable line's soft
		// breaks counted.
		if n == st.wrap.to+1 && last-st.wrap.from < MaxWrapLines && st.continues(b) {
			st.wrap.join(st.qp.sniff(b), last)
			if st.wrap.full() {
				st.flush()
			}
			return
		}
		st.flush()
	}
	if c := cleanBytes(b); st.rec.on || len(c) > 9 && (c[0] == '_' || c[len(c)-1] == ']') {
		st.recordLine(c)
	}
	keyword, pci := scanLine(b)
	keyword = keyword || specialLine(b) || st.hosts.resetting > 0 && usbResetLine(b) ||
		st.crash.on && st.crash.e.Kind == HungTask && n-st.crash.e.Line <= 2 && bytes.Contains(b, []byte("ainted ")) // its "      Not tainted 6.7.0 #1" (taintLine)
	failure := false
	if !keyword && pci {
		var other []byte
		if failure, other = pciLine(b); other != nil {
			st.classLine(other)
		}
	}
	if st.csv.on {
		// A row of a CSV export is one line: no row continues another.
		if keyword || failure || failureLine(b) {
			st.top(string(b), n, last, st.human)
		}
		return
	}
	if (keyword || failure) && st.prevNo == n-1 {
		// Only a line without a stamp of its own finishes the lines
		// before it.
		if c := cleanBytes(b); len(c) > 0 && !stampedBytes(c) {
			switch {
			case st.completes(c):
				// The line before, which holds no keyword, was the start
				// of this message: "Buffer I/O error on dev" + "nvme0n1,
				// logical block ...".
				st.wrap.hold(st.qp.sniff(st.prev), st.prevNo, false, false, false)
				st.wrap.at = st.prevAt
				st.wrap.join(st.qp.sniff(b), last)
				return
			case st.prev2No == n-2 && st.completes2(c):
				st.wrap.hold(st.qp.sniff(st.prev2), st.prev2No, false, false, false)
				st.wrap.at = st.prev2At
				st.wrap.join(st.qp.sniff(st.prev), st.prevNo)
				st.wrap.join(st.qp.sniff(b), last)
				return
			}
		}
	}
	if keyword || failure || incompleteBytes(b) {
		b = st.qp.sniff(b)
		c := cleanBytes(b)
		remnant := len(c) > 0 && !stampedBytes(c) && st.prevNo == n-1 && contLike(c) && stampedBytes(cleanBytes(st.prev))
		st.wrap.hold(b, n, keyword, failure, remnant)
		st.wrap.to = last
		st.wrap.at = st.human
		return
	}
	st.prev, st.prev2 = st.prev2, st.prev
	st.prev2No, st.prev2At = st.prevNo, st.prevAt
	st.prev, st.prevNo, st.prevAt = append(st.prev[:0], b...), last, st.human
}

// flush hands the held logical line to logical.
func (st *state) flush() {
	if !st.wrap.on {
		return
	}
	st.wrap.on = false
	if !st.wrap.interesting && !st.wrap.failure && !failureLine(st.wrap.buf) {
		return
	}
	st.top(string(st.wrap.buf), st.wrap.from, st.wrap.to, st.wrap.at)
}

// logical handles one logical line, which passed the filter of physical: a
// physical line, or the physical lines of a wrapped message joined with
// one space. at is the running time of a dmesg -H log at the line.
func (st *state) logical(line string, from, to int, at Timestamp) {
	if st.csv.on {
		st.read(line, st.csv.split(line), from, to, at)
		return
	}
	if i := joinedAt(line); i > 0 {
		// Two messages whose line end a copy lost: each is read.
		st.logical(line[:i], from, to, at)
		st.logical(line[i+1:], from, to, at)
		return
	}
	st.read(line, splitLine(line), from, to, at)
}

// read handles logical line line, which splitLine (or a CSV export's
// columns) made sp of.
func (st *state) read(line string, sp split, from, to int, at Timestamp) {
	if st.rec.on && sp.kernel && strings.HasPrefix(cleanLine(line), "MESSAGE=") {
		// A journal record's MESSAGE, read when the record ends.
		if !st.rec.emit {
			if st.rec.msg == "" {
				st.rec.msg, st.rec.from, st.rec.to = line, from, to
			}
			return
		}
		sp = recordSplit(sp.msg, &st.rec.f, false)
	}
	if sp.relative && st.humanOn {
		sp.ts = at
	}
	switch {
	case sp.boot:
		st.bootBoundary()
		return
	case sp.bootID != "":
		if st.bootID != "" && sp.bootID != st.bootID {
			st.bootBoundary()
		}
		st.bootID = sp.bootID
	}
	if sp.kernel && (sp.afterTime != "" || sp.host != "") && st.host(sp.afterTime, sp.host) {
		return // another host's line (Options.Host)
	}
	sp.msg = stripHTML(sp.msg)
	var e Event
	var ok bool
	switch {
	case sp.json:
		e, ok = parseMessage(sp.msg) // no filter has seen the MESSAGE
	case sp.kernel && sp.msg != "":
		e, ok = parseKernelMessage(sp.msg)
		if !ok || e.Kind == DriverError {
			// A note its poster ran on after the message ("... device
			// inaccessible   <- TB tree already gone") spoils its
			// reading: read it without.
			if m, cut := cutAnnotation(sp.msg); cut {
				if e2, ok2 := parseKernelMessage(m); ok2 && (!ok || e2.Kind != DriverError) {
					e, ok, sp.msg = e2, true, m
				}
			}
		}
		if (!ok || e.Controller == "" && e.PCI == "" && e.Disk == "" && e.Device == "") && sp.ts.HasWall && !sp.ts.HasMono {
			if sp2, e2, stream, ok2 := afterStream(sp.msg); ok2 {
				// A log stream's name, or a syslog line's own time,
				// between the time and the message (aws logs tail): the
				// stream is the line's host, as the syslog line's is.
				if st.host(sp2.afterTime, cmp.Or(stream, sp2.host)) {
					return
				}
				e, ok, sp.msg = e2, true, sp2.msg
				if sp2.ts.HasMono {
					sp.ts.Mono, sp.ts.HasMono = sp2.ts.Mono, true // the dmesg time in it
				}
			}
		}
	}
	if !ok {
		if spans, ctrl := quotedMessages(line); len(spans) > 0 && sp.kernel && !sp.json {
			// A message quoted in a sentence ("I see `nvme nvme0: I/O 34
			// QID 13 timeout, aborting` in the journal"), or several: the
			// quotes are the kernel's lines. Not in another program's line
			// or a journal record of one, which may quote the kernel too.
			for i, span := range spans {
				st.chained = ctrl[i]
				st.logical(span, from, to, at)
			}
			st.chained = ""
			return
		}
	}
	linkMsg, linkTS := sp.msg, sp.ts
	if !ok || sp.ts.IsZero() && sp.kernel && !sp.json ||
		e.Controller == "" && e.PCI == "" && e.Disk == "" && sp.ts.HasWall && !sp.ts.HasMono && !sp.json {
		// (The last: a chat's or a logger's clock before another's
		// prefix and the kernel's line, "10:14:02  tuxfan | [
		// 3950.300000] nvme 0000:04:00.0: Unable to ...", read as an
		// event of no device.)
		if rest := embeddedStamp(line); rest != "" {
			// A console where another program's output ran into the
			// kernel's line ("Jobs: 6 ([  519.858094] nvme nvme1: ...",
			// "root@debian:/userdata# [   17.767045] ..."): the kernel's
			// line starts at its time stamp, also where the line reads as
			// an event without it (its time would be lost).
			if sp2 := splitLine(rest); sp2.kernel && !sp2.json {
				e2, ok2 := parseKernelMessage(sp2.msg)
				if ok2 {
					st.logical(rest, from, to, at)
					return
				}
				if !ok {
					// A line of no event (an AER detail line after a
					// serial capture's own time) names its device from the
					// stamp on, as the same line alone does.
					e, linkMsg, linkTS = e2, sp2.msg, sp2.ts
				}
			}
		}
	}
	if !sp.kernel || sp.msg == "" {
		if sp.relayed != "" && sp.program != "" && sp.program != "kernel" && looksLikeFailure(sp.relayed) {
			// Another program's line that repeats the kernel's failure
			// message (a monitor, a log relay): not the kernel's line,
			// and not "no failure" either.
			if e, ok := parseKernelMessage(strings.TrimLeft(sp.relayed, " \t")); ok && relayedKind(e.Kind) {
				st.relayed(from, line, sp.program)
			}
		}
		return
	}
	if st.foreign == "" {
		if f := foreignKernel(sp.msg); f != "" {
			st.foreign, st.foreignLine = f, from
		}
	}
	if ok && (e.Driver == "nvme" || e.Driver == "pcieport" || strings.HasPrefix(e.Disk, "nvme")) {
		st.linux = true
	}
	if !ok && strings.Contains(sp.msg, ghesPrefix) {
		g, gok := st.ghesLine(sp.msg)
		if !gok {
			return // a CPER record's detail, read with the record
		}
		e, ok = g, true
	}
	st.links.observe(st, linkMsg, &e, ok, linkTS, from)
	if e.PCI != "" && passthroughDriver(e.Driver) {
		if _, known := st.log.Passthrough[e.PCI]; !known && len(st.log.Passthrough) < MaxAddresses {
			st.log.Passthrough[e.PCI] = Event{Kind: e.Kind, Line: from, EndLine: to, Time: sp.ts, Driver: e.Driver, PCI: e.PCI, Text: clip(sp.msg), Raw: clip(cleanLine(line))}
		}
	}
	st.shaped = st.shaped || e.Controller != "" || e.PCI != "" || e.Disk != ""
	if !ok {
		if len(st.bars) > 0 {
			st.enabledBAR(&e, sp.msg)
		}
		if st.aerStatus(linkMsg) {
			return
		}
		if st.log.RemoveRequest == nil && removeCommand(line) {
			cmd := line[strings.Index(line, "echo 1"):] // the command, without a prompt or quoting
			st.log.RemoveRequest = &Event{Line: from, EndLine: to, Time: sp.ts, Text: clip(strings.TrimSpace(cmd)), Raw: clip(cleanLine(line))}
			return
		}
		if e.Controller == "" && e.PCI == "" && st.otherDisk(sp.msg, line, from) {
			return
		}
		// A line of the NVMe driver that is no event holds no failure
		// word (driverError would have read it); the Thunderbolt driver's
		// lines name its host's function, never a drive (its failure to
		// activate a PCIe tunnel is an event).
		if !nvmeLine(&e) && e.Driver != "thunderbolt" && looksLikeFailure(sp.msg) {
			if st.foreign == "" && windowsLine(sp.msg) {
				// Checked here, where few lines come: Windows's event
				// names nvme and a failure word as Linux's lines do.
				st.foreign, st.foreignLine = "Windows", from
			}
			st.unread(from, line)
		}
		if st.log.FileSystemReport == nil && e.Controller == "" && e.PCI == "" {
			st.fileSystemReport(sp.msg, line, from, to, sp.ts)
		}
		if st.log.EEH == nil && (strings.HasPrefix(sp.msg, "EEH: Frozen PHB") || strings.HasPrefix(sp.msg, "EEH: Detected PCI bus error")) {
			st.log.EEH = &Event{Line: from, EndLine: to, Time: sp.ts, Text: clip(sp.msg), Raw: clip(cleanLine(line))}
		}
		if st.log.OSC == nil && oscFailed(sp.msg) {
			st.log.OSC = &Event{Line: from, EndLine: to, Time: sp.ts, Text: clip(sp.msg), Raw: clip(cleanLine(line))}
		}
		if st.log.Release == "" || !st.tainted {
			// The first taint line of the boot; a "Linux version" line
			// that comes later sets the release again.
			if rel, flags, ok := taintLine(sp.msg); ok {
				st.tainted, st.log.Taint = true, flags
				st.log.Release = cmp.Or(st.log.Release, rel)
			}
		}
		if reportHeader(sp.msg) {
			st.report = from
			if strings.HasPrefix(sp.msg, "INFO: task ") {
				// Held while its dump goes by: one that runs through the
				// NVMe driver's code is a HungTask event (holdHang).
				st.holdHang(Event{Kind: HungTask, Line: from, EndLine: to, Time: sp.ts, Text: clip(sp.msg), Raw: clip(cleanLine(line))})
			}
		}
		st.crashLine(sp.msg, line, from, sp.ts)
		return
	}
	if e.Controller == "" && e.PCI == "" && e.Disk == "" && (e.Kind == ResumeFailure || e.Kind == ControllerDown || e.Kind == ResetFailure) &&
		namesNVMeDevice(sp.msg) {
		// A failure the PCI core or the nvme driver prints with its
		// device, read without it though its line names one ("... |
		// [ 3950.3] nvme 0000:04:00.0: Unable to change power state
		// ..." after a prefix no reader knows): not a failure of no
		// device, a line that could not be read.
		st.unread(from, line)
		return
	}
	e.Line, e.EndLine, e.Time, e.Raw = from, to, sp.ts, clip(cleanLine(line))
	if e.Kind == AERError {
		st.aer.begin(&e, sp.msg)
	}
	if st.hostInitAfterLink(&e, sp.msg) {
		return
	}
	if st.chained != "" && e.Controller == "" && e.PCI == "" && e.Disk == "" && e.Reporter == "" && sleepDir(e.Kind) == 0 {
		e.Controller = st.chained
	}
	if q, ok := st.pretty.quotes[from]; ok && sp.json {
		// A json-pretty record: its MESSAGE line, as it appears.
		e.Raw = clip(q)
		delete(st.pretty.quotes, from)
	}
	if e.Kind == PlatformFault && (e.Action == actionBARAssigned || e.Action == ActionBARUnassigned && e.Driver == "pci") {
		st.heldBAR(e)
		return
	}
	st.log.Events++
	if e.Kind != Boot && !sp.ts.IsZero() {
		d, ok := sp.ts.sub(st.last)
		switch {
		case ok && d < -rebootJump && sp.ts.HasMono && (!sp.ts.HasWall || wallOnward(sp.ts, st.last)),
			ok && d < -pasteJump && !sp.ts.HasMono && sp.ts.HasWall && !sp.ts.NoYear:
			// (Or a dated clock gone back by days: another boot's lines
			// pasted after these, "[Mon Feb 17 21:25:03 2025]" then "[Sat
			// Nov 23 12:15:12 2024]", posted zf-01.)
			// The time since boot started again: a later boot pasted
			// after the first (two dmesg outputs one after the other), or
			// a syslog's next boot, its clock gone on ("2023-03-05T15:43:44
			// ... [10795.893801]" then "2023-03-05T16:00:55 ... [
			// 202.345723]", posted zc-04).
			st.bootBoundary()
		case ok && d < 0:
			st.log.Backwards++
			st.order.back++
			st.order.far = st.order.far || d <= -time.Second
		case ok && d > 0:
			st.order.forward()
		case ok:
			st.order.same++
		}
		st.last = sp.ts
	}
	switch e.Kind {
	case Boot:
		st.endCallback()
		st.endCrash()
		st.flushBARs()
		if !st.fresh && (st.log.Boots > 0 || st.hasIncidents()) {
			st.boot++
		}
		st.fresh, st.ecBlocked = false, false
		st.log.Boots++
		st.log.Release, st.log.CommandLine, st.log.CommandLineEvent, st.log.Machine, st.log.Hypervisor = e.Text, "", nil, nil, nil
		st.log.Taint, st.tainted = "", false
		st.last = Timestamp{}
		clear(st.open)
		st.links.newBoot(st)
		return
	case CommandLine:
		m := e // a copy, as Machine's
		st.log.CommandLine, st.log.CommandLineEvent = e.Text, &m
		return
	case Machine, Hypervisor:
		// A copy: &e would put every line's event on the heap.
		m := e
		if e.Kind == Machine {
			st.log.Machine = &m
		} else {
			st.log.Hypervisor = &m
		}
		return
	case PCIDevice:
		// The function enumerated again (another boot pasted after this
		// one, or a rescan): a failure held from before is final.
		st.flushBAR(e.PCI)
		if _, known := st.log.DeviceIDs[e.PCI]; known || len(st.log.DeviceIDs) < MaxAddresses {
			st.log.DeviceIDs[e.PCI] = e.Text
		}
		return
	case FabricsConnect:
		if _, known := st.log.Fabrics[e.Controller]; !known && len(st.log.Fabrics) < MaxAddresses {
			st.log.Fabrics[e.Controller] = e
		}
		return
	case PCIFunction:
		if _, known := st.log.Addresses[e.PCI]; !known && len(st.log.Addresses) >= MaxAddresses {
			st.log.DroppedAddresses++
			return
		}
		st.log.Addresses[e.PCI] = e.Controller
		st.tieBAR(e.PCI, e.Controller)
		return
	case FileSystemError:
		st.log.FileSystemErrorLines++
		if len(st.log.FileSystemErrors) < MaxUnread {
			st.tieDisk(&e)
			st.log.FileSystemErrors = append(st.log.FileSystemErrors, e)
		}
		return
	case PlatformFault:
		if e.Action == ActionKernelBug {
			st.holdCrash(e)
			return
		}
	case SuspendEntry:
		ec := e.Text == ecBlocked || e.Text == ecEventBlocked
		if ec && sp.ts.HasMono && sp.ts.Mono < ecProbeTime {
			// The EC's probe blocks its interrupt until ACPI's namespace
			// is up ("ACPI: EC: EC started", then "interrupt blocked", in
			// the first seconds of a boot): no suspend.
			return
		}
		st.ecBlocked = st.ecBlocked || ec
	case SuspendExit:
		if e.Text == ecUnblocked || e.Text == ecEventUnblocked {
			if !st.ecBlocked && ecProbe(sp.ts) {
				// Its start at boot, or a time that cannot tell.
				return
			}
			st.ecBlocked = false
		}
	}
	st.addEvent(e)
}

// wallOnward reports whether t's wall clock is not before u's, both read
// alike (a syslog's clock with the kernel's time since boot after it).
func wallOnward(t, u Timestamp) bool {
	return t.HasWall && u.HasWall && t.NoYear == u.NoYear && t.NoDate == u.NoDate && !t.Wall.Before(u.Wall)
}

// pasteJump is how far back a dated clock (dmesg -T, an ISO stamp) must go
// for the line to be another boot's: one boot's clock never goes back so
// far (a suspend makes dmesg -T's run slow, not backwards).
const pasteJump = 24 * time.Hour

// rebootJump is how far back a dmesg time must go for the line to start a
// new boot rather than be out of order.
const rebootJump = 10 * time.Second

// humanClock keeps the running time of a dmesg -H log: "[Sep12 13:16]"
// sets it, "[  +0.000009]" adds to it. Other lines cost a few byte
// compares.
func (st *state) humanClock(b []byte) {
	i := 0
	for i < len(b) && i < 64 && quoteByte(b[i]) {
		i++
	}
	if i+3 >= len(b) || b[i] != '[' {
		return
	}
	j := i + 1
	for j < len(b) && b[j] == ' ' {
		j++
	}
	if j >= len(b) {
		return
	}
	c := b[j]
	if c != '+' && !(c >= 'A' && c <= 'Z') && c < 0x80 {
		return
	}
	end := bytes.IndexByte(b[j:min(len(b), j+24)], ']')
	if end < 0 {
		return
	}
	in := string(b[j : j+end])
	switch {
	case c == '+' && st.humanOn:
		if d, ok := parseDelta(in); ok {
			st.human = st.human.add(d)
		}
	case c != '+':
		if h, ok := parseHumanStamp(in); ok {
			st.human, st.humanOn = h, true
		}
	}
}

// unread records a line that looks like a failure message but is no event.
func (st *state) unread(line int, text string) {
	st.log.UnreadLines++
	if len(st.log.Unread) < MaxUnread {
		st.log.Unread = append(st.log.Unread, UnreadLine{Line: line, Text: clip(cleanLine(text))})
	}
}

// relayedKind reports whether an event of kind k, read from another
// program's line, is the kernel's failure message repeated: the driver's
// and the PCI core's own failure lines. A line a program writes about a
// device in words of its own ("systemd-udevd[412]: nvme0n1: Process
// '...' failed with exit code 1.") reads at most as a driver's error of no
// known kind, which is not taken for the kernel's.
func relayedKind(k Kind) bool {
	switch k {
	case ControllerDown, IOTimeout, AdminTimeout, AbortStatus, ProbeFailure, ResetNotReady, ResetFailure,
		APSTFailed, ResumeFailure, AERReceived, AERError, LinkDown, IOError, LostInterrupt, DiskGone,
		PowerSavingHint, WorkaroundHint:
		return true
	}
	return false
}

// relayed records another program's line that repeats a kernel failure
// message.
func (st *state) relayed(line int, text, program string) {
	st.log.RelayedLines++
	if len(st.log.Relayed) < MaxUnread {
		st.log.Relayed = append(st.log.Relayed, UnreadLine{Line: line, Text: clip(cleanLine(text)), Program: clip(program)})
	}
}

// bootBoundary starts a new boot at a journal's boot separator or a change
// of its _BOOT_ID.
func (st *state) bootBoundary() {
	st.endCrash()
	st.flushBARs()
	if !st.fresh && (st.log.Boots > 0 || st.hasIncidents()) {
		st.boot++
	}
	st.fresh, st.ecBlocked = true, false
	st.last = Timestamp{}
	clear(st.open)
	st.links.newBoot(st)
}
