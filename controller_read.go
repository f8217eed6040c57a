package nvmeapst

import (
	"context"
	"errors"

	diag "github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/ioctl"
)

// readNeeds says what a caller of a controllerRead needs beyond the
// machine-wide inputs, the controller's sysfs attributes, Identify, the
// APST feature and the plan, which every report reads.
type readNeeds uint8

const (
	// needCheck: the verdict's comparison (analysis.Check: the entries that
	// differ, the search for configurations that reproduce a mismatched
	// table, the causes). Without it the verdict says only whether the
	// drive holds the table (analysis.Holds), as a scrape wants.
	needCheck readNeeds = 1 << iota
	// needPower: Get Features 02h (the power state and workload hint).
	needPower
	// needHealth: the SMART / Health log (Get Log Page 02h).
	needHealth
)

// controllerRead is one read of the machine for one call of Inspect,
// Diagnose, SetLatency or Metrics: every sysfs file through one session
// (sysfs.FS.Session: each file read once, one view of the machine), the
// kernel release and command line read once, the machine-wide inputs once,
// and each controller's admin commands through one open. Every report of
// the root package is made of it, so that what one report reads, and how
// it derives the plan and the verdict from it, is what the others do.
//
// It belongs to one call: begin it, read, end it. It is safe for the
// goroutine of that call only; System stays safe for concurrent use
// because every call has its own.
type controllerRead struct {
	// sys is the System with its FS the session and its kernel release
	// and command line read once.
	sys   System
	end   func()
	needs readNeeds
	rep   *Report
	m     *machine
	// release and cmdline read the System's functions once.
	release, cmdline onceValue
}

// controllerDevice is what one controllerRead read over the admin command
// path of a controller beyond its report: the health log.
type controllerDevice struct {
	health    *diag.HealthLog
	healthErr error
	// image is readMemo's entry of the Identify image read (nil without
	// one).
	image *imageMemo
}

// beginRead starts a read of s for one call.
func (s *System) beginRead(needs readNeeds) *controllerRead {
	rd := &controllerRead{sys: *s, needs: needs}
	var endFS, endOpener func()
	rd.sys.FS, endFS = s.FS.Session()
	rd.sys.Opener, endOpener = openerFor(s.Opener)
	rd.end = func() { endOpener(); endFS() }
	if f := s.KernelRelease; f != nil {
		rd.release.f = f
		rd.sys.KernelRelease = rd.release.get
	}
	if f := s.CommandLine; f != nil {
		rd.cmdline.f = f
		rd.sys.CommandLine = rd.cmdline.get
	}
	return rd
}

// onceValue is a function called once, on first use, by one call's
// goroutine.
type onceValue struct {
	f    func() (string, error)
	done bool
	v    string
	err  error
}

func (o *onceValue) get() (string, error) {
	if !o.done {
		o.v, o.err = o.f()
		o.done = true
	}
	return o.v, o.err
}

// machine returns the machine-wide inputs, read on first use.
func (rd *controllerRead) machine() (*Report, *machine) {
	if rd.m == nil {
		rd.rep, rd.m = rd.sys.machine()
		rd.m.lean = rd.needs&needCheck == 0
	}
	return rd.rep, rd.m
}

// device sends Identify, Get Features 0Ch, and as needed Get Features 02h
// and Get Log Page 02h to the controller of r, through one open.
func (rd *controllerRead) device(ctx context.Context, r *ControllerReport) controllerDevice {
	var out controllerDevice
	s := &rd.sys
	if s.Opener == nil {
		r.DeviceProblem = &Problem{Message: "no admin command path: the data source has no device access (a sysfs tree without a bundle's ioctl data)", Unsupported: true}
		out.healthErr = errors.New("no admin command path")
		return out
	}
	d, err := openController(ctx, s.Opener, r.Name)
	if err != nil {
		r.DeviceProblem = NewProblem(err)
		out.healthErr = err
		return out
	}
	defer d.Close()
	if img, err := d.IdentifyController(ctx); err != nil {
		r.IdentifyProblem = NewProblem(err)
	} else if c, im, err := readMemo.decode(img); err != nil {
		r.IdentifyProblem = NewProblem(err)
	} else {
		r.Identify, out.image = c, im
	}
	if f, err := d.GetAPST(ctx); err != nil {
		r.DriveProblem = NewProblem(err)
	} else {
		r.Drive = &f
	}
	if rd.needs&needPower != 0 {
		if pm, err := d.GetPowerManagement(ctx); err != nil {
			r.PowerProblem = NewProblem(err)
		} else {
			r.Power = &pm
		}
	}
	if rd.needs&needHealth != 0 {
		out.health, out.healthErr = readHealth(ctx, d)
	}
	return out
}

// readHealth reads and decodes the SMART / Health log of an open
// controller, when it can send Get Log Page.
func readHealth(ctx context.Context, d ioctl.Controller) (*diag.HealthLog, error) {
	hr, ok := d.(ioctl.HealthLogger)
	if !ok {
		return nil, errHealthNotAvailable
	}
	b, err := hr.HealthLog(ctx)
	if err != nil {
		return nil, err
	}
	h, err := diag.DecodeHealthLog(b)
	if err != nil {
		return nil, err
	}
	return &h, nil
}

// errHealthNotAvailable is the health log of a source that cannot send
// Get Log Page.
var errHealthNotAvailable = errors.New("the SMART / Health log is not available from this source")

// healthOnly reads the SMART / Health log of controller name alone (one
// whose sysfs folder could not be read).
func (rd *controllerRead) healthOnly(ctx context.Context, name string) (*diag.HealthLog, error) {
	if rd.sys.Opener == nil {
		return nil, errors.New("no admin command path")
	}
	d, err := openController(ctx, rd.sys.Opener, name)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return readHealth(ctx, d)
}
