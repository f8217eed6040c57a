package ioctltest_test

import (
	"context"
	"errors"
	"os"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/ioctl"
	"github.com/nvmeapst/nvmeapst/ioctl/ioctltest"
)

var (
	image   = func() []byte { b := make([]byte, 4096); b[263] = 4; b[265] = 1; return b }()
	feature = apst.Feature{APSTE: apst.APSTEEnabled, Table: apst.Table{0: apst.NewEntry(3, 100), 1: apst.NewEntry(3, 100)}}
	pm      = ioctl.PowerManagement{State: 2, WorkloadHint: 1}
)

func TestServesFixtures(t *testing.T) {
	ctx := context.Background()
	d := ioctltest.New(image, feature, pm)

	img, err := d.IdentifyController(ctx)
	require.NoError(t, err)
	assert.Equal(t, image, img)
	img[0] = 0xff
	img2, err := d.IdentifyController(ctx)
	require.NoError(t, err)
	assert.Equal(t, byte(0), img2[0], "callers get copies")

	f, err := d.GetAPST(ctx)
	require.NoError(t, err)
	assert.Equal(t, feature, f)
	p, err := d.GetPowerManagement(ctx)
	require.NoError(t, err)
	assert.Equal(t, pm, p)

	assert.Equal(t, 2, d.Calls(ioctl.OpIdentifyController))
	assert.Equal(t, 1, d.Calls(ioctl.OpGetAPST))
	assert.Equal(t, 1, d.Calls(ioctl.OpGetPowerManagement))

	d.SetAPST(apst.Feature{})
	d.SetPowerManagement(ioctl.PowerManagement{State: 4})
	f, err = d.GetAPST(ctx)
	require.NoError(t, err)
	assert.Equal(t, apst.Feature{}, f)
	p, err = d.GetPowerManagement(ctx)
	require.NoError(t, err)
	assert.Equal(t, uint8(4), p.State)
}

func TestNewCopiesIdentify(t *testing.T) {
	src := []byte{1, 2, 3}
	d := ioctltest.New(src, apst.Feature{}, ioctl.PowerManagement{})
	src[0] = 9
	img, err := d.IdentifyController(context.Background())
	require.NoError(t, err)
	assert.Equal(t, []byte{1, 2, 3}, img)
}

func TestInjectedErrors(t *testing.T) {
	ctx := context.Background()
	d := ioctltest.New(image, feature, pm)
	d.Errs = map[string]error{
		ioctl.OpGetAPST: ioctltest.PermissionError(ioctl.OpGetAPST),
	}
	d.SetError(ioctl.OpGetPowerManagement, ioctltest.StatusError(ioctl.OpGetPowerManagement, 0x4002))
	d.SetError(ioctl.OpIdentifyController, ioctltest.ErrnoError(ioctl.OpIdentifyController, errors.New("input/output error")))

	_, err := d.GetAPST(ctx)
	require.ErrorIs(t, err, os.ErrPermission)
	assert.Contains(t, err.Error(), "CAP_SYS_ADMIN")

	_, err = d.GetPowerManagement(ctx)
	var ce *ioctl.CommandError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, "Invalid Field in Command", ioctl.Status(ce.Status).Name())
	require.NotErrorIs(t, err, os.ErrPermission)

	_, err = d.IdentifyController(ctx)
	require.ErrorContains(t, err, "input/output error")

	assert.Equal(t, 1, d.Calls(ioctl.OpGetAPST), "failed commands count")

	d.SetError(ioctl.OpGetAPST, nil)
	f, err := d.GetAPST(ctx)
	require.NoError(t, err)
	assert.Equal(t, feature, f)
}

func TestContextAndClose(t *testing.T) {
	d := ioctltest.New(image, feature, pm)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := d.GetAPST(ctx)
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 0, d.Calls(ioctl.OpGetAPST), "nothing sent")

	require.NoError(t, d.Close())
	assert.True(t, d.Closed())
	_, err = d.IdentifyController(context.Background())
	require.ErrorIs(t, err, os.ErrClosed)
	require.ErrorIs(t, d.Close(), os.ErrClosed)
}

func TestConcurrentUse(t *testing.T) {
	d := ioctltest.New(image, feature, pm)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			if i%2 == 0 {
				d.SetError(ioctl.OpGetAPST, ioctltest.PermissionError(ioctl.OpGetAPST))
			} else {
				d.SetError(ioctl.OpGetAPST, nil)
			}
			_, _ = d.GetAPST(context.Background())
			_, _ = d.IdentifyController(context.Background())
		})
	}
	wg.Wait()
	assert.Equal(t, 8, d.Calls(ioctl.OpGetAPST))
}
