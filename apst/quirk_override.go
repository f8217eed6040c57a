package apst

import (
	"fmt"
	"strconv"
	"strings"
)

// QuirkOverride is one entry of nvme-pci's nvme.quirks= module parameter
// (Linux 7.0 and later): for the PCI ID, the quirks to set and the quirks to
// clear after the ID table and the DMI rules have been applied.
//
// The zero QuirkOverride sets and clears no quirk for PCI ID 0000:0000,
// which a lookup never matches (an unknown PCI ID is not checked); String
// writes it "0000:0000:".
type QuirkOverride struct {
	ID    PCIID
	Set   Quirks
	Clear Quirks
}

// String formats the entry as the parameter spells it:
// "8086:f1a5:^no_deepest_ps,bogus_nid".
func (o QuirkOverride) String() string {
	var names []string
	for n, name := range quirkNames {
		u := strings.ReplaceAll(name, "-", "_")
		if o.Clear&(1<<n) != 0 {
			names = append(names, "^"+u)
		}
		if o.Set&(1<<n) != 0 {
			names = append(names, u)
		}
	}
	return o.ID.String() + ":" + strings.Join(names, ",")
}

// apply returns q after the override: set bits added, cleared bits removed.
func (o QuirkOverride) apply(q Quirks) Quirks { return (q | o.Set) &^ o.Clear }

// ParseQuirkOverrides parses the value of nvme-pci's quirks parameter
// (nvme.quirks= on the kernel command line, or
// /sys/module/nvme/parameters/quirks). The syntax implemented, from the
// v7.0 patch (docs/quirks.md): entries separated by "-", each
// VID:DID:NAMES, where VID and DID are hexadecimal (1 to 4 digits, an
// optional 0x) and NAMES a comma-separated list of quirk names in the
// kernel's spelling (lower case with underscores, e.g. no_deepest_ps; case
// and an NVME_QUIRK_ prefix are ignored), each prefixed with "^" to clear
// the quirk instead of setting it. Surrounding white space is ignored, and
// an empty value or "(null)" (what an unset parameter reads back as) is no
// entry. The kernel uses the first entry whose VID:DID matches.
//
// A malformed value is an error wrapping ErrInvalidConfig naming the entry;
// Linux 7.0 to 7.2 log such a value and ignore it, 7.3 refuses it
// (LookupQuirks models both).
func ParseQuirkOverrides(s string) ([]QuirkOverride, error) {
	t := strings.TrimSpace(s)
	if t == "" || t == "(null)" {
		return nil, nil
	}
	var out []QuirkOverride
	for i, ent := range strings.Split(t, "-") {
		bad := func(why string) error {
			return fmt.Errorf("%w: nvme.quirks=%q: entry %d %q: %s; want VID:DID:name[,^name...] entries separated by '-', e.g. 8086:f1a5:^no_deepest_ps", ErrInvalidConfig, s, i+1, ent, why)
		}
		parts := strings.Split(ent, ":")
		if len(parts) != 3 {
			return nil, bad("not three ':'-separated fields")
		}
		var id [2]uint16
		for j, h := range parts[:2] {
			h = strings.TrimPrefix(strings.ToLower(strings.TrimSpace(h)), "0x")
			v, err := strconv.ParseUint(h, 16, 16)
			if err != nil || h == "" {
				return nil, bad(fmt.Sprintf("%q is not a 16-bit hexadecimal ID", parts[j]))
			}
			id[j] = uint16(v)
		}
		o := QuirkOverride{ID: PCIID{id[0], id[1]}}
		for _, name := range strings.Split(parts[2], ",") {
			name = strings.TrimSpace(name)
			clear := strings.HasPrefix(name, "^")
			name = strings.TrimPrefix(name, "^")
			if name == "" || strings.Contains(name, "-") || strings.EqualFold(name, "none") || strings.HasPrefix(strings.ToLower(name), "0x") {
				return nil, bad(fmt.Sprintf("quirk name %q is not one of the kernel's", name))
			}
			q, ok := quirkByName(name)
			if !ok {
				return nil, bad(fmt.Sprintf("unknown quirk name %q", name))
			}
			if clear {
				o.Clear |= q
			} else {
				o.Set |= q
			}
		}
		out = append(out, o)
	}
	return out, nil
}
