//go:build linux

package ioctl

import (
	"runtime"
	"structs"
	"unsafe"

	"golang.org/x/sys/unix"
)

// passthruCmd mirrors struct nvme_passthru_cmd of include/uapi/linux/nvme_ioctl.h
// (72 bytes). Every field sits at its natural alignment, so the layout is
// the same on 32- and 64-bit platforms; the tests pin the size and offsets.
// Fields this package never sets are blank.
type passthruCmd struct {
	_       structs.HostLayout
	opcode  uint8  // 0
	_       uint8  // 1: flags
	_       uint16 // 2: rsvd1
	nsid    uint32 // 4
	_       uint32 // 8: cdw2
	_       uint32 // 12: cdw3
	_       uint64 // 16: metadata
	addr    uint64 // 24: data buffer address
	_       uint32 // 32: metadata_len
	dataLen uint32 // 36
	cdw10   uint32 // 40
	cdw11   uint32 // 44
	_       uint32 // 48: cdw12
	_       uint32 // 52: cdw13
	_       uint32 // 56: cdw14
	_       uint32 // 60: cdw15
	_       uint32 // 64: timeout_ms, 0 = the kernel's admin timeout
	result  uint32 // 68: completion dword 0
}

// passthruCmd64 mirrors struct nvme_passthru_cmd64 (80 bytes): the same up
// to timeout_ms, then rsvd2 and a 64-bit result.
type passthruCmd64 struct {
	_       structs.HostLayout
	opcode  uint8  // 0
	_       uint8  // 1: flags
	_       uint16 // 2: rsvd1
	nsid    uint32 // 4
	_       uint32 // 8: cdw2
	_       uint32 // 12: cdw3
	_       uint64 // 16: metadata
	addr    uint64 // 24
	_       uint32 // 32: metadata_len
	dataLen uint32 // 36: (union with vec_cnt)
	cdw10   uint32 // 40
	cdw11   uint32 // 44
	_       uint32 // 48: cdw12
	_       uint32 // 52: cdw13
	_       uint32 // 56: cdw14
	_       uint32 // 60: cdw15
	_       uint32 // 64: timeout_ms
	_       uint32 // 68: rsvd2
	result  uint64 // 72: completion dwords 0 and 1
}

// Sizes of the C structures, which the ioctl numbers encode.
const (
	passthruCmdSize   = 72
	passthruCmd64Size = 80
)

// iowr is the kernel's _IOWR(type, nr, size). Every Linux architecture
// encodes read|write as the same top bits (3<<30 with the generic layout,
// (2|4)<<29 on alpha, mips, powerpc and sparc) and the size from bit 16, so
// for sizes below 8 KiB the number is the same everywhere.
func iowr(typ byte, nr byte, size uintptr) uint {
	return 0xc0000000 | uint(size)<<16 | uint(typ)<<8 | uint(nr)
}

var (
	// ioctlAdminCmd is NVME_IOCTL_ADMIN_CMD, _IOWR('N', 0x41, struct nvme_passthru_cmd).
	ioctlAdminCmd = iowr('N', 0x41, passthruCmdSize)
	// ioctlAdmin64Cmd is NVME_IOCTL_ADMIN64_CMD, _IOWR('N', 0x47, struct nvme_passthru_cmd64).
	ioctlAdmin64Cmd = iowr('N', 0x47, passthruCmd64Size)
)

// admin64 sends c through NVME_IOCTL_ADMIN64_CMD on fd. It returns
// completion dword 0, the NVMe status when the ioctl returns one, and the
// errno of a failed ioctl.
func admin64(fd uintptr, c *command, data []byte) (uint32, uint16, error) {
	cmd := passthruCmd64{opcode: c.opcode, nsid: c.nsid, cdw10: c.cdw10, cdw11: c.cdw11}
	r, err := submit(fd, ioctlAdmin64Cmd, unsafe.Pointer(&cmd), &cmd.addr, &cmd.dataLen, data)
	if err != nil {
		return 0, 0, err
	}
	return uint32(cmd.result), uint16(r), nil
}

// admin32 is admin64 through NVME_IOCTL_ADMIN_CMD.
func admin32(fd uintptr, c *command, data []byte) (uint32, uint16, error) {
	cmd := passthruCmd{opcode: c.opcode, nsid: c.nsid, cdw10: c.cdw10, cdw11: c.cdw11}
	r, err := submit(fd, ioctlAdminCmd, unsafe.Pointer(&cmd), &cmd.addr, &cmd.dataLen, data)
	if err != nil {
		return 0, 0, err
	}
	return cmd.result, uint16(r), nil
}

// submit issues the passthru ioctl req with the command at cmd, whose addr
// and dataLen fields it points at data first. It returns the ioctl's return
// value (the NVMe status) or its errno.
func submit(fd uintptr, req uint, cmd unsafe.Pointer, addr *uint64, dataLen *uint32, data []byte) (uintptr, error) {
	var pin runtime.Pinner
	defer pin.Unpin()
	if len(data) > 0 {
		// The kernel finds the buffer through an integer in cmd, which the
		// garbage collector does not see: pin the buffer so that it stays
		// allocated and in place until the ioctl returns.
		p := unsafe.Pointer(unsafe.SliceData(data))
		pin.Pin(p)
		*addr = uint64(uintptr(p))
		*dataLen = uint32(len(data))
	}
	// cmd is converted to uintptr only in the argument list, which keeps the
	// command alive and in place for the call.
	r, _, errno := unix.Syscall(unix.SYS_IOCTL, fd, uintptr(req), uintptr(cmd))
	runtime.KeepAlive(data)
	if errno != 0 {
		return 0, errno
	}
	return r, nil
}
