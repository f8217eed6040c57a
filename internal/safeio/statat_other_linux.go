//go:build !(amd64 || mips64 || mips64le || ppc64 || ppc64le || s390x || arm64 || riscv64 || 386 || arm || mips || mipsle)

package safeio

// sysFstatat is -1 where the architecture's stat system call is not one
// that fills a syscall.Stat_t directly (loong64 has only statx): statPath
// then uses syscall.Stat.
const sysFstatat = -1
