package apst_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nvmeapst/nvmeapst/apst"
)

func TestDecodePowerManagement(t *testing.T) {
	for _, tc := range []struct {
		dw0  uint32
		want apst.PowerManagement
	}{
		{0, apst.PowerManagement{}},
		{0x04, apst.PowerManagement{State: 4}},
		{0x1f, apst.PowerManagement{State: 31}},
		{0x23, apst.PowerManagement{State: 3, WorkloadHint: 1}},
		{0xffffff43, apst.PowerManagement{State: 3, WorkloadHint: 2}},
	} {
		assert.Equal(t, tc.want, apst.DecodePowerManagement(tc.dw0), "%#x", tc.dw0)
	}
}
