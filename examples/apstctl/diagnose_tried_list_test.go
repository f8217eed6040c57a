package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// diagnose lists, of the log's command line, the settings a rule weighs
// with a value it weighs, in the text and in -o json alike: root= and
// quiet, a Proxmox host's intel_iommu=on, a Raspberry Pi 5's
// pci=pcie_bus_safe were not tried against the failure.
func TestDiagnoseTriedFromTheLogListsWhatIsWeighed(t *testing.T) {
	const failure = "[ 4000.000000] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n"
	for _, tc := range []struct {
		cmdline string
		want    []string // setting=value, in order
	}{
		{"BOOT_IMAGE=/boot/vmlinuz-6.8.12-4-pve root=/dev/mapper/pve-root ro quiet intel_iommu=on", nil},
		{"reboot=w coherent_pool=1M pci=pcie_bus_safe root=PARTUUID=8a438930-02 rootwait", nil},
		{"BOOT_IMAGE=/boot/vmlinuz root=UUID=1 ro quiet iommu=pt pcie_aspm=off", []string{"iommu=pt", "pcie_aspm=off"}},
		{"root=/dev/sda2 pci=nomsi amd_iommu=off", []string{"pci=nomsi", "amd_iommu=off"}},
		{"root=/dev/sda2 pci=noaer,nomsi", nil}, // the rule weighs single values only
		{"root=/dev/sda2 nvme-core.default_ps_max_latency_us=0 mem_sleep_default=deep", []string{"nvme-core.default_ps_max_latency_us=0", "mem_sleep_default=deep"}},
	} {
		p := filepath.Join(t.TempDir(), "kern.log")
		require.NoError(t, os.WriteFile(p, []byte("[    0.000000] Kernel command line: "+tc.cmdline+"\n"+failure), 0o644))
		code, stdout, stderr := apstctl(t, nil, "diagnose", "--log", p)
		require.Equal(t, 0, code, stderr)
		var text []string
		for _, l := range strings.Split(stdout, "\n") {
			if v, ok := strings.CutPrefix(l, "tried: "); ok {
				for _, s := range strings.Split(v, "; ") {
					text = append(text, strings.TrimSuffix(s, " (did not help) [the log's command line]"))
				}
			}
		}
		assert.Equal(t, tc.want, text, tc.cmdline)
		code, stdout, stderr = apstctl(t, nil, "diagnose", "--log", p, "-o", "json")
		require.Equal(t, 0, code, stderr)
		var d struct {
			Tried []struct{ Setting, Value string } `json:"tried"`
		}
		require.NoError(t, json.Unmarshal([]byte(stdout), &d))
		var js []string
		for _, x := range d.Tried {
			js = append(js, x.Setting+"="+x.Value)
		}
		assert.Equal(t, tc.want, js, "-o json: %s", tc.cmdline)
	}
}

// A known issue that needs what the log cannot show (a Realtek card
// reader) says so in the text, as -o json's "needs" does.
func TestDiagnoseKnownIssueSaysWhatItNeeds(t *testing.T) {
	const log = "[    0.000000] Linux version 6.5.0-14-generic (buildd@lcy02-amd64-031) #14~22.04.1-Ubuntu SMP PREEMPT_DYNAMIC Mon Nov 20 18:15:30 UTC 2 (Ubuntu 6.5.0-14.14~22.04.1-generic 6.5.3)\n" +
		"[    1.000000] nvme nvme1: pci function 0000:02:00.0\n" +
		"[  100.000000] nvme 0000:02:00.0: Unable to change power state from D3cold to D0, device inaccessible\n" +
		"[  100.100000] nvme nvme1: Removing after probe failure status: -19\n"
	p := filepath.Join(t.TempDir(), "kern.log")
	require.NoError(t, os.WriteFile(p, []byte(log), 0o644))
	code, stdout, stderr := apstctl(t, nil, "diagnose", "--log", p)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "\n  rtsx-petxcfg-6-1-46 (platform): ")
	assert.Contains(t, stdout, "\n      applies only to a laptop with a Realtek PCIe card reader driven by rtsx_pci (")
}
