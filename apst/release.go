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
// The zero value means "release unknown": lookups then use the newest
// tables the package carries ([NewestRelease]) and say so.
type Release struct {
	Major, Minor, Patch uint16
}

// NewestRelease returns the newest kernel release whose quirk tables the
// package carries (7.3). A newer release is looked up with these tables and
// the lookup says it assumed so.
func NewestRelease() Release { return Release{7, 3, 0} }

// firstAPSTRelease is v4.11, the first release with APST.
var firstAPSTRelease = Release{4, 11, 0}

// ParseRelease parses a kernel release: "6.8", "v7.1", "4.12", "5.15.80",
// or a distribution's uname -r such as "5.15.0-91-generic" or
// "6.8.0-rc3+". An optional leading "v" is accepted; everything from the
// first character that is neither a digit nor a dot is ignored (so an -rc
// counts as its release); at least X.Y is required. It does not check that
// the release has APST (see [Release.Generation]). A malformed string
// returns an error wrapping [ErrInvalidConfig].
func ParseRelease(s string) (Release, error) {
	t := strings.TrimPrefix(strings.TrimSpace(s), "v")
	end := strings.IndexFunc(t, func(r rune) bool { return r != '.' && (r < '0' || r > '9') })
	if end >= 0 {
		t = t[:end]
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
	r := Release{n[0], n[1], n[2]}
	if r.IsZero() {
		return Release{}, fmt.Errorf("%w: kernel release %q: 0.0 is not a release", ErrInvalidConfig, s)
	}
	return r, nil
}

// String formats the release as "6.8" (Patch 0) or "5.15.80", without a
// leading "v", so that it never reads as a [Generation] name; "unknown" for
// the zero value.
func (r Release) String() string {
	if r.IsZero() {
		return "unknown"
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
func (r Release) mainline() Release { return Release{r.Major, r.Minor, 0} }

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
	case r.Compare(Release{4, 12, 0}) < 0:
		return V4_11, nil
	case r.Compare(Release{5, 14, 0}) < 0:
		return V4_12, nil
	}
	return Current, nil
}

// noteReleaseUnknown is the note of a lookup without a release.
const noteReleaseUnknown = "kernel release unknown: assumed the newest quirk tables (Linux 7.3)"

// tables returns the release whose tables a lookup for r uses, and a note
// when r needs one: the newest tables for an unknown release or one newer
// than NewestRelease; a release before v4.11 has no APST at all.
func (r Release) tables() (Release, string) {
	newest := NewestRelease()
	switch {
	case r.IsZero():
		return newest, noteReleaseUnknown
	case r.Compare(firstAPSTRelease) < 0:
		return r, "Linux " + r.String() + " has no APST (it arrived in v4.11): no quirk affects it"
	case r.Compare(Release{newest.Major, newest.Minor + 1, 0}) >= 0:
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
