package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// --pci-id is the capture's PCI ID whatever --quirks says: an invalid one
// is refused, and a --with quirks=tables (which looks the tables up again)
// uses it, instead of inferring the ID from the model and telling the user
// to give the --pci-id they gave.
func TestPCIIDBesideQuirks(t *testing.T) {
	for _, tc := range []struct {
		name    string
		args    []string
		code    int
		want    string // in standard error, or in standard output when code is exitOK
		notWant string // nowhere
	}{
		{"invalid ID refused", []string{"plan", intelImage, "--quirks", "none", "--pci-id", "garbage"},
			exitUsage, "--pci-id garbage: ", ""},
		{"invalid ID refused, sweep", []string{"sweep", intelImage, "--quirks", "no-apst", "--pci-id", "8086"},
			exitUsage, "--pci-id 8086: ", ""},
		{"tables of a --with use it", []string{"compare", intelImage, "--quirks", "none", "--pci-id", "8086:f1a5",
			"--with", "quirks=tables", "--with", "kernel=4.11"},
			exitOK, "quirks no-deepest-ps", "was inferred from model"},
		{"tables of a --with use it, replay", []string{"replay", intelImage, "testdata/replay/intel-600p-run.plain",
			"--quirks", "none", "--pci-id", "8086:f1a5", "--with", "quirks=tables"},
			exitOK, "quirks no-deepest-ps", "give --pci-id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := apstctl(t, nil, tc.args...)
			assert.Equal(t, tc.code, code, errOut)
			if tc.code == exitOK {
				assert.Contains(t, out, tc.want)
			} else {
				assert.Empty(t, out)
				assert.Contains(t, errOut, tc.want)
			}
			if tc.notWant != "" {
				assert.NotContains(t, out+errOut, tc.notWant)
			}
		})
	}
}
