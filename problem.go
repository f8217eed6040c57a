package nvmeapst

import (
	"errors"
	"os"
	"strings"

	"github.com/nvmeapst/nvmeapst/ioctl"
)

// Problem is a failure recorded in a report instead of failing it: a device
// that cannot be opened, a Get Features refused for lack of privilege, an
// Identify that timed out. It keeps the message and the classes callers test
// with errors.Is, and is itself an error, so that a bundle replays the
// failures it recorded exactly as the live machine produced them.
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
	}
}

// Error returns the message.
func (p *Problem) Error() string { return p.Message }

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

// hint returns a short advice for the problem's class, or "".
func (p *Problem) hint() string {
	switch {
	case p == nil:
		return ""
	case p.Permission && strings.Contains(p.Message, "CAP_SYS_ADMIN"):
		return "" // the message says it already
	case p.Permission:
		return "run as root: Get Features needs CAP_SYS_ADMIN, and kernels before v6.2 require it for Identify too"
	case p.Unsupported:
		return "admin commands are only sent on Linux"
	}
	return ""
}
