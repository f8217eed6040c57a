package nvmeapst_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	nvmeapst "github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/ioctl"
)

// TestOpenerReturningNothing: an Opener that returns a nil controller with
// a nil error is a controller that could not be opened, in every call that
// opens one (they sent commands to the nil controller and panicked).
func TestOpenerReturningNothing(t *testing.T) {
	s := system(t, fixtureRoot, consistentDrives(t))
	s.Opener = nvmeapst.OpenerFunc(func(context.Context, string) (ioctl.Controller, error) { return nil, nil })
	ctx := context.Background()

	r, err := s.Inspect(ctx, "nvme0")
	require.NoError(t, err)
	require.NotNil(t, r.Controllers[0].DeviceProblem)
	assert.Contains(t, r.Controllers[0].DeviceProblem.Message, "neither a controller nor an error")

	m, err := s.Metrics(ctx)
	require.NoError(t, err)
	for _, src := range m.Controllers[0].Sources {
		if src.Source == nvmeapst.SourceIdentify {
			assert.False(t, src.OK)
		}
	}

	_, err = s.Diagnose(ctx, nvmeapst.DiagnoseOptions{Controller: "nvme0"})
	require.NoError(t, err)

	man, err := s.Collect(ctx, filepath.Join(t.TempDir(), "bundle"))
	require.NoError(t, err)
	require.NotNil(t, man.Controllers[0].OpenError)
}
