package persist

import (
	"fmt"
	"github.com/nvmeapst/nvmeapst/apst/persist/udev"
	"strings"
)

// SysfsWrite is one write of a sysfs file by path, as a systemd-tmpfiles
// "w" line or a line of a tuned profile's sysfs section makes it.
//
// The zero SysfsWrite writes no path: Reaches reports that it reaches no
// drive, and CheckSysfsWrites finds no mistake in it.
type SysfsWrite struct {
	// Line is its 1-based line.
	Line int
	// Form is FormTmpfiles or FormTuned.
	Form Form
	// Path is the path as written, possibly a glob (* ? [...] within one
	// path component).
	Path string
	// Value is the value written.
	Value string
	// Text is the line as written.
	Text string
}

// ParseSysfsWrites finds the sysfs writes of a systemd-tmpfiles
// configuration ("w" and "w+" lines, with their ! - = ~ ^ modifiers) and of
// a tuned profile (PATH=VALUE lines of its sysfs section, or of a section
// with type=sysfs) in text; other lines are skipped. A text longer than
// MaxSettingSize is refused.
func ParseSysfsWrites(text string) ([]SysfsWrite, error) {
	if len(text) > MaxSettingSize {
		return nil, fmt.Errorf("persist: sysfs writes: %d bytes: more than the limit of %d", len(text), MaxSettingSize)
	}
	var out []SysfsWrite
	lines := strings.Split(text, "\n")
	sysfs := tunedSysfsSections(lines)
	section := ""
	for i, line := range lines {
		t := strings.TrimSpace(line)
		if t == "" || t[0] == '#' || t[0] == ';' {
			continue
		}
		if strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") {
			section = strings.TrimSpace(t[1 : len(t)-1])
			continue
		}
		if sysfs[section] {
			if k, v, ok := strings.Cut(t, "="); ok && strings.HasPrefix(strings.TrimSpace(k), "/sys/") {
				out = append(out, SysfsWrite{Line: i + 1, Form: FormTuned, Path: strings.TrimSpace(k), Value: strings.TrimSpace(v), Text: t})
			}
			continue
		}
		f := strings.Fields(t)
		if len(f) < 2 || !strings.HasPrefix(f[0], "w") || strings.Trim(f[0][1:], "+!-=~^") != "" {
			continue
		}
		w := SysfsWrite{Line: i + 1, Form: FormTmpfiles, Path: f[1], Text: t}
		if len(f) >= 7 {
			w.Value = strings.Join(f[6:], " ")
		}
		out = append(out, w)
	}
	return out, nil
}

// tunedSysfsSections names the sections of a tuned profile that are
// instances of its sysfs plugin: [sysfs], and any section whose type=
// option is sysfs ([nvme] with type=sysfs), wherever in it that option is.
func tunedSysfsSections(lines []string) map[string]bool {
	sections := map[string]bool{"sysfs": true}
	section := ""
	for _, line := range lines {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") {
			section = strings.TrimSpace(t[1 : len(t)-1])
			continue
		}
		if k, v, ok := strings.Cut(t, "="); ok && section != "" && strings.TrimSpace(k) == "type" {
			sections[section] = strings.TrimSpace(v) == "sysfs"
		}
	}
	return sections
}

// Reaches reports whether the write's path names drive d's controller
// directory /sys/class/nvme/NAME (its glob matching the name), and returns
// the path below it ("power/pm_qos_latency_tolerance_us",
// "device/power/pm_qos_latency_tolerance_us"). The path is read as
// systemd-tmpfiles and the kernel read it (// and /./ are /; a relative
// path is none; a tuned path ending in / names a directory). A path with a ".." component
// reaches no drive: [CheckSysfsWrites] reports it
// ([MistakeLeavesController]).
func (w SysfsWrite) Reaches(d udev.Drive) (rel string, ok bool) {
	comps, ok := w.components()
	if !ok || len(comps) < 5 || comps[0] != "sys" || comps[1] != "class" || comps[2] != "nvme" || !udev.Glob(comps[3], d.ControllerName()) {
		return "", false
	}
	if w.leavesController() {
		return "", false // CheckSysfsWrites says so
	}
	return strings.Join(comps[4:], "/"), true
}

// components splits the path as systemd-tmpfiles (path_simplify) and the
// kernel's lookup read it: empty and "." components are nothing. ok is
// false for a relative path, which tmpfiles refuses, and for a tuned path
// that ends in a slash, which tuned's glob matches only to a directory,
// never to an attribute file.
func (w SysfsWrite) components() (comps []string, ok bool) {
	if !strings.HasPrefix(w.Path, "/") || w.Form == FormTuned && strings.HasSuffix(w.Path, "/") {
		return nil, false
	}
	for _, c := range strings.Split(w.Path, "/") {
		if c != "" && c != "." {
			comps = append(comps, c)
		}
	}
	return comps, true
}

// globsControllers reports whether the path's controller component is a
// glob (nvme*), as a write meant for every controller has it.
func (w SysfsWrite) globsControllers() bool {
	comps, ok := w.components()
	return ok && len(comps) > 3 && strings.ContainsAny(comps[3], "*?[")
}

// leavesController reports whether the path holds a ".." component: it
// resolves from the controller's device directory (/sys/class/nvme/nvmeN
// is a symbolic link), somewhere outside it.
func (w SysfsWrite) leavesController() bool {
	for _, c := range strings.Split(w.Path, "/") {
		if c == ".." {
			return true
		}
	}
	return false
}

const explainLeavesController = "the path holds a \"..\" component, so it leaves the controller's directory: /sys/class/nvme/nvmeN is a symbolic link to the device's directory, \"..\" climbs from there, and the line writes wherever that ends (possibly outside /sys); no drive is checked against it. Name the attribute by its plain path: /sys/class/nvme/nvmeN/power/pm_qos_latency_tolerance_us"

// CheckSysfsWrites looks for the mistakes in sysfs writes: the PCI
// function's device/power/ path, and 0 written to every controller (a glob
// over the controller names).
func CheckSysfsWrites(ws []SysfsWrite) []Finding {
	var out []Finding
	for _, w := range ws {
		if strings.HasPrefix(strings.TrimLeft(w.Path, "/"), "sys/class/nvme/") && w.leavesController() {
			out = append(out, Finding{Mistake: MistakeLeavesController, Line: w.Line, Text: w.Text, Explanation: explainLeavesController})
			continue
		}
		rel, ok := w.Reaches(udev.Drive{Name: "nvme0"})
		if !ok {
			continue
		}
		switch {
		case isDeviceAttr(rel):
			out = append(out, Finding{Mistake: MistakeDevicePath, Line: w.Line, Text: w.Text, Explanation: explainDevicePath})
		case rel == ToleranceAttr && w.Value == "0" && w.globsControllers():
			out = append(out, Finding{Mistake: MistakeGlobalZero, Line: w.Line, Text: w.Text, Explanation: explainGlobalZero("this line")})
		}
	}
	return out
}
