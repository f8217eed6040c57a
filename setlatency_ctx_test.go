package nvmeapst_test

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	nvmeapst "github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/ioctl"
)

// TestSetLatencyHonoursContext: a context done before SetLatency writes
// nothing, and one done while the controller is read back is an error
// beside the change, never a report of a drive that could not be read (it
// wrote with a cancelled context, and a cut read-back was a report of no
// Identify data with a nil error).
func TestSetLatencyHonoursContext(t *testing.T) {
	root := testfixture.CopyTree(t, fixtureRoot)
	s := system(t, root, consistentDrives(t))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ch, err := s.SetLatency(ctx, "nvme0", "25000")
	require.ErrorIs(t, err, context.Canceled)
	assert.Nil(t, ch)
	b, err := os.ReadFile(toleranceFile(root, "nvme0"))
	require.NoError(t, err)
	assert.Equal(t, "100000", string(bytes.TrimSpace(b)), "nothing written")

	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	inner := s.Opener
	s.Opener = nvmeapst.OpenerFunc(func(ctx context.Context, name string) (ioctl.Controller, error) {
		cancel() // the read-back is cut short
		return inner.OpenController(ctx, name)
	})
	ch, err = s.SetLatency(ctx, "nvme0", "25000")
	require.ErrorIs(t, err, context.Canceled)
	require.NotNil(t, ch, "the value was written")
	assert.Equal(t, "25000", ch.New.String())
}
