package ioctl_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nvmeapst/nvmeapst/ioctl"
)

// A nil or zero Device answers every call with an error (or no path),
// never a panic.
func TestNilAndZeroDevice(t *testing.T) {
	for name, d := range map[string]*ioctl.Device{"nil": nil, "zero": {}} {
		assert.Empty(t, d.Path(), name)
		_, err := d.IdentifyController(context.Background())
		assert.Error(t, err, name)
		_, err = d.GetAPST(context.Background())
		assert.Error(t, err, name)
		_, err = d.HealthLog(context.Background())
		assert.Error(t, err, name)
		assert.Error(t, d.Close(), name)
	}
}
