package apst

import (
	"fmt"
	"strconv"
	"strings"
)

// Quirks is a set of the kernel's NVMe quirk bits (enum nvme_quirks in
// drivers/nvme/host/nvme.h, bit n = 1<<n; kernel-apst.md §7.4). Only NoAPST
// and NoDeepestPS change the APST table; the other bits are carried so that
// a quirk lookup, an nvme.quirks= override and the sysfs quirks file can
// report the whole set the kernel applies. The bits without an APST effect
// have no constants: they are named by String and ParseQuirks
// ("bogus-nid", "broken-msi", ...). The zero value is the empty set.
type Quirks uint32

// The APST quirk bits as numbered in drivers/nvme/host/nvme.h.
const (
	QuirkNoAPST      Quirks = 1 << 4 // NVME_QUIRK_NO_APST: APST must not be used
	QuirkNoDeepestPS Quirks = 1 << 5 // NVME_QUIRK_NO_DEEPEST_PS: state NPSS is never a target

	// QuirksAPST is the set of quirks that affect the APST table.
	QuirksAPST = QuirkNoAPST | QuirkNoDeepestPS
)

// The other bits the tables of §7 use.
const (
	quirkDelayBeforeCheckReady Quirks = 1 << 3
	quirkMediumPrioSQ          Quirks = 1 << 7
	quirkIgnoreDevSubNQN       Quirks = 1 << 8
	quirkDisableWriteZeroes    Quirks = 1 << 9
	quirkSimpleSuspend         Quirks = 1 << 10
	quirkNoTempThreshChange    Quirks = 1 << 14
	quirkBogusNID              Quirks = 1 << 18
	quirkBrokenMSI             Quirks = 1 << 21
)

// quirkNames names bit n of enum nvme_quirks (kernel-apst.md §7.4, Linux
// 7.1: bits 0 to 22; bit 23 ADMIN_PAGE_ALIGN from v7.3-rc1 and 6.18.52,
// §14), in the kernel's spelling lower-cased with dashes for underscores.
var quirkNames = [...]string{
	"stripe-size", "identify-cns", "deallocate-zeroes", "delay-before-chk-rdy",
	"no-apst", "no-deepest-ps", "qdepth-one", "medium-prio-sq",
	"ignore-dev-subnqn", "disable-write-zeroes", "simple-suspend", "single-vector",
	"128-bytes-sqes", "shared-tags", "no-temp-thresh-change", "no-ns-desc-list",
	"dma-address-bits-48", "skip-cid-gen", "bogus-nid", "no-secondary-temp-thresh",
	"force-no-simple-suspend", "broken-msi", "dmapool-align-512", "admin-page-align",
}

// APST returns only the quirks that affect the APST table.
func (q Quirks) APST() Quirks { return q & QuirksAPST }

// String lists the quirks by name in bit order ("no-apst,no-deepest-ps"),
// "none" for the empty set, and bits the kernel does not name as one
// hexadecimal number ("0x800000"). ParseQuirks reads it back.
func (q Quirks) String() string {
	if q == 0 {
		return "none"
	}
	var b strings.Builder
	rest := q
	for n, name := range quirkNames {
		if q&(1<<n) != 0 {
			if b.Len() > 0 {
				b.WriteByte(',')
			}
			b.WriteString(name)
			rest &^= 1 << n
		}
	}
	if rest != 0 {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString("0x" + strconv.FormatUint(uint64(rest), 16))
	}
	return b.String()
}

// MarshalText implements encoding.TextMarshaler with String.
func (q Quirks) MarshalText() ([]byte, error) { return []byte(q.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler with ParseQuirks.
func (q *Quirks) UnmarshalText(b []byte) error {
	v, err := ParseQuirks(string(b))
	if err != nil {
		return err
	}
	*q = v
	return nil
}

// ParseQuirks parses a comma-separated list of quirk names (those String
// writes: "no-apst", "no-deepest-ps", "bogus-nid", ...), "none" (the empty
// set) or hexadecimal bit masks ("0x30"). Case is ignored, underscores
// stand for dashes and an NVME_QUIRK_ prefix is allowed, so the kernel's
// own spelling ("NVME_QUIRK_NO_DEEPEST_PS", "no_deepest_ps") parses too. An
// unknown name, or "none" beside other items, is an error wrapping
// ErrInvalidConfig.
func ParseQuirks(s string) (Quirks, error) {
	var q Quirks
	items := strings.Split(s, ",")
	for _, f := range items {
		b, ok := quirkByName(f)
		if !ok {
			return 0, fmt.Errorf("%w: unknown quirk %q in %q: want quirk names such as no-apst or no-deepest-ps, none, or a 0x mask", ErrInvalidConfig, strings.TrimSpace(f), s)
		}
		if len(items) > 1 && isNone(f) {
			// "none,no-apst": the empty set and a quirk at once.
			return 0, fmt.Errorf("%w: quirks %q: none is the empty set and stands alone", ErrInvalidConfig, s)
		}
		q |= b
	}
	return q, nil
}

// isNone reports whether an item of a quirk list is "none".
func isNone(f string) bool {
	return strings.EqualFold(strings.TrimSpace(f), "none")
}

// quirkByName resolves one item of a quirk list.
func quirkByName(f string) (Quirks, bool) {
	name := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(f)), "_", "-")
	name = strings.TrimPrefix(name, "nvme-quirk-")
	if name == "none" {
		return 0, true
	}
	if h, ok := strings.CutPrefix(name, "0x"); ok {
		v, err := strconv.ParseUint(h, 16, 32)
		return Quirks(v), err == nil
	}
	for n, qn := range quirkNames {
		if qn == name {
			return 1 << n, true
		}
	}
	return 0, false
}

// ParseQuirksFile reads the content of the per-controller sysfs attribute
// /sys/class/nvme/nvmeN/quirks (Linux 7.0 and later): the name of every
// quirk in force, one per line (commas and spaces are accepted as
// separators too). Names String knows become bits; every other name is
// returned in unknown, in file order, so that a newer kernel's quirks are
// kept rather than dropped. An empty file, or one saying "none", is the
// empty set. The file is the ground truth for the controller's quirks,
// whatever the tables of this package say.
func ParseQuirksFile(s string) (q Quirks, unknown []string) {
	for _, f := range strings.FieldsFunc(s, func(r rune) bool {
		return r == '\n' || r == '\r' || r == ',' || r == ' ' || r == '\t'
	}) {
		if b, ok := quirkByName(f); ok && !strings.HasPrefix(strings.ToLower(f), "0x") {
			q |= b
			continue
		}
		unknown = append(unknown, f)
	}
	return q, unknown
}
