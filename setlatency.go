package nvmeapst

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/persist"
)

// LatencyChange is the result of [System.SetLatency].
//
// The zero LatencyChange is not one SetLatency returns (that names the
// controller, with valid Old and New): it names no controller, its Old and
// New are the unset Tolerance and its Bound is 0.
type LatencyChange struct {
	// Controller is the controller's name.
	Controller string
	// Old and New are pm_qos_latency_tolerance_us before and after.
	Old, New apst.Tolerance
	// Bound is the ps_max_latency_us New gives.
	Bound apst.Microseconds
	// Report is the controller inspected after the write: Report.Plan is
	// the table the kernel now builds, Report.Drive the one the drive
	// reports (when readable), and Report.Verdict compares them.
	Report ControllerReport
	// Persist says how to make the setting survive a reboot.
	Persist Persistence
}

// Persistence says how to make a latency tolerance permanent.
//
// The zero Persistence offers no way to make the setting last: no file,
// rule, command, kernel parameter or modprobe option, and no notes.
type Persistence struct {
	// UdevFile is where to put UdevRule.
	UdevFile string
	// UdevRule sets the tolerance of every controller of this model (every
	// capacity of it), guarded so it writes only where the attribute exists;
	// matched by serial number when the model cannot be quoted in a rule,
	// and empty when neither can (a rule keyed on the controller's name
	// would follow probe order, which changes between boots): Notes then
	// says so.
	UdevRule string
	// UdevReload applies the rule without a reboot.
	UdevReload string
	// KernelParameter sets the module default for every controller on the
	// kernel command line.
	KernelParameter string
	// ModprobeOption is the same for an nvme_core built as a module
	// (/etc/modprobe.d/nvme-apst.conf; rebuild the initramfs afterwards).
	ModprobeOption string
	// Notes explain the choices.
	Notes []string
}

// SetLatency writes value ("25000", "auto", "any", "0") to the controller's
// power/pm_qos_latency_tolerance_us, reads it back, and reports the table the
// kernel now builds and how to make the setting persistent.
//
// The value is validated by the kernel's rules first: a value the kernel
// would reject with EINVAL returns an error wrapping
// apst.ErrInvalidTolerance and nothing is written. A controller without the
// attribute returns an error wrapping sysfs.ErrAPSTDisabled, an unknown one
// ErrNoController. A controller that cannot be read (an attribute
// unreadable, or a FIFO or device where one should be) is refused with
// nothing written. In these cases, and when the write itself fails, the
// returned *LatencyChange is nil.
//
// Once the value has been written and reads back as asked, the returned
// *LatencyChange is never nil, so that a caller can tell that sysfs was
// changed: an error after that point (reading the controller back for the
// report) is returned beside it, with the change's Report holding what could
// be read; so is the error of a ctx done while it is read back (the report
// would otherwise say the drive could not be read). A ctx done before the
// call writes nothing: the error wraps its cause.
func (s *System) SetLatency(ctx context.Context, name, value string) (*LatencyChange, error) {
	if s == nil {
		return nil, nilSystem("set latency")
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("nvmeapst: set latency: %w", context.Cause(ctx))
	}
	want, err := apst.ParseTolerance(value)
	if err != nil {
		return nil, err
	}
	if !validControllerName(name) {
		return nil, fmt.Errorf("%w: %q is not a controller name (want nvmeN; namespaces such as nvme0n1 belong to a controller)", ErrNoController, name)
	}
	if _, err := s.FS.Controller(name); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%w: %s (%v)", ErrNoController, name, err)
		}
		return nil, fmt.Errorf("nvmeapst: %s: nothing written, the controller cannot be read: %w", name, err)
	}
	old, got, err := s.FS.SetLatencyTolerance(name, value)
	if err != nil {
		return nil, err
	}
	if got != want {
		return nil, fmt.Errorf("nvmeapst: %s: wrote %q but pm_qos_latency_tolerance_us reads back %s", name, value, got)
	}
	ch := &LatencyChange{Controller: name, Old: old, New: got, Bound: got.Bound()}
	rd := s.beginRead(needCheck | needPower)
	defer rd.end()
	c, err := rd.sys.FS.Controller(name)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			err = fmt.Errorf("%w: %s (%v)", ErrNoController, name, err)
		}
		ch.Report = ControllerReport{Name: name}
		return ch, fmt.Errorf("nvmeapst: %s: the value was written, but the controller cannot be read back: %w", name, err)
	}
	ch.Report, _ = rd.controller(ctx, c)
	ch.Persist = persistence(ch.Report, got)
	if ctx.Err() != nil {
		return ch, fmt.Errorf("nvmeapst: %s: the value was written, but reading the controller back was cut short: %w", name, context.Cause(ctx))
	}
	return ch, nil
}

// persistence makes the setting last, every line of it rendered by
// package persist: the udev rule keyed on the model (every capacity of it,
// when the model ends in one), so that it reaches every drive of the model
// and survives a drive's replacement, or on the serial number when the
// model cannot be quoted; and the kernel parameter and modprobe option of
// the module default.
func persistence(r ControllerReport, t apst.Tolerance) Persistence {
	p := Persistence{UdevFile: persist.UdevFile, UdevReload: persist.UdevReload}
	serial := strings.TrimSpace(r.Sysfs.Serial)
	model := strings.TrimSpace(r.Sysfs.Model)
	if r.Identify != nil {
		if serial == "" {
			serial = strings.TrimSpace(r.Identify.Serial)
		}
		if model == "" {
			model = strings.TrimSpace(r.Identify.Model)
		}
	}
	family, _ := persist.ModelFamily(model)
	if rule, err := persist.UdevRule(persist.ModelScope(family), t); model != "" && err == nil {
		p.UdevRule = rule
		p.Notes = append(p.Notes, fmt.Sprintf("the rule matches every drive whose model matches %q, because controller names (nvme0, nvme1) follow probe order and can change between boots; for this one drive only, key it on ATTR{serial}==%q instead (apstctl persist --serial)", family, serial))
	} else if rule, err := persist.UdevRule(persist.SerialScope(serial), t); serial != "" && err == nil {
		p.UdevRule = rule
		p.Notes = append(p.Notes, "the model cannot be quoted in a udev rule, so the rule matches this drive's serial number: a second drive of the same model is not reached")
	} else {
		p.Notes = append(p.Notes, "no udev rule: the model and serial number are unknown or cannot be quoted in one, and a controller's name changes between boots; use the kernel parameter, or write the value at boot another way")
	}
	if p.UdevRule != "" {
		p.Notes = append(p.Notes, "ACTION==\"change\" catches the NVME_EVENT=connected uevent (Linux 5.18 and later) sent once the controller is live, when the attribute exists; at \"add\" it may not exist yet, and TEST skips a controller without it")
	}
	b := t.Bound()
	if o, err := persist.Render(persist.Setting{Bound: b, Scope: persist.AllControllers()}, persist.FormCmdline); err == nil {
		p.KernelParameter = o.Text
		p.Notes = append(p.Notes, o.Notes...)
	}
	p.ModprobeOption = persist.ModprobeOption(b)
	if t.Kind != apst.ToleranceValue {
		p.Notes = append(p.Notes, t.String()+" means no limit; the module parameter has no such keyword, but any value of "+strconv.Itoa(apst.LatencyAny)+" or more gives no limit (the attribute then reads any)")
	}
	return p
}
