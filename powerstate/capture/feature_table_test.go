package capture_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// TestFeatureTextTable: nvme-cli's "name : value" -H layout is read, with
// any padding before the colon, the APSTE line in either layout, and a
// capture that mixes the layouts of its entries is refused.
func TestFeatureTextTable(t *testing.T) {
	tbl := evoTable()
	good := featureText("table", true, tbl)
	for _, tc := range []struct {
		name, in string
		err      string // "" when the capture is read
	}{
		{"as printed", good, ""},
		{"APSTE in the table layout", strings.Replace(good, "(APSTE): Enabled", "(APSTE) : Enabled", 1), ""},
		{"other padding", strings.ReplaceAll(good, "(ITPS)   :", "(ITPS)  :"), ""},
		{"spaces for tabs", strings.ReplaceAll(good, "\t\t", "    "), ""},
		{"mixed layouts", strings.Replace(good, "(ITPT) : ", "(ITPT): ", 3), `capture: feature-text capture, line 7: expected "Idle Transition Power State (ITPS): N" (as the entries before)`},
		{"table then classic", strings.Replace(good, "(ITPS)   : 3", "(ITPS): 3", 1), `capture: feature-text-table capture, line 7: expected "Idle Transition Power State (ITPS) : N" (in nvme-cli's "name : value" table, as the entries before)`},
		{"bad value", strings.Replace(good, "(ITPS)   : 3", "(ITPS)   : 32", 1), `capture: feature-text-table capture, line 7: expected "Idle Transition Power State   (ITPS): N" with N from 0 to 31`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fc, err := capture.ParseFeatureCapture(strings.NewReader(tc.in))
			if tc.err != "" {
				require.Error(t, err)
				assert.ErrorIs(t, err, capture.ErrSyntax)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, capture.FeatureTextTable, fc.Format)
			assert.Equal(t, tbl, fc.Table)
			assert.True(t, fc.Masked, "the fields hold ITPS and ITPT only")
		})
	}
}

// TestFeatureFormatText: every form's name reads back, and values that are
// none of the constants are refused both ways.
func TestFeatureFormatText(t *testing.T) {
	for f := capture.FeatureUnknown; f <= capture.FeatureTextTable; f++ {
		b, err := f.MarshalText()
		require.NoError(t, err)
		assert.Equal(t, f.String(), string(b))
		var back capture.FeatureFormat
		require.NoError(t, back.UnmarshalText(b))
		assert.Equal(t, f, back)
	}
	_, err := capture.FeatureFormat(200).MarshalText()
	assert.ErrorIs(t, err, capture.ErrFeatureFormatText)
	assert.Equal(t, "FeatureFormat(200)", capture.FeatureFormat(200).String())
	back := capture.FeatureJSON
	assert.ErrorIs(t, back.UnmarshalText([]byte("nvme-cli-text")), capture.ErrFeatureFormatText)
	assert.Equal(t, capture.FeatureJSON, back, "left as it was")
}
