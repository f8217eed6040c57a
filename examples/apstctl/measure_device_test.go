package main

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
)

// A device argument that is no namespace's name (a controller, a path of
// native multipath, a file) is a usage error, refused before the machine
// is looked at: exit 2 and the pointer to the help. A well-formed name
// whose device is absent is the machine's failure: exit 1.
func TestMeasureDeviceName(t *testing.T) {
	root := copyFixture(t)
	opened := 0
	live := fakeLiveSystem(root, testfixture.ReadFile(t, testfixture.Samsung990EVOPlus))
	hooks := &measureHooks{liveSystem: func() (*nvmeapst.System, error) { opened++; return live() }}
	for _, tc := range []struct {
		arg, want string
	}{
		{"nvme0", `"nvme0" is not an NVMe namespace block device (want nvmeNnM, e.g. nvme0n1); that is a controller: give one of its namespaces (nvme0n1; ls /sys/block lists them)`},
		{"/dev/nvme2", `"/dev/nvme2" is not an NVMe namespace block device (want nvmeNnM, e.g. nvme0n1); that is a controller: give one of its namespaces (nvme2n1;`},
		{"../../etc/passwd", `"../../etc/passwd" is not an NVMe namespace block device (want nvmeNnM, e.g. nvme0n1)`},
		{"nvme0c1n2", `"nvme0c1n2" is not an NVMe namespace block device (want nvmeNnM, e.g. nvme0n1); that is a path of native multipath: give its namespace, nvme0n2`},
		{"nvme0n", `"nvme0n" is not an NVMe namespace block device`},
		{"nvme12345678901n1", `"nvme12345678901n1" is not an NVMe namespace block device`},
		{"sda", `"sda" is not an NVMe namespace block device`},
		{"nvme0n1\x1b[2J", `"nvme0n1\x1b[2J" is not an NVMe namespace block device`},
	} {
		t.Run(tc.arg, func(t *testing.T) {
			code, out, errOut := measureRun(t, context.Background(), hooks, tc.arg)
			assert.Equal(t, exitUsage, code, errOut)
			assert.Empty(t, out)
			assert.Contains(t, errOut, "apstctl measure: "+tc.want)
			assert.Contains(t, errOut, "\nsee 'apstctl measure --help'\n")
			assert.Zero(t, opened, "the machine is not looked at")
		})
	}
	// A namespace no controller of the machine serves: the machine's.
	code, out, errOut := measureRun(t, context.Background(), hooks, "nvme9n1")
	assert.Equal(t, exitFailure, code, errOut)
	assert.Empty(t, out)
	assert.NotContains(t, errOut, "--help")
	assert.Equal(t, 1, opened)
}
