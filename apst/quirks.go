package apst

import (
	"fmt"
	"strings"
)

// Quirks is a set of the kernel's NVMe quirk bits (enum nvme_quirks in
// drivers/nvme/host/nvme.h). Only NoAPST and NoDeepestPS change the APST
// table; the other bits are carried so that a quirk lookup can report the
// whole set the kernel applies.
type Quirks uint32

// The quirk bits as numbered in drivers/nvme/host/nvme.h.
const (
	QuirkDelayBeforeCheckReady Quirks = 1 << 3  // NVME_QUIRK_DELAY_BEFORE_CHK_RDY
	QuirkNoAPST                Quirks = 1 << 4  // NVME_QUIRK_NO_APST: APST must not be used
	QuirkNoDeepestPS           Quirks = 1 << 5  // NVME_QUIRK_NO_DEEPEST_PS: state NPSS is never a target
	QuirkMediumPrioSQ          Quirks = 1 << 7  // NVME_QUIRK_MEDIUM_PRIO_SQ
	QuirkIgnoreDevSubNQN       Quirks = 1 << 8  // NVME_QUIRK_IGNORE_DEV_SUBNQN
	QuirkDisableWriteZeroes    Quirks = 1 << 9  // NVME_QUIRK_DISABLE_WRITE_ZEROES
	QuirkSimpleSuspend         Quirks = 1 << 10 // NVME_QUIRK_SIMPLE_SUSPEND
	QuirkNoTempThreshChange    Quirks = 1 << 14 // NVME_QUIRK_NO_TEMP_THRESH_CHANGE
	QuirkBogusNID              Quirks = 1 << 18 // NVME_QUIRK_BOGUS_NID
	QuirkBrokenMSI             Quirks = 1 << 21 // NVME_QUIRK_BROKEN_MSI

	// QuirksAPST is the set of quirks that affect the APST table.
	QuirksAPST = QuirkNoAPST | QuirkNoDeepestPS
)

var quirkNames = [...]struct {
	q    Quirks
	name string
}{
	{QuirkDelayBeforeCheckReady, "delay-before-chk-rdy"},
	{QuirkNoAPST, "no-apst"},
	{QuirkNoDeepestPS, "no-deepest-ps"},
	{QuirkMediumPrioSQ, "medium-prio-sq"},
	{QuirkIgnoreDevSubNQN, "ignore-dev-subnqn"},
	{QuirkDisableWriteZeroes, "disable-write-zeroes"},
	{QuirkSimpleSuspend, "simple-suspend"},
	{QuirkNoTempThreshChange, "no-temp-thresh-change"},
	{QuirkBogusNID, "bogus-nid"},
	{QuirkBrokenMSI, "broken-msi"},
}

// APST returns only the quirks that affect the APST table.
func (q Quirks) APST() Quirks { return q & QuirksAPST }

// String lists the quirks by name ("no-apst,no-deepest-ps"), "none" for the
// empty set, and unnamed bits as hexadecimal.
func (q Quirks) String() string {
	if q == 0 {
		return "none"
	}
	var parts []string
	rest := q
	for _, n := range quirkNames {
		if q&n.q != 0 {
			parts = append(parts, n.name)
			rest &^= n.q
		}
	}
	if rest != 0 {
		parts = append(parts, fmt.Sprintf("%#x", uint32(rest)))
	}
	return strings.Join(parts, ",")
}

// ParseQuirks parses a comma-separated list of APST quirk names: "no-apst",
// "no-deepest-ps" or "none" (the empty set). Underscores are accepted for
// dashes and case is ignored. Only APST quirks can be named.
func ParseQuirks(s string) (Quirks, error) {
	var q Quirks
	for _, f := range strings.Split(s, ",") {
		name := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(f)), "_", "-")
		switch name {
		case "no-apst":
			q |= QuirkNoAPST
		case "no-deepest-ps":
			q |= QuirkNoDeepestPS
		case "none":
		default:
			return 0, fmt.Errorf("%w %q in %q: want no-apst, no-deepest-ps or none", ErrUnknownQuirk, f, s)
		}
	}
	return q, nil
}
