package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func repoFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", path))
	require.NoError(t, err)
	return b
}

const (
	evoImage   = "testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin"
	intelImage = "testdata/identify/intel-ssdpekkw256g7-PSF109C.bin"
)
