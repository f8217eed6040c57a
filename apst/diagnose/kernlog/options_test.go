package kernlog_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// Options.Addresses in a form the kernel does not print would match no
// line, and the log's address-keyed lines would silently join no
// controller: Read refuses them before reading, naming the entry.
func TestOptionsAddressesRefused(t *testing.T) {
	const log = "[    2.0] nvme 0000:04:00.0: Unable to change power state from D3cold to D0, device inaccessible\n"
	for _, tc := range []struct {
		addrs map[string]string
		want  string
	}{
		{map[string]string{"04:00.0": "nvme0"}, `Addresses key "04:00.0" is not a PCI address`},
		{map[string]string{"0000:04:00.8": "nvme0"}, `"0000:04:00.8" is not a PCI address`},
		{map[string]string{"0000:04:00.0 ": "nvme0"}, `"0000:04:00.0 " is not a PCI address`},
		{map[string]string{"0000:0a:20.0": "nvme0"}, `"0000:0a:20.0" is not a PCI address (want DDDD:BB:DD.F as the kernel prints it, a device 00 to 1f`},
		{map[string]string{"0000:0a:ff.0": "nvme0"}, `"0000:0a:ff.0" is not a PCI address`},
		{map[string]string{"0000:0A:00.0": "nvme0"}, `Addresses key "0000:0A:00.0" has upper-case hex (the kernel prints lower case)`},
		{map[string]string{"0000:04:00.0": "nvme0n1"}, `Addresses[0000:04:00.0] = "nvme0n1" is not a controller name`},
		{map[string]string{"0000:04:00.0": ""}, `Addresses[0000:04:00.0] = "" is not a controller name`},
		{map[string]string{"0000:04:00.0": "nvme0", "zz": "nvme1", "yy": "x"}, `Addresses key "yy"`}, // the first in key order
		{tooMany(), "Addresses holds 4097 entries (at most 4096)"},
	} {
		l, err := kernlog.ReadString(log, kernlog.Options{Addresses: tc.addrs})
		require.ErrorIs(t, err, kernlog.ErrInvalidOptions)
		assert.Contains(t, err.Error(), tc.want)
		require.NotNil(t, l, "the Log is empty, never nil")
		assert.Zero(t, l.Lines)
	}
	_, err := kernlog.ReadString(log, kernlog.Options{Gap: -time.Hour})
	assert.ErrorIs(t, err, kernlog.ErrInvalidOptions, "a negative Gap")
	assert.ErrorContains(t, err, "Gap -1h0m0s is negative")
	// As the kernel prints them (a VMD domain of five digits too, the last
	// device of a bus), they join.
	for _, a := range []string{"0000:04:00.0", "10000:e1:00.0", "0000:00:1f.7"} {
		l, err := kernlog.ReadString(fmt.Sprintf("[    2.0] nvme %s: Unable to change power state from D3cold to D0, device inaccessible\n", a),
			kernlog.Options{Addresses: map[string]string{a: "nvme3"}})
		require.NoError(t, err, a)
		require.Len(t, l.Incidents, 1, a)
		assert.Equal(t, "nvme3", l.Incidents[0].Controller, a)
	}
}

func tooMany() map[string]string {
	m := map[string]string{}
	for i := range kernlog.MaxAddresses + 1 {
		m[fmt.Sprintf("0000:%02x:%02x.%d", i/256, i%256/8, i%8)] = "nvme0"
	}
	return m
}

// A nil Log knows no bridge, as the zero Log does.
func TestNilLogBelow(t *testing.T) {
	below, known := (*kernlog.Log)(nil).Below("0000:00:1c.0", "0000:04:00.0")
	assert.False(t, below)
	assert.False(t, known)
}
