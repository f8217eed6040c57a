package ioctltest

import (
	"context"
	"fmt"
	"io/fs"
	"slices"
	"sync"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/ioctl"
)

// Device is a fake NVMe controller implementing ioctl.Controller.
type Device struct {
	// Errs maps a command name (ioctl.OpIdentifyController, ioctl.OpGetAPST
	// or ioctl.OpGetPowerManagement) to the error that command returns
	// instead of its fixture. Set it before the Device is shared between
	// goroutines, or use SetError, which is safe at any time.
	Errs map[string]error

	mu       sync.Mutex
	identify []byte
	feature  apst.Feature
	pm       ioctl.PowerManagement
	health   []byte
	calls    map[string]int
	closed   bool
}

var _ ioctl.Controller = (*Device)(nil)

// New returns a fake controller that answers Identify Controller with a copy
// of identify (served as given: use a 4096-byte image for realistic tests),
// Get Features APST with feature and Get Features Power Management with pm.
func New(identify []byte, feature apst.Feature, pm ioctl.PowerManagement) *Device {
	return &Device{identify: slices.Clone(identify), feature: feature, pm: pm}
}

// IdentifyController returns a copy of the identify fixture, or the error
// set for ioctl.OpIdentifyController.
func (d *Device) IdentifyController(ctx context.Context) ([]byte, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.serve(ctx, ioctl.OpIdentifyController); err != nil {
		return nil, err
	}
	return slices.Clone(d.identify), nil
}

// GetAPST returns the APST feature fixture, or the error set for
// ioctl.OpGetAPST.
func (d *Device) GetAPST(ctx context.Context) (apst.Feature, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.serve(ctx, ioctl.OpGetAPST); err != nil {
		return apst.Feature{}, err
	}
	return d.feature, nil
}

// GetPowerManagement returns the power management fixture, or the error set
// for ioctl.OpGetPowerManagement.
func (d *Device) GetPowerManagement(ctx context.Context) (ioctl.PowerManagement, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.serve(ctx, ioctl.OpGetPowerManagement); err != nil {
		return ioctl.PowerManagement{}, err
	}
	return d.pm, nil
}

// SetHealthLog sets the SMART / Health log page HealthLog serves (a copy of
// page); without one HealthLog fails with an error matching
// ioctl.ErrUnsupported, as a source without the page does.
func (d *Device) SetHealthLog(page []byte) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.health = slices.Clone(page)
}

// HealthLog returns a copy of the page SetHealthLog set, or the error set
// for ioctl.OpGetHealthLog.
func (d *Device) HealthLog(ctx context.Context) ([]byte, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := d.serve(ctx, ioctl.OpGetHealthLog); err != nil {
		return nil, err
	}
	if d.health == nil {
		return nil, fmt.Errorf("ioctltest: %s: no fixture: %w", ioctl.OpGetHealthLog, ioctl.ErrUnsupported)
	}
	return slices.Clone(d.health), nil
}

var _ ioctl.HealthLogger = (*Device)(nil)

// Close marks the device closed: later commands, and a second Close, fail
// with an error wrapping fs.ErrClosed, as a real device's do.
func (d *Device) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return fmt.Errorf("ioctltest: close: %w", fs.ErrClosed)
	}
	d.closed = true
	return nil
}

// serve applies what every command does before answering: a done ctx
// sends nothing, a closed device fails, and an injected error wins.
// d.mu is held.
func (d *Device) serve(ctx context.Context, op string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("ioctltest: %s: %w", op, err)
	}
	if d.closed {
		return fmt.Errorf("ioctltest: %s: %w", op, fs.ErrClosed)
	}
	if d.calls == nil {
		d.calls = map[string]int{}
	}
	d.calls[op]++
	return d.Errs[op]
}

// SetError makes command op fail with err from now on; a nil err restores
// the fixture.
func (d *Device) SetError(op string, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if err == nil {
		delete(d.Errs, op)
		return
	}
	if d.Errs == nil {
		d.Errs = map[string]error{}
	}
	d.Errs[op] = err
}

// SetAPST replaces the APST feature fixture, as if the table on the
// controller had changed.
func (d *Device) SetAPST(feature apst.Feature) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.feature = feature
}

// SetPowerManagement replaces the power management fixture.
func (d *Device) SetPowerManagement(pm ioctl.PowerManagement) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.pm = pm
}

// Calls returns how many times command op was sent (whether it was answered
// with its fixture or with an injected error).
func (d *Device) Calls(op string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.calls[op]
}

// Closed reports whether Close was called.
func (d *Device) Closed() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.closed
}

// StatusError returns the error of command op completed by the controller
// with NVMe status status (see ioctl.Status), e.g. 0x4002 for Invalid Field
// in Command with DNR.
func StatusError(op string, status uint16) *ioctl.CommandError {
	return &ioctl.CommandError{Op: op, Status: status}
}

// ErrnoError returns the error of command op whose ioctl failed with errno
// (a syscall.Errno, for instance).
func ErrnoError(op string, errno error) *ioctl.CommandError {
	return &ioctl.CommandError{Op: op, Errno: errno}
}

// PermissionError returns the error an unprivileged caller gets for command
// op: errors.Is(err, os.ErrPermission) is true and the message says which
// privilege is needed.
func PermissionError(op string) *ioctl.CommandError {
	return &ioctl.CommandError{Op: op, Errno: fs.ErrPermission}
}
