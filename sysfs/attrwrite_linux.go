package sysfs

import (
	"os"
	"syscall"
)

// sysfsMagic is SYSFS_MAGIC, statfs's f_type of a sysfs mount
// (include/uapi/linux/magic.h).
const sysfsMagic = 0x62656572

// isKernelAttribute reports whether f is on a sysfs mount: a kernel
// attribute to write in place, as opposed to a file of a copy of the tree.
func isKernelAttribute(f *os.File) bool {
	var st syscall.Statfs_t
	if err := syscall.Fstatfs(int(f.Fd()), &st); err != nil {
		return false
	}
	return int64(st.Type) == sysfsMagic
}
