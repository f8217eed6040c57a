package nvmeapst_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/survey"
)

// configBundles returns the bundle fixture and bundles collected from the
// test machines.
func configBundles(t *testing.T) map[string]string {
	t.Helper()
	m := bundleMachine(t)
	dir := filepath.Join(t.TempDir(), "machine")
	_, err := m.Collect(context.Background(), dir)
	require.NoError(t, err)
	return map[string]string{"testdata/bundle": bundleFixture, "fixture": collectFixture(t), "machine": dir}
}

// ControllerReport.ConfigParams("") is the controller's Params, and a
// survey of the controller under it gives Inspect's plan: a survey of a
// bundle agrees with inspect.
func TestConfigParamsAgreesWithInspect(t *testing.T) {
	for name, dir := range configBundles(t) {
		t.Run(name, func(t *testing.T) {
			s, _, err := nvmeapst.OpenBundle(dir)
			require.NoError(t, err)
			rep, err := s.Inspect(context.Background())
			require.NoError(t, err)
			sv, err := survey.NewWithOptions(survey.Options{KernelQuirks: true},
				analysis.Config{Name: "", Params: apst.DefaultParams(apst.Current)},
				analysis.Config{Name: "ps-max-latency-us=25000", Params: apst.DefaultParams(apst.Current)})
			require.NoError(t, err)
			n := 0
			for i := range rep.Controllers {
				cr := &rep.Controllers[i]
				if cr.Identify == nil {
					continue
				}
				n++
				p, note, err := cr.ConfigParams("")
				require.NoError(t, err)
				assert.Empty(t, note)
				assert.Equal(t, cr.Params, p, cr.Name)
				p2, _, err := cr.ConfigParams("ps-max-latency-us=25000")
				require.NoError(t, err)
				var row survey.Row
				require.NoError(t, sv.EvaluateWith(&row, cr.Name, cr.Identify, []apst.Params{p, p2}))
				require.NotNil(t, cr.Plan)
				assert.Equal(t, cr.Plan.Table, row.Results[0].Plan.Table, cr.Name)
				assert.Equal(t, cr.Plan.Enabled, row.Results[0].Plan.Enabled, cr.Name)
				assert.Equal(t, cr.Plan.Sent, row.Results[0].Plan.Sent, cr.Name)
				assert.Equal(t, cr.Params.Quirks, row.Quirks, cr.Name)
				require.NoError(t, sv.AddRecord(row.Record()))
			}
			assert.Positive(t, n, "a bundle with Identify data")
			assert.Equal(t, n, sv.Len())
		})
	}
}

// The quirks of a configuration are honoured as compare honours them:
// quirks=none and quirks=LIST replace the machine's set, quirks=tables,LIST
// adds to it, another release is looked up with the controller's identity.
func TestConfigParamsQuirks(t *testing.T) {
	s, _, err := nvmeapst.OpenBundle(bundleFixture)
	require.NoError(t, err)
	rep, err := s.Inspect(context.Background(), "nvme1")
	require.NoError(t, err)
	cr := &rep.Controllers[0]
	require.Equal(t, apst.QuirkNoAPST, cr.Params.Quirks, "the DMI rule of the 960 EVO on the PRIME B350M-A")

	for _, tt := range []struct {
		config string
		want   apst.Quirks
		note   bool
	}{
		{"", apst.QuirkNoAPST, false},
		{"ps-max-latency-us=25000", apst.QuirkNoAPST, false},
		{"quirks=none", 0, false},
		{"quirks=no-deepest-ps", apst.QuirkNoDeepestPS, false},
		{"quirks=tables,no-deepest-ps", apst.QuirkNoAPST | apst.QuirkNoDeepestPS, false},
		{"kernel=6.1", apst.QuirkNoAPST, true},
	} {
		p, note, err := cr.ConfigParams(tt.config)
		require.NoError(t, err, tt.config)
		assert.True(t, p.QuirksGiven, tt.config)
		assert.Equal(t, tt.want, p.Quirks, tt.config)
		assert.Equal(t, tt.note, note != "", "%s: %q", tt.config, note)
	}
	_, _, err = cr.ConfigParams("ps-max-latency-us=x")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "nvmeapst: nvme1:")
}
