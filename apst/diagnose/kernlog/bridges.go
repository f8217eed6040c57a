package kernlog

import "strings"

// busRange is a bridge's secondary and subordinate bus in its domain.
type busRange struct {
	domain string
	lo, hi int
}

// holds reports whether bus b of domain d is below the bridge.
func (r busRange) holds(d string, b int) bool {
	return r.domain == d && r.lo <= b && b <= r.hi
}

// bridgeBuses reads the PCI core's "pci 0000:00:1c.0: PCI bridge to [bus
// 01]" (or "[bus 01-04]") of the bridge at addr.
func bridgeBuses(msg, addr string) (busRange, bool) {
	_, rest, found := strings.Cut(msg, addr+": PCI bridge to [bus ")
	if !found {
		return busRange{}, false
	}
	rest, _, found = strings.Cut(rest, "]")
	if !found {
		return busRange{}, false
	}
	lo, hi, isRange := strings.Cut(rest, "-")
	if !isRange {
		hi = lo
	}
	a, okA := hexByte(lo)
	b, okB := hexByte(hi)
	if !okA || !okB || b < a {
		return busRange{}, false
	}
	return busRange{domain: addr[:len(addr)-8], lo: a, hi: b}, true
}

// hexByte reads a bus number: two hex digits.
func hexByte(s string) (int, bool) {
	if len(s) != 2 {
		return 0, false
	}
	h, l := hexDigit(s[0]), hexDigit(s[1])
	if h < 0 || l < 0 {
		return 0, false
	}
	return h<<4 | l, true
}

// belowPort is the controller of the one NVMe function on the bus right
// below bridge a, when the bridge's buses are that one bus (a port above
// a slot, not a switch) and the log ties that function to a controller;
// "" otherwise.
func (st *state) belowPort(a string) string {
	r, ok := st.links.bridges[a]
	if !ok || r.lo != r.hi {
		return ""
	}
	fn, two := "", false
	on := func(f string) {
		if f == a || f == fn || len(f) < 12 || f[:len(f)-8] != r.domain {
			return
		}
		if bus, ok := hexByte(f[len(f)-7 : len(f)-5]); !ok || bus != r.lo {
			return
		}
		if fn != "" {
			two = true
		}
		fn = f
	}
	for f := range st.log.Addresses {
		on(f)
	}
	for f := range st.links.nvmeFns {
		on(f)
	}
	for f := range st.log.DeviceIDs {
		on(f)
	}
	if two {
		return "" // two functions below it
	}
	return st.log.Addresses[fn]
}

// busOf is a function's domain and bus ("0000:03:00.0": "0000", 3).
func busOf(f string) (string, int, bool) {
	if len(f) < 12 || f[len(f)-8] != ':' || f[len(f)-5] != ':' {
		return "", 0, false
	}
	b, ok := hexByte(f[len(f)-7 : len(f)-5])
	return f[:len(f)-8], b, ok
}

// notAbove reports whether the log's "PCI bridge to [bus ...]" lines
// show that the port at addr is not above function fn: its own buses do
// not hold fn's bus, or a bridge on the port's own bus (its sibling, whose
// buses are not the port's) holds it; nor is a function of another PCI
// domain. It is false where the log does not say (a bridge whose buses it
// never printed).
func (st *state) notAbove(addr, fn string) bool {
	fd, fb, ok := busOf(fn)
	if !ok {
		return false
	}
	if r, ok := st.links.bridges[addr]; ok {
		return !r.holds(fd, fb)
	}
	ad, ab, ok := busOf(addr)
	if !ok {
		return false
	}
	if ad != fd {
		// Another PCI domain: another host bridge's hierarchy (s390's
		// zPCI gives each function its own; VMD's domain holds its
		// own ports, whose reports name them).
		return true
	}
	for b, r := range st.links.bridges {
		if bd, bb, ok := busOf(b); ok && b != addr && bd == ad && bb == ab && r.holds(fd, fb) {
			return true // a sibling bridge holds fn
		}
	}
	return false
}

// Below reports whether the log's "PCI bridge to [bus ...]" lines put
// function fn ("0000:3c:00.0") on a bus below the bridge at port, and
// whether they say at all: known is false when the log never printed that
// bridge's buses. Safe for concurrent use; the zero Log, and a nil one,
// know no bridge.
func (l *Log) Below(port, fn string) (below, known bool) {
	if l == nil {
		return false, false
	}
	r, ok := l.bridges[port]
	if !ok {
		return false, false
	}
	d, b, ok := busOf(fn)
	if !ok {
		return false, false
	}
	return r.holds(d, b), true
}
