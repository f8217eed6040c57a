package kernlog

import (
	"strconv"
	"strings"
)

// timeout is a command timeout line of nvme-pci: "I/O 123 QID 4 timeout,
// aborting" (older kernels), "I/O tag 123 (a07b) opcode 0x2 (Read) QID 4
// timeout, aborting req_op:READ(0) size:4096" (6.x).
type timeout struct {
	tag, qid      int
	cid, opName   string
	opcode        int
	action, reqOp string
	size          int64
	// elided is a line whose ids a paste elided ("I/O tag ... timeout"):
	// its queue is unknown.
	elided bool
}

// parseTimeoutLine reads the body of a timeout line (after "nvme nvme0: ").
func parseTimeoutLine(s string) (t timeout, ok bool) {
	r, found := strings.CutPrefix(s, "I/O ")
	if !found {
		return t, false
	}
	r = strings.TrimPrefix(r, "tag ")
	if v, qid, ok := elidedIDs(r); ok {
		// A paste that elided the command's ids ("I/O tag ... timeout,
		// completion polled", "I/O xxx QID x timeout"): what the driver
		// did is still there; the tag and the queue are not (0).
		t.elided, t.qid = qid == 0, qid
		return t.end(" " + v)
	}
	tag, r := digitsPrefix(r)
	if tag == "" || len(tag) > 9 || !strings.HasPrefix(r, " ") {
		return t, false
	}
	t.tag, r = atoi(tag), r[1:]
	// "(a07b) " is a command id when hex; "(Read) " an opcode's name. With
	// both, the id comes first.
	if in, rest, ok := paren(r); ok && len(in) <= 4 && allHex(in) {
		if u, ok := t.afterID(rest); ok {
			u.cid = strings.ToLower(in)
			return u, true
		}
	}
	return t.afterID(r)
}

// elidedIDs reads a timeout line's ids a paste elided or replaced by
// placeholders ("... timeout", "xxx QID x timeout", "N QID 2 timeout"),
// returning the rest from "timeout" and the queue when it is a number.
func elidedIDs(r string) (rest string, qid int, ok bool) {
	for _, dots := range []string{"... ", "\u2026 "} {
		if v, ok := strings.CutPrefix(r, dots); ok && strings.HasPrefix(v, "timeout") {
			return v, 0, true
		}
	}
	id, rest, ok := strings.Cut(r, " ")
	if !ok || !placeholder(id) {
		return "", 0, false
	}
	if in, after, ok := paren(rest); ok {
		// The command id's placeholder too: "XXX (cid Y) QID N timeout"
		// (a Chinese post's quote of the line, posted zg-10).
		for w := range strings.FieldsSeq(in) {
			if w != "cid" && !placeholder(w) {
				return "", 0, false
			}
		}
		rest = after
	}
	if q, ok := strings.CutPrefix(rest, "QID "); ok {
		var n string
		if n, rest, ok = strings.Cut(q, " "); !ok || !placeholder(n) && (!allDigits(n) || len(n) > 5) {
			return "", 0, false
		}
		if allDigits(n) {
			qid = atoi(n)
		}
	}
	return rest, qid, strings.HasPrefix(rest, "timeout")
}

// placeholder reports whether an id is a writer's placeholder for a
// number: "x", "xxx", "X", "N", "n", "#", "Y".
func placeholder(s string) bool {
	return s != "" && len(s) <= 4 && strings.Trim(s, "xXNnYy#") == ""
}

// afterID reads the rest of a timeout line after its command id.
func (t timeout) afterID(r string) (timeout, bool) {
	t, r, ok := t.command(r)
	if !ok {
		return t, false
	}
	if t.qid, r, ok = cutQueue(r, "QID "); !ok {
		return t, false
	}
	return t.end(r)
}

// end reads the end of a timeout line from its " timeout": what the
// driver did, and the block request's operation and size.
func (t timeout) end(r string) (timeout, bool) {
	if r == " timeout" {
		// nvme-rdma's and the older fabrics transports' line ends there
		// ("I/O 1 QID 0 timeout"): the recovery it starts has lines of
		// its own.
		return t, true
	}
	r, ok := strings.CutPrefix(r, " timeout, ")
	if !ok {
		return t, false
	}
	action := r
	if i := strings.Index(r, " req_op:"); i >= 0 {
		action, r = r[:i], r[i+len(" req_op:"):]
		op, rest, _ := strings.Cut(r, " ")
		if op == "" || len(op) > 40 {
			return t, false
		}
		t.reqOp, r = op, " "+rest
		if rest == "" {
			r = ""
		}
	} else if i := strings.Index(r, " size:"); i >= 0 {
		action, r = r[:i], r[i:]
	} else {
		r = ""
	}
	if r != "" {
		v, ok := strings.CutPrefix(r, " size:")
		if !ok || v == "" || len(v) > 12 || !allDigits(v) {
			return t, false
		}
		t.size, _ = strconv.ParseInt(v, 10, 64)
	}
	if action == "" || len(action) > 40 {
		return t, false
	}
	for i := 0; i < len(action); i++ {
		if c := action[i]; c != ' ' && (c < 'a' || c > 'z') {
			return t, false
		}
	}
	t.action = action
	return t, true
}

// command reads what a timeout line says of its command after its id,
// each part followed by a blank: nvme-tcp's PDU type ("type 4", its 6.x
// lines: "I/O tag 12 (100c) type 4 opcode 0x1 (I/O Cmd) QID 2 timeout"),
// the opcode ("opcode 0x2") and the opcode's name in parentheses; it
// returns the rest.
func (t timeout) command(r string) (timeout, string, bool) {
	if v, ok := strings.CutPrefix(r, "type "); ok {
		typ, rest := digitsPrefix(v)
		if typ == "" || len(typ) > 3 || !strings.HasPrefix(rest, " ") {
			return t, r, false
		}
		r = rest[1:]
	}
	if v, ok := strings.CutPrefix(r, "opcode 0x"); ok {
		h, rest := hexPrefix(v)
		if h == "" || len(h) > 2 || !strings.HasPrefix(rest, " ") {
			return t, r, false
		}
		t.opcode, r = int(hex(h)), rest[1:]
	}
	if in, rest, ok := paren(r); ok && len(in) <= 40 {
		t.opName, r = in, rest
	}
	return t, r, true
}

// paren splits "(text) rest" into text and rest.
func paren(s string) (in, rest string, ok bool) {
	if !strings.HasPrefix(s, "(") {
		return "", s, false
	}
	end := strings.IndexByte(s, ')')
	if end < 2 || end+1 >= len(s) || s[end+1] != ' ' || strings.IndexByte(s[1:end], '(') >= 0 {
		return "", s, false
	}
	return s[1:end], s[end+2:], true
}

// hexPrefix splits s after its leading hex digits.
func hexPrefix(s string) (digits, rest string) {
	i := 0
	for i < len(s) && isHex(s[i]) {
		i++
	}
	return s[:i], s[i:]
}

func allHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isHex(s[i]) {
			return false
		}
	}
	return s != ""
}

// parseFabricTimeout reads nvme-tcp's timeout line (after "nvme nvme0: "):
// "queue 5: timeout request 0x11 type 6" (5.x), "queue 0: timeout cid
// 0xb001 type 4 opcode 0x18 (Admin Cmd)" (6.x); queue 0 is the admin
// queue. The error recovery it starts has lines of its own.
func parseFabricTimeout(s string) (t timeout, ok bool) {
	var r string
	if t.qid, r, ok = cutQueue(s, "queue "); !ok {
		return t, false
	}
	var id string
	if v, found := strings.CutPrefix(r, ": timeout request 0x"); found {
		id, r = hexPrefix(v)
		if id == "" || len(id) > 8 {
			return t, false
		}
		t.tag = int(hex(id))
	} else if v, found := strings.CutPrefix(r, ": timeout cid 0x"); found {
		id, r = hexPrefix(v)
		if id == "" || len(id) > 4 {
			return t, false
		}
		t.cid = strings.ToLower(id)
	} else {
		return t, false
	}
	if !strings.HasPrefix(r, " type ") {
		return t, false
	}
	// The line ends after the command; command reads each part up to a
	// blank.
	t, r, ok = t.command(r[1:] + " ")
	return t, ok && r == ""
}

// cutQueue reads a queue number of at most five digits after prefix
// ("QID 3", "queue 5"), and the rest of s after it.
func cutQueue(s, prefix string) (qid int, rest string, ok bool) {
	r, found := strings.CutPrefix(s, prefix)
	if !found {
		return 0, s, false
	}
	n, r := digitsPrefix(r)
	if n == "" || len(n) > 5 {
		return 0, s, false
	}
	return atoi(n), r, true
}
