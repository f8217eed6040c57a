package trace

import (
	"fmt"
	"strings"
)

// Format is a trace format. The zero value, FormatAuto, asks NewReader to
// detect the format from the content.
type Format uint8

const (
	// FormatAuto detects the format from the first significant line.
	FormatAuto Format = iota
	// FormatBlkparse is blkparse's default text output.
	FormatBlkparse
	// FormatBiosnoop is bcc's biosnoop (header "TIME(s) ... LAT(ms)").
	FormatBiosnoop
	// FormatBiosnoopBpftrace is bpftrace's biosnoop.bt (header
	// "TIME(ms) ... LAT(ms)").
	FormatBiosnoopBpftrace
	// FormatFioIolog is fio's iolog version 3.
	FormatFioIolog
	// FormatPlain is one command a line: "SECONDS [DURATION_SECONDS]".
	FormatPlain

	formatCount
)

var formatNames = [formatCount]string{
	FormatAuto:             "auto",
	FormatBlkparse:         "blkparse",
	FormatBiosnoop:         "biosnoop",
	FormatBiosnoopBpftrace: "biosnoop-bpftrace",
	FormatFioIolog:         "fio-iolog",
	FormatPlain:            "plain",
}

// Formats returns every format NewReader reads, FormatAuto excluded, in
// the order of the constants.
func Formats() []Format {
	return []Format{FormatBlkparse, FormatBiosnoop, FormatBiosnoopBpftrace, FormatFioIolog, FormatPlain}
}

// Valid reports whether f is one of the constants.
func (f Format) Valid() bool { return f < formatCount }

// String returns the format's name: "auto", "blkparse", "biosnoop",
// "biosnoop-bpftrace", "fio-iolog" or "plain"; "Format(N)" for an invalid
// value.
func (f Format) String() string {
	if f.Valid() {
		return formatNames[f]
	}
	return fmt.Sprintf("Format(%d)", uint8(f))
}

// MarshalText returns the format's name (encoding.TextMarshaler). An
// invalid value is an error wrapping ErrUnknownFormat.
func (f Format) MarshalText() ([]byte, error) {
	if !f.Valid() {
		return nil, fmt.Errorf("%w: %d", ErrUnknownFormat, uint8(f))
	}
	return []byte(formatNames[f]), nil
}

// UnmarshalText parses a format name (encoding.TextUnmarshaler), case
// insensitive: the names String returns, and the aliases "bcc" (biosnoop),
// "bpftrace" (biosnoop-bpftrace), "fio" and "iolog" (fio-iolog), "blktrace"
// (blkparse) and "" (auto). On error f is unchanged.
func (f *Format) UnmarshalText(b []byte) error {
	s := strings.ToLower(strings.TrimSpace(string(b)))
	for i, n := range formatNames {
		if s == n {
			*f = Format(i)
			return nil
		}
	}
	switch s {
	case "":
		*f = FormatAuto
	case "bcc":
		*f = FormatBiosnoop
	case "bpftrace":
		*f = FormatBiosnoopBpftrace
	case "fio", "iolog":
		*f = FormatFioIolog
	case "blktrace":
		*f = FormatBlkparse
	default:
		return fmt.Errorf("%w %q: want one of %s", ErrUnknownFormat, string(b), strings.Join(formatNames[:], ", "))
	}
	return nil
}
