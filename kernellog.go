package nvmeapst

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// DefaultKmsgPath is the kernel log device read on a live machine.
const DefaultKmsgPath = "/dev/kmsg"

// DefaultCmdlinePath is the kernel command line of a live machine.
const DefaultCmdlinePath = "/proc/cmdline"

// MaxKernelLog bounds the kernel log read from /dev/kmsg (the kernel's ring
// buffer is at most a few MiB; a larger read stops there).
const MaxKernelLog = 64 << 20

// FileCmdline returns a CommandLine function that reads a file such as
// /proc/cmdline (one bounded read, trimmed).
func FileCmdline(path string) func() (string, error) {
	return func() (string, error) {
		b, err := readBounded(path, maxAttrSize)
		if err != nil {
			return "", fmt.Errorf("nvmeapst: command line: %w", err)
		}
		return strings.TrimSpace(string(b)), nil
	}
}

// relevantLog copies the lines of r that can be kernel events (the NVMe
// and PCIe lines, kernlog.Relevant) into memory, at most limit bytes of
// them; a longer log keeps its last lines. It is how a bundle stores the
// log.
func relevantLog(ctx context.Context, r io.Reader, limit int) ([]byte, error) {
	var keep [][]byte
	size := 0
	err := kernlog.Lines(ctx, r, func(line []byte) {
		if !kernlog.Relevant(line) {
			return
		}
		keep = append(keep, bytes.Clone(line))
		size += len(line) + 1
		for size > limit && len(keep) > 0 {
			size -= len(keep[0]) + 1
			keep = keep[1:]
		}
	})
	var out bytes.Buffer
	for _, l := range keep {
		out.Write(l)
		out.WriteByte('\n')
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return out.Bytes(), fmt.Errorf("nvmeapst: kernel log: %w", err)
	}
	return out.Bytes(), nil
}
