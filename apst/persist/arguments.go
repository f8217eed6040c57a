package persist

import (
	"fmt"
	"strings"
)

// Argument is one kernel parameter a settings text sets: a word of a
// kernel command line, or a parameter of a modprobe.d options line.
//
// The zero Argument was found nowhere: its Source is none of the sources,
// its Line 0 (lines count from 1) and its Name empty.
type Argument struct {
	// Source is where it was found: SourceCmdline or SourceModprobe.
	Source Source
	// Line is its 1-based line in the text.
	Line int
	// Name is the parameter as the kernel names it, its dashes as written:
	// a module's parameter is MODULE.PARAM (modprobe.d's "options nvme_core
	// default_ps_max_latency_us=0" is nvme_core.default_ps_max_latency_us).
	Name string
	// Value is what follows the first =, without the double quotes the
	// kernel drops and the closing marks of a list or string holding the
	// argument; empty when NoValue.
	Value string
	// NoValue is true for a word without an = ("quiet"), which the kernel
	// passes to its parameter with no value.
	NoValue bool
}

// ParseArguments finds every kernel and module parameter in text, in the
// forms users keep them. The forms are: a kernel command line (/proc/cmdline, a Raspberry
// Pi's cmdline.txt, a log's "Kernel command line:"), a GRUB variable
// (GRUB_CMDLINE_LINUX_DEFAULT="..."), a grub.cfg "linux" or extlinux
// "append" line, a systemd-boot entry's "options" line, a NixOS
// boot.kernelParams list (on one line or one string a line), a TrueNAS
// kernel_extra_options value and modprobe.d "options MODULE PARAM=VALUE"
// lines, in any mix. A command line is split as the kernel splits it, at
// blanks outside double quotes; the arguments after a -- are init's, not
// the kernel's. Comments, other modprobe.d lines and words that cannot be
// a parameter's name are skipped. A text longer than MaxSettingSize is
// refused; no other text is.
func ParseArguments(text string) ([]Argument, error) {
	if len(text) > MaxSettingSize {
		return nil, fmt.Errorf("persist: kernel arguments: %d bytes: more than the limit of %d", len(text), MaxSettingSize)
	}
	var out []Argument
	for i, line := range strings.Split(text, "\n") {
		out = appendArguments(out, i+1, strings.TrimFunc(line, blank))
	}
	return out, nil
}

// appendArguments appends the arguments of one trimmed line.
func appendArguments(out []Argument, n int, t string) []Argument {
	if t == "" || t[0] == '#' {
		return out
	}
	f := strings.FieldsFunc(t, blank)
	switch f[0] {
	case "blacklist", "install", "remove", "alias", "softdep":
		return out // modprobe.d lines that set no parameter
	}
	if modprobeOptions(f) {
		for _, w := range kernelWords(afterFields(t, 2)) {
			if a, ok := argument(w); ok && !a.NoValue {
				a.Source, a.Line, a.Name = SourceModprobe, n, f[1]+"."+a.Name
				out = append(out, a)
			}
		}
		return out
	}
	for _, a := range CommandLineArguments(commandLineOf(t)) {
		a.Line = n
		out = append(out, a)
	}
	return out
}

// CommandLineArguments reads s as one kernel command line (/proc/cmdline,
// a log's text after "Kernel command line:"), split as the kernel splits
// it, at blanks outside double quotes, up to a -- after which the
// arguments are init's. Each is on line 1, from SourceCmdline; words that
// cannot be a parameter's name are skipped. ParseArguments reads the
// other forms a command line is kept in.
func CommandLineArguments(s string) []Argument {
	var out []Argument
	for _, w := range kernelWords(s) {
		if w == "--" {
			break // the kernel passes what follows to init
		}
		if a, ok := argument(w); ok {
			a.Source, a.Line = SourceCmdline, 1
			out = append(out, a)
		}
	}
	return out
}

// modprobeOptions reports whether the fields are a modprobe.d options
// line ("options nvme_core default_ps_max_latency_us=0") rather than a
// systemd-boot entry's ("options root=UUID=... quiet"): a module name,
// then parameters whose names have no dot.
func modprobeOptions(f []string) bool {
	if len(f) < 2 || f[0] != "options" || strings.ContainsAny(f[1], `=."'`) {
		return false
	}
	switch f[1] {
	case "quiet", "splash", "ro", "rw":
		return false
	}
	for _, w := range f[2:] {
		if name, _, _ := strings.Cut(w, "="); strings.Contains(name, ".") {
			return false
		}
	}
	return true
}

// commandLineOf is the kernel command line a line holds: the string of a
// GRUB variable or of TrueNAS's kernel_extra_options, the inside of a Nix
// list, the line after grub.cfg's "linux IMAGE", extlinux's "append",
// systemd-boot's "options" or a log's "Kernel command line:", else the
// line itself.
func commandLineOf(t string) string {
	if _, v, ok := strings.Cut(t, `"kernel_extra_options"`); ok {
		v = strings.TrimPrefix(strings.TrimSpace(v), ":")
		v = strings.TrimPrefix(strings.TrimSpace(v), `"`)
		v, _, _ = strings.Cut(v, `"`)
		return v
	}
	if name, v, ok := strings.Cut(t, "="); ok && shellVariable(name) && (strings.HasPrefix(name, "GRUB_") || strings.HasPrefix(v, `"`) || strings.HasPrefix(v, "'")) {
		if len(v) > 0 && (v[0] == '"' || v[0] == '\'') {
			v, _, _ = strings.Cut(v[1:], v[:1])
		}
		return v
	}
	if i := strings.IndexByte(t, '['); i >= 0 {
		// A list of strings of its own, or given to a Nix attribute
		// (boot.kernelParams = [, = lib.mkAfter [, ++ [).
		before := strings.TrimSpace(t[:i])
		v, _, _ := strings.Cut(t[i+1:], "]")
		if inner := strings.TrimSpace(v); (inner == "" || inner[0] == '"') &&
			(before == "" || strings.HasSuffix(before, "++") || strings.Contains(before, "kernelParams") || strings.Contains(before, " = ")) {
			return v
		}
	}
	// A log's line, after its time stamp.
	for _, p := range []string{"Kernel command line:", "Command line:"} {
		if i := strings.Index(t, p); i >= 0 {
			return t[i+len(p):]
		}
	}
	f := strings.FieldsFunc(t, blank)
	switch f[0] {
	case "options", "append", "APPEND":
		return afterFields(t, 1)
	case "linux", "linuxefi", "linux16", "kernel":
		if len(f) > 1 && (f[1][0] == '/' || f[1][0] == '(') {
			return afterFields(t, 2)
		}
	}
	return t
}

// afterFields is t after its first n blank-separated fields.
func afterFields(t string, n int) string {
	for ; n > 0; n-- {
		t = strings.TrimLeftFunc(t, blank)
		if i := strings.IndexFunc(t, blank); i >= 0 {
			t = t[i:]
		} else {
			return ""
		}
	}
	return strings.TrimFunc(t, blank)
}

// blank reports whether c is a blank to the kernel's command line parser
// (isspace: space, tab, newline, vertical tab, form feed, return).
func blank(c rune) bool {
	return c == ' ' || c >= '\t' && c <= '\r'
}

// shellVariable reports whether s is an upper-case shell variable's name
// (GRUB_CMDLINE_LINUX_DEFAULT).
func shellVariable(s string) bool {
	for i, c := range s {
		if !(c >= 'A' && c <= 'Z' || c == '_' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

// kernelWords splits a command line as the kernel does (lib/cmdline.c,
// next_arg): at blanks outside double quotes.
func kernelWords(s string) []string {
	var out []string
	for {
		s = strings.TrimLeftFunc(s, blank)
		if s == "" {
			return out
		}
		i, quoted := 0, false
		for ; i < len(s); i++ {
			if s[i] == '"' {
				quoted = !quoted
			} else if !quoted && blank(rune(s[i])) {
				break
			}
		}
		out = append(out, s[:i])
		s = s[i:]
	}
}

// argument reads one word as a parameter: a word in quotes (a Nix list's
// string) is its inside; the kernel drops the double quotes around a value
// (p="5500") or a whole word; the opening marks of a list or string before
// the name and the closing ones after the value are theirs. ok is false
// for a word that cannot be a parameter's name.
func argument(w string) (Argument, bool) {
	if len(w) >= 2 && (w[0] == '"' || w[0] == '\'') && w[len(w)-1] == w[0] {
		w = w[1 : len(w)-1]
	}
	w = strings.TrimLeft(w, `"'[({`)
	name, v, ok := strings.Cut(w, "=")
	if !ok {
		name = strings.TrimRight(name, `"'}]);,`)
	}
	if !parameterName(name) {
		return Argument{}, false
	}
	return Argument{Name: name, Value: argValue(v), NoValue: !ok}, true
}

// parameterName reports whether s can name a kernel or module parameter:
// letters, digits, _ - and the dots between a module and its parameter.
func parameterName(s string) bool {
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			return false
		}
	}
	return s != "" && s[0] != '-' && s[0] != '.'
}
