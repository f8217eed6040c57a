//go:build arm64 || riscv64

package safeio

import "syscall"

// sysFstatat is the fstatat system call that fills a syscall.Stat_t.
const sysFstatat = syscall.SYS_FSTATAT
