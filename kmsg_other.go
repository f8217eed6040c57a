//go:build !linux

package nvmeapst

import (
	"context"
	"fmt"
	"io"

	"github.com/nvmeapst/nvmeapst/ioctl"
)

// ReadKmsg reads the kernel's log buffer; it exists on Linux only.
func ReadKmsg(_ context.Context, path string) (io.ReadCloser, error) {
	return nil, fmt.Errorf("nvmeapst: kernel log: %s: %w", path, ioctl.ErrUnsupported)
}
