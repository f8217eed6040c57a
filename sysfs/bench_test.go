package sysfs_test

import (
	"testing"

	"github.com/nvmeapst/nvmeapst/sysfs"
)

// BenchmarkControllers reads the three controllers of the module's
// fixture tree (testdata/sys): each attribute file resolved inside the
// tree (os.Root) and opened without blocking.
func BenchmarkControllers(b *testing.B) {
	fs, err := sysfs.NewFS("../testdata/sys")
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
