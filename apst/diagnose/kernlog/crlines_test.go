package kernlog_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// crLog is a real failure's lines (the spec's §15 shapes) ending in LF.
const crLog = `[  217.417507] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff
[  217.417514] nvme nvme0: Does your device have a faulty power saving mode enabled?
[  217.417517] nvme nvme0: Try "nvme_core.default_ps_max_latency_us=0 pcie_aspm=off pcie_port_pm=off" and report a bug
[  217.461245] nvme 0000:04:00.0: Unable to change power state from D3cold to D0, device inaccessible
[  217.461911] nvme nvme0: Removing after probe failure status: -19
`

// A log whose lines end in CR alone (a classic Mac text, a terminal
// capture saved raw) reads line by line, to what its LF copy reads to;
// Lines sees the same lines. A CR inside an LF-ended line is left to the
// line (a console's carriage return), not made a line end.
func TestLinesEndingInCR(t *testing.T) {
	want, err := kernlog.ReadString(crLog, kernlog.Options{})
	require.NoError(t, err)
	require.NotEmpty(t, want.Incidents)
	for name, text := range map[string]string{
		"cr":            strings.ReplaceAll(crLog, "\n", "\r"),
		"cr, none last": strings.TrimSuffix(strings.ReplaceAll(crLog, "\n", "\r"), "\r"),
	} {
		got, err := kernlog.ReadString(text, kernlog.Options{})
		require.NoError(t, err, name)
		assert.Equal(t, want.Lines, got.Lines, name)
		assert.Equal(t, want.Incidents, got.Incidents, name)
		var lines []string
		require.NoError(t, kernlog.Lines(context.Background(), strings.NewReader(text), func(l []byte) { lines = append(lines, strings.TrimRight(string(l), "\r\n")) }), name)
		assert.Equal(t, strings.Split(strings.TrimSuffix(crLog, "\n"), "\n"), lines, name)
	}
	var lines []string
	require.NoError(t, kernlog.Lines(context.Background(), strings.NewReader("a\rb\nc\n"), func(l []byte) { lines = append(lines, string(l)) }))
	assert.Equal(t, []string{"a\rb", "c"}, lines)
}
