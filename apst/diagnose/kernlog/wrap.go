package kernlog

import (
	"bytes"
	"strings"
)

// wrapped is the logical line Read is assembling: a physical line that may
// go on on the next one, and the lines joined to it.
type wrapped struct {
	buf         []byte // the first line without its trailing blanks, then " " and each continuation without its quoting
	on          bool
	from, to, n int  // first and last physical line, number of lines joined (a quoted-printable line is one)
	incomplete  bool // the text ends in a way that says it goes on
	flowed      bool // it ends in a blank: a soft line break of format=flowed mail
	prefixOnly  bool // it ends with a device's prefix ("pcieport 0000:00:06.0:"): its message is on the next line
	stamped     bool // its first line has a time stamp or log prefix, and format=flowed broke it
	first       bool // its first line has a time stamp or log prefix
	// stampedHeld and bareHeld count the logical lines held so far whose
	// first line had a time stamp or log prefix, and those without: a log
	// whose held lines (nearly) all had one wraps what has none.
	stampedHeld, bareHeld int
	interesting           bool      // the text holds a keyword
	failure               bool      // the first line names a PCI function and holds a failure word
	at                    Timestamp // the running time of a dmesg -H log at the first line
}

// hold starts a logical line with physical line n. remnant says the line
// is the rest of the stamped line before it, which joined nothing ("_OSC:
// OS" + "supports [ExtendedConfig ASPM ..."): a wrap, not a message pasted
// without its stamp, so it counts neither way.
func (w *wrapped) hold(b []byte, n int, interesting, failure, remnant bool) {
	end := len(b)
	for end > 0 && (b[end-1] == ' ' || b[end-1] == '\t') {
		end--
	}
	w.buf = append(w.buf[:0], b[:end]...)
	w.on, w.from, w.to, w.n = true, n, n, 1
	w.interesting, w.failure = interesting, failure
	w.incomplete = incompleteBytes(b) || danglingWord(b)
	w.flowed = w.incomplete && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t')
	w.first = stampedBytes(cleanBytes(b))
	w.stamped = w.flowed && w.first
	switch {
	case w.first:
		w.stampedHeld++
	case !remnant:
		w.bareHeld++
	}
	w.prefixOnly = w.incomplete && endsWithDevice(w.buf)
}

// endsWithDevice reports whether a line ends with a device's prefix, a
// PCI address or an NVMe name and a colon, with no message after it.
func endsWithDevice(b []byte) bool {
	if len(b) < 2 || b[len(b)-1] != ':' {
		return false
	}
	sp := bytes.LastIndexByte(b, ' ')
	dev := b[sp+1 : len(b)-1]
	if tagWord(dev) && sp > 0 {
		// A subsystem's tag after the device ("pcieport 0000:00:06.0:
		// AER:"): its message is on the next line too.
		return endsWithDevice(bytes.TrimRight(b[:sp], " "))
	}
	return isPCIAddr(string(dev)) || isCtrlName(string(dev)) || isDiskName(string(dev))
}

// tagWord reports whether a word is a subsystem's tag in capitals ("AER",
// "DPC", "ASPM").
func tagWord(w []byte) bool {
	if len(w) < 2 || len(w) > 6 {
		return false
	}
	for _, c := range w {
		if c < 'A' || c > 'Z' {
			return false
		}
	}
	return true
}

// danglingWord reports whether a line ends in a word no kernel message
// ends in ("ignoring ctrl due to" + "duplicate subnqn"): a preposition,
// an article or a conjunction, where a mail client broke the line.
func danglingWord(b []byte) bool {
	b = bytes.TrimRight(b, " \t")
	w := b[bytes.LastIndexByte(b, ' ')+1:]
	switch string(w) {
	case "to", "from", "of", "with", "for", "due", "the", "a", "an", "and", "or", "by", "at", "on", "in", "after", "before":
		return len(w) < len(b)
	}
	return false
}

// stampedLog reports whether the log's messages carry a time stamp or log
// prefix: at least nine in ten of the lines held so far had one (a line
// a mail client wrapped that no rule joined counts as one without).
func (w *wrapped) stampedLog() bool { return w.bareHeld*10 <= w.stampedHeld }

// join adds physical line n, a continuation, to the logical line.
func (w *wrapped) join(b []byte, n int) {
	c := cleanBytes(b)
	w.buf = append(w.buf, ' ')
	w.buf = append(w.buf, c[:min(len(c), max(0, MaxWrapLength-len(w.buf)))]...)
	w.to, w.n = n, w.n+1
	w.interesting = w.interesting || interestingBytes(c)
	w.incomplete = incompleteBytes(b) || unbalanced(w.buf) || danglingWord(c)
	w.flowed = incompleteBytes(b) && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t')
	w.prefixOnly = false
}

// full reports whether the logical line may grow no more: it spans
// MaxWrapLines physical lines, or holds MaxWrapLength bytes.
func (w *wrapped) full() bool { return w.to-w.from+1 >= MaxWrapLines || len(w.buf) >= MaxWrapLength }

// continues reports whether physical line b continues the held logical
// line: b has no time stamp or message prefix of its own and reads as the
// rest of a sentence ("CSTS=0xffffffff, PCI_STATUS=0x10", "device
// inaccessible", "(Receiver ID)"), and the held line either ends
// incomplete (a trailing blank, comma, colon, open parenthesis or quote:
// a mail or tracker wrapped it there) or holds a keyword but reads as no
// event alone ("Unable to change power" + "state from D3cold to D0, device
// inaccessible"; "AER: Correctable error" + "message received from" +
// "0000:bf:00.0"). A line that reads as an event on its own is never joined
// to, so that stray text in a log does not change its events. After a time
// stamped line that format=flowed mail broke (it ends in a blank), or a
// line that ends with its device's prefix ("pcieport 0000:00:06.0:"), any
// line without a stamp of its own continues it ("ClockPM", "AER: Corrected
// error received: 0000:00:06.0").
func (st *state) continues(b []byte) bool {
	c := cleanBytes(b)
	if bracketless(string(c[:min(len(c), 20)])) > 0 && bytes.HasSuffix(bytes.TrimRight(st.wrap.buf, " \t"), []byte("[")) {
		return true // a dmesg time the wrap split after its "["
	}
	if len(c) == 0 || stampedBytes(c) || structural(c) || embeddedStamp(string(c)) != "" || bytes.Contains(c, []byte(" | ")) || listItem(b) || elision(c) || label(c) {
		return false // a line with a time stamp inside starts a message there, a table's row or a list's item is one; an elision or a label is no text
	}
	if w, _, ok := bytes.Cut(c, []byte(" ")); ok && secondsWord(string(w)) {
		if h, _, ok := bytes.Cut(cleanBytes(st.wrap.buf), []byte(" ")); ok && secondsWord(string(h)) {
			// Lines that each start with a time in seconds, as the
			// line held does ("  37.63 nvme: error 8" then "  37.64
			// Failed to open device: 'nvme'", the Raspberry Pi
			// bootloader's): each its own line.
			return false
		}
	}
	if st.wrap.prefixOnly || st.wrap.flowed && st.wrap.stamped {
		return true // even "AER: Corrected error received: ..."
	}
	if bytes.HasPrefix(cleanBytes(st.wrap.buf), []byte("kernel: ")) && otherProgram(c) {
		// Lines that name their program and nothing else ("kernel: nvme
		// nvme1: ...", then "rtkit-daemon: pthread_create failed: ..."):
		// each such line is a program's message of its own.
		return false
	}
	if st.wrap.n == 1 && st.wrap.first {
		// A stamp and one word ("... kernel: [   43.594151] nvme" +
		// "nvme0: Removing after probe failure status: -19") is never a
		// message: the rest is on the next line.
		if sp := splitLine(string(st.wrap.buf)); sp.kernel && sp.msg != "" && !strings.ContainsAny(strings.TrimSpace(sp.msg), " \t") {
			return true
		}
	}
	if bytes.HasPrefix(c, []byte("op 0x")) && bytes.Contains(st.wrap.buf, []byte("error, dev ")) && bytes.Contains(st.wrap.buf, []byte(", sector ")) &&
		!bytes.Contains(st.wrap.buf, []byte(" op 0x")) {
		// The block layer's error line cut after its sector ("... sector
		// 113319936" + "op 0x9:(WRITE_ZEROES) flags 0x0 ..."): the rest of
		// its fields, which no message starts with.
		return true
	}
	// truncated only here: a line without a stamp after a held one is rare
	// in a log, held lines are not.
	cut := truncated(st.wrap.buf)
	if cut && (!devStartBytes(c) || bytes.IndexByte(bytes.TrimRight(c, " \t"), ' ') < 0) {
		// The rest of a fixed format ("type=Physical" + "Layer, (Receiver
		// ID)", "received:" + "0000:01:00.0": one word is never a message
		// of its own), unless the line is a message of its own.
		if e, ok := parseLogical(string(c)); !ok || mere(e) {
			return true
		}
	}
	if st.wrap.first && st.wrap.stampedLog() {
		// Every message so far had its stamp or prefix, and this line has
		// none: a mail client or tracker wrapped it, even where it breaks
		// before a capital ("... PCIe Bus" + "Error: severity=..."). It
		// joins a line that ends incomplete, or one that reads as no event
		// alone, unless that makes it a mere DriverError: a remark typed
		// between the blocks changes no event.
		if st.wrap.incomplete || cut {
			return true
		}
		if e, ok := parseLogical(string(c)); ok && !mere(e) {
			return false // a message of its own, pasted without its stamp
		}
		joined, jok := parseLogical(string(st.wrap.buf) + " " + string(c))
		alone, ok := parseLogical(string(st.wrap.buf))
		switch {
		case ok && !mere(alone):
			// An event already; the rest of its line names a device or
			// holds a keyword, and leaves it the same event.
			return jok && joined.Kind == alone.Kind && interestingBytes(c)
		case ok:
			// A driver's failure line already ("Duplicate cntlid 0 with" +
			// "nvme0," + "rejecting"): the rest of it makes no new one.
			return true
		}
		return !jok || !mere(joined) || straddles(st.wrap.buf, c) || failedStatus(c)
	}
	word := lowerWordColon(c)
	if devStartBytes(c) && !word {
		return false
	}
	if !contLike(c) {
		return false
	}
	matters := st.wrap.interesting || st.wrap.failure
	if word {
		// "status: -22" after "Removing after probe failure": a lower-case
		// word and a colon also start messages ("random: ..."), so it joins
		// only when that makes an event the held line alone is not.
		if !matters {
			return false
		}
		if alone, ok := parseLogical(string(st.wrap.buf)); ok && !mere(alone) {
			return false
		}
		joined, ok := parseLogical(string(st.wrap.buf) + " " + string(c))
		return ok && !mere(joined)
	}
	if st.wrap.incomplete || cut || matters && unbalanced(st.wrap.buf) {
		return true
	}
	if !matters {
		return false
	}
	// A held line that reads as an event stays alone; one that does not
	// takes b, unless that made it a mere DriverError.
	alone, ok := parseLogical(string(st.wrap.buf))
	if ok && !mere(alone) {
		return false
	}
	joined, ok := parseLogical(string(st.wrap.buf) + " " + string(c))
	return !ok || !mere(joined) || straddles(st.wrap.buf, c) || failedStatus(c)
}

// straddles reports whether a failure word spans the break between a held
// line and the next ("ignoring ctrl due to duplicate" + "subnqn"): neither
// holds it alone, the two joined do. A remark typed after a line completes
// no failure word of the line's.
func straddles(held, c []byte) bool {
	h, n := string(held), string(c)
	return !failureWord(h) && !failureWord(n) && failureWord(h+" "+n)
}

// structural reports whether a line holds only JSON's brackets and commas
// (dmesg --json's "}," and "]" between and after its records): no
// message's rest.
func structural(c []byte) bool {
	for _, ch := range c {
		switch ch {
		case '{', '}', '[', ']', ',':
		default:
			return false
		}
	}
	return true
}

// label reports whether a line is a writer's label of the lines after it:
// one capitalised word and a colon ("Before:", "After:", "Log:", as a
// patch's description heads the runs it quotes, posted zj-03), which no
// kernel message is the rest of.
func label(c []byte) bool {
	c = bytes.TrimRight(c, " \t")
	if len(c) < 3 || c[0] < 'A' || c[0] > 'Z' || c[len(c)-1] != ':' {
		return false
	}
	for _, ch := range c[1 : len(c)-1] {
		if (ch < 'a' || ch > 'z') && (ch < 'A' || ch > 'Z') {
			return false
		}
	}
	return true
}

// failedStatus reports whether a line is the end of a driver's report that
// a step failed, with its status and nothing else ("Identify
// Descriptors" + "failed (8194)", "failed (nsid=1, status=0x2002)"): no
// remark typed after a line reads so.
func failedStatus(c []byte) bool {
	rest, ok := bytes.CutPrefix(c, []byte("failed ("))
	return ok && len(rest) <= 40 && bytes.IndexByte(rest, ')') == len(rest)-1
}

// completes reports whether a physical line, cleaned to c, which holds a
// keyword and has no time stamp or prefix of its own (physical checked),
// continues the line before it, which holds none and so was not held: c
// reads as the rest of a sentence, and the two joined read as an event
// that c alone is not.
func (st *state) completes(c []byte) bool {
	prev := cleanBytes(st.prev)
	if len(prev) == 0 {
		return false
	}
	if stampedBytes(prev) && splitLine(string(prev)).msg == "" {
		return true // a stamp alone ("... kernel: [   43.992405]"): b is its message
	}
	if devStartBytes(c) {
		return false
	}
	if !contLike(c) && (!st.wrap.stampedLog() || !stampedBytes(prev)) {
		// A capital may start a message, unless every message so far had
		// its stamp and this line has none ("Buffer" + "I/O error on dev
		// nvme0n1, ...").
		return false
	}
	if e, ok := parseLogical(string(c)); ok && !mere(e) {
		return false
	}
	joined, ok := parseLogical(string(bytes.TrimRight(st.prev, " \t")) + " " + string(c))
	return ok && !mere(joined)
}

// completes2 is completes for a message broken in three: the two lines
// before c, neither holding a keyword, a stamped one and one without, in a
// log whose messages have their stamps, and the three joined read as an
// event that c alone is not.
func (st *state) completes2(c []byte) bool {
	if !st.wrap.stampedLog() {
		return false
	}
	mid, first := cleanBytes(st.prev), cleanBytes(st.prev2)
	if len(mid) == 0 || stampedBytes(mid) || !stampedBytes(first) {
		return false
	}
	if e, ok := parseLogical(string(c)); ok && !mere(e) {
		return false
	}
	joined, ok := parseLogical(string(bytes.TrimRight(first, " \t")) + " " + string(mid) + " " + string(c))
	return ok && !mere(joined)
}

// mere reports whether an event is a DriverError and no more: a line of
// the driver's with a failure word whose message the reader does not know
// ("nvme nvme0: failed to do X"). One it knows, such as the driver core's
// "probe with driver nvme failed with error -12", is a message of its own.
// It is not inlined (go:noinline): its copies at twelve places took 2 KB
// of the page's app-log.wasm.
//
//go:noinline
func mere(e Event) bool { return e.Kind == DriverError && e.Action == "" }

// parseLogical reads one logical line as Read would.
func parseLogical(line string) (Event, bool) {
	sp := splitLine(line)
	if !sp.kernel || sp.msg == "" {
		return Event{}, false
	}
	return parseMessage(sp.msg)
}

// cleanBytes is cleanLine of a physical line, without copying.
func cleanBytes(b []byte) []byte {
	// Loops, not bytes.Trim: a cut set is built on every call, and this
	// runs on every line.
	for len(b) > 0 && quoteByte(b[0]) {
		b = b[1:]
	}
	for n := bbOpen(b); n > 0; n = bbOpen(b) {
		b = b[n:] // a forum's BBCode: "[code][   12.3] ...", "[FONT=courier new]"
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	if n := len(b); n >= 2 && b[n-1] == '|' && b[n-2] == ' ' {
		// A Markdown table row's closing bar, as cleanLine drops it: the
		// rest of a soft-broken row ("00:04:00.0 |") is no line of its own.
		b = b[:n-1]
		for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
			b = b[:len(b)-1]
		}
	}
	return b
}

// incompleteBytes reports whether a physical line ends as a wrapped one
// does: with a blank (format=flowed mail marks its soft breaks so) or a
// comma, colon, semicolon, open parenthesis or equals sign.
func incompleteBytes(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	switch b[len(b)-1] {
	case ' ', '\t':
		return len(cleanBytes(b)) > 0
	case ',', ':', ';', '(', '[', '=':
		return true
	}
	return false
}

// truncated reports whether a held line is the start of a message whose
// end the kernel's format fixes, cut before it: AER's "PCIe Bus Error:
// severity=%s, type=%s, (%s)" ends in a parenthesis (drivers/pci/pcie/
// aer.c), the PCI core's resume failure ends "inaccessible"
// (drivers/pci/pci.c), nvme-pci's "PCI_STATUS read failed (%d)" and its
// timeout line (what the driver did) end so too, and AER's report of an
// error message names the device last. A mail client that broke one of them
// before a capital ("type=Physical" + "Layer, (Receiver ID)") left a
// continuation that reads like the start of a message.
func truncated(b []byte) bool {
	b = bytes.TrimRight(b, " \t*`_") // Markdown's emphasis and code marks
	switch {
	case bytes.Contains(b, []byte("PCIe Bus Error: ")):
		return !bytes.HasSuffix(b, []byte(")"))
	case bytes.Contains(b, []byte("Unable to change power state from ")):
		return !bytes.HasSuffix(b, []byte("inaccessible"))
	case bytes.Contains(b, []byte("controller is down; will reset: ")) && bytes.Contains(b, []byte(", PCI_STATUS")):
		// "PCI_STATUS=0x10", or "PCI_STATUS read failed (134)"
		rest := b[bytes.LastIndex(b, []byte(", PCI_STATUS"))+len(", PCI_STATUS"):]
		return len(rest) == 0 || rest[0] != '=' && !bytes.HasSuffix(rest, []byte(")"))
	case bytes.Contains(b, []byte("min host memory (")):
		// nvme-pci's "min host memory (%d MiB) above limit (%d MiB)."
		return !bytes.Contains(b, []byte(" limit ("))
	case bytes.HasSuffix(b, []byte(" host memory buffer")):
		// "allocated %d MiB host memory buffer (%u segments)." (or "."
		// before 6.13): the line ends at its period.
		return true
	}
	// AER's "Corrected error received: 0000:01:00.0" (and its other
	// severities and spellings) names the device at its end.
	if i := bytes.Index(b, []byte("AER: ")); i >= 0 {
		r := b[i+len("AER: "):]
		r = bytes.TrimPrefix(r, []byte("Multiple "))
		for _, sev := range []string{"Corrected", "Correctable", "Uncorrected", "Uncorrectable"} {
			if bytes.HasPrefix(r, []byte(sev)) {
				return !hasPCIAddr(r)
			}
		}
	}
	// nvme-pci's timeout line goes on after its queue ("QID 7" +
	// "timeout, aborting", "QID" + "7 timeout, aborting").
	if bytes.HasSuffix(b, []byte(" QID")) && bytes.Contains(b, []byte("I/O ")) ||
		bytes.Contains(b, []byte(": I/O tag ")) && !bytes.Contains(b, []byte(" QID ")) {
		// "I/O tag 960 (33c0) opcode" + "0x2 (I/O Cmd) QID 7 timeout,"
		return true
	}
	if i := bytes.LastIndex(b, []byte(" QID ")); i >= 0 && len(b) > i+5 && allDigits(string(b[i+5:])) {
		return true
	}
	// The block layer's "I/O error, dev nvme0n1, sector 113319936 op
	// 0x9:(WRITE_ZEROES) flags 0x0 phys_seg 0 prio class 0" (its fields
	// grew over the releases): a line cut after a field's name goes on.
	if bytes.Contains(b, []byte("error, dev ")) && bytes.Contains(b, []byte(", sector ")) {
		for _, f := range []string{" sector", " op", " flags", " phys_seg", " prio", " prio class"} {
			if bytes.HasSuffix(b, []byte(f)) {
				return true
			}
		}
	}
	// nvme-pci's timeout line ends in what the driver did ("timeout,
	// completion polled", "reset controller", "disable controller"): a
	// line cut inside one of those goes on.
	if i := bytes.LastIndex(b, []byte(" timeout, ")); i >= 0 {
		rest := string(b[i+len(" timeout, "):])
		for _, a := range []string{"completion polled", "reset controller", "disable controller"} {
			if len(rest) < len(a) && strings.HasPrefix(a, rest) {
				return true
			}
		}
	}
	return false
}

// unbalanced reports whether a text opens a parenthesis or a quote it does
// not close.
func unbalanced(b []byte) bool {
	open, quotes := 0, 0
	for _, c := range b {
		switch c {
		case '(':
			open++
		case ')':
			open--
		case '"':
			quotes++
		}
	}
	return open > 0 || quotes%2 == 1
}

// stampedBytes reports whether a cleaned physical line starts with a time
// stamp or a log prefix of its own: dmesg's "[...]", a printk level, a JSON
// record, journalctl's "-- ", an ISO, syslog or journal time (in any
// language), a time of day, a /dev/kmsg record, a syslog protocol line
// without its "<PRI>" ("1 2026-12-05T..." or "1 - ") or a bare "kernel:".
func stampedBytes(c []byte) bool {
	if len(c) == 0 {
		return false
	}
	switch ch := c[0]; {
	case ch == '[':
		return bracketStamp(c)
	case ch == '<' || ch == '{':
		return true
	case ch == '-':
		return bytes.HasPrefix(c, []byte("-- "))
	case ch == '*':
		return len(c) > 2 && c[1] == '*' && c[2] != '*' && stampedBytes(c[2:]) // Markdown's bold
	case ch == '_':
		return bytes.HasPrefix(c, []byte("__CURSOR=")) || bytes.HasPrefix(c, []byte("__REALTIME_TIMESTAMP=")) // journalctl -o export
	case isDigit(ch):
		return len(c) >= 19 && c[4] == '-' && c[7] == '-' && c[13] == ':' ||
			len(c) >= 8 && c[2] == ':' && c[5] == ':' && isDigit(c[6]) && isDigit(c[7]) ||
			kmsgLike(c) || syslogLike(c) || unixLike(c) || datedLike(c) || bracketless(string(c[:min(len(c), 20)])) > 0 ||
			len(c) > 12 && c[0] == '1' && c[1] == ' ' && (c[2] == '-' && c[3] == ' ' || c[6] == '-' && c[12] == 'T')
	}
	return bytes.HasPrefix(c, []byte("kernel:")) || bytes.HasPrefix(c, []byte("kern ")) || bytes.HasPrefix(c, []byte("kern:")) ||
		len(c) > 5 && isWeekday(string(c[:3])) && c[3] == ' ' && (isDigit(c[4]) || len(c) > 7 && isMonth(string(c[4:7]))) ||
		syslogLike(c) || hostKernel(c) || datedLike(c) || kibanaLike(c)
}

// kibanaLike reports whether c starts with Kibana's time ("Dec 5, 2024 @
// 04:55:59.123").
func kibanaLike(c []byte) bool {
	if len(c) < 20 || !isMonth(string(c[:3])) {
		return false
	}
	_, _, ok := kibanaPrefix(string(c[:min(len(c), 40)]))
	return ok
}

// datedLike reports whether c starts with a date in an order of its own
// and a time of day (datedClock: "12/05/2026 10:00:00").
func datedLike(c []byte) bool {
	_, _, ok := datedClock(string(c[:min(len(c), 40)]))
	return ok
}

// hostKernel reports whether c starts with a host's name and the kernel's
// tag ("thinkpad kernel: "), a journal line with its time cut off.
func hostKernel(c []byte) bool {
	_, prog, hasProg := afterProgram(string(c))
	return hasProg && prog == "kernel"
}

// bracketStamp reports whether c starts with a dmesg time ("[
// 12.345678]"), a dmesg -T or -H one ("[Tue Dec  1 ...]", "[Sep12
// 13:16]", "[  +0.000009]", a lower-case day's "[dim. déc.  1 ...]"), a
// time of day alone ("[18:14:04]") or after a date ("[2024-12-05
// 04:55:59]"), or a caller id alone ("[T64]"), rather than text in
// brackets ("[ 0] RxErr", "[mem 0x...]").
func bracketStamp(c []byte) bool {
	i := 1
	for i < len(c) && c[i] == ' ' {
		i++
	}
	if i >= len(c) {
		return false
	}
	switch ch := c[i]; {
	case ch >= 'A' && ch <= 'Z':
		// A date's or a caller id's, not a message's own bracket whose
		// words no time has ("[IO_PAGE_FAULT domain=0x0000 ...]", AMD-Vi's
		// fault wrapped after "Event logged").
		in := c[i:min(len(c), i+40)]
		if end := bytes.IndexByte(in, ']'); end >= 0 {
			in = in[:end]
		}
		return bytes.IndexByte(in, '_') < 0 && bytes.IndexByte(in, '=') < 0
	case ch == '+' || ch == '<' || ch >= 0x80:
		return true // "<" is dmesg --time-format=delta's "[<    0.000123>]"
	case ch >= 'a' && ch <= 'z':
		// dmesg -T under a locale whose day names are lower case ("[dim.
		// déc.  1 10:00:03 2026]").
		end := bytes.IndexByte(c[:min(len(c), 48)], ']')
		if end < 0 {
			return false
		}
		_, ok := parseLocalCtime(strings.TrimSpace(string(c[1:end])))
		return ok
	case isDigit(ch):
		if _, n, ok := parseClock(string(c[i:min(len(c), i+20)])); ok && i+n < len(c) && c[i+n] == ']' {
			return true // a time of day alone: "[18:14:04]", "[18:14:04.123]"
		}
		if len(c) >= i+19 && c[i+4] == '-' && c[i+7] == '-' && c[i+13] == ':' && c[i+16] == ':' {
			return true // a date and a time of day: "[2024-12-05 04:55:59]"
		}
		for i < len(c) && isDigit(c[i]) {
			i++
		}
		return i < len(c) && (c[i] == '.' || c[i] == ',')
	}
	return false
}

// unixLike reports whether c starts with journalctl -o short-unix's time:
// "1714723872.123456 ".
func unixLike(c []byte) bool {
	i := 0
	for i < len(c) && i < 12 && isDigit(c[i]) {
		i++
	}
	return i >= 9 && i < len(c) && c[i] == '.'
}

// kmsgLike reports whether c starts as a /dev/kmsg record: "6,1234,".
func kmsgLike(c []byte) bool {
	i := 0
	for i < len(c) && i < 4 && isDigit(c[i]) {
		i++
	}
	return i > 0 && i+1 < len(c) && c[i] == ',' && isDigit(c[i+1]) // not "3456, 8 blocks"
}

// syslogLike reports whether c starts with "<month> <day> hh:mm:ss".
func syslogLike(c []byte) bool {
	sp := bytes.IndexByte(c[:min(len(c), 25)], ' ')
	if sp < 1 {
		return false
	}
	i := sp
	for i < len(c) && c[i] == ' ' {
		i++
	}
	j := i
	for j < len(c) && j-i < 2 && isDigit(c[j]) {
		j++
	}
	if j == i || j >= len(c) || c[j] != ' ' {
		return false
	}
	for j < len(c) && c[j] == ' ' {
		j++
	}
	return len(c)-j >= 8 && c[j+2] == ':' && c[j+5] == ':' && isDigit(c[j]) && isDigit(c[j+7])
}

// devStartBytes reports whether c starts as a kernel message with a device
// or subsystem prefix: "nvme nvme0: ...", "pcieport 0000:00:1c.0: ...",
// "nvme0n1: ...", "PM: ...".
func devStartBytes(c []byte) bool {
	a, rest, ok := bytes.Cut(c, []byte(" "))
	if bytes.HasSuffix(a, []byte(":")) {
		return !bytes.ContainsAny(a, "()") // not "nvme0n1p2):", the rest of "(device nvme0n1p2):"
	}
	if !ok || bytes.IndexByte(a, ':') >= 0 {
		return false
	}
	// A device's name has a number ("nvme0", "0000:00:1c.0", "usb1"):
	// "error received:", the rest of AER's "Corrected" + "error
	// received: 0000:01:00.0", is no device.
	b, _, _ := bytes.Cut(rest, []byte(" "))
	return len(b) > 1 && bytes.HasSuffix(b, []byte(":")) && bytes.ContainsAny(b, "0123456789")
}

// lowerWordColon reports whether c starts with a lower-case word and a
// colon ("status: -22").
func lowerWordColon(c []byte) bool {
	a, _, _ := bytes.Cut(c, []byte(" "))
	if len(a) < 3 || a[len(a)-1] != ':' {
		return false
	}
	for _, ch := range a[:len(a)-1] {
		if ch < 'a' || ch > 'z' {
			return false
		}
	}
	return true
}

// contLike reports whether c reads as the rest of a sentence rather than
// the start of a message: it starts with a lower-case word, a number, a
// parenthesis, a quote, or a token that is no plain word ("CSTS=0x1,",
// "PCI_STATUS=0x10", "L0s-up", "D3cold").
func contLike(c []byte) bool {
	ch := c[0]
	switch {
	case ch >= 'a' && ch <= 'z', isDigit(ch), ch == '(', ch == '"', ch == '\'', ch == '-':
		return true
	case ch >= 'A' && ch <= 'Z':
		tok, _, _ := bytes.Cut(c, []byte(" "))
		if string(tok) == "I/O" {
			return false
		}
		for _, t := range tok[1:] {
			if !(t >= 'a' && t <= 'z') && !(t >= 'A' && t <= 'Z') {
				return true
			}
		}
	}
	return false
}

// elision reports whether a cleaned line is only a poster's mark of lines
// left out ("...", "…", "[...]"): never the rest of the line before it.
func elision(c []byte) bool {
	t := bytes.Trim(bytes.TrimSpace(c), "[]()")
	if len(t) == 0 || t[0] != '.' && t[0] != 0xe2 {
		return false // most lines, without a copy
	}
	dots := 0
	for len(t) > 0 {
		switch {
		case t[0] == '.':
			dots, t = dots+1, t[1:]
		case t[0] == ' ':
			t = t[1:]
		case bytes.HasPrefix(t, []byte("\u2026")):
			dots, t = dots+3, t[len("\u2026"):]
		default:
			return false
		}
	}
	return dots >= 3
}

// listItem reports whether a physical line is an item of a Markdown or
// plain-text list ("- ", "* ", "+ ", "• " after its quoting and
// indentation): an item of its own, never the rest of the line before
// it (a wrapped message goes on with its words, not a list mark).
func listItem(b []byte) bool {
	b = bytes.TrimLeft(b, " \t>")
	return len(b) > 2 && (b[0] == '-' || b[0] == '*' || b[0] == '+') && b[1] == ' ' || bytes.HasPrefix(b, []byte("\u2022 "))
}

// otherProgram reports whether a line starts with a program's name and a
// colon, as journalctl prints lines without their times ("rtkit-daemon:
// ...", "gdm-session-worker[1234]: ..."): a syslog tag with its pid
// (programTag), or a name with a '-', '_', '.' or an inner capital in
// it, so that a message's own lower-case first word ("status: -19") is
// no program.
func otherProgram(c []byte) bool {
	head := string(c[:min(len(c), 48)])
	if programTag(head) {
		return true
	}
	name, _, ok := strings.Cut(head, ": ")
	if !ok || len(name) < 2 || !(name[0] >= 'a' && name[0] <= 'z' || name[0] >= 'A' && name[0] <= 'Z') ||
		strings.Trim(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") != "" {
		return false
	}
	return strings.ContainsAny(name, "-_.") || strings.ContainsAny(name[1:], "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
}
