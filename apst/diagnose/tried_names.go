package diagnose

import (
	"fmt"
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

// checkSpelling refuses a setting whose name is not one the rules know
// but is a letter or two off one ("pcie_apsm" for pcie_aspm): a typo that
// would be listed as tried and weigh nothing. A name far from all of them
// (another kernel parameter, a sysfs file with its path, a note) is kept:
// the rules look only at those they know. w is the setting as given.
func checkSpelling(t Tried, w string) error {
	name := moduleParam(t.Setting)
	if strings.HasPrefix(name, "/") {
		return nil // a sysfs file, whose names are too many to tell a typo
	}
	best, dist := "", 3
	for _, k := range knownSettings() {
		if k == name {
			return nil
		}
		if d := editDistance(strings.ToLower(name), k); d < dist {
			best, dist = k, d
		}
	}
	if best == "" || dist == 2 && min(len(name), len(best)) < 6 || dist == 1 && min(len(name), len(best)) < 4 {
		return nil // short names are near too many others to guess
	}
	return fmt.Errorf("diagnose: %q: unknown setting %q: did you mean %q?", w, name, best+strings.TrimPrefix(w, name))
}

// editDistance is the optimal string alignment distance of a and b (ASCII
// in effect: it counts bytes): insertions, deletions, substitutions and
// swaps of two neighbours.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return max(len(a), len(b)) // too long to be one of the names
	}
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
