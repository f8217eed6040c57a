package diagnose

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// Input is what a diagnosis reads. Every part may be missing; the answer
// then says what it could not check.
type Input struct {
	// Controller is the controller to diagnose ("nvme0"); empty means the
	// one of the log's most recent failure, else Facts.Controller.
	Controller string
	// Facts are what the machine says; the zero value knows nothing (a
	// pasted log alone).
	Facts Facts
	// Log is the kernel log read by kernlog.Read; nil when there is none.
	Log *kernlog.Log
	// Identify is the drive's Identify Controller data and Params the
	// kernel's inputs for it; without Identify the APST table is unknown.
	Identify *powerstate.Controller
	Params   apst.Params
	// Release is the kernel release (zero when unknown: the log's or the
	// facts' release is used when they have one).
	Release apst.Release
}

// Diagnosis is the answer.
type Diagnosis struct {
	// Controller is the controller diagnosed ("" when neither the log nor
	// the facts name one).
	Controller string
	// Summary says in one sentence what the evidence points at, and
	// whether APST is probably the cause.
	Summary string
	// APSTRuledOut reports that APST is unlikely, with the reason in
	// Summary and in the apst cause's Against.
	APSTRuledOut bool
	// Causes are the layers, most likely first.
	Causes []Cause
	// Incident is the failure diagnosed (the controller's most recent
	// incident with a failure in it), nil when the log has none.
	Incident *kernlog.Incident
	// Notes say what was assumed or could not be checked.
	Notes []string
}

// Cause returns the verdict on layer l.
func (d *Diagnosis) Cause(l Layer) *Cause {
	for i := range d.Causes {
		if d.Causes[i].Layer == l {
			return &d.Causes[i]
		}
	}
	return nil
}

// signals are the observations the rules weigh.
type signals struct {
	in          *Input
	ctrl        string
	dev         string // PCI address of the controller
	inc         *kernlog.Incident
	incidents   int // of this controller
	down        *kernlog.Event
	resume      *kernlog.Event
	linkDown    *kernlog.Event
	reset       *kernlog.Event // reset or probe failure, or not ready
	apstFailed  *kernlog.Event
	hint        *kernlog.Event
	aerPhys     []kernlog.Event
	aerOther    []kernlog.Event
	aerUncorr   []kernlog.Event
	timeouts    []kernlog.Event
	ioErrors    []kernlog.Event
	cmdline     string
	release     apst.Release
	releaseText string
	plan        *apst.Plan
	planErr     error
	notes       []string
}

// Diagnose ranks the layers for the input's controller.
func Diagnose(in Input) Diagnosis {
	s := observe(&in)
	d := Diagnosis{Controller: s.ctrl, Incident: s.inc, Notes: s.notes}
	for _, rule := range []func(*signals) builder{apstCause, aspmCause, d3coldCause, runtimePMCause, linkCause, powerLossCause, firmwareCause} {
		b := rule(s)
		d.Causes = append(d.Causes, b.done())
	}
	top := 0
	for _, c := range d.Causes {
		top = max(top, c.Score)
	}
	d.Causes = append(d.Causes, unknownCause(s, top).Cause)
	for i := range d.Causes {
		d.Causes[i].Likelihood = grade(d.Causes[i].Score)
		if d.Causes[i].Evidence == nil {
			d.Causes[i].Evidence = []Line{}
		}
		if d.Causes[i].Against == nil {
			d.Causes[i].Against = []Line{}
		}
		if d.Causes[i].Tests == nil {
			d.Causes[i].Tests = []Test{}
		}
	}
	order := Layers()
	slices.SortStableFunc(d.Causes, func(a, b Cause) int {
		if a.Score != b.Score {
			return b.Score - a.Score
		}
		return slices.Index(order, a.Layer) - slices.Index(order, b.Layer)
	})
	d.Summary, d.APSTRuledOut = summarize(s, &d)
	return d
}

// observe gathers the signals.
func observe(in *Input) *signals {
	s := &signals{in: in, ctrl: in.Controller, dev: in.Facts.Address}
	if s.dev == "" {
		if f := in.Facts.Device(); f != nil {
			s.dev = f.Address
		}
	}
	if s.ctrl == "" {
		s.ctrl = in.Facts.Controller
	}
	if in.Log != nil {
		s.pickIncident(in.Log)
		if s.dev == "" {
			for a, c := range in.Log.Addresses {
				if c == s.ctrl {
					s.dev = a
				}
			}
		}
	}
	s.cmdline = in.Facts.CommandLine.Value
	if !in.Facts.CommandLine.Known() && in.Log != nil {
		s.cmdline = in.Log.CommandLine
	}
	s.release = in.Release
	switch {
	case !s.release.IsZero():
		s.releaseText = s.release.String()
	case in.Facts.KernelRelease.Known():
		s.releaseText = in.Facts.KernelRelease.Value
	case in.Log != nil && in.Log.Release != "":
		s.releaseText = in.Log.Release
	}
	if s.release.IsZero() && s.releaseText != "" {
		s.release, _ = apst.ParseRelease(s.releaseText)
	}
	if in.Identify != nil {
		p, err := apst.Build(in.Identify, in.Params)
		if err != nil {
			s.planErr = err
			s.notes = append(s.notes, "the APST plan could not be built: "+err.Error())
		} else {
			s.plan = &p
		}
	} else {
		s.notes = append(s.notes, "no Identify data: the APST table is unknown, so the APST verdict rests on the log and the facts alone (give --id-ctrl CAPTURE)")
	}
	if in.Log == nil {
		s.notes = append(s.notes, "no kernel log: the diagnosis rests on the machine's present state")
	} else if s.inc == nil {
		s.notes = append(s.notes, "the kernel log has no NVMe or PCIe failure for "+nameOr(s.ctrl, "any controller"))
	}
	if s.inc != nil && s.inc.Omitted > 0 {
		s.notes = append(s.notes, fmt.Sprintf("the incident has %d more events than were kept (the first and last %d are)", s.inc.Omitted, kernlog.MaxIncidentEvents/2))
	}
	return s
}

func nameOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// serious reports whether an incident holds a failure rather than only
// corrected errors or hints.
func serious(in *kernlog.Incident) bool {
	for k, n := range in.Counts {
		if n == 0 {
			continue
		}
		switch k {
		case kernlog.ControllerDown, kernlog.IOTimeout, kernlog.AdminTimeout, kernlog.ProbeFailure, kernlog.ResetNotReady,
			kernlog.ResetFailure, kernlog.ResumeFailure, kernlog.LinkDown, kernlog.IOError, kernlog.APSTFailed:
			return true
		}
	}
	return false
}

// pickIncident chooses the controller's most recent serious incident (the
// most recent one of any controller when none is named) and reads its
// events.
func (s *signals) pickIncident(l *kernlog.Log) {
	for i := len(l.Incidents) - 1; i >= 0; i-- {
		in := &l.Incidents[i]
		mine := s.ctrl == "" && in.Controller != "" || s.ctrl != "" && in.Controller == s.ctrl || s.dev != "" && in.PCI == s.dev
		if !mine {
			continue
		}
		s.incidents++
		if s.inc == nil && serious(in) {
			s.inc = in
			if s.ctrl == "" {
				s.ctrl = in.Controller
			}
		}
	}
	if s.inc == nil {
		return
	}
	// Corrected errors of the same device shortly before are part of the
	// story even when an earlier incident holds them: look at every
	// incident of the controller in the same boot.
	for i := range l.Incidents {
		in := &l.Incidents[i]
		if in.Boot != s.inc.Boot || (in.Controller != s.ctrl && (s.dev == "" || in.PCI != s.dev)) {
			continue
		}
		for j := range in.Events {
			e := &in.Events[j]
			if in != s.inc && e.Kind != kernlog.AERError && e.Kind != kernlog.AERReceived {
				continue
			}
			s.event(e)
		}
	}
}

func (s *signals) event(e *kernlog.Event) {
	switch e.Kind {
	case kernlog.ControllerDown:
		if s.down == nil {
			s.down = e
		}
	case kernlog.ResumeFailure:
		if s.resume == nil {
			s.resume = e
		}
	case kernlog.LinkDown:
		if s.linkDown == nil {
			s.linkDown = e
		}
	case kernlog.ProbeFailure, kernlog.ResetFailure, kernlog.ResetNotReady:
		if s.reset == nil {
			s.reset = e
		}
	case kernlog.APSTFailed:
		if s.apstFailed == nil {
			s.apstFailed = e
		}
	case kernlog.PowerSavingHint:
		if s.hint == nil {
			s.hint = e
		}
	case kernlog.AERError, kernlog.AERReceived:
		switch {
		case strings.HasPrefix(e.Severity, "Uncorrected"):
			s.aerUncorr = append(s.aerUncorr, *e)
		case e.Layer == "Physical Layer":
			s.aerPhys = append(s.aerPhys, *e)
		case e.Kind == kernlog.AERError:
			s.aerOther = append(s.aerOther, *e)
		}
	case kernlog.IOTimeout, kernlog.AdminTimeout:
		s.timeouts = append(s.timeouts, *e)
	case kernlog.IOError:
		s.ioErrors = append(s.ioErrors, *e)
	}
}

// gone reports that the device dropped off the bus: PCI_STATUS all ones
// (or unreadable) when the controller went down.
func (s *signals) gone() bool { return s.down != nil && s.down.Gone() }

// mmioDead reports a controller that stopped answering while its config
// space still answered (PCI_STATUS not all ones).
func (s *signals) mmioDead() bool {
	return s.down != nil && s.down.HasPCIStatus && s.down.PCIStatus != 0xffff && s.down.CSTS == 0xffffffff
}

// notBack reports that the kernel gave up on the device (-19, ENODEV) or
// the controller is no longer live.
func (s *signals) notBack() (Line, bool) {
	if s.reset != nil && (s.reset.Errno == -19 || s.reset.Kind == kernlog.ResetNotReady) {
		return logLine(s.reset), true
	}
	st := s.in.Facts.State
	if st.Known() && st.Value != "live" && st.Value != "" {
		return Line{Source: st.Source, Text: "the controller's state is " + st.Value}, true
	}
	return Line{}, false
}

// logLine is an event as evidence.
func logLine(e *kernlog.Event) Line {
	src := fmt.Sprintf("kernel log line %d", e.Line)
	if t := e.Time.String(); t != "" {
		src += " (" + t + ")"
	}
	return Line{Source: src, Text: e.Text}
}

// functions returns the device's functions with role.
func (s *signals) path() []Function { return s.in.Facts.Path }

// devPath is the sysfs path of a PCI function for commands.
func devPath(addr string) string { return "/sys/bus/pci/devices/" + addr }

// addr is the controller's PCI address, or a placeholder for commands.
func (s *signals) addr() string {
	if s.dev != "" {
		return s.dev
	}
	return "DDDD:BB:DD.F"
}

func (s *signals) name() string { return nameOr(s.ctrl, "nvmeN") }
