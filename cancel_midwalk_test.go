package nvmeapst_test

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	nvmeapst "github.com/nvmeapst/nvmeapst"
)

// cancelAtFirstController returns the fixture machine whose sysfs cancels
// ctx on the first read of nvme0's folder, and the paths of nvme2's folder
// read after that.
func cancelAtFirstController(t *testing.T) (*nvmeapst.System, context.Context, func() []string) {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	s := system(t, fixtureRoot, consistentDrives(t))
	var mu sync.Mutex
	var late []string
	cancelled := false
	s.FS = s.FS.WithReadHook(func(rel string) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case strings.HasPrefix(rel, "class/nvme/nvme0"):
			cancel()
			cancelled = true
		case cancelled && strings.HasPrefix(rel, "class/nvme/nvme2"):
			late = append(late, rel)
		}
	})
	return s, ctx, func() []string {
		mu.Lock()
		defer mu.Unlock()
		require.True(t, cancelled, "nvme0 was read")
		return late
	}
}

// TestCallsStopBetweenControllers: a context done while a call walks the
// controllers stops it at the next one (a fleet of thousands was read to
// the end by Inspect, Diagnose and Collect before the cancellation was
// seen), with an error wrapping its cause said of the call.
func TestCallsStopBetweenControllers(t *testing.T) {
	calls := map[string]func(*nvmeapst.System, context.Context) error{
		"inspect": func(s *nvmeapst.System, ctx context.Context) error {
			_, err := s.Inspect(ctx)
			return err
		},
		"diagnose": func(s *nvmeapst.System, ctx context.Context) error {
			_, err := s.Diagnose(ctx, nvmeapst.DiagnoseOptions{})
			return err
		},
		"collect": func(s *nvmeapst.System, ctx context.Context) error {
			_, err := s.Collect(ctx, filepath.Join(t.TempDir(), "bundle"))
			return err
		},
	}
	for name, call := range calls {
		s, ctx, late := cancelAtFirstController(t)
		err := call(s, ctx)
		require.ErrorIs(t, err, context.Canceled, name)
		assert.True(t, strings.HasPrefix(err.Error(), "nvmeapst: "+name), "%s: %v", name, err)
		assert.Empty(t, late(), "%s read on after the cancellation", name)
	}
}

// cancelAtEOF cancels its context when the log it serves ends.
type cancelAtEOF struct {
	r      *strings.Reader
	cancel context.CancelFunc
}

func (c cancelAtEOF) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if err != nil {
		c.cancel()
	}
	return n, err
}

// TestDiagnoseDoneAfterTheLog: a context done once the log has been read
// is an error said of the diagnosis, never a nil Diagnosis with a nil error.
func TestDiagnoseDoneAfterTheLog(t *testing.T) {
	s := system(t, fixtureRoot, consistentDrives(t))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	log := cancelAtEOF{r: strings.NewReader("[    1.000000] nvme nvme0: pci function 0000:3d:00.0\n"), cancel: cancel}
	d, err := s.Diagnose(ctx, nvmeapst.DiagnoseOptions{Log: log})
	require.ErrorIs(t, err, context.Canceled)
	assert.Nil(t, d)
	assert.True(t, strings.HasPrefix(err.Error(), "nvmeapst: diagnose"), err.Error())
}
