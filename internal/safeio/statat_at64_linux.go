//go:build 386 || arm || mips || mipsle

package safeio

import "syscall"

// sysFstatat is the fstatat system call that fills a syscall.Stat_t.
const sysFstatat = syscall.SYS_FSTATAT64
