//go:build !linux

package sysfs

import "os"

// isKernelAttribute is false where there is no sysfs: every tree is a copy.
func isKernelAttribute(*os.File) bool { return false }
