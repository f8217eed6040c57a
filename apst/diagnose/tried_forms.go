package diagnose

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst/persist"
)

// ParseTriedForm reads a --tried value copied whole from where the machine
// keeps its settings, as ParseTriedFlag reads a typed one. It reports
// false when s is none of the forms below (ParseTriedFlag's then), and an
// error when it is one that holds no setting the diagnosis weighs,
// contradicts itself (CheckTried) or holds more than MaxTried. A setting
// given twice is read once. A copy is not typed, so its names are not
// checked for typos, nor its values: Diagnose notes one the kernel does
// not take as not weighed.
//
// A paste of several lines holding a form (a modprobe.d file: a comment,
// then its options line) is read a line at a time: each line a form or
// settings (ParseTriedFlag's), a line starting with '#' a comment.
func ParseTriedForm(s string) ([]Tried, bool, error) {
	ts, ok := triedForm(s)
	if !ok {
		return parseTriedLines(s)
	}
	if len(ts) == 0 {
		return nil, true, fmt.Errorf("diagnose: --tried %q holds no setting the diagnosis weighs (want the NVMe, PCIe and power-management parameters or sysfs files that were set)", s)
	}
	ts, err := mergeTried(ts, MaxTried)
	if err != nil {
		return nil, true, err
	}
	return ts, true, nil
}

// parseTriedLines reads s line by line when it has several lines and one
// of them is a form (ParseTriedForm); false when it is not such a paste.
func parseTriedLines(s string) ([]Tried, bool, error) {
	if !strings.Contains(s, "\n") {
		return nil, false, nil
	}
	var all []Tried
	form := false
	for line := range strings.Lines(s) {
		line = strings.TrimFunc(line, isBlank)
		if line == "" || line[0] == '#' {
			continue
		}
		if ts, ok := triedForm(line); ok {
			form = true
			all = append(all, ts...)
			continue
		}
		ts, err := ParseTriedFlag(line)
		if err != nil {
			return nil, true, err
		}
		all = append(all, ts...)
	}
	if !form {
		return nil, false, nil
	}
	if len(all) == 0 {
		return nil, true, fmt.Errorf("diagnose: --tried %q holds no setting the diagnosis weighs (want the NVMe, PCIe and power-management parameters or sysfs files that were set)", s)
	}
	ts, err := mergeTried(all, MaxTried)
	return ts, true, err
}

// triedForm reads s as one of the forms in which a user copies what the
// machine already ran with, rather than as settings: a GRUB line
// (GRUB_CMDLINE_LINUX_DEFAULT="..."), a NixOS boot.kernelParams list, a
// modprobe.d "options nvme_core ..." line, a systemd-boot entry's
// "options ..." line, a grub.cfg "linux" line, a TrueNAS midclt call
// setting kernel_extra_options, a whole kernel command line (/proc/cmdline,
// cmdline.txt: one holding BOOT_IMAGE=, initrd= or root=; a log's "Kernel
// command line:") and a sysfs write
// ("echo 0 > FILE", "echo 0 | sudo tee FILE"). An outcome after the whole
// form (":helped") is each setting's. It reports false when s is none of
// them. Of a form holding a whole command line only the settings the
// rules weigh are kept (root=, quiet and the like are left out), so an
// outcome given for the whole is given to those alone.
func triedForm(s string) ([]Tried, bool) {
	s = strings.TrimFunc(s, isBlank)
	out := DidNotHelp
	if i := strings.LastIndexByte(s, ':'); i > 0 {
		if o, ok := outcome(strings.TrimFunc(s[i+1:], isBlank)); ok {
			out, s = o, strings.TrimSpace(s[:i])
		}
	}
	var ts []Tried
	switch {
	case strings.HasPrefix(s, "GRUB_CMDLINE_LINUX"):
		if name, _, _ := strings.Cut(s, "="); name != "GRUB_CMDLINE_LINUX" && name != "GRUB_CMDLINE_LINUX_DEFAULT" {
			return nil, false
		}
	case strings.HasPrefix(s, "boot.kernelParams") || strings.HasPrefix(s, "["):
		if v := strings.TrimSuffix(s, ";"); !strings.HasSuffix(strings.TrimSpace(v), "]") {
			return nil, false
		}
	case strings.HasPrefix(s, "options "), strings.HasPrefix(s, "linux "), strings.HasPrefix(s, "Kernel command line:"),
		strings.Contains(s, `"kernel_extra_options"`), commandLine(s):
	default:
		var ok bool
		if ts, ok = sysfsWrite(s); !ok {
			return nil, false
		}
	}
	if ts == nil {
		// The forms of a kernel command line and modprobe.d, read as
		// persist reads them (an error: longer than any of them).
		args, err := persist.ParseArguments(s)
		if err != nil {
			return nil, false
		}
		ts = tried(args, false)
	}
	kept := ts[:0]
	for _, t := range ts {
		if weighed(t.Setting) {
			t.Outcome, t.FromLog = out, false
			kept = append(kept, t)
		}
	}
	return kept, true
}

// weighed reports whether the rules weigh the setting name when tried: a
// sysfs file, or a name of knownSettings (a module parameter's dashes
// read as underscores).
func weighed(name string) bool {
	name = moduleParam(name)
	return strings.HasPrefix(name, "/sys/") || slices.Contains(knownSettings(), name)
}

// commandLine reports whether s is a whole kernel command line: one with
// a boot loader's BOOT_IMAGE= or initrd=, or a root=.
func commandLine(s string) bool {
	for _, w := range strings.Fields(s) {
		if strings.HasPrefix(w, "BOOT_IMAGE=") || strings.HasPrefix(w, "initrd=") || strings.HasPrefix(w, "root=") {
			return true
		}
	}
	return false
}

// sysfsWrite reads "echo V > FILE", "echo V | sudo tee FILE..." (with an
// optional sudo, -n, -a, or "sudo sh -c '...'" around it) as FILE=V.
func sysfsWrite(s string) ([]Tried, bool) {
	s = strings.TrimPrefix(s, "sudo ")
	for _, sh := range []string{"sh -c ", "bash -c "} {
		if v, ok := strings.CutPrefix(s, sh); ok {
			s = unquote(strings.TrimSpace(v))
		}
	}
	s = strings.TrimPrefix(s, "sudo ")
	rest, ok := strings.CutPrefix(s, "echo ")
	if !ok {
		return nil, false
	}
	rest = strings.TrimPrefix(strings.TrimSpace(rest), "-n ")
	var value, files string
	if v, f, ok := strings.Cut(rest, "|"); ok {
		f = strings.TrimSpace(f)
		f = strings.TrimPrefix(f, "sudo ")
		f, ok = strings.CutPrefix(f, "tee ")
		if !ok {
			return nil, false
		}
		value, files = v, strings.TrimPrefix(strings.TrimSpace(f), "-a ")
	} else if v, f, ok := strings.Cut(rest, ">"); ok {
		value, files = v, strings.TrimPrefix(f, ">")
	} else {
		return nil, false
	}
	value = unquote(strings.TrimSpace(value))
	if modprobeFiles(files) && strings.HasPrefix(value, "options ") {
		// "echo options nvme_core ... > /etc/modprobe.d/nvme.conf": the
		// options line it writes, read as modprobe.d's.
		args, err := persist.ParseArguments(value)
		if err != nil {
			return nil, false
		}
		return tried(args, false), true
	}
	var out []Tried
	for _, f := range strings.Fields(files) {
		if !strings.HasPrefix(f, "/sys/") || value == "" || strings.ContainsAny(value+f, " \"'`$;|&<>(){}*?[]\\") {
			return nil, false
		}
		out = append(out, Tried{Setting: f, Value: value})
	}
	return out, len(out) > 0
}

// modprobeFiles reports whether every file of files is a modprobe.d
// configuration file (/etc/modprobe.d, /lib/modprobe.d, /usr/lib/modprobe.d,
// /run/modprobe.d).
func modprobeFiles(files string) bool {
	fs := strings.Fields(files)
	for _, f := range fs {
		if !strings.HasSuffix(f, ".conf") || !slices.ContainsFunc([]string{"/etc/modprobe.d/", "/lib/modprobe.d/", "/usr/lib/modprobe.d/", "/run/modprobe.d/"}, func(d string) bool { return strings.HasPrefix(f, d) }) {
			return false
		}
	}
	return len(fs) > 0
}

// unquote takes one pair of matching quotes off s.
func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}
