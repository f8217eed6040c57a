package nvmeapst

import (
	"errors"
	"os"

	"github.com/nvmeapst/nvmeapst/ioctl"
)

// Problem is a failure recorded in a report instead of failing it: a device
// that cannot be opened, a Get Features refused for lack of privilege, an
// Identify that timed out. It keeps the message and the classes callers test
// with errors.Is, and is itself an error, so that a bundle replays the
// failures it recorded exactly as the live machine produced them.
//
// The zero Problem is an error of no class: Error says that it has no
// message (the zero Problem), and Is matches nothing.
type Problem struct {
	// Message is the error text.
	Message string `json:"error"`
	// Permission: the error matched os.ErrPermission (the command needs
	// root or CAP_SYS_ADMIN, or the device node is not readable).
	Permission bool `json:"permission,omitempty"`
	// NotExist: the error matched os.ErrNotExist.
	NotExist bool `json:"not_exist,omitempty"`
	// Unsupported: the error matched ioctl.ErrUnsupported or
	// errors.ErrUnsupported (not Linux, or no device access).
	Unsupported bool `json:"unsupported,omitempty"`
	// Bundle: the error matched ErrBundle (a bundle's file is missing,
	// too large, or not what collect writes): the bundle is damaged, which
	// a live machine's failure (no root, a device that does not answer)
	// is not.
	Bundle bool `json:"bundle,omitempty"`
}

// NewProblem records err; nil gives nil.
func NewProblem(err error) *Problem {
	if err == nil {
		return nil
	}
	var p *Problem
	if errors.As(err, &p) && p.Message == err.Error() {
		c := *p
		return &c
	}
	return &Problem{
		Message:     err.Error(),
		Permission:  errors.Is(err, os.ErrPermission),
		NotExist:    errors.Is(err, os.ErrNotExist),
		Unsupported: errors.Is(err, ioctl.ErrUnsupported) || errors.Is(err, errors.ErrUnsupported),
		Bundle:      errors.Is(err, ErrBundle),
	}
}

// Error returns the message; the zero Problem, which has none, says so.
func (p *Problem) Error() string {
	if p.Message == "" {
		return "nvmeapst: a problem with no message (the zero Problem)"
	}
	return p.Message
}

// Err returns p as an error, and a nil error (not a nil *Problem in an
// error interface, which would compare non-nil) when p is nil. Report
// fields hold *Problem, nil when nothing failed, so convert them with Err
// before returning or comparing them as errors.
func (p *Problem) Err() error {
	if p == nil {
		return nil
	}
	return p
}

// Is matches os.ErrPermission, os.ErrNotExist, ioctl.ErrUnsupported and
// errors.ErrUnsupported as the original error did.
func (p *Problem) Is(target error) bool {
	switch target {
	case os.ErrPermission:
		return p.Permission
	case os.ErrNotExist:
		return p.NotExist
	case ioctl.ErrUnsupported, errors.ErrUnsupported:
		return p.Unsupported
	}
	return false
}
