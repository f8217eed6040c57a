package diagnose

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
)

// valueKind is how the kernel reads the value of a setting tried.
type valueKind uint8

const (
	// freeValue: not the kernel's (a Raspberry Pi's config.txt, the words
	// of a swap or an update), or a setting no rule weighs: compared as
	// given, letter case aside.
	freeValue valueKind = iota
	// listValue: a kernel parameter whose comma-separated options the
	// kernel compares exactly (strcmp, strncmp), too many and too
	// architecture-bound to list: pci= (drivers/pci/pci.c pci_setup),
	// iommu= (arch/x86/kernel/pci-dma.c), amd_iommu=, intel_iommu=.
	listValue
	// wordValue: one of words, compared exactly: a __setup handler's
	// strcmp, a sysfs store's sysfs_streq (which allows only a trailing
	// newline), sysfs_match_string. Another word is ignored (a __setup)
	// or refused (-EINVAL).
	wordValue
	// ulongValue, uintValue, byteValue: a module parameter of type ulong,
	// uint or byte, read by param_set_ulong, param_set_uint and
	// param_set_byte (kernel/params.c) with kstrtoul, kstrtouint and
	// kstrtou8 in base 0 (lib/kstrtox.c): an optional '+', then decimal,
	// 0x hexadecimal or, after a leading 0, octal ("00" and "0x0" are 0,
	// "08" is refused); nothing may follow but one newline. A value out
	// of the type's range is refused.
	ulongValue
	uintValue
	byteValue
	// boolValue: kstrtobool (a bool module parameter's param_set_bool, a
	// link's ASPM sysfs files, drivers/pci/pcie/aspm.c): its first letter
	// y, t or 1 is true, n, f or 0 false, "on" true and "of[f]" false; a
	// bool module parameter given bare ("nvme.noacpi") is true.
	boolValue
	// flagValue: a number read by kstrtoul in base 0 whose zero is off and
	// any other value on: d3cold_allowed_store (drivers/pci/pci-sysfs.c).
	flagValue
	// latencyValue: power/pm_qos_latency_tolerance_us
	// (drivers/base/power/sysfs.c; kernel-apst.md §6): kstrtos32 in base
	// 0, at least 0, or "auto" (no constraint) or "any" (S32_MAX).
	latencyValue
	// quirksValue: nvme.quirks= (Linux 7.0; kernel-apst.md §13):
	// apst.ParseQuirkOverrides.
	quirksValue
)

// setting is how the kernel reads one setting's value: its kind and, for
// a wordValue, the words it takes.
type setting struct {
	kind  valueKind
	words []string
}

// settingOf says how the kernel reads the value of the setting name (a
// module parameter's dashes read as underscores; a sysfs file by its base
// name): kernel-apst.md §2 gives nvme_core's parameters and their types,
// §6 the latency tolerance file, §15 pcie_aspm and pcie_port_pm; the
// others are from the handlers named. A setting no rule weighs is a
// freeValue.
func settingOf(name string) setting {
	if strings.HasPrefix(name, "/") {
		name = name[strings.LastIndexByte(name, '/')+1:]
	}
	switch moduleParam(name) {
	case "nvme_core.default_ps_max_latency_us": // module_param(..., ulong, 0644)
		return setting{kind: ulongValue}
	case "nvme_core.shutdown_timeout": // module_param(..., byte, 0644)
		return setting{kind: byteValue}
	case "nvme.max_host_mem_size_mb": // module_param(..., uint, 0444)
		return setting{kind: uintValue}
	case "nvme.noacpi": // module_param(..., bool, 0444)
		return setting{kind: boolValue}
	case "nvme.quirks":
		return setting{kind: quirksValue}
	case "pcie_aspm", "pcie_port_pm":
		// __setup("pcie_aspm=", pcie_aspm_disable) in
		// drivers/pci/pcie/aspm.c, __setup("pcie_port_pm=",
		// pcie_port_pm_setup) in drivers/pci/pcie/portdrv.c: strcmp
		// against "off" and "force", anything else ignored.
		return setting{kind: wordValue, words: []string{"off", "force"}}
	case "pcie_aspm.policy":
		// pcie_aspm_set_policy: sysfs_match_string(policy_str, val).
		return setting{kind: wordValue, words: []string{"default", "performance", "powersave", "powersupersave"}}
	case "mem_sleep_default":
		// mem_sleep_default_setup (kernel/power/suspend.c): strcmp
		// against mem_sleep_labels.
		return setting{kind: wordValue, words: []string{"s2idle", "shallow", "deep"}}
	case "control":
		// power/control: control_store's sysfs_streq
		// (drivers/base/power/sysfs.c).
		return setting{kind: wordValue, words: []string{"auto", "on"}}
	case "pm_qos_latency_tolerance_us":
		return setting{kind: latencyValue}
	case "d3cold_allowed":
		return setting{kind: flagValue}
	case "clkpm", "l0s_aspm", "l1_aspm", "l1_1_aspm", "l1_2_aspm", "l1_1_pcipm", "l1_2_pcipm":
		return setting{kind: boolValue}
	case "pci", "iommu", "amd_iommu", "intel_iommu":
		return setting{kind: listValue}
	}
	return setting{kind: freeValue}
}

// kernelValue reads v, the value of setting name, as the kernel reads it:
// the value in a form that compares equal for values the kernel takes as
// one ("0x0" and "00" are "0"; "y" and "1" are "1"), and whether the
// kernel takes it at all (false for "OFF" of pcie_aspm, which its strcmp
// ignores, or "abc" for a number). A freeValue's form is v in lower case.
func kernelValue(name, v string) (string, bool) {
	st := settingOf(name)
	switch st.kind {
	case listValue:
		return v, v != ""
	case wordValue:
		for _, w := range st.words {
			if v == w {
				return v, true
			}
		}
		return v, false
	case ulongValue, uintValue, byteValue:
		bits := 64
		if st.kind == uintValue {
			bits = 32
		} else if st.kind == byteValue {
			bits = 8
		}
		n, ok := kstrtoull(strings.TrimPrefix(v, "+"), bits)
		return strconv.FormatUint(n, 10), ok
	case flagValue:
		n, ok := kstrtoull(strings.TrimPrefix(v, "+"), 64)
		return strconv.FormatBool(n != 0), ok
	case boolValue:
		if v == "" {
			return "true", true // param_set_bool: no value is "1"
		}
		b, ok := kstrtobool(v)
		return strconv.FormatBool(b), ok
	case latencyValue:
		if v == "auto" || v == "any" {
			if v == "any" {
				v = "2147483647" // S32_MAX: "any" reads back as it
			}
			return v, true
		}
		neg := strings.HasPrefix(v, "-")
		n, ok := kstrtoull(strings.TrimPrefix(strings.TrimPrefix(v, "-"), "+"), 31)
		if neg && n != 0 || neg && strings.HasPrefix(v, "-+") {
			return v, false // a negative bound is -EINVAL
		}
		return strconv.FormatUint(n, 10), ok
	case quirksValue:
		_, err := apst.ParseQuirkOverrides(v)
		return strings.ToLower(v), err == nil
	}
	return strings.ToLower(v), true
}

// kstrtoull reads s as lib/kstrtox.c's _kstrtoull does in base 0 (its
// '+' already taken off): 0x and a hexadecimal digit start a hexadecimal
// number, another leading 0 an octal one, anything else a decimal one;
// every byte but one final newline must be a digit of the base, and the
// number must fit in bits.
func kstrtoull(s string, bits int) (uint64, bool) {
	s = strings.TrimSuffix(s, "\n")
	base := 10
	switch {
	case len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && isHex(s[2]):
		base, s = 16, s[2:]
	case len(s) > 0 && s[0] == '0':
		base = 8
	}
	if s == "" || s[0] == '+' || s[0] == '-' {
		return 0, false // ParseUint would take neither sign; nor does the kernel here
	}
	n, err := strconv.ParseUint(s, base, bits)
	return n, err == nil
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// kstrtobool reads s as lib/kstrtox.c's kstrtobool does: by its first
// letter or, after an 'o', its second.
func kstrtobool(s string) (bool, bool) {
	if s == "" {
		return false, false
	}
	switch s[0] {
	case 'y', 'Y', 't', 'T', '1':
		return true, true
	case 'n', 'N', 'f', 'F', '0':
		return false, true
	case 'o', 'O':
		if len(s) > 1 {
			switch s[1] {
			case 'n', 'N':
				return true, true
			case 'f', 'F':
				return false, true
			}
		}
	}
	return false, false
}

// sameValue reports whether the kernel reads the value got of setting
// name as want: "0x0" is the latency bound 0, "OFF" is no pcie_aspm=off.
func sameValue(name, got, want string) bool {
	g, ok := kernelValue(name, got)
	w, _ := kernelValue(name, want)
	return ok && g == w
}

// valueRefused says the value t likely means ("" when none is near) and
// why the kernel does not take the value of t (nil when it takes it).
func valueRefused(t Tried) (meant string, why error) {
	if _, ok := kernelValue(t.Setting, t.Value); ok {
		return "", nil
	}
	name := moduleParam(t.Setting)
	st := settingOf(t.Setting)
	switch st.kind {
	case wordValue:
		dist := 3
		for _, w := range st.words {
			if d := editDistance(strings.ToLower(t.Value), w); d < dist && (d < 2 || len(w) > 3) {
				meant, dist = w, d
			}
		}
		return meant, fmt.Errorf("the kernel takes %s=%s, compared exactly, and ignores %s=%q", name, strings.Join(st.words, " or "), name, t.Value)
	case ulongValue, uintValue, byteValue, flagValue:
		return "", fmt.Errorf("the kernel reads %s as an unsigned number (decimal, 0x hexadecimal or 0 octal: kstrtoul) and does not take %q", name, t.Value)
	case boolValue:
		return "", fmt.Errorf("the kernel reads %s as 1 or 0 (y or n, on or off: kstrtobool) and does not take %q", name, t.Value)
	case latencyValue:
		return "", fmt.Errorf("the kernel takes for %s a number from 0 to 2147483647, auto or any, and refuses %q", name, t.Value)
	case quirksValue:
		_, err := apst.ParseQuirkOverrides(t.Value)
		return "", fmt.Errorf("the kernel does not take it (7.0 to 7.2 log and ignore it, 7.3 refuses it): %w", err)
	}
	return "", fmt.Errorf("the kernel does not take %s=%q", name, t.Value)
}
