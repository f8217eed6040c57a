package diagnose

import (
	"fmt"
	"slices"
	"strings"
)

// knownSettings are the settings the rules weigh when tried: kernel and
// module parameters, a Raspberry Pi's config.txt key, the sysfs files
// named without their path, and the words of what else was tried
// (firmware, kernel, bios) and of hardware swaps.
func knownSettings() []string {
	return []string{
		"nvme_core.default_ps_max_latency_us", "nvme_core.shutdown_timeout", "nvme.quirks", "nvme.noacpi",
		"nvme.max_host_mem_size_mb", "pcie_aspm", "pcie_aspm.policy", "pcie_port_pm", "pci", "iommu", "amd_iommu",
		"intel_iommu", "mem_sleep_default", "usbcore.quirks", "dtparam",
		"d3cold_allowed", "control", "pm_qos_latency_tolerance_us",
		"firmware", "kernel", "bios", SwapOtherSlot, "other-machine", SwapOtherDrive, "replaced",
	}
}

// checkSpelling refuses a setting the kernel would not read as it was
// meant, with the one it likely means: a name that is not one the rules
// know but a letter or two off one ("pcie_apsm" for pcie_aspm), in
// another letter case ("PCIE_ASPM": the kernel's names are), cut short at
// a word ("nvme_core.default_ps_max_latency") or a module's parameter
// without its module ("default_ps_max_latency_us", which the kernel hands
// to init); and a value of a known setting that the kernel does not take
// (valueRefused: "pcie_aspm=of", "pcie_aspm=OFF"). A name far from all of
// them (another kernel parameter, a sysfs file with its path, a note) is
// kept: Diagnose notes it as weighed by no rule. w is the setting as
// given, said its outcome as given (":helped", or "").
func checkSpelling(t Tried, w, said string) error {
	name := moduleParam(t.Setting)
	if strings.HasPrefix(name, "/") || slices.Contains(knownSettings(), name) {
		// (A sysfs file's names are too many to tell a typo.)
		meant, why := valueRefused(t)
		if why == nil {
			return nil
		}
		fix := ""
		if meant != "" {
			fix = fmt.Sprintf(": did you mean %q?", t.Setting+"="+meant+said)
		}
		return fmt.Errorf("diagnose: %q: %w%s", w, why, fix)
	}
	best := nearSetting(name)
	if best == "" {
		return nil
	}
	// The one meant, with a value it takes.
	fix := best
	if meant, why := valueRefused(Tried{Setting: best, Value: t.Value}); why != nil && meant != "" {
		fix += "=" + meant
	} else if t.Value != "" || strings.Contains(w, "=") {
		fix += "=" + t.Value
	}
	return fmt.Errorf("diagnose: %q: unknown setting %q: did you mean %q?", w, name, fix+said)
}

// nearSetting returns the setting of knownSettings that name, not one of
// them, likely means, or "": one a letter or two off (short names are
// near too many others to guess), in another letter case, name cut short
// at a word, or name without the module of a module parameter.
func nearSetting(name string) string {
	best, dist := "", 3
	lower := strings.ToLower(name)
	var bare []string
	for _, k := range knownSettings() {
		if d := editDistance(lower, k); d < dist {
			best, dist = k, d
		}
		if len(name) >= 12 && strings.HasPrefix(k, lower+"_") {
			best, dist = k, 0
		}
		if _, param, ok := strings.Cut(k, "."); ok && param == lower {
			bare = append(bare, k)
		}
	}
	if len(bare) == 1 && len(name) >= 6 {
		return bare[0]
	}
	if best == "" || dist == 2 && min(len(name), len(best)) < 6 || dist == 1 && min(len(name), len(best)) < 4 {
		return ""
	}
	return best
}

// editDistance is the optimal string alignment distance of a and b (ASCII
// in effect: it counts bytes): insertions, deletions, substitutions and
// swaps of two neighbours. Names are never longer than 64 bytes: a longer
// one, or two whose lengths differ by 3 or more, is at least 3 away, which
// is all a caller needs to know.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 || len(a)-len(b) > 2 || len(b)-len(a) > 2 {
		return max(3, len(a)-len(b), len(b)-len(a))
	}
	var rows [3][65]int // the rows i-2, i-1 and i, in turn
	for j := range len(b) + 1 {
		rows[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		d, up, up2 := &rows[i%3], &rows[(i-1)%3], &rows[(i+1)%3]
		d[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[j] = min(up[j]+1, d[j-1]+1, up[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[j] = min(d[j], up2[j-2]+1)
			}
		}
	}
	return rows[len(a)%3][len(b)]
}
