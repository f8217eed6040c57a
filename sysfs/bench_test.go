package sysfs_test

import (
	"testing"

	"github.com/nvmeapst/nvmeapst/sysfs"
)

// BenchmarkControllers reads both controllers of the v6 fixture: 28
// attribute files, each resolved inside the tree (os.Root) and opened
// without blocking.
func BenchmarkControllers(b *testing.B) {
	fs, err := sysfs.NewFS("testdata/v6")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := fs.Controllers(); err != nil {
			b.Fatal(err)
		}
	}
}
