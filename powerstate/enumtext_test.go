package powerstate_test

import (
	"encoding"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

func TestEnumText(t *testing.T) {
	type enum interface {
		encoding.TextMarshaler
		String() string
	}
	check := func(v enum, back encoding.TextUnmarshaler, get func() any) {
		t.Helper()
		b, err := v.MarshalText()
		require.NoError(t, err, v.String())
		assert.Equal(t, v.String(), string(b))
		require.NoError(t, back.UnmarshalText(b))
		assert.Equal(t, any(v), get())
	}
	for f := powerstate.FormatUnknown; f <= powerstate.FormatSmartctlJSON; f++ {
		var back powerstate.Format
		check(f, &back, func() any { return back })
	}
	for s := powerstate.ScaleNotReported; s <= powerstate.ScaleReserved; s++ {
		var back powerstate.Scale
		check(s, &back, func() any { return back })
	}
	for w := powerstate.WorkloadNone; w <= powerstate.Workload2; w++ {
		var back powerstate.Workload
		check(w, &back, func() any { return back })
	}
	_, err := powerstate.Format(99).MarshalText()
	assert.ErrorIs(t, err, powerstate.ErrEnumText)
	_, err = powerstate.Workload(5).MarshalText()
	assert.ErrorIs(t, err, powerstate.ErrEnumText)
	var f powerstate.Format
	assert.ErrorIs(t, f.UnmarshalText([]byte("xml")), powerstate.ErrEnumText)
	var s powerstate.Scale
	assert.ErrorIs(t, s.UnmarshalText([]byte("1W")), powerstate.ErrEnumText)
}
