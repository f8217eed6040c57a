package persist

import (
	"errors"
	"fmt"
	"github.com/nvmeapst/nvmeapst/apst/persist/udev"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
)

// ErrDefaultSyntax is wrapped by the errors of ParseDefaults.
var ErrDefaultSyntax = errors.New("persist: default_ps_max_latency_us")

// Source says where a module default comes from.
type Source uint8

// The sources of a module default.
const (
	// SourceCmdline is the kernel command line
	// (nvme_core.default_ps_max_latency_us=V).
	SourceCmdline Source = iota + 1
	// SourceModprobe is a modprobe.d line (options nvme_core
	// default_ps_max_latency_us=V).
	SourceModprobe
)

// String names the source: "kernel command line", "modprobe.d".
func (s Source) String() string {
	switch s {
	case SourceCmdline:
		return "kernel command line"
	case SourceModprobe:
		return "modprobe.d"
	}
	return fmt.Sprintf("Source(%d)", uint8(s))
}

// Default is one setting of nvme_core's default_ps_max_latency_us.
//
// The zero Default was found nowhere (its Source is none of the sources,
// its Line 0) and sets bound 0, so CheckDefaults reports it as
// MistakeGlobalZero.
type Default struct {
	// Source is where it was found.
	Source Source
	// Line is its 1-based line in the text.
	Line int
	// Text is the line of modprobe.d, or the argument of a command line
	// (without the quotes or brackets around it or its value).
	Text string
	// Bound is the value as the kernel parses it (an unsigned long; 0 turns
	// APST off, 2147483647 and above are no limit).
	Bound apst.Microseconds
}

// MaxSettingSize is the largest text ParseDefaults and ParseSysfsWrites
// read (1 MiB), as udev.MaxRulesSize is for rules.
const MaxSettingSize = udev.MaxRulesSize

// ParseDefaults finds every nvme_core.default_ps_max_latency_us in text: a
// kernel command line (/proc/cmdline, GRUB_CMDLINE_LINUX...=) or modprobe.d
// lines (options nvme_core default_ps_max_latency_us=V), in any mix, one
// per line or several on a line, also inside a NixOS boot.kernelParams list
// or a TrueNAS kernel_extra_options string. As the kernel does, a - in the
// module or parameter name is the same as _, the value may stand in double
// quotes and takes a + sign and a 0x (hexadecimal) or 0 (octal) prefix,
// and the arguments after a -- on a command line are init's, not the
// kernel's. Other arguments and lines are skipped; a text longer than
// MaxSettingSize is refused. Errors wrap ErrDefaultSyntax and name the
// line: a value that is not an unsigned long.
func ParseDefaults(text string) ([]Default, error) {
	if len(text) > MaxSettingSize {
		return nil, fmt.Errorf("%w: %d bytes: more than the limit of %d", ErrDefaultSyntax, len(text), MaxSettingSize)
	}
	args, err := ParseArguments(text)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrDefaultSyntax, err)
	}
	var out []Default
	var lines []string
	for _, a := range args {
		if normName(a.Name) != "nvme_core.default_ps_max_latency_us" || a.NoValue {
			continue
		}
		arg := a.Name + "=" + a.Value
		if a.Source == SourceModprobe {
			if lines == nil {
				lines = strings.Split(text, "\n")
			}
			arg = strings.TrimSpace(lines[a.Line-1])
		}
		d, err := parseDefault(a.Source, a.Line, arg, a.Value)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

func normName(s string) string { return strings.ReplaceAll(s, "-", "_") }

// argValue is the value of a kernel or module argument as a file holds it:
// without the double quotes the kernel drops around a value (p="5500",
// also in modprobe.d, whose options reach the kernel's parser), and
// without the closing quotes, brackets, braces, parentheses, commas and
// semicolons of a list or a string that holds the whole argument
// (["p=0"]; in NixOS, "p=0"}' in a TrueNAS midclt call).
func argValue(v string) string {
	v = strings.TrimPrefix(v, `"`)
	return strings.TrimRight(v, `"'}]);,`)
}

func parseDefault(src Source, line int, text, v string) (Default, error) {
	b, err := parseULong(v)
	if err != nil {
		return Default{}, fmt.Errorf("%w: line %d: %q: %v", ErrDefaultSyntax, line, text, err)
	}
	return Default{Source: src, Line: line, Text: text, Bound: apst.Microseconds(b)}, nil
}

// parseULong reads an unsigned long as the kernel's kstrtoul with base 0
// does: one leading + allowed, 0x hexadecimal, a leading 0 octal, else
// decimal; one trailing newline allowed.
func parseULong(s string) (uint64, error) {
	s = strings.TrimSuffix(s, "\n")
	s = strings.TrimPrefix(s, "+")
	base := uint64(10)
	digits := s
	switch {
	case len(s) > 2 && (s[:2] == "0x" || s[:2] == "0X"):
		base, digits = 16, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, digits = 8, s[1:]
	}
	if digits == "" {
		return 0, errors.New("want an unsigned number (decimal, 0x hexadecimal or 0 octal)")
	}
	var v uint64
	for _, c := range digits {
		var d uint64
		switch {
		case c >= '0' && c <= '9':
			d = uint64(c - '0')
		case c >= 'a' && c <= 'f':
			d = uint64(c-'a') + 10
		case c >= 'A' && c <= 'F':
			d = uint64(c-'A') + 10
		default:
			return 0, errors.New("want an unsigned number (decimal, 0x hexadecimal or 0 octal)")
		}
		if d >= base {
			return 0, fmt.Errorf("digit %q is not base %d", c, base)
		}
		if v > (1<<64-1-d)/base {
			return 0, errors.New("out of range: more than 18446744073709551615")
		}
		v = v*base + d
	}
	return v, nil
}
