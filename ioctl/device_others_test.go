//go:build !linux

package ioctl

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOpenUnsupported(t *testing.T) {
	d, err := Open("/dev/nvme0")
	assert.Nil(t, d)
	require.ErrorIs(t, err, ErrUnsupported)
	require.ErrorIs(t, err, errors.ErrUnsupported)
	assert.Contains(t, err.Error(), "ioctl: not supported on ")

	_, err = (&Device{}).GetAPST(context.Background())
	require.ErrorIs(t, err, ErrUnsupported)
}
