package nvmeapst

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/measure"
	"github.com/nvmeapst/nvmeapst/internal/blockdev"
	"github.com/nvmeapst/nvmeapst/internal/errlist"
	"github.com/nvmeapst/nvmeapst/sysfs"
)

// ErrNeedsRoot: opening a target lacks a right a live measurement needs
// (writing the tolerance file, reading the block device). Nothing is
// changed.
var ErrNeedsRoot = errors.New("nvmeapst: measure needs root")

// TargetOptions are the knobs of [System.OpenTarget].
//
// The zero TargetOptions is the default: the block device in /dev
// (DefaultDevDir), opened O_RDONLY|O_DIRECT (Linux only).
type TargetOptions struct {
	// DevDir is where the namespace's block device is; "" means
	// DefaultDevDir (/dev).
	DevDir string
	// OpenDrive opens the block device at a path; nil opens it
	// O_RDONLY|O_DIRECT (Linux only). A drive that is also an io.Closer is
	// closed by Target.Close.
	OpenDrive func(path string) (measure.Drive, error)
}

// Target is a live namespace opened for a measurement ([measure.Run]): its block device,
// its controller's pm_qos_latency_tolerance_us and I/O counters, and the
// controller's inspection (Identify data and the machine's parameters).
// Close it when done.
//
// The zero Target has nothing to measure: Config refuses it with an error
// wrapping measure.ErrSetup, Setup has no controller (so measure.Run
// refuses it), and Close does nothing.
type Target struct {
	// Disk is the namespace ("nvme0n1"), Controller its controller
	// ("nvme0").
	Disk, Controller string
	// DevicePath is the block device read; TolerancePath the file written.
	DevicePath, TolerancePath string
	// Report is the controller's inspection; Report.Identify is not nil
	// and Report.Params are the parameters every configuration starts from.
	Report ControllerReport
	// Drive, Tolerance and Counters are the live implementations.
	Drive     measure.Drive
	Tolerance measure.ToleranceFile
	Counters  measure.IOCounters
}

// OpenTarget opens the namespace disk ("nvme0n1" or "/dev/nvme0n1")
// of the machine for a measurement, changing nothing. It finds the
// controller serving it, checks that its pm_qos_latency_tolerance_us can be
// written (by opening it write-only, without writing), opens the block
// device read-only with O_DIRECT and reads the controller's Identify data.
// Rights that are missing are reported together in one error wrapping
// ErrNeedsRoot and os.ErrPermission. A namespace no controller serves wraps
// ErrNoController; a controller the kernel has APST disabled for wraps
// sysfs.ErrAPSTDisabled.
func (s *System) OpenTarget(ctx context.Context, disk string, opt TargetOptions) (*Target, error) {
	if s == nil {
		return nil, nilSystem("open target")
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("nvmeapst: open target: %w", context.Cause(ctx))
	}
	disk = strings.TrimPrefix(disk, "/dev/")
	if !validNamespaceName(disk) {
		return nil, fmt.Errorf("nvmeapst: %q is not an NVMe namespace block device (want nvmeNnM, e.g. nvme0n1)", disk)
	}
	ctrl, err := s.namespaceController(ctx, disk)
	if err != nil {
		return nil, err
	}
	if !ctrl.HasTolerance {
		return nil, fmt.Errorf("%w: %s (serving %s) has no power/pm_qos_latency_tolerance_us, so no bound can be set: nothing to measure",
			sysfs.ErrAPSTDisabled, ctrl.Name, disk)
	}
	t := &Target{
		Disk: disk, Controller: ctrl.Name,
		TolerancePath: filepath.Join(s.FS.Root(), filepath.FromSlash(path.Join("class/nvme", ctrl.Name, toleranceAttr))),
	}
	dir := opt.DevDir
	if dir == "" {
		dir = DefaultDevDir
	}
	t.DevicePath = filepath.Join(dir, disk)

	var missing []error
	if err := checkWritable(t.TolerancePath); err != nil {
		if !errors.Is(err, os.ErrPermission) {
			return nil, fmt.Errorf("nvmeapst: measure: %w; nothing changed", err)
		}
		missing = append(missing, fmt.Errorf("cannot write %s: %w", t.TolerancePath, err))
	}
	open := opt.OpenDrive
	if open == nil {
		open = openBlockDevice
	}
	drive, err := open(t.DevicePath)
	if err != nil {
		if !errors.Is(err, os.ErrPermission) {
			return nil, fmt.Errorf("nvmeapst: measure: %w; nothing changed", err)
		}
		missing = append(missing, fmt.Errorf("cannot read %s: %w", t.DevicePath, err))
	} else {
		t.Drive = drive
	}
	if len(missing) == 0 {
		rep, err := s.Inspect(ctx, ctrl.Name)
		switch {
		case err != nil:
			t.Close()
			return nil, err
		case len(rep.Controllers) != 1:
			t.Close()
			return nil, fmt.Errorf("%w: %s", ErrNoController, ctrl.Name)
		}
		t.Report = rep.Controllers[0]
		if t.Report.Identify == nil {
			p := t.Report.IdentifyProblem
			if p == nil {
				p = t.Report.DeviceProblem
			}
			if p != nil && p.Permission {
				missing = append(missing, fmt.Errorf("cannot send Identify to %s: %w", ctrl.Name, p))
			} else {
				t.Close()
				return nil, fmt.Errorf("nvmeapst: measure needs %s's Identify data for the plans: %w; nothing changed", ctrl.Name, orUnknownProblem(p))
			}
		}
	}
	if len(missing) > 0 {
		t.Close()
		uid := ""
		if id := os.Geteuid(); id > 0 {
			uid = fmt.Sprintf(" (running as uid %d)", id)
		}
		return nil, fmt.Errorf("%w%s: %w; run it as root; nothing changed", ErrNeedsRoot, uid, errlist.Join(missing...))
	}
	t.Tolerance = sysfsTolerance{fs: s.FS, name: ctrl.Name}
	t.Counters = sysfsCounters{fs: s.FS, disks: ctrl.Disks}
	return t, nil
}

// orUnknownProblem gives a problem as an error, or says it is unknown.
func orUnknownProblem(p *Problem) error {
	if p == nil {
		return errors.New("the Identify data is unavailable")
	}
	return p
}

// Setup returns a measure.Setup with the target's Identify data, drive,
// tolerance file and I/O counters, on the wall clock; the caller adds the
// configurations and idle times.
func (t *Target) Setup() measure.Setup {
	if t == nil {
		return measure.Setup{}
	}
	return measure.Setup{Controller: t.Report.Identify, Drive: t.Drive, Clock: measure.RealClock{}, Tolerance: t.Tolerance, Counters: t.Counters}
}

// Config parses a configuration (apst.ParseConfig syntax, e.g.
// "pm-qos=25000" or "ps-max-latency-us=25000") on top of the machine's
// parameters. A configuration that changes anything but the bound (a
// module parameter, the kernel generation, the quirks) is an error
// wrapping measure.ErrSetup: the tolerance file sets only the bound
// (measure.ParseConfig on the inspected parameters). So is the zero
// Target, or a nil one, which has no inspection to start from.
func (t *Target) Config(text string) (measure.Config, error) {
	if t == nil || t.Report.Identify == nil {
		return measure.Config{}, fmt.Errorf("nvmeapst: %w: the target has no Identify data (the zero Target): open one with System.OpenTarget", measure.ErrSetup)
	}
	return measure.ParseConfig(text, t.Report.Params)
}

// Close closes the block device. It is safe to call twice, and on a nil
// *Target (that of a failed OpenTarget).
func (t *Target) Close() error {
	if t == nil {
		return nil
	}
	if c, ok := t.Drive.(io.Closer); ok {
		t.Drive = nil
		return c.Close()
	}
	return nil
}

// toleranceAttr is the tolerance file relative to a controller's folder.
const toleranceAttr = "power/pm_qos_latency_tolerance_us"

// validNamespaceName reports whether name is nvmeNnM.
func validNamespaceName(name string) bool {
	rest, ok := strings.CutPrefix(name, "nvme")
	if !ok {
		return false
	}
	c, ns, ok := strings.Cut(rest, "n")
	return ok && decimalDigits(c) && decimalDigits(ns)
}

// decimalDigits reports whether s is 1 to 10 decimal digits.
func decimalDigits(s string) bool {
	if s == "" || len(s) > 10 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// namespaceController finds the one controller serving disk.
func (s *System) namespaceController(ctx context.Context, disk string) (sysfs.Controller, error) {
	ctrls, err := s.FS.ControllersContext(ctx)
	if err != nil && len(ctrls) == 0 {
		return sysfs.Controller{}, err
	}
	var found []sysfs.Controller
	for _, c := range ctrls {
		for _, d := range c.Disks {
			if d.Name == disk {
				found = append(found, c)
				break
			}
		}
	}
	switch len(found) {
	case 0:
		return sysfs.Controller{}, fmt.Errorf("%w serves namespace %s", ErrNoController, disk)
	case 1:
		return found[0], nil
	}
	names := make([]string, len(found))
	for i, c := range found {
		names[i] = c.Name
	}
	return sysfs.Controller{}, fmt.Errorf("nvmeapst: namespace %s is served by %s (native multipath): a read may go through any of them, so no one controller's bound can be measured",
		disk, strings.Join(names, " and "))
}

// checkWritable opens a regular file write-only and closes it without
// writing, which for a sysfs attribute does not call its store handler.
func checkWritable(p string) error {
	fi, err := os.Stat(p)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", p)
	}
	f, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	return f.Close()
}

// openBlockDevice opens a namespace O_RDONLY|O_DIRECT.
func openBlockDevice(p string) (measure.Drive, error) {
	d, err := blockdev.Open(p)
	if err != nil {
		return nil, err // never a typed nil in the interface
	}
	return d, nil
}

// sysfsTolerance is a controller's tolerance file in a sysfs tree.
type sysfsTolerance struct {
	fs   sysfs.FS
	name string
}

func (t sysfsTolerance) Tolerance() (apst.Tolerance, error) {
	b, err := t.fs.ReadFile(path.Join("class/nvme", t.name, toleranceAttr))
	if err != nil {
		return apst.Tolerance{}, err
	}
	v, err := apst.ParseTolerance(string(b))
	if err != nil {
		return apst.Tolerance{}, fmt.Errorf("nvmeapst: %s %s: %w", t.name, toleranceAttr, err)
	}
	return v, nil
}

func (t sysfsTolerance) SetTolerance(v apst.Tolerance) error {
	_, got, err := t.fs.SetLatencyTolerance(t.name, v.String())
	if err != nil {
		return err
	}
	if got != v {
		return fmt.Errorf("nvmeapst: %s: wrote %s but %s reads back %s", t.name, v, toleranceAttr, got)
	}
	return nil
}

// sysfsCounters sums /sys/block/NAME/stat over a controller's namespaces.
type sysfsCounters struct {
	fs    sysfs.FS
	disks []sysfs.Disk
}

func (c sysfsCounters) IOActivity() (measure.IOActivity, error) {
	var sum blockdev.Stat
	for _, d := range c.disks {
		rel := path.Join("block", d.Name, "stat")
		b, err := c.fs.ReadFile(rel)
		if err != nil {
			return measure.IOActivity{}, err
		}
		st, err := blockdev.ParseStat(string(b))
		if err != nil {
			return measure.IOActivity{}, fmt.Errorf("nvmeapst: %s: %w", filepath.Join(c.fs.Root(), rel), err)
		}
		sum = sum.Add(st)
	}
	return measure.IOActivity{Requests: sum.Requests(), InFlight: sum.InFlight}, nil
}
