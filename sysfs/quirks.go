package sysfs

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
)

// quirksParam is the quirks parameter of the nvme (nvme-pci) module.
const quirksParam = "module/nvme/parameters/quirks"

// QuirksParam is the quirks parameter of the nvme (nvme-pci) module,
// module/nvme/parameters/quirks: the nvme.quirks= string of Linux 7.0 and
// later, which sets or clears quirks per PCI vendor:device ID after the
// driver's ID table and DMI rules (see [ParseQuirkOverrides] for its form).
type QuirksParam struct {
	// Present is false when the kernel has no such parameter (before 7.0, or
	// nvme-pci not loaded). That is not an error, and it is distinct from a
	// parameter that exists but cannot be read, which QuirksParam reports as
	// an error.
	Present bool
	// Raw is the parameter as the kernel shows it, without surrounding white
	// space; "" when no override is set.
	Raw string
	// Overrides is Raw parsed, in order; nil when Raw is empty or does not
	// parse (FS.QuirksParam then returns the parse error with Raw set).
	Overrides []QuirkOverride
}

// QuirkOverride is one entry of nvme.quirks=: the quirks to set and to clear
// for one PCI ID.
type QuirkOverride struct {
	// PCI is the vendor:device ID the entry applies to.
	PCI apst.PCIID
	// Set lists the quirk names to set, Clear those written with a leading
	// "^" (without it), each in the order written, as written (the kernel's
	// names are lower case: "no_apst", "no_deepest_ps"). Names this package
	// does not know are kept.
	Set   []string
	Clear []string
}

// QuirksParam reads module/nvme/parameters/quirks. An absent parameter is
// QuirksParam{Present: false} and no error. One that exists but cannot be
// read is an error (os.ErrPermission, ErrNotRegular, ...) with Present
// false; one that does not parse is returned with Present and Raw set, no
// Overrides and an error wrapping ErrInvalidAttribute (kernels 7.0 to 7.2
// log and ignore a malformed string, 7.3 refuses it).
func (fs FS) QuirksParam() (QuirksParam, error) {
	raw, err := fs.readRaw(quirksParam)
	if isNotExist(err) {
		return QuirksParam{}, nil
	}
	if err != nil {
		return QuirksParam{}, err
	}
	q := QuirksParam{Present: true, Raw: strings.TrimSpace(raw)}
	ov, err := ParseQuirkOverrides(q.Raw)
	if err != nil {
		return q, fmt.Errorf("%w: %s: %w", ErrInvalidAttribute, fs.path(quirksParam), err)
	}
	q.Overrides = ov
	return q, nil
}

// ParseQuirkOverrides parses an nvme.quirks= string (Linux 7.0 and later):
// entries separated by "-", each VID:DID:NAMES, where VID and DID are
// hexadecimal PCI IDs of one to four digits (an "0x" prefix is accepted) and
// NAMES is a comma-separated list of quirk names, a name prefixed with "^"
// clearing that quirk instead of setting it. For example
// "144d:a80d:no_deepest_ps-8086:f1a5:^no_deepest_ps,simple_suspend" sets
// NO_DEEPEST_PS on one drive and clears it, with SIMPLE_SUSPEND set, on
// another.
//
// The empty string, and "(null)" (what the kernel shows for a string
// parameter never set), give no overrides. Anything else that does not have
// this form is an error saying which entry is wrong; names are not checked
// against the kernel's list, so that a name from a newer kernel is kept.
func ParseQuirkOverrides(s string) ([]QuirkOverride, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "(null)" {
		return nil, nil
	}
	var out []QuirkOverride
	for i, entry := range strings.Split(s, "-") {
		fields := strings.Split(entry, ":")
		if len(fields) != 3 {
			return nil, fmt.Errorf("nvme.quirks entry %d %q: want VID:DID:quirk[,quirk...]", i+1, entry)
		}
		vid, err := parsePCIHex(fields[0])
		if err != nil {
			return nil, fmt.Errorf("nvme.quirks entry %d %q: vendor ID: %w", i+1, entry, err)
		}
		did, err := parsePCIHex(fields[1])
		if err != nil {
			return nil, fmt.Errorf("nvme.quirks entry %d %q: device ID: %w", i+1, entry, err)
		}
		o := QuirkOverride{PCI: apst.PCIID{Vendor: vid, Device: did}}
		for _, name := range strings.Split(fields[2], ",") {
			clear := strings.HasPrefix(name, "^")
			name = strings.TrimPrefix(name, "^")
			if !validQuirkName(name) {
				return nil, fmt.Errorf("nvme.quirks entry %d %q: quirk name %q: want letters, digits and _", i+1, entry, name)
			}
			if clear {
				o.Clear = append(o.Clear, name)
			} else {
				o.Set = append(o.Set, name)
			}
		}
		out = append(out, o)
	}
	return out, nil
}

// parsePCIHex parses a 16-bit PCI ID written in hexadecimal.
func parsePCIHex(s string) (uint16, error) {
	h := s
	if len(h) > 2 && (h[:2] == "0x" || h[:2] == "0X") {
		h = h[2:]
	}
	if h == "" || len(h) > 4 {
		return 0, fmt.Errorf("%q is not a hexadecimal ID of 1 to 4 digits", s)
	}
	v, err := strconv.ParseUint(h, 16, 16)
	if err != nil {
		return 0, fmt.Errorf("%q is not a hexadecimal ID of 1 to 4 digits", s)
	}
	return uint16(v), nil
}

// validQuirkName accepts a non-empty name of letters, digits and '_'.
func validQuirkName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}
