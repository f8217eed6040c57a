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
}

// parseTimeoutLine reads the body of a timeout line (after "nvme nvme0: ").
func parseTimeoutLine(s string) (t timeout, ok bool) {
	r, found := strings.CutPrefix(s, "I/O ")
	if !found {
		return t, false
	}
	r = strings.TrimPrefix(r, "tag ")
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

// afterID reads the rest of a timeout line after its command id.
func (t timeout) afterID(r string) (timeout, bool) {
	if v, ok := strings.CutPrefix(r, "opcode 0x"); ok {
		h, rest := hexPrefix(v)
		if h == "" || len(h) > 2 || !strings.HasPrefix(rest, " ") {
			return t, false
		}
		t.opcode, r = int(hex(h)), rest[1:]
	}
	if in, rest, ok := paren(r); ok && len(in) <= 40 {
		t.opName, r = in, rest
	}
	r, ok := strings.CutPrefix(r, "QID ")
	if !ok {
		return t, false
	}
	qid, r := digitsPrefix(r)
	if qid == "" || len(qid) > 5 {
		return t, false
	}
	t.qid = atoi(qid)
	r, ok = strings.CutPrefix(r, " timeout, ")
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
