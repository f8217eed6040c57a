package apst_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// fixture decodes an Identify image from ../powerstate/testdata.
func fixture(t testing.TB, name string) powerstate.Controller {
	t.Helper()
	img, err := os.ReadFile(filepath.Join("..", "powerstate", "testdata", name))
	require.NoError(t, err)
	c, err := powerstate.DecodeIdentify(img)
	require.NoError(t, err)
	return c
}
