package kernlog

import "strings"

// isCtrlName reports whether s names a controller: "nvme0".
func isCtrlName(s string) bool {
	d, ok := strings.CutPrefix(s, "nvme")
	return ok && len(d) >= 1 && len(d) <= 6 && allDigits(d)
}

// isPCIAddr reports whether s is a PCI address: "0000:04:00.0", with a
// domain of 4 to 8 hex digits ("10000:e1:00.0" behind Intel VMD).
func isPCIAddr(s string) bool {
	n := len(s)
	if n < 12 || n > 16 || s[n-2] != '.' || s[n-1] < '0' || s[n-1] > '7' || s[n-5] != ':' || s[n-8] != ':' {
		return false
	}
	for i := 0; i < n-8; i++ {
		if !isHex(s[i]) {
			return false
		}
	}
	return isHex(s[n-7]) && isHex(s[n-6]) && isHex(s[n-4]) && isHex(s[n-3])
}

// diskParts splits an NVMe disk or partition name: "nvme1c2n3p4" is
// subsystem 1, controller 2 (a multipath path), namespace 3. ok is false
// for anything else.
func diskParts(s string) (subsys, ctrl, ns string, ok bool) {
	r, found := strings.CutPrefix(s, "nvme")
	if !found {
		return "", "", "", false
	}
	subsys, r = digitsPrefix(r)
	if subsys == "" || len(subsys) > 6 {
		return "", "", "", false
	}
	if strings.HasPrefix(r, "c") {
		ctrl, r = digitsPrefix(r[1:])
		if ctrl == "" || len(ctrl) > 6 {
			return "", "", "", false
		}
	}
	if !strings.HasPrefix(r, "n") {
		return "", "", "", false
	}
	ns, r = digitsPrefix(r[1:])
	if ns == "" || len(ns) > 6 {
		return "", "", "", false
	}
	if strings.HasPrefix(r, "p") {
		var part string
		part, r = digitsPrefix(r[1:])
		if part == "" || len(part) > 6 {
			return "", "", "", false
		}
	}
	return subsys, ctrl, ns, r == ""
}

// isDiskName reports whether s names an NVMe disk or partition.
func isDiskName(s string) bool {
	_, _, _, ok := diskParts(s)
	return ok
}

// digitsPrefix splits s after its leading digits. It is not inlined
// (go:noinline): its loop, copied at twelve places, took 1.8 KB of the
// page's app-log.wasm.
//
//go:noinline
func digitsPrefix(s string) (digits, rest string) {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return s[:i], s[i:]
}
