package apst

import (
	"fmt"
	"strconv"
	"strings"
)

// Release is a Linux kernel release, X.Y.Z as uname -r and
// /proc/sys/kernel/osrelease print it: the mainline release X.Y, and Z the
// stable update (0 for the mainline release itself).
//
// A release selects the algorithm ([Release.Generation]) and the quirk
// tables of that release ([QuirkTables], [DriveQuirks]): X.Y.Z has the
// tables of mainline X.Y plus the stable backports up to Z, as
// docs/spec/kernel-apst.md §13 records them. Those are upstream's tables;
// distribution kernels backport quirks of their own, and where the kernel
// exposes /sys/class/nvme/nvmeN/quirks (v7.0 and later) that file is the
// ground truth ([ParseQuirksFile]).
//
// Distribution kernels number their releases X.Y.0-N (Debian, Ubuntu,
// RHEL), which hides the upstream stable update they are based on, and so
// which stable backports of the quirk tables they carry. [ParseRelease]
// reads that base where the text gives it (Debian's uname -v, Ubuntu's
// /proc/version_signature, "5.10.0-28-amd64 (Debian 5.10.209-2)"); without
// it the Release has BaseUnknown set, and lookups use the newest stable
// update of the series they know, naming the entries that differ from
// X.Y.0 ([Release.SeriesChanges]).
//
// The zero value means "release unknown": lookups then use the newest
// tables the package carries ([NewestRelease]) and say so.
type Release struct {
	Major, Minor, Patch uint16
	// BaseUnknown reports a distribution release X.Y.0-N whose upstream
	// stable base is unknown: Patch is 0 but the kernel is some X.Y.z.
	BaseUnknown bool
}

// NewestRelease returns the newest kernel release whose quirk tables the
// package carries (7.3). A newer release is looked up with these tables and
// the lookup says it assumed so.
func NewestRelease() Release { return Release{Major: 7, Minor: 3} }

// firstAPSTRelease is v4.11, the first release with APST.
var firstAPSTRelease = Release{Major: 4, Minor: 11}

// ParseRelease parses a kernel release: "6.8", "v7.1", "4.12", "5.15.80",
// or a distribution's uname -r such as "6.8.9-300.fc40" (Fedora: the stable
// base 6.8.9), "7.1.5-arch1-1" or "6.8.0-rc3+". An optional leading "v" is
// accepted; everything from the first character that is neither a digit
// nor a dot is ignored (so an -rc counts as its release); at least X.Y is
// required.
//
// A release X.Y.0-N (a digit after the dash: Debian's 5.10.0-28-amd64,
// Ubuntu's 5.15.0-91-generic, RHEL's 5.14.0-427.el9) is a distribution
// kernel whose stable base is unknown (BaseUnknown), unless the text gives
// the base as well, in the forms the distributions print:
//
//   - "5.10.0-28-amd64 (Debian 5.10.209-2)": uname -r, then the base in
//     parentheses (any text there ending in the release X.Y.Z);
//   - "#1 SMP Debian 5.10.209-2 (2024-01-31)": Debian's uname -v;
//   - "Ubuntu 5.15.0-91.101-generic 5.15.131": Ubuntu's
//     /proc/version_signature.
//
// The base must be of the same series X.Y. It does not check that the
// release has APST (see [Release.Generation]). A malformed string returns
// an error wrapping [ErrInvalidConfig].
func ParseRelease(s string) (Release, error) {
	t := strings.TrimSpace(s)
	bad := func(why string) (Release, error) {
		return Release{}, fmt.Errorf("%w: kernel release %q: %s", ErrInvalidConfig, s, why)
	}
	switch {
	case strings.HasPrefix(t, "Ubuntu "):
		// /proc/version_signature: "Ubuntu <uname -r with ABI> <base>".
		f := strings.Fields(t)
		if len(f) < 3 {
			return bad("want Ubuntu's /proc/version_signature, e.g. Ubuntu 5.15.0-91.101-generic 5.15.131")
		}
		return withBase(s, f[1], f[len(f)-1])
	case strings.HasPrefix(t, "#"):
		// uname -v: "#1 SMP Debian 5.10.209-2 (2024-01-31)".
		_, rest, ok := strings.Cut(t, " Debian ")
		if !ok {
			return bad("a uname -v names no base release; want Debian's, e.g. #1 SMP Debian 5.10.209-2 (2024-01-31)")
		}
		f := strings.Fields(rest)
		r, err := parseNumbers(s, f[0])
		if err == nil && r.Patch == 0 {
			return bad("the Debian version names no stable update")
		}
		return r, err
	}
	if open := strings.IndexByte(t, '('); open > 0 && strings.HasSuffix(t, ")") {
		f := strings.Fields(t[open+1 : len(t)-1])
		if len(f) == 0 {
			return bad("empty parentheses: want the stable base, e.g. 5.10.0-28-amd64 (Debian 5.10.209-2)")
		}
		return withBase(s, strings.TrimSpace(t[:open]), f[len(f)-1])
	}
	return parseNumbers(s, t)
}

// withBase parses uname -r and its stable base and returns the base, which
// must be of the same series.
func withBase(s, uname, base string) (Release, error) {
	r, err := parseNumbers(s, uname)
	if err != nil {
		return Release{}, err
	}
	b, err := parseNumbers(s, base)
	if err != nil {
		return Release{}, err
	}
	if b.mainline() != r.mainline() {
		return Release{}, fmt.Errorf("%w: kernel release %q: the base %s is not of the series %d.%d", ErrInvalidConfig, s, b, r.Major, r.Minor)
	}
	b.BaseUnknown = false
	return b, nil
}

// parseNumbers parses X.Y[.Z] and what follows it (see ParseRelease).
func parseNumbers(s, t string) (Release, error) {
	t = strings.TrimPrefix(strings.TrimSpace(t), "v")
	suffix := ""
	end := strings.IndexFunc(t, func(r rune) bool { return r != '.' && (r < '0' || r > '9') })
	if end >= 0 {
		t, suffix = t[:end], t[end:]
	}
	parts := strings.Split(t, ".")
	if len(parts) < 2 || len(parts) > 3 {
		return Release{}, fmt.Errorf("%w: kernel release %q: want X.Y or X.Y.Z, e.g. 6.8 or 5.15.0-91-generic", ErrInvalidConfig, s)
	}
	var n [3]uint16
	for i, p := range parts {
		v, err := strconv.ParseUint(p, 10, 16)
		if err != nil {
			return Release{}, fmt.Errorf("%w: kernel release %q: part %q is not a number from 0 to 65535", ErrInvalidConfig, s, p)
		}
		n[i] = uint16(v)
	}
	r := Release{Major: n[0], Minor: n[1], Patch: n[2]}
	if r.IsZero() {
		return Release{}, fmt.Errorf("%w: kernel release %q: 0.0 is not a release", ErrInvalidConfig, s)
	}
	if len(parts) == 3 && r.Patch == 0 && len(suffix) > 1 && suffix[0] == '-' &&
		(suffix[1] >= '0' && suffix[1] <= '9' || suffix == distroSuffix) {
		r.BaseUnknown = true
	}
	return r, nil
}

// distroSuffix marks a release whose stable base is unknown in its text
// form ("5.10.0-distro"), which ParseRelease reads back.
const distroSuffix = "-distro"

// String formats the release as "6.8" (Patch 0) or "5.15.80", without a
// leading "v", so that it never reads as a [Generation] name; "unknown" for
// the zero value; "5.10.0-distro" for a distribution release whose stable
// base is unknown.
func (r Release) String() string {
	if r.IsZero() {
		return "unknown"
	}
	if r.BaseUnknown {
		return strconv.Itoa(int(r.Major)) + "." + strconv.Itoa(int(r.Minor)) + ".0" + distroSuffix
	}
	s := strconv.Itoa(int(r.Major)) + "." + strconv.Itoa(int(r.Minor))
	if r.Patch != 0 {
		s += "." + strconv.Itoa(int(r.Patch))
	}
	return s
}

// IsZero reports whether the release is unknown.
func (r Release) IsZero() bool { return r == Release{} }

// Compare returns -1, 0 or +1 as r is older than, the same as or newer than
// o, comparing Major, Minor and Patch in turn. The zero Release is older
// than every release.
func (r Release) Compare(o Release) int {
	switch {
	case r.Major != o.Major:
		return cmpU16(r.Major, o.Major)
	case r.Minor != o.Minor:
		return cmpU16(r.Minor, o.Minor)
	}
	return cmpU16(r.Patch, o.Patch)
}

func cmpU16(a, b uint16) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// mainline returns the mainline release of r's series (X.Y.0).
func (r Release) mainline() Release { return Release{Major: r.Major, Minor: r.Minor} }

// Generation returns the algorithm that release r runs: [V4_11] for 4.11,
// [V4_12] for 4.12 to 5.13, [Current] from 5.14. A release before 4.11 had
// no APST and the zero Release names none: both return an error wrapping
// [ErrUnknownGeneration] that says why.
func (r Release) Generation() (Generation, error) {
	switch {
	case r.IsZero():
		return 0, fmt.Errorf("%w: kernel release unknown", ErrUnknownGeneration)
	case r.Compare(firstAPSTRelease) < 0:
		return 0, fmt.Errorf("%w: Linux %s has no APST (it arrived in v4.11)", ErrUnknownGeneration, r)
	case r.Compare(Release{Major: 4, Minor: 12}) < 0:
		return V4_11, nil
	case r.Compare(Release{Major: 5, Minor: 14}) < 0:
		return V4_12, nil
	}
	return Current, nil
}

// noteReleaseUnknown is the note of a lookup without a release.
const noteReleaseUnknown = "kernel release unknown: assumed the newest quirk tables (Linux 7.3)"

// tables returns the release whose tables a lookup for r uses, and a note
// when r needs one: the newest tables for an unknown release or one newer
// than NewestRelease, the newest stable update of the series for a
// distribution release whose base is unknown; a release before v4.11 has
// no APST at all.
func (r Release) tables() (Release, string) {
	newest := NewestRelease()
	switch {
	case r.IsZero():
		return newest, noteReleaseUnknown
	case r.BaseUnknown && r.Compare(firstAPSTRelease) >= 0:
		t := Release{Major: r.Major, Minor: r.Minor, Patch: 1<<16 - 1}
		if r.Compare(Release{Major: newest.Major, Minor: newest.Minor + 1}) >= 0 {
			t = r.mainline()
		}
		return t, baseUnknownNote(r)
	case r.Compare(firstAPSTRelease) < 0:
		return r, "Linux " + r.String() + " has no APST (it arrived in v4.11): no quirk affects it"
	case r.Compare(Release{Major: newest.Major, Minor: newest.Minor + 1}) >= 0:
		return r, "Linux " + r.String() + " is newer than the newest quirk tables known (" + newest.String() + "): assumed they are unchanged"
	}
	return r, ""
}

// MarshalText implements encoding.TextMarshaler: the String form, and an
// empty text for the zero Release.
func (r Release) MarshalText() ([]byte, error) {
	if r.IsZero() {
		return []byte{}, nil
	}
	return []byte(r.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler with ParseRelease; an
// empty text or "unknown" gives the zero Release.
func (r *Release) UnmarshalText(b []byte) error {
	if s := string(b); s == "" || s == "unknown" {
		*r = Release{}
		return nil
	}
	v, err := ParseRelease(string(b))
	if err != nil {
		return err
	}
	*r = v
	return nil
}

// SeriesChanges returns the quirk table entries that differ between
// mainline X.Y.0 of r's series and the newest stable update X.Y.z that the
// package knows. Each reads as "8086:f1a5 Intel 600P/P3100 (added in
// 5.10.15)": what a distribution kernel of the series may or may not carry,
// depending on its stable base.
func (r Release) SeriesChanges() []string { return r.seriesChanges(nil) }

// seriesChanges is SeriesChanges of the entries keep accepts (all when keep
// is nil).
func (r Release) seriesChanges(keep func(*QuirkEntry) bool) []string {
	var out []string
	m := r.mainline()
	last := Release{Major: r.Major, Minor: r.Minor, Patch: 1<<16 - 1}
	for i := range quirkHistory {
		e := &quirkHistory[i]
		in0, inZ := e.In(m), e.In(last)
		if in0 == inZ || keep != nil && !keep(e) {
			continue
		}
		at := ""
		for _, b := range append(append([]Release(nil), e.Backports...), e.Dropped...) {
			if b.mainline() == m {
				at = b.String()
			}
		}
		what := "added"
		if in0 {
			what = "dropped"
		}
		name := e.Note
		if !e.Device.IsZero() {
			name = e.Device.String() + " " + e.Note
		}
		out = append(out, name+" ("+what+" in "+at+")")
	}
	return out
}

// baseUnknownNote says what a lookup for a distribution release whose base
// is unknown assumed, and what is at stake.
func baseUnknownNote(r Release) string { return baseStakeNote(r, r.SeriesChanges()) }

// baseStakeNote is baseUnknownNote with the entries at stake ch (for one
// controller: those that could apply to it).
func baseStakeNote(r Release, ch []string) string {
	series := strconv.Itoa(int(r.Major)) + "." + strconv.Itoa(int(r.Minor))
	n := "distribution kernel " + series + ".0-N: its upstream stable base is unknown; assumed the newest " + series +
		".z quirk tables known"
	if len(ch) > 0 {
		n += ", which differ from " + series + ".0 in: " + strings.Join(ch, "; ")
	} else {
		n += " (no APST-relevant entry differs within the series)"
	}
	return n + " (give the base, e.g. --kernel '" + series + ".0-28 (Debian " + series + ".209-2)', or read the sysfs quirks file, which wins)"
}
