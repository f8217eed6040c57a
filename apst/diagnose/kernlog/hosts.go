package kernlog

import (
	"fmt"
	"slices"
	"strings"
)

// MaxHosts is how many host names Log.Hosts lists; the kernel lines of
// further hosts are read, their names not kept.
const MaxHosts = 16

// hostOf returns the host a syslog or journal line names before the
// kernel's tag, from what follows the line's time ("node2 kernel: ...",
// BusyBox's "router kern.err kernel: ..."); "" for a line that names none
// ("kernel: ...", dmesg's lines). last is a name known to be valid.
func hostOf(afterTime, last string) string {
	host, rest, ok := strings.Cut(afterTime, " ")
	if !ok || host == "" || strings.HasPrefix(host, "kernel") || host != last && !validHost(host) || levelWord(host) {
		return "" // (the last line's host was valid: a syslog file's lines are mostly one host's)
	}
	rest = skipFacility(strings.TrimLeft(rest, " "))
	if !strings.HasPrefix(rest, "kernel:") && !strings.HasPrefix(rest, "kernel[") {
		return ""
	}
	return host
}

// levelWord reports whether s is a syslog severity (syslogLevels) in
// capitals, as a template writes it where the host would be (ChromeOS's
// /var/log/messages: "2025-03-14T03:22:41.112232+01:00 WARNING kernel:
// ..."): no host's name.
func levelWord(s string) bool {
	if len(s) > 7 {
		return false
	}
	var lower [7]byte // (not strings.ToLower: unicode's case tables in the page's wasm)
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
		lower[i] = s[i] + 'a' - 'A'
	}
	return slices.Contains(syslogLevels, string(lower[:len(s)]))
}

// validHost reports whether s can be a host's name as syslog writes it:
// ASCII letters and digits, the marks DNS names and IPv6 addresses hold,
// and any byte of a character beyond ASCII (a name in another script), at
// most 253 bytes. (Not unicode's letter tables: they would cost the page's
// wasm some 17 KB.)
func validHost(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c == '-' || c == '.' || c == '_' || c == ':' || c >= 0x80) {
			return false
		}
	}
	return true
}

// host notes the host of a kernel line (Log.Hosts): label, a Loki label
// set's, or the one afterTime names; and reports whether Options.Host,
// when set, leaves the line out: a line of another host.
func (st *state) host(afterTime, label string) (skip bool) {
	h := label
	if h == "" {
		h = hostOf(afterTime, st.lastHost)
	}
	if h == "" {
		return false
	}
	if h != st.lastHost {
		st.lastHost = h
		known := false
		for _, k := range st.log.Hosts {
			known = known || k == h
		}
		switch {
		case known:
		case len(st.log.Hosts) < MaxHosts:
			st.log.Hosts = append(st.log.Hosts, h)
		default:
			st.log.MoreHosts = true
		}
	}
	if st.onlyHost != "" && !strings.EqualFold(h, st.onlyHost) {
		st.log.OtherHostLines++
		return true
	}
	st.hostSeen = true
	return false
}

// hostErr refuses an Options.Host that no line of the log names: reading
// every line, or none, would answer for a machine the log does not hold.
func (st *state) hostErr() error {
	switch {
	case st.onlyHost == "" || st.hostSeen:
		return nil
	case len(st.log.Hosts) == 0:
		return fmt.Errorf("%w: Host %q, but no line of the log names a host (dmesg's lines do not): it is one machine's", ErrNoSuchHost, st.onlyHost)
	}
	return fmt.Errorf("%w: Host %q, but the log's NVMe and PCIe lines name %s", ErrNoSuchHost, st.onlyHost, quotedList(st.log.Hosts))
}

// quotedList quotes each name and joins them with commas.
func quotedList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// checkHost refuses an Options.Host no syslog line could name.
func checkHost(h string) error {
	if h != "" && !validHost(h) {
		return fmt.Errorf("%w: Host %q is not a host's name as a syslog line writes it (letters, digits, '-', '.', '_', ':')", ErrInvalidOptions, h)
	}
	return nil
}
