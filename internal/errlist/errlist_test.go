package errlist_test

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/internal/errlist"
)

func TestJoin(t *testing.T) {
	a := &fs.PathError{Op: "open", Path: "a", Err: fs.ErrNotExist}
	b := errors.New("b failed")
	assert.NoError(t, errlist.Join())
	assert.NoError(t, errlist.Join(nil, nil))
	assert.Same(t, b, errlist.Join(nil, b, nil), "one error is itself")
	err := errlist.Join(a, nil, b)
	require.Error(t, err)
	assert.Equal(t, "open a: file does not exist; b failed", err.Error())
	assert.NotContains(t, err.Error(), "\n")
	assert.ErrorIs(t, err, fs.ErrNotExist)
	assert.ErrorIs(t, err, b)
	var pe *fs.PathError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "a", pe.Path)
}
