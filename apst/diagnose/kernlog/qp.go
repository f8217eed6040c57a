package kernlog

import (
	"bytes"
	"strings"
)

// Quoted-printable mail (RFC 2045, section 6.7) is how a mailing list
// archive that shows the message as stored hands a log over: it breaks
// every line longer than 76 characters with a soft break, an "=" at the
// end of the line ("Unable to change power st=" + "ate from D3cold to D0,
// device inaccessible"), and writes "=" itself, and a blank before a line
// break, as "=3D" and "=20" ("CSTS=3D0x3, PCI_STATUS=3D0x2010"). Read
// undoes both before anything else reads the line: a soft break is not a
// word break, so the wrap rules, which join with a blank, cannot.

// qpMaxLine is the longest line quoted-printable writes, soft break
// included; qpMinSoftLine the shortest line with a soft break taken as one
// when nothing else in the log says it is quoted-printable: encoders fill
// a line to 75 or 76 characters, and stop short only to keep an "=XX"
// whole. A tracker's or mail client's hard wrap at 72 or 80 columns that
// happens to fall after an "=" ("CSTS=" + "0xffffffff") is neither.
const (
	qpMaxLine     = 76
	qpMinSoftLine = 73
)

// qp is what Read knows of a log's quoted-printable encoding: whether it
// is on, and the soft-broken line being assembled.
type qp struct {
	on      bool   // the log holds a "=3D", or a soft break was undone
	held    []byte // the lines joined so far, as encoded, without their soft breaks
	from, n int    // the first of them, and how many
	quote   int    // the length of the first one's quoting ("> > "), which the next ones may repeat
	hard    bool   // the line held ends in "=20", not in a soft break
	off     bool   // a kernel line was longer than quoted-printable writes: the log is not encoded
	decoded []byte // scratch for decode
}

// qpHeader is the header of a mail whose body is quoted-printable.
const qpHeader = "Content-Transfer-Encoding: quoted-printable"

// qpMaxJoin bounds the physical lines one soft-broken line is made of.
const qpMaxJoin = 64

// softBreak reports whether physical line b (without its line ending) ends
// in a quoted-printable soft break. Decoding turns on at the first such
// line that holds the escape only quoted-printable writes in a kernel log,
// "=3D" (an "="): a line whose "=" is escaped is longer than 76 characters
// (the "CSTS=3D" of "controller is down"), so the encoder broke it.
func (q *qp) softBreak(b []byte) bool {
	if len(b) < 2 || b[len(b)-1] != '=' || len(b) > qpMaxLine+1 || bytes.IndexByte(b, 0) >= 0 {
		return false
	}
	if !q.on && bytes.Contains(b, []byte("=3D")) {
		q.on = true
	}
	// Not yet known to be quoted-printable: the line must be as long as an
	// encoder makes it.
	return q.on || len(b) >= qpMinSoftLine && len(b) <= qpMaxLine
}

// rest is physical line b as the rest of the held line, without the
// quoting the first line had, or false when b is a line of its own. In a
// log known to be quoted-printable every "=" at a line's end is a soft
// break (an "=" of the text is "=3D"); else the next line must not start
// with a time stamp of its own and go on after it ("00:04:00.0", the rest
// of an address, is no stamp), unless the held line is a JSON record's
// start, which no "=" ends (a log shipper's record holds a syslog line,
// its stamp and all, and the break may fall just before it).
func (q *qp) rest(b []byte) ([]byte, bool) {
	if q.quote > 0 && len(b) >= q.quote && string(b[:q.quote]) == string(q.held[:q.quote]) {
		b = b[q.quote:]
	}
	c := cleanBytes(b)
	record := len(q.held) > q.quote && q.held[q.quote] == '{'
	return b, bytes.IndexByte(b, 0) < 0 && (q.on || record || len(c) > 0 && (!stampedBytes(c) || bytes.IndexByte(c, ' ') < 0))
}

// sniff turns decoding on when line b, which Read holds (it may matter),
// holds the escape only quoted-printable writes in a kernel log, "=3D"
// (an "="), and returns it decoded. A log stored quoted-printable whose
// lines were all short enough to have no soft break shows itself so
// ("CSTS=3D0x1"); only the lines held are looked at, a few in a log.
func (q *qp) sniff(b []byte) []byte {
	if q.on || q.off || !bytes.Contains(b, []byte("=3D")) {
		return b
	}
	q.on = true
	return q.decode(b)
}

// hexDigits are quoted-printable's, upper-case only.
const hexDigits = "0123456789ABCDEF"

// decode undoes the escapes of b when decoding is on: "=XX" naming a byte
// that is no control character but a tab, and the line ends some mail
// clients encode inside a line ("=0A", "=0D=0A": Outlook's, which then
// soft-breaks after them), as a line feed that lines splits at. It
// returns b itself when there is nothing to undo, else a slice of q's
// scratch, valid until the next call.
func (q *qp) decode(b []byte) []byte {
	if !q.on || bytes.IndexByte(b, '=') < 0 {
		return b
	}
	out := q.decoded[:0]
	for i := 0; i < len(b); i++ {
		if b[i] == '=' && i+2 < len(b) {
			hi, lo := strings.IndexByte(hexDigits, b[i+1]), strings.IndexByte(hexDigits, b[i+2])
			if v := hi<<4 | lo; hi >= 0 && lo >= 0 && (v >= 0x20 || v == '\t' || v == '\n' || v == '\r') {
				if v != '\r' {
					out = append(out, byte(v))
				}
				i += 2
				continue
			}
		}
		out = append(out, b[i])
	}
	q.decoded = out
	return out
}

// physical handles physical line b of the log (with its line ending):
// it undoes quoted-printable soft breaks and escapes, then hands each
// line on to line.
func (st *state) physical(b []byte) {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	q := &st.qp
	n := st.lineNo()
	if q.n == 0 && !q.on && !q.off && len(b) > qpMaxLine+4 && stampedBytes(cleanBytes(b)) {
		// A kernel line longer than quoted-printable writes (with a
		// reply's quoting): the log is no stored mail body.
		q.off = true
	}
	if !q.on && len(b) == len(qpHeader) && (b[0] == 'C' || b[0] == 'c') && strings.EqualFold(string(b), qpHeader) {
		// A raw mail's header says so (an archive's "raw" view, an mbox).
		q.on, q.off = true, false
		return
	}
	if q.off || q.n == 0 && !q.on && (len(b) == 0 || b[len(b)-1] != '=' && b[len(b)-1] != '0') {
		st.line(b, n, n) // most lines: nothing held, nothing to undo
		return
	}
	if q.n > 0 {
		rest, ok := q.rest(b)
		switch {
		case ok && q.hard:
			// A line that ended in "=20" before the rest of a message
			// wrapped by format=flowed mail: quoted-printable's hard
			// break after a blank. It stays a line of its own, its blank
			// back; b is the next.
			q.on = true
			st.releaseQP(q.from)
		case ok:
			q.on = true
			q.n++
			if q.n < qpMaxJoin && q.softBreak(rest) {
				q.held = append(q.held, rest[:len(rest)-1]...)
				return
			}
			q.held = append(q.held, rest...)
			st.releaseQP(n)
			return
		default:
			// Not continued: the "=" was the line's own.
			st.endQP()
		}
	}
	if q.softBreak(b) {
		q.held = append(q.held[:0], b[:len(b)-1]...)
		// Mail's quoting: a run of '>' and blanks with a '>' in it.
		q.quote = 0
		for i := 0; i < len(b) && (b[i] == '>' || b[i] == ' '); i++ {
			if b[i] == '>' {
				q.quote = i + 1
			}
		}
		if q.quote > 0 && q.quote < len(b) && b[q.quote] == ' ' {
			q.quote++
		}
		q.from, q.n = n, 1
		return
	}
	if !q.on && len(b) <= qpMaxLine && bytes.HasSuffix(b, []byte("=20")) {
		// Quoted-printable's blank at a line's end, or a value ("nr_cpus=20"):
		// the next line tells. (No encoder writes a longer line.)
		q.held = append(q.held[:0], b...)
		q.quote, q.from, q.n, q.hard = 0, n, 1, true
		return
	}
	st.lines(q.decode(b), n, n)
}

// lines hands decoded line b on to line, split at the line feeds an
// encoded line end ("=0A") put in it, each part with b's line numbers.
func (st *state) lines(b []byte, from, last int) {
	for {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			st.line(b, from, last)
			return
		}
		st.line(b[:i], from, last)
		b = b[i+1:]
	}
}

// releaseQP hands the held soft-broken line, which ends at physical line
// last, on to line.
func (st *state) releaseQP(last int) {
	st.qp.n, st.qp.hard = 0, false
	st.lines(st.qp.decode(st.qp.held), st.qp.from, last)
}

// endQP releases a held line that no next line continued, as it was.
func (st *state) endQP() {
	if st.qp.n > 0 {
		if !st.qp.hard {
			st.qp.held = append(st.qp.held, '=')
		}
		st.releaseQP(st.qp.from + st.qp.n - 1)
	}
}
