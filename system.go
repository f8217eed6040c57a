package nvmeapst

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/internal/safeio"
	"github.com/nvmeapst/nvmeapst/ioctl"
	"github.com/nvmeapst/nvmeapst/sysfs"
)

// Opener opens the admin command path of an NVMe controller by its name
// ("nvme0"). It is the seam between the reports of this package and the
// hardware: [DevOpener] opens the character devices under /dev, a bundle
// serves the data it recorded, and tests use the fakes of package
// ioctl/ioctltest.
//
// Ownership: every ioctl.Controller that OpenController returns belongs to
// the caller, which closes it when done; [System.Inspect] and the other
// reports close each one they open before they return. An Opener that hands
// out a shared controller (a reused fake) must therefore return a fresh
// handle per call, or one whose Close does not end the shared one. A nil
// controller returned with a nil error is taken as a controller that could
// not be opened.
type Opener interface {
	OpenController(ctx context.Context, name string) (ioctl.Controller, error)
}

// openController opens controller name through o; a nil controller with a
// nil error (an Opener's slip) is an error, never a nil controller to send
// commands to.
func openController(ctx context.Context, o Opener, name string) (ioctl.Controller, error) {
	d, err := o.OpenController(ctx, name)
	if err == nil && d == nil {
		return nil, fmt.Errorf("nvmeapst: the Opener returned neither a controller nor an error for %s", name)
	}
	return d, err
}

// OpenerFunc adapts a function to the Opener interface.
type OpenerFunc func(ctx context.Context, name string) (ioctl.Controller, error)

// OpenController calls f.
func (f OpenerFunc) OpenController(ctx context.Context, name string) (ioctl.Controller, error) {
	return f(ctx, name)
}

// DevOpener returns an Opener that opens the controller character device
// dir/NAME (e.g. /dev/nvme0) with ioctl.Open. On systems other than Linux
// every open fails with an error matching ioctl.ErrUnsupported.
func DevOpener(dir string) Opener {
	return OpenerFunc(func(_ context.Context, name string) (ioctl.Controller, error) {
		if !validControllerName(name) {
			return nil, fmt.Errorf("nvmeapst: %q is not an NVMe controller name (want nvmeN)", name)
		}
		d, err := ioctl.Open(filepath.Join(dir, name))
		if err != nil {
			return nil, err // never a typed nil in the interface
		}
		return d, nil
	})
}

// System is a machine to report on: a sysfs tree, a way to send admin
// commands to its controllers, and the kernel release. [Live] describes the
// running machine, [OpenBundle] one captured by [System.Collect], and tests
// build their own from fixture trees and fakes. A nil *System is refused
// with an error by every method, as is the zero System (its FS has no
// root), so a System a failed Live left nil reads and writes nothing.
type System struct {
	// FS is the sysfs tree (mounted at /sys on a live machine).
	FS sysfs.FS
	// Opener opens controllers for Identify and Get Features; nil means no
	// admin command can be sent, and the reports say so.
	Opener Opener
	// KernelRelease returns the kernel release (uname -r); nil means
	// unknown.
	KernelRelease func() (string, error)
	// Now returns the time recorded in a bundle's manifest; nil means
	// time.Now.
	Now func() time.Time
	// CommandLine returns the kernel command line (/proc/cmdline); nil
	// means unknown.
	CommandLine func() (string, error)
	// KernelLog opens the kernel log: /dev/kmsg read without blocking
	// (ReadKmsg) on a live machine, the NVMe and PCIe lines a bundle
	// recorded; nil means none. Diagnose and Collect look at their ctx
	// between lines but cannot interrupt a Read that blocks: a reader that
	// can block ends its Reads once the ctx it was given is done.
	KernelLog func(ctx context.Context) (io.ReadCloser, error)
}

// DefaultDevDir is where the controller character devices live.
const DefaultDevDir = "/dev"

// DefaultOSReleasePath is the file the live kernel release is read from.
const DefaultOSReleasePath = "/proc/sys/kernel/osrelease"

// DefaultProcDir is where ProcRelease reads the kernel's release files.
const DefaultProcDir = "/proc"

// Live returns the running machine: sysfs at /sys, controllers opened under
// /dev, and the kernel release from /proc (ProcRelease: osrelease with the
// stable base a distribution records).
func Live() (*System, error) {
	fs, err := sysfs.NewDefaultFS()
	if err != nil {
		return nil, fmt.Errorf("nvmeapst: live: %w", err)
	}
	return &System{
		FS:            fs,
		Opener:        DevOpener(DefaultDevDir),
		KernelRelease: ProcRelease(DefaultProcDir),
		CommandLine:   FileCmdline(DefaultCmdlinePath),
		KernelLog: func(ctx context.Context) (io.ReadCloser, error) {
			return ReadKmsg(ctx, DefaultKmsgPath)
		},
	}, nil
}

// FileRelease returns a KernelRelease function that reads the release from
// a file such as /proc/sys/kernel/osrelease (one bounded read, trimmed).
func FileRelease(path string) func() (string, error) {
	return func() (string, error) {
		b, err := readBounded(path, maxAttrSize)
		if err != nil {
			return "", fmt.Errorf("nvmeapst: kernel release: %w", err)
		}
		return strings.TrimSpace(string(b)), nil
	}
}

// ProcRelease returns a KernelRelease function that reads the release the
// way apst.ParseRelease takes it, from a /proc tree at procDir (a fixture
// elsewhere). It reads sys/kernel/osrelease (uname -r), followed, when the
// release is a distribution's X.Y.0-N, by the upstream stable base the
// distribution records: Ubuntu's version_signature ("Ubuntu
// 5.15.0-91.101-generic 5.15.131") or Debian's sys/kernel/version ("#1 SMP
// Debian 5.10.209-2 (2024-01-31)"), as "5.10.0-28-amd64 (Debian
// 5.10.209-2)". Without either, the release alone (its base unknown, which
// the quirk lookups then say). Each file is one bounded read; only
// osrelease is required.
func ProcRelease(procDir string) func() (string, error) {
	return func() (string, error) {
		b, err := readBounded(filepath.Join(procDir, "sys/kernel/osrelease"), maxAttrSize)
		if err != nil {
			return "", fmt.Errorf("nvmeapst: kernel release: %w", err)
		}
		rel := strings.TrimSpace(string(b))
		if r, err := apst.ParseRelease(rel); err != nil || !r.BaseUnknown {
			return rel, nil
		}
		if sig, err := readBounded(filepath.Join(procDir, "version_signature"), maxAttrSize); err == nil {
			if f := strings.Fields(string(sig)); len(f) >= 3 && f[0] == "Ubuntu" {
				return withBase(rel, "Ubuntu "+f[len(f)-1]), nil
			}
		}
		if v, err := readBounded(filepath.Join(procDir, "sys/kernel/version"), maxAttrSize); err == nil {
			if _, rest, ok := strings.Cut(string(v), " Debian "); ok {
				if f := strings.Fields(rest); len(f) > 0 {
					return withBase(rel, "Debian "+f[0]), nil
				}
			}
		}
		return rel, nil
	}
}

// withBase appends the base in parentheses when apst.ParseRelease reads
// the result; otherwise (a base of another series, say) the release alone.
func withBase(rel, base string) string {
	s := rel + " (" + base + ")"
	if _, err := apst.ParseRelease(s); err != nil {
		return rel
	}
	return s
}

// OpenRoot opens dir as a bundle written by [System.Collect] when it holds a
// manifest, and otherwise as a bare sysfs tree without admin commands (a
// fixture, or another machine's /sys mounted somewhere).
func OpenRoot(dir string) (*System, error) {
	if _, err := os.Stat(filepath.Join(dir, ManifestName)); err == nil {
		s, _, err := OpenBundle(dir)
		return s, err
	}
	fs, err := sysfs.NewFS(dir)
	if err != nil {
		return nil, fmt.Errorf("nvmeapst: open root: %w", err)
	}
	return &System{FS: fs}, nil
}

// nilSystem is the error of a method called on a nil *System: op is the
// method, as its other errors name it.
func nilSystem(op string) error {
	return fmt.Errorf("nvmeapst: %s: a nil *System: get one from Live, OpenRoot or OpenBundle", op)
}

func (s *System) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *System) kernelRelease() (string, error) {
	if s.KernelRelease == nil {
		return "", errors.New("kernel release unknown")
	}
	return s.KernelRelease()
}

// validControllerName reports whether name is nvme followed by digits, the
// name of a controller character device (not a namespace like nvme0n1).
func validControllerName(name string) bool {
	rest, ok := strings.CutPrefix(name, "nvme")
	if !ok || rest == "" || len(rest) > 10 {
		return false
	}
	for _, c := range rest {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// maxAttrSize bounds every read of a sysfs attribute or kernel file: sysfs
// attributes are at most one page.
const maxAttrSize = 4096

// readBounded reads at most limit bytes of a regular file without blocking
// (safeio.ReadFile: a named pipe or device is an error, never a hang); a
// longer file is an error, so a wrong path cannot exhaust memory.
func readBounded(path string, limit int64) ([]byte, error) {
	b, err := safeio.ReadFile(path, limit)
	if errors.Is(err, safeio.ErrTooLarge) {
		return nil, fmt.Errorf("read %s: longer than %d bytes: %w", path, limit, err)
	}
	return b, err
}
