package powerstate_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

func TestPowerString(t *testing.T) {
	for _, tc := range []struct {
		p    powerstate.Power
		s    string
		uw   uint64
		watt float64
	}{
		{powerstate.MaxPowerOf(70, true), "0.0070W", 7000, 0.007},
		{powerstate.MaxPowerOf(600, false), "6.00W", 6000000, 6},
		{powerstate.MaxPowerOf(45, false), "0.45W", 450000, 0.45},
		{powerstate.MaxPowerOf(65535, true), "6.5535W", 6553500, 6.5535},
		{powerstate.MaxPowerOf(0, false), "0.00W", 0, 0},
		{powerstate.Power{Units: 5, Scale: powerstate.ScaleNotReported}, "-", 0, 0},
		{powerstate.Power{Units: 5, Scale: powerstate.ScaleReserved}, "reserved", 0, 0},
	} {
		assert.Equal(t, tc.s, tc.p.String())
		assert.Equal(t, tc.uw, tc.p.MicroWatts(), tc.s)
		assert.InDelta(t, tc.watt, tc.p.Watts(), 1e-9, tc.s)
	}
	assert.True(t, powerstate.MaxPowerOf(1, true).Reported())
	assert.False(t, powerstate.Power{}.Reported())
}

func TestVersion(t *testing.T) {
	assert.Equal(t, "1.3", powerstate.NewVersion(1, 3, 0).String())
	assert.Equal(t, "1.2.1", powerstate.NewVersion(1, 2, 1).String())
	assert.Equal(t, "0", powerstate.Version(0).String())
	assert.Equal(t, powerstate.Version(0x20000), powerstate.NewVersion(2, 0, 0))
}

func TestFieldsAndFormat(t *testing.T) {
	assert.Equal(t, "mn,npss", (powerstate.FieldModel | powerstate.FieldNPSS).String())
	assert.Equal(t, "smartctl-json", powerstate.FormatSmartctlJSON.String())
	var c powerstate.Controller
	assert.True(t, c.APSTAKnown(), "a controller built in code is fully known")
	c.Missing = powerstate.FieldsAll &^ powerstate.FieldModel
	assert.False(t, c.APSTAKnown())
	assert.True(t, c.APSTSupported(), "unknown APSTA counts as supported")
}
