package kernlog_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// Relevant keeps the lines Read can use, the second half of a wrapped
// message and the lines of a journal's own included, so that a log cut
// down to them reads as the whole log does.
func TestRelevant(t *testing.T) {
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"[   40.994094] nvme nvme0: controller is down; will reset:", true},
		{"CSTS=0xffffffff, PCI_STATUS=0x10", true},
		{"> device inaccessible", true},
		{"Unable to change power state from D3cold to D0, device inaccessible", true},
		{"[  147.319976] PM: suspend entry (deep)", true},
		{"[    0.035200] PCIe ASPM is disabled", true},
		{`[  104.774723] irq 21: nobody cared (try booting with the "irqpoll" option)`, true},
		{"[  104.774789] Disabling IRQ #21", true},
		{`{"_TRANSPORT":"kernel","MESSAGE":[110,118,109,101]}`, true},
		{"-- Boot a0d3f7e9ebb24b3caddaf45891a22066 --", true},
		{"[586740.080470] vfio-pci 0000:01:00.0: timed out waiting for pending transaction", true},
		{"[    1.100000] usb 1-1: new high-speed USB device number 2 using xhci_hcd", false},
		{"[  115.691139] sd 0:0:0:0: [sda] tag#19 uas_eh_abort_handler 0 uas-tag 1 inflight: CMD IN", true},
		{"[  115.864065] usb 2-1: reset SuperSpeed Gen 1 USB device number 2 using xhci_hcd", true},
		{"blk_update_request: I/O error, dev sdc, sector 337245504 op 0x1:(WRITE) flags 0x4700", true},
		{"[    0.412400] pci 0000:00:1d.0: PME# supported from D0 D3hot D3cold", false},
		{"nvme nvme0: controller is down\x00", false},
	} {
		assert.Equal(t, tc.want, kernlog.Relevant([]byte(tc.line)), tc.line)
	}

	// The relevant lines of a wrapped log read as the log does.
	var kept strings.Builder
	err := kernlog.Lines(context.Background(), strings.NewReader(rockchip+radxa), func(b []byte) {
		if kernlog.Relevant(b) {
			kept.Write(b)
			kept.WriteByte('\n')
		}
	})
	require.NoError(t, err)
	all, err := kernlog.ReadString(rockchip+radxa, kernlog.Options{})
	require.NoError(t, err)
	cut, err := kernlog.ReadString(kept.String(), kernlog.Options{})
	require.NoError(t, err)
	assert.Equal(t, essenceOf(all), essenceOf(cut))
}
