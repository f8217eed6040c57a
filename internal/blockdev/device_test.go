package blockdev

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadAtRefusesBadOffsets(t *testing.T) {
	d := &Device{path: "/dev/fake", size: 1 << 20, lbs: 512}
	for _, off := range []int64{-512, 100, 1<<20 - 512, 1 << 20} {
		err := d.ReadAt(off)
		require.ErrorIs(t, err, ErrUnaligned, "offset %d", off)
		assert.Contains(t, err.Error(), "/dev/fake")
	}
	assert.Equal(t, 4096, d.ReadLength())
	assert.Equal(t, 8192, (&Device{lbs: 8192}).ReadLength(), "a logical block larger than 4 KiB is read whole")
}
