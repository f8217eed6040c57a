// Package ioctl sends the NVMe admin commands that show a controller's APST state.
//
// It goes through the Linux NVMe passthrough ioctls on the controller's
// character device (/dev/nvmeN):
//
//   - Identify Controller (opcode 06h, CNS 01h, 4096 bytes);
//   - Get Features, Autonomous Power State Transition (opcode 0Ah, FID 0Ch,
//     SEL 0 = current, a 256-byte table, APSTE in completion dword 0);
//   - Get Features, Power Management (FID 02h: the current power state in
//     bits 4:0 and the workload hint in bits 7:5 of completion dword 0).
//
// The commands are typed: there is no raw passthrough in the API, and
// nothing here writes to the controller.
//
// # Opening
//
// [Open] accepts only an NVMe controller character device. Before opening it
// stats the path and, where /sys is available, checks that the character
// device belongs to the nvme class (/sys/dev/char/MAJOR:MINOR/subsystem); a
// directory, a regular file, a block device (a namespace such as /dev/nvme0n1,
// with a hint to use the controller), a namespace generic device
// (/dev/ng0n1) or a character device of another driver is refused with an
// error wrapping [ErrNotController], so NVMe commands never reach a device
// that might misread them. It opens O_RDONLY|O_CLOEXEC, which is all
// passthrough needs, then checks with fstat that it opened the device it
// checked.
//
// # The ioctls
//
// Commands go through NVME_IOCTL_ADMIN64_CMD (struct nvme_passthru_cmd64,
// 80 bytes, a 64-bit result), added by kernel commit 65e68edce0db (sources
// disagree on whether it first shipped in v5.4 or v5.7). On an older kernel
// it fails with ENOTTY and the Device falls back to NVME_IOCTL_ADMIN_CMD
// (struct nvme_passthru_cmd, 72 bytes), remembering the choice for the
// following commands. The structures are mirrored with an explicit layout
// whose size and offsets the tests pin, on 32-bit platforms too.
//
// The data buffer's address must be passed to the kernel inside the
// structure, as an integer. To keep the buffer visible to the garbage
// collector and where it is for the whole call, it is pinned with
// runtime.Pinner before its address is taken, the structure's own address
// is converted to uintptr only inside the unix.Syscall argument list, and
// runtime.KeepAlive follows the call.
//
// # Errors
//
// A failed ioctl or a command the controller completes with a non-zero
// status returns a *[CommandError]. Its Is method makes errors.Is(err,
// os.ErrPermission) true for EACCES and EPERM (Get Features needs
// CAP_SYS_ADMIN; kernels since v6.2 let other users send Identify only, and
// opening /dev/nvmeN usually needs root anyway), and errors.Is(err,
// ErrUnsupported) true for ENOTTY from both ioctls. NVMe status values are
// decoded into their fields and named ([Status]).
//
// # Testing without hardware
//
// [Controller] is the interface the commands are sent through; *[Device]
// implements it, and package ioctltest provides a fake serving fixtures and
// injected errors. A test against a real controller runs only when the
// environment variable NVMEAPST_TEST_DEVICE names one, e.g.
//
//	sudo NVMEAPST_TEST_DEVICE=/dev/nvme0 go test ./ioctl/
//
// # Other systems
//
// The package builds everywhere. Only its Linux files import
// golang.org/x/sys/unix; elsewhere Open returns an error matching
// [ErrUnsupported] and errors.ErrUnsupported.
package ioctl
