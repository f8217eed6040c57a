package nvmeapst

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"syscall"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// ReadKmsg reads the kernel's log buffer from path (/dev/kmsg) without
// blocking: every record the buffer holds, up to the newest, then it
// stops. Only the NVMe and PCIe records (kernlog.Relevant) are kept, at
// most MaxKernelLog bytes of them (the newest), in the /dev/kmsg record
// format package kernlog reads. Records overwritten while reading are
// skipped. A file that is not a character device, or one whose reads are
// not /dev/kmsg records (it ends, as /dev/null does, or a record does not
// start "PRIORITY,SEQUENCE,MICROSECONDS,", as none of /dev/zero's does), is
// refused. Reading /dev/kmsg needs CAP_SYSLOG where kernel.dmesg_restrict
// is 1; the error then matches os.ErrPermission.
func ReadKmsg(ctx context.Context, path string) (io.ReadCloser, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("nvmeapst: kernel log: open %s: %w", path, err)
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, fmt.Errorf("nvmeapst: kernel log: %s: %w", path, err)
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFCHR {
		return nil, fmt.Errorf("nvmeapst: kernel log: %s is not a character device", path)
	}
	buf := make([]byte, 16<<10) // a record is at most about 8 KiB
	var keep [][]byte
	size := 0
	for n := 0; ; n++ {
		if n%256 == 0 && ctx.Err() != nil {
			return nil, fmt.Errorf("nvmeapst: kernel log: %w", ctx.Err())
		}
		k, err := syscall.Read(fd, buf)
		switch {
		case errors.Is(err, syscall.EAGAIN):
			var out bytes.Buffer
			for _, r := range keep {
				out.Write(r)
			}
			return io.NopCloser(&out), nil
		case errors.Is(err, syscall.EPIPE), errors.Is(err, syscall.EINTR):
			continue // records overwritten before we read them
		case err != nil:
			return nil, fmt.Errorf("nvmeapst: kernel log: read %s: %w", path, err)
		case k == 0:
			// /dev/kmsg never ends: without a record it says EAGAIN.
			return nil, fmt.Errorf("nvmeapst: kernel log: %s is not /dev/kmsg: it ended after %d records, where /dev/kmsg says there is nothing more to read", path, n)
		}
		rec := buf[:k]
		if !kmsgRecord(rec) {
			return nil, fmt.Errorf("nvmeapst: kernel log: %s is not /dev/kmsg: record %d starts %q, want PRIORITY,SEQUENCE,MICROSECONDS,FLAGS;MESSAGE", path, n+1, rec[:min(len(rec), 24)])
		}
		// The message ends at the first newline; continuation lines
		// (" SUBSYSTEM=...") follow.
		if i := bytes.IndexByte(rec, '\n'); i >= 0 {
			rec = rec[:i+1]
		}
		if !kernlog.Relevant(rec) {
			continue
		}
		keep = append(keep, bytes.Clone(rec))
		size += len(rec)
		for size > MaxKernelLog && len(keep) > 0 {
			size -= len(keep[0])
			keep = keep[1:]
		}
	}
}

// kmsgRecord reports whether rec starts as a /dev/kmsg record does: three
// decimal fields, each followed by a comma (priority, sequence number,
// microseconds), then the flags.
func kmsgRecord(rec []byte) bool {
	for range 3 {
		i := 0
		for i < len(rec) && rec[i] >= '0' && rec[i] <= '9' {
			i++
		}
		if i == 0 || i == len(rec) || rec[i] != ',' {
			return false
		}
		rec = rec[i+1:]
	}
	return true
}
