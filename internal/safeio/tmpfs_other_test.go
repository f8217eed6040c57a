//go:build !linux

package safeio_test

import (
	"os"
	"testing"
)

func smallTmpfs(t *testing.T) string {
	t.Skip("tmpfs mounts are a Linux test")
	return ""
}

func isNoSpace(error) bool { return false }

func devFull(t *testing.T) *os.File {
	t.Skip("/dev/full is a Linux test")
	return nil
}
