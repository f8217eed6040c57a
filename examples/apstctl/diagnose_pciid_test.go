package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// diagnose --log --id-ctrl warns that a capture carries no PCI ID and says
// which flag settles it: diagnose takes that --pci-id, beside --id-ctrl
// only, and then warns no more.
func TestDiagnosePCIID(t *testing.T) {
	const log = "../../apst/diagnose/testdata/apst.log"
	adata := corpusDir + "/smartctl/ADATA_AGAMMIXS70B-1T-CS_3.2.F.2A.txt"
	for _, tc := range []struct {
		name    string
		args    []string
		code    int
		want    string // in standard output, or in standard error when code is not exitOK
		notWant string
	}{
		{"inferred, settled", []string{"--id-ctrl", intelImage, "--pci-id", "8086:f1a5"}, exitOK, "note: a pasted log", "warning: the capture carries no PCI ID"},
		{"unchecked, settled", []string{"--id-ctrl", adata, "--pci-id", "1cc1:8201"}, exitOK, "quirks the model's tables give (no-deepest-ps)", "PCI quirks unchecked"},
		{"unchecked, another ID", []string{"--id-ctrl", adata, "--pci-id", "1cc1:5766"}, exitOK, "quirks the model's tables give (none)", "PCI quirks unchecked"},
		{"unsettled: says the flag", []string{"--id-ctrl", intelImage}, exitOK, "(give --pci-id to override)", ""},
		{"without --id-ctrl", []string{"--pci-id", "8086:f1a5"}, exitUsage, "apstctl diagnose: --pci-id goes with --id-ctrl", ""},
		{"invalid", []string{"--id-ctrl", intelImage, "--pci-id", "zz"}, exitUsage, "apstctl diagnose: --pci-id zz: ", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := apstctl(t, nil, append([]string{"diagnose", "--log", log}, tc.args...)...)
			assert.Equal(t, tc.code, code, errOut)
			if tc.code == exitOK {
				assert.Contains(t, out, tc.want)
			} else {
				assert.Contains(t, errOut, tc.want)
			}
			if tc.notWant != "" {
				assert.NotContains(t, out+errOut, tc.notWant)
			}
		})
	}
	// The JSON's assumptions say the same.
	code, out, errOut := apstctl(t, nil, "diagnose", "--log", log, "--id-ctrl", intelImage, "--pci-id", "8086:f1a5", "-o", "json")
	require.Equal(t, exitOK, code, errOut)
	var v struct {
		Assumptions struct {
			PCIIDInferred *json.RawMessage `json:"pci_id_inferred"`
		} `json:"assumptions"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	assert.Nil(t, v.Assumptions.PCIIDInferred)
}
