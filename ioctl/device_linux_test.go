//go:build linux

package ioctl

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// passthruOffsets are the offsets of the fields of a passthru struct the
// package sets or reads.
type passthruOffsets struct {
	opcode, nsid, addr, dataLen, cdw10, cdw11, result uintptr
}

func TestPassthruLayout(t *testing.T) {
	var c passthruCmd
	var c64 passthruCmd64
	tests := []struct {
		name            string
		size, sizeConst uintptr
		offsets         passthruOffsets
		wantSize        uintptr
		wantOffsets     passthruOffsets
	}{
		{"nvme_passthru_cmd", unsafe.Sizeof(c), passthruCmdSize,
			passthruOffsets{unsafe.Offsetof(c.opcode), unsafe.Offsetof(c.nsid), unsafe.Offsetof(c.addr),
				unsafe.Offsetof(c.dataLen), unsafe.Offsetof(c.cdw10), unsafe.Offsetof(c.cdw11), unsafe.Offsetof(c.result)},
			72, passthruOffsets{0, 4, 24, 36, 40, 44, 68}},
		{"nvme_passthru_cmd64", unsafe.Sizeof(c64), passthruCmd64Size,
			passthruOffsets{unsafe.Offsetof(c64.opcode), unsafe.Offsetof(c64.nsid), unsafe.Offsetof(c64.addr),
				unsafe.Offsetof(c64.dataLen), unsafe.Offsetof(c64.cdw10), unsafe.Offsetof(c64.cdw11), unsafe.Offsetof(c64.result)},
			80, passthruOffsets{0, 4, 24, 36, 40, 44, 72}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.wantSize, tt.size, tt.name)
		assert.Equal(t, tt.size, tt.sizeConst, tt.name)
		assert.Equal(t, tt.wantOffsets, tt.offsets, tt.name)
	}

	// The values the kernel headers give, e.g. strace's decoding.
	assert.Equal(t, uint(0xc0484e41), ioctlAdminCmd, "NVME_IOCTL_ADMIN_CMD")
	assert.Equal(t, uint(0xc0504e47), ioctlAdmin64Cmd, "NVME_IOCTL_ADMIN64_CMD")
}

func TestOpenRefuses(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "nvme0")
	require.NoError(t, os.WriteFile(file, []byte("not a device"), 0o644))
	link := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink(dir, link))

	tests := []struct {
		name, path string
		is         error
		msg        string
	}{
		{"regular file", file, ErrNotController, "is a regular file"},
		{"directory", dir, ErrNotController, "is a directory"},
		{"link to a directory", link, ErrNotController, "is a directory"},
		{"missing", filepath.Join(dir, "nvme9"), os.ErrNotExist, "no such file or directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Open(tt.path)
			require.ErrorIs(t, err, tt.is)
			assert.Nil(t, d)
			assert.Contains(t, err.Error(), tt.path)
			assert.Contains(t, err.Error(), tt.msg)
			assert.Regexp(t, `^ioctl: `, err.Error())
		})
	}
}

func TestOpenRefusesOtherCharDevice(t *testing.T) {
	if _, err := os.Stat("/sys/dev/char/1:3"); err != nil {
		t.Skip("no /sys/dev/char/1:3 (/dev/null) to check the class of")
	}
	_, err := Open("/dev/null")
	require.ErrorIs(t, err, ErrNotController)
	assert.Contains(t, err.Error(), `class "mem"`)
}

func TestCheckController(t *testing.T) {
	noSysfs := unix.Mkdev(4095, 1048575) // a number sysfs does not know
	tests := []struct {
		name string
		path string
		mode uint32
		rdev uint64
		ok   bool
		msg  string
	}{
		{"namespace block device", "/dev/nvme0n1", unix.S_IFBLK, 0, false, "use the controller /dev/nvme0"},
		{"partition", "/dev/nvme12n1p3", unix.S_IFBLK, 0, false, "use the controller /dev/nvme12"},
		{"other block device", "/dev/sda", unix.S_IFBLK, 0, false, "is a block device, not an NVMe controller"},
		{"fifo", "/run/fifo", unix.S_IFIFO, 0, false, "is not a device"},
		{"controller by name", "/dev/nvme3", unix.S_IFCHR, noSysfs, true, ""},
		{"generic namespace by name", "/dev/ng1n2", unix.S_IFCHR, noSysfs, false, "use the controller /dev/nvme1"},
		{"unknown char device", "/dev/ttyS0", unix.S_IFCHR, noSysfs, false, "not named nvmeN"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkController(tt.path, tt.mode, tt.rdev)
			if tt.ok {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, ErrNotController)
			assert.Contains(t, err.Error(), tt.msg)
		})
	}
}

// openRegular opens a regular file as a device, bypassing Open's checks: the
// kernel answers both NVMe ioctls on it with ENOTTY, which exercises the
// fallback without hardware.
func openRegular(t *testing.T) *Device {
	t.Helper()
	f, err := os.CreateTemp(t.TempDir(), "fake")
	require.NoError(t, err)
	rc, err := f.SyscallConn()
	require.NoError(t, err)
	d := &Device{path: f.Name(), s: &device{f: f, rc: rc}}
	t.Cleanup(func() { _ = d.Close() })
	return d
}

func TestFallbackOnENOTTY(t *testing.T) {
	d := openRegular(t)
	dev := d.s.(*device)
	assert.Equal(t, modeUnknown, dev.mode.Load())

	_, err := d.GetAPST(context.Background())
	var ce *CommandError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, syscall.ENOTTY, ce.Errno)
	require.ErrorIs(t, err, ErrUnsupported)
	require.ErrorIs(t, err, errors.ErrUnsupported)
	require.NotErrorIs(t, err, os.ErrPermission)
	assert.Contains(t, err.Error(), "neither NVMe admin passthrough ioctl")
	assert.Equal(t, mode32, dev.mode.Load(), "the 32-bit ioctl is remembered")

	_, err = d.IdentifyController(context.Background())
	require.ErrorIs(t, err, ErrUnsupported)
	assert.Equal(t, mode32, dev.mode.Load())
}

func TestNoFallbackOnceADMIN64Worked(t *testing.T) {
	d := openRegular(t)
	dev := d.s.(*device)
	dev.mode.Store(mode64)
	_, err := d.GetPowerManagement(context.Background())
	require.ErrorIs(t, err, ErrUnsupported)
	assert.Equal(t, mode64, dev.mode.Load())
}

func TestConcurrentCommands(t *testing.T) {
	d := openRegular(t)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			_, err := d.IdentifyController(context.Background())
			assert.ErrorIs(t, err, ErrUnsupported)
			_, err = d.GetAPST(context.Background())
			assert.ErrorIs(t, err, ErrUnsupported)
		})
	}
	wg.Wait()
}

func TestClosedDevice(t *testing.T) {
	d := openRegular(t)
	require.NoError(t, d.Close())
	_, err := d.GetAPST(context.Background())
	require.ErrorIs(t, err, os.ErrClosed)
	require.ErrorIs(t, d.Close(), os.ErrClosed)
}

func TestCommandErrorErrno(t *testing.T) {
	tests := []struct {
		errno       syscall.Errno
		op          string
		permission  bool
		unsupported bool
		msg         string
	}{
		{syscall.EACCES, OpGetAPST, true, false, "Get Features needs CAP_SYS_ADMIN"},
		{syscall.EPERM, OpGetPowerManagement, true, false, "Get Features needs CAP_SYS_ADMIN"},
		{syscall.EACCES, OpIdentifyController, true, false, "kernels since v6.2 allow Identify"},
		{syscall.ENOTTY, OpIdentifyController, false, true, "inappropriate ioctl for device"},
		{syscall.EINVAL, OpGetAPST, false, false, "invalid argument"},
		{syscall.EINTR, OpGetAPST, false, false, "interrupted system call"},
	}
	for _, tt := range tests {
		t.Run(tt.errno.Error(), func(t *testing.T) {
			err := error(&CommandError{Op: tt.op, Errno: tt.errno})
			assert.Equal(t, tt.permission, errors.Is(err, os.ErrPermission))
			assert.Equal(t, tt.unsupported, errors.Is(err, ErrUnsupported))
			assert.Equal(t, tt.unsupported, errors.Is(err, errors.ErrUnsupported))
			require.ErrorIs(t, err, tt.errno)
			assert.Contains(t, err.Error(), tt.msg)
			assert.Contains(t, err.Error(), "ioctl: "+tt.op)
		})
	}
}

// TestRealDevice runs the three commands against the controller named by
// NVMEAPST_TEST_DEVICE (e.g. /dev/nvme0), usually as root.
func TestRealDevice(t *testing.T) {
	path := os.Getenv("NVMEAPST_TEST_DEVICE")
	if path == "" {
		t.Skip("set NVMEAPST_TEST_DEVICE=/dev/nvmeN to test against a real controller")
	}
	d, err := Open(path)
	require.NoError(t, err)
	defer d.Close()
	ctx := context.Background()

	img, err := d.IdentifyController(ctx)
	require.NoError(t, err)
	require.Len(t, img, powerstate.IdentifySize)
	c, err := powerstate.DecodeIdentify(img)
	require.NoError(t, err)
	t.Logf("%s: %s firmware %s, NPSS %d, APSTA %#x", path, c.Model, c.Firmware, c.NPSS, c.APSTA)

	pm, err := d.GetPowerManagement(ctx)
	if errors.Is(err, os.ErrPermission) {
		t.Skipf("Get Features: %v", err)
	}
	require.NoError(t, err)
	assert.LessOrEqual(t, int(pm.State), int(c.NPSS))
	t.Logf("power state %d, workload hint %d", pm.State, pm.WorkloadHint)

	feat, err := d.GetAPST(ctx)
	if c.APSTA == 0 {
		t.Logf("APSTA is 0; Get Features APST: %v", err)
		return
	}
	require.NoError(t, err)
	t.Logf("APSTE %v, table %v", feat.APSTE, feat.Table)
}
