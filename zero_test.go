package nvmeapst_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/apst/measure"
)

// The zero Problem is an error that says it has no message, not an empty
// one; a recorded message is replayed as is.
func TestZeroProblem(t *testing.T) {
	var p nvmeapst.Problem
	assert.Equal(t, "nvmeapst: a problem with no message (the zero Problem)", p.Error())
	assert.NotErrorIs(t, &p, os.ErrPermission)
	assert.Equal(t, "open x: permission denied", (&nvmeapst.Problem{Message: "open x: permission denied"}).Error())
	q := nvmeapst.NewProblem(&p)
	assert.Equal(t, p.Error(), q.Error())
}

// The zero Target has nothing to measure: Config refuses it, Setup has no
// controller (measure.Run refuses it), Close does nothing.
func TestZeroTarget(t *testing.T) {
	var tg nvmeapst.Target
	_, err := tg.Config("pm-qos=25000")
	require.ErrorIs(t, err, measure.ErrSetup)
	assert.Regexp(t, `^nvmeapst: .*OpenTarget`, err.Error())
	_, err = measure.Run(context.Background(), tg.Setup())
	require.ErrorIs(t, err, measure.ErrSetup)
	assert.NoError(t, tg.Close())
}

// A nil *System, *Target or *MetricsReader (what a failed Live, OpenRoot,
// OpenTarget left) is refused like the zero value, never a panic: every
// method of the nil *System returned by a failed call panicked but Collect
// and OpenTarget with an empty argument, and Target.Close in a deferred
// cleanup panicked.
func TestNilRoots(t *testing.T) {
	var s *nvmeapst.System
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "bundle")
	calls := map[string]func() error{
		"inspect":     func() error { _, err := s.Inspect(ctx); return err },
		"metrics":     func() error { _, err := s.Metrics(ctx); return err },
		"diagnose":    func() error { _, err := s.Diagnose(ctx, nvmeapst.DiagnoseOptions{}); return err },
		"collect":     func() error { _, err := s.Collect(ctx, dir); return err },
		"set latency": func() error { _, err := s.SetLatency(ctx, "nvme0", "25000"); return err },
		"open target": func() error { _, err := s.OpenTarget(ctx, "nvme0n1", nvmeapst.TargetOptions{}); return err },
		"power facts": func() error { _, probs := s.PowerFacts("nvme0"); return probs[0] },
		"metrics (reader)": func() error {
			var snap nvmeapst.MetricsSnapshot
			return s.NewMetricsReader().Read(ctx, &snap)
		},
	}
	for name, call := range calls {
		var err error
		require.NotPanics(t, func() { err = call() }, name)
		require.Error(t, err, name)
		op, _, _ := strings.Cut(name, " (")
		assert.Regexp(t, `^nvmeapst: `+op+`: `, err.Error())
	}
	assert.NoDirExists(t, dir)

	var r *nvmeapst.MetricsReader
	assert.NoError(t, r.Close())
	assert.Error(t, r.Read(ctx, &nvmeapst.MetricsSnapshot{}))

	var tg *nvmeapst.Target
	assert.NoError(t, tg.Close())
	_, err := tg.Config("pm-qos=25000")
	require.ErrorIs(t, err, measure.ErrSetup)
	_, err = measure.Run(ctx, tg.Setup())
	require.ErrorIs(t, err, measure.ErrSetup)
}
