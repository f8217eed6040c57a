package nvmeapst

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"

	diag "github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
	"github.com/nvmeapst/nvmeapst/apst/persist"
)

// DiagnoseOptions says what System.Diagnose reads.
//
// The zero DiagnoseOptions is the default: it reads the system's own log
// and diagnoses the controller of the log's most severe failure (else the
// first), with nothing tried and the platform guessed.
type DiagnoseOptions struct {
	// Log is a kernel log to read (a pasted one); nil reads the system's
	// own (System.KernelLog: /dev/kmsg live, kern.log in a bundle).
	Log io.Reader
	// Controller is the controller to diagnose ("nvme0"); empty picks the
	// one of the log's most severe failure, else the first one.
	Controller string
	// Tried are the settings already tried (diag.ParseTried), Platform
	// how the machine boots (unknown: guessed); see diag.Input.
	Tried    []diag.Tried
	Platform persist.Platform
}

// Diagnosis is what System.Diagnose finds: the ranked causes (package
// diagnose), the facts they rest on and the log they were read from.
//
// The zero Diagnosis explains nothing (the zero diagnose.Diagnosis) from
// facts that know nothing, with no log and no problem recorded.
type Diagnosis struct {
	diag.Diagnosis
	// Facts are the facts read for the controller.
	Facts diag.Facts
	// Log is the kernel log as read; nil when there was none (LogProblem
	// then says why).
	Log        *kernlog.Log
	LogProblem *Problem
	// Problems are the other inputs that could not be read (Identify,
	// the SMART / Health log, sysfs files).
	Problems []*Problem
}

// Diagnose reads the power-management facts of the controllers, the kernel
// log and the APST plan, and ranks the layers that can have made the
// controller drop out, reset or stall (see package diagnose). Inputs that
// cannot be read are recorded, not fatal; Diagnose fails only when sysfs
// cannot be enumerated and no log was given, when a named controller does
// not exist (ErrNoController), or when ctx is done.
func (s *System) Diagnose(ctx context.Context, opts DiagnoseOptions) (*Diagnosis, error) {
	if s == nil {
		return nil, nilSystem("diagnose")
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("nvmeapst: diagnose: %w", context.Cause(ctx))
	}
	rd := s.beginRead(needHealth)
	defer rd.end()
	names, err := rd.sys.FS.ControllerNames()
	if err != nil && opts.Log == nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, noControllers("nvmeapst: diagnose", err)
		}
		return nil, fmt.Errorf("nvmeapst: diagnose: %w", err)
	}
	if opts.Controller != "" && !slices.Contains(names, opts.Controller) {
		return nil, fmt.Errorf("%w: %s", ErrNoController, opts.Controller)
	}
	d := &Diagnosis{}
	facts := map[string]diag.Facts{}
	addrs := map[string]string{}
	for _, n := range names {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("nvmeapst: diagnose: %w", context.Cause(ctx))
		}
		f, probs := rd.sys.PowerFacts(n)
		d.Problems = append(d.Problems, probs...)
		facts[n] = f
		for _, fn := range f.Path {
			// kernlog takes addresses as the kernel prints them: a
			// bundle's odd directory name joins no line, and is left out.
			if kernelPCIAddress(fn.Address) && (len(addrs) < kernlog.MaxAddresses || addrs[fn.Address] != "") && validControllerName(n) {
				addrs[fn.Address] = n
			}
		}
	}
	log := opts.Log
	if log == nil && s.KernelLog != nil {
		rc, err := s.KernelLog(ctx)
		if err != nil {
			d.LogProblem = NewProblem(err)
		} else {
			defer rc.Close()
			log = rc
		}
	} else if log == nil {
		d.LogProblem = &Problem{Message: "no kernel log: the data source has none", Unsupported: true}
	}
	pasted := opts.Log != nil
	if log != nil {
		o := kernlog.Options{Addresses: addrs}
		if pasted {
			// A pasted log may be another machine's: read its own
			// addresses, to match them with this machine's below.
			o.Addresses = nil
		}
		l, err := kernlog.Read(ctx, log, o)
		if ctx.Err() != nil {
			return nil, fmt.Errorf("nvmeapst: diagnose: %w", context.Cause(ctx))
		}
		if !pasted && errors.Is(err, kernlog.ErrEmpty) {
			// The machine's own log (a bundle's kern.log keeps only its
			// NVMe and PCIe lines) with no line in it: nothing failed
			// there, which the diagnosis says; a pasted one is refused.
			err = nil
		}
		if err != nil {
			d.LogProblem = NewProblem(err)
		}
		d.Log = l
	}
	name := opts.Controller
	if name == "" && d.Log != nil {
		if c := diag.Subject(d.Log); slices.Contains(names, c) {
			name = c
		}
	}
	if name == "" && len(names) > 0 {
		name = names[0]
	}
	in := diag.Input{Controller: name, Facts: facts[name], Log: d.Log, Tried: opts.Tried, Platform: opts.Platform}
	mine := name != "" && slices.Contains(names, name)
	if mine && pasted {
		same, note := rd.sys.pastedLogMatches(d.Log, name, facts[name])
		d.Notes = append(d.Notes, note)
		if !same {
			in.Facts, mine = diag.Facts{Controller: name}, false
		}
	}
	if mine {
		ctrls, _, err := rd.sys.controllers(ctx, "diagnose", []string{name})
		if err != nil {
			return nil, err
		}
		var dev controllerDevice
		if len(ctrls) == 1 {
			rep, _ := rd.machine()
			var cr ControllerReport
			cr, dev = rd.controller(ctx, ctrls[0])
			if ctx.Err() != nil {
				return nil, fmt.Errorf("nvmeapst: diagnose %s: %w", name, context.Cause(ctx))
			}
			in.Identify, in.Params, in.Plan, in.Release = cr.Identify, cr.Params, cr.Plan, rep.Release
			if cr.IdentifyProblem != nil {
				d.Problems = append(d.Problems, cr.IdentifyProblem)
			}
			if cr.DeviceProblem != nil {
				d.Problems = append(d.Problems, cr.DeviceProblem)
			}
		} else {
			dev.health, dev.healthErr = rd.healthOnly(ctx, name)
		}
		if dev.healthErr != nil {
			in.Facts.HealthError = dev.healthErr.Error()
		} else {
			in.Facts.Health = dev.health
		}
	}
	d.Facts = in.Facts
	notes := d.Notes
	d.Diagnosis = diag.Diagnose(in)
	d.Notes = append(notes, d.Notes...)
	if d.LogProblem != nil {
		d.Notes = append(d.Notes, "the kernel log could not be read: "+d.LogProblem.Message)
	}
	return d, nil
}

// PowerFacts reads what the machine says about controller n's power
// management, for a diagnosis or a report. It reads the kernel release and
// command line, the controller's state and diag/ counters, the ASPM
// policy, and the power and link files of its PCI function and every bridge
// up to the root port (sysfs.FS.Power). Files that cannot be read are facts with status
// unreadable and problems; absent ones are "not exposed here".
func (s *System) PowerFacts(n string) (diag.Facts, []*Problem) {
	f := diag.Facts{Controller: n}
	if s == nil {
		return f, []*Problem{NewProblem(nilSystem("power facts"))}
	}
	if s.CommandLine != nil {
		v, err := s.CommandLine()
		f.CommandLine = readFact(DefaultCmdlinePath, v, err)
	}
	if v, err := s.kernelRelease(); err == nil {
		f.KernelRelease = diag.Fact{Source: "uname -r", Value: v, Status: diag.Read}
	}
	pf, errs, err := s.FS.PowerFacts(n)
	if err != nil {
		return f, []*Problem{NewProblem(err)}
	}
	pf.CommandLine, pf.KernelRelease = f.CommandLine, f.KernelRelease
	probs := make([]*Problem, 0, len(errs))
	for _, e := range errs {
		probs = append(probs, NewProblem(e))
	}
	return pf, probs
}

// readFact is a fact read from a file outside sysfs.
func readFact(src, v string, err error) diag.Fact {
	switch {
	case errors.Is(err, errNotRecorded):
		return diag.Fact{Source: src, Status: diag.Unknown}
	case err != nil:
		return diag.Fact{Source: src, Status: diag.Unreadable, Error: err.Error()}
	}
	return diag.Fact{Source: src, Value: v, Status: diag.Read}
}

// errNotRecorded is a bundle's answer for a file it did not record.
var errNotRecorded = errors.New("not recorded in the bundle")

// pastedLogMatches tells whether the pasted log l is this machine's, for
// controller name: the PCI address the log gives name and its kernel
// release must be this machine's (a log of another machine names nvme0
// too). It returns the note that says what was matched, or why the
// machine's facts are not used.
func (s *System) pastedLogMatches(l *kernlog.Log, name string, f diag.Facts) (bool, string) {
	var logAddr, addr string
	if l != nil {
		for a, c := range l.Addresses {
			if c == name && (logAddr == "" || a < logAddr) {
				logAddr = a
			}
		}
	}
	if len(f.Path) > 0 {
		addr = f.Path[0].Address
	}
	rel, _ := s.kernelRelease()
	logRel := ""
	if l != nil {
		logRel = l.Release
	}
	var differ, matched []string
	switch {
	case logAddr != "" && addr != "" && logAddr != addr:
		differ = append(differ, fmt.Sprintf("the log's %s is at PCI address %s, this machine's at %s", name, logAddr, addr))
	case logAddr != "" && addr != "":
		matched = append(matched, "PCI address "+addr)
	}
	switch {
	case logRel != "" && rel != "" && logRel != rel:
		differ = append(differ, fmt.Sprintf("the log's kernel is %s, this machine's %s", logRel, rel))
	case logRel != "" && rel != "":
		matched = append(matched, "kernel "+rel)
	}
	if len(differ) > 0 {
		return false, "the pasted log is not this machine's (" + strings.Join(differ, "; ") + "): diagnosed from the log alone, without this machine's facts, Identify data or health log"
	}
	if len(matched) == 0 {
		return true, "the pasted log names no PCI address or kernel release to match with this machine: this machine's facts for " + name + " are used as if the log were its own"
	}
	return true, "the pasted log matches this machine's " + name + " (" + strings.Join(matched, ", ") + "): its facts are used"
}

// kernelPCIAddress reports whether a is a PCI address in the form the
// kernel prints: "0000:04:00.0", lower-case hex.
func kernelPCIAddress(a string) bool {
	l, ok := parsePCIAddress(a)
	return ok && a == l.Segment+":"+l.Bus+":"+l.Device+"."+l.Function
}
