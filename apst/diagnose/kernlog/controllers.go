package kernlog

import (
	"strconv"
	"strings"
)

// controllers returns the controllers the log names (Log.Controllers): by
// a line of their own, a "pci function" line, a disk tied to them or an
// incident, in the order of their numbers.
func (st *state) controllers() []string {
	l := st.log
	seen := map[string]bool{}
	add := func(c string) {
		if c != "" && (len(seen) < MaxAddresses || seen[c]) {
			seen[c] = true
		}
	}
	for c := range st.links.named {
		add(c)
	}
	for _, c := range l.Addresses {
		add(c)
	}
	for _, c := range l.Namespaces {
		add(c)
	}
	for i := range l.Incidents {
		add(l.Incidents[i].Controller)
	}
	if len(seen) == 0 {
		return nil
	}
	out := make([]string, 0, len(seen))
	for c := range seen {
		// In order as they come: an insertion, which the page's wasm
		// pays nothing for (a sort's instantiation costs it kilobytes),
		// over at most MaxAddresses names.
		i := len(out)
		out = append(out, c)
		for ; i > 0 && controllerLess(c, out[i-1]); i-- {
			out[i] = out[i-1]
		}
		out[i] = c
	}
	return out
}

// controllerLess orders controller names by their numbers ("nvme2" before
// "nvme10"), names without one by their text after those.
func controllerLess(a, b string) bool {
	na, ea := strconv.Atoi(strings.TrimPrefix(a, "nvme"))
	nb, eb := strconv.Atoi(strings.TrimPrefix(b, "nvme"))
	switch {
	case ea == nil && eb == nil && na != nb:
		return na < nb
	case (ea == nil) != (eb == nil):
		return ea == nil
	}
	return a < b
}
