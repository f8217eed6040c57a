package kernlog

import (
	"fmt"
	"strings"
	"time"
)

// Options adjusts Read. The zero value is ready to use.
type Options struct {
	// Addresses maps PCI addresses ("0000:04:00.0") of controllers, and of
	// the ports above them, to controller names ("nvme0"), for logs that
	// name a device only by address (AER, D3cold, pciehp lines). The log's
	// own "pci function" lines are used too. Each key is a PCI address as
	// the kernel prints it (lower-case hex, a domain of 4 to 8 digits), each
	// value a controller name; at most MaxAddresses of them. Read refuses
	// anything else with ErrInvalidOptions: a key in another form would
	// match no line, and the log's lines would silently join no controller.
	Addresses map[string]string
	// Gap is the quiet time after which a controller's next event starts
	// a new incident; zero means DefaultGap. A negative Gap is refused with
	// ErrInvalidOptions.
	Gap time.Duration
	// Host, when set, reads only the kernel lines of that host (its name
	// compared without regard to case) in a log that names hosts, as a
	// syslog server's or a fleet's collected logs do ("Dec  5 04:55:59
	// node2 kernel: ..."): the same controller name on two hosts is two
	// drives. Lines that name no host are read. A name no syslog line
	// could hold is refused with ErrInvalidOptions.
	Host string
}

// check refuses Options that Read cannot use, naming the entry at fault
// (the first in key order, so the same Options give the same error).
func (o Options) check() error {
	if err := checkHost(o.Host); err != nil {
		return err
	}
	if o.Gap < 0 {
		return fmt.Errorf("%w: Gap %v is negative (want 0 for DefaultGap, or the quiet time that ends an incident)", ErrInvalidOptions, o.Gap)
	}
	if len(o.Addresses) > MaxAddresses {
		return fmt.Errorf("%w: Addresses holds %d entries (at most %d)", ErrInvalidOptions, len(o.Addresses), MaxAddresses)
	}
	bad := ""
	found := false
	for a, c := range o.Addresses {
		if (!found || a < bad) && (!optionPCIAddr(a) || strings.ContainsAny(a, "ABCDEF") || !isCtrlName(c)) {
			bad, found = a, true
		}
	}
	switch c := o.Addresses[bad]; {
	case !found:
		return nil
	case !optionPCIAddr(bad):
		return fmt.Errorf("%w: Addresses key %q is not a PCI address (want DDDD:BB:DD.F as the kernel prints it, a device 00 to 1f and a function 0 to 7: 0000:04:00.0)", ErrInvalidOptions, bad)
	case strings.ContainsAny(bad, "ABCDEF"):
		return fmt.Errorf("%w: Addresses key %q has upper-case hex (the kernel prints lower case)", ErrInvalidOptions, bad)
	default:
		return fmt.Errorf("%w: Addresses[%s] = %q is not a controller name (want nvmeN)", ErrInvalidOptions, bad, c)
	}
}

// optionPCIAddr reports whether s is a PCI address a function can have:
// isPCIAddr's shape, with a device number of at most 0x1f (PCI has 32
// devices a bus). isPCIAddr, which reads log lines, does not ask that.
func optionPCIAddr(s string) bool {
	if !isPCIAddr(s) {
		return false
	}
	n := len(s)
	return hexDigit(s[n-4])<<4|hexDigit(s[n-3]) <= 0x1f
}
