package apst_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// fixture decodes an Identify image from the module's testdata (testfixture.Path).
func fixture(t testing.TB, name string) powerstate.Controller {
	t.Helper()
	img, err := os.ReadFile(testfixture.Path("identify/" + name))
	require.NoError(t, err)
	c, err := powerstate.DecodeIdentify(img)
	require.NoError(t, err)
	return c
}

// fixture990 is the Samsung 990 EVO Plus.
func fixture990(t testing.TB) *powerstate.Controller {
	c := fixture(t, "samsung-990-evo-plus-1tb-2B2QKXG7.bin")
	return &c
}

// entriesOf returns the first n entries of t.
func entriesOf(t *apst.Table, n int) []apst.Entry { return append([]apst.Entry(nil), t[:n]...) }
