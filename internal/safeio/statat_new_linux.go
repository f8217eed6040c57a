//go:build amd64 || mips64 || mips64le || ppc64 || ppc64le || s390x

package safeio

import "syscall"

// sysFstatat is the fstatat system call that fills a syscall.Stat_t.
const sysFstatat = syscall.SYS_NEWFSTATAT
