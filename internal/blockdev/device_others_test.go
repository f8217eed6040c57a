//go:build !linux

package blockdev

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestOpenUnsupported(t *testing.T) {
	_, err := Open("/dev/nvme0n1")
	require.ErrorIs(t, err, errors.ErrUnsupported)
}
