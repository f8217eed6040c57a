package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// diagnosisJSON is the JSON of apstctl diagnose.
type diagnosisJSON struct {
	Controller   string          `json:"controller,omitempty"`
	Summary      string          `json:"summary"`
	APSTRuledOut bool            `json:"apst_ruled_out"`
	Causes       []diagCauseJSON `json:"causes"`
	Incidents    []incidentJSON  `json:"incidents"`
	Facts        *factsJSON      `json:"facts"`
	Log          *logJSON        `json:"log"`
	Notes        []string        `json:"notes,omitempty"`
	Problems     []string        `json:"problems,omitempty"`
	// Assumptions are what the plan of --id-ctrl assumed (cli.md, "What
	// was assumed"); nothing otherwise.
	Assumptions assumptionsJSON `json:"assumptions"`
}

// diagCauseJSON is one diagnose.Cause.
type diagCauseJSON struct {
	Layer      diagnose.Layer      `json:"layer"`
	Likelihood diagnose.Likelihood `json:"likelihood"`
	Score      int                 `json:"score"`
	Evidence   []evidenceJSON      `json:"evidence"`
	Against    []evidenceJSON      `json:"against"`
	Tests      []layerTestJSON     `json:"tests"`
}

// evidenceJSON is one diagnose.Line of evidence.
type evidenceJSON struct {
	Source string `json:"source"`
	Text   string `json:"text"`
}

// layerTestJSON is one diagnose.Test.
type layerTestJSON struct {
	Action  string `json:"action"`
	Command string `json:"command,omitempty"`
	Cost    string `json:"cost"`
}

// linesView is the JSON of ls; nil stays nil (null), as the library gives it.
func linesView(ls []diagnose.Line) []evidenceJSON {
	if ls == nil {
		return nil
	}
	v := make([]evidenceJSON, len(ls))
	for i, l := range ls {
		v[i] = evidenceJSON{Source: l.Source, Text: l.Text}
	}
	return v
}

// causesView is the JSON of cs; nil stays nil.
func causesView(cs []diagnose.Cause) []diagCauseJSON {
	if cs == nil {
		return nil
	}
	v := make([]diagCauseJSON, len(cs))
	for i, c := range cs {
		v[i] = diagCauseJSON{Layer: c.Layer, Likelihood: c.Likelihood, Score: c.Score,
			Evidence: linesView(c.Evidence), Against: linesView(c.Against)}
		if c.Tests != nil {
			v[i].Tests = make([]layerTestJSON, len(c.Tests))
			for j, t := range c.Tests {
				v[i].Tests[j] = layerTestJSON{Action: t.Action, Command: t.Command, Cost: t.Cost}
			}
		}
	}
	return v
}

type logJSON struct {
	Release          string            `json:"release,omitempty"`
	CommandLine      string            `json:"command_line,omitempty"`
	Boots            int               `json:"boots"`
	Lines            int64             `json:"lines"`
	LongLines        int64             `json:"long_lines,omitempty"`
	BinaryLines      int64             `json:"binary_lines,omitempty"`
	Events           int64             `json:"events"`
	DroppedEvents    int64             `json:"dropped_events,omitempty"`
	DroppedIncidents int64             `json:"dropped_incidents,omitempty"`
	BackwardsTimes   int64             `json:"backwards_times,omitempty"`
	Addresses        map[string]string `json:"addresses,omitempty"`
	DroppedAddresses int64             `json:"dropped_addresses,omitempty"`
}

type incidentJSON struct {
	Controller string               `json:"controller,omitempty"`
	PCI        string               `json:"pci,omitempty"`
	Boot       int                  `json:"boot"`
	Start      string               `json:"start,omitempty"`
	End        string               `json:"end,omitempty"`
	Counts     map[kernlog.Kind]int `json:"counts"`
	Omitted    int                  `json:"omitted,omitempty"`
	Events     []eventJSON          `json:"events"`
}

// eventJSON is one event of the kernel log (kernlog.Event), its time
// stamp as the log wrote it.
type eventJSON struct {
	Kind            kernlog.Kind `json:"kind"`
	Line            int          `json:"line"`
	Driver          string       `json:"driver,omitempty"`
	Device          string       `json:"device,omitempty"`
	Controller      string       `json:"controller,omitempty"`
	PCI             string       `json:"pci,omitempty"`
	Disk            string       `json:"disk,omitempty"`
	Reporter        string       `json:"reporter,omitempty"`
	CSTS            uint32       `json:"csts,omitempty"`
	PCIStatus       uint16       `json:"pci_status,omitempty"`
	PCIStatusFailed bool         `json:"pci_status_failed,omitempty"`
	Tag             int          `json:"tag,omitempty"`
	CommandID       string       `json:"command_id,omitempty"`
	QID             int          `json:"qid,omitempty"`
	Opcode          int          `json:"opcode,omitempty"`
	OpName          string       `json:"op,omitempty"`
	ReqOp           string       `json:"req_op,omitempty"`
	Size            int64        `json:"size,omitempty"`
	Action          string       `json:"action,omitempty"`
	Errno           int          `json:"errno,omitempty"`
	Status          int          `json:"status,omitempty"`
	SCT             int          `json:"sct,omitempty"`
	SC              int          `json:"sc,omitempty"`
	FromState       string       `json:"from_state,omitempty"`
	Severity        string       `json:"severity,omitempty"`
	Layer           string       `json:"layer,omitempty"`
	Text            string       `json:"text"`
	Time            string       `json:"time,omitempty"`
}

func eventView(e *kernlog.Event) eventJSON {
	return eventJSON{
		Kind: e.Kind, Line: e.Line, Driver: e.Driver, Device: e.Device,
		Controller: e.Controller, PCI: e.PCI, Disk: e.Disk, Reporter: e.Reporter,
		CSTS: e.CSTS, PCIStatus: e.PCIStatus, PCIStatusFailed: e.PCIStatusFailed,
		Tag: e.Tag, CommandID: e.CommandID, QID: e.QID, Opcode: e.Opcode, OpName: e.OpName,
		ReqOp: e.ReqOp, Size: e.Size, Action: e.Action,
		Errno: e.Errno, Status: e.Status, SCT: e.SCT, SC: e.SC, FromState: e.FromState,
		Severity: e.Severity, Layer: e.Layer, Text: e.Text, Time: e.Time.String(),
	}
}

func diagnoseView(r *diagnoseResult) diagnosisJSON {
	v := diagnosisJSON{Controller: r.Controller, Summary: r.Summary, APSTRuledOut: r.APSTRuledOut, Causes: causesView(r.Causes),
		Incidents: []incidentJSON{}, Facts: factsView(r.Facts), Notes: r.Notes, Problems: r.Problems,
		Assumptions: assumptionsView(&r.Assumptions)}
	if v.Facts == nil {
		v.Facts = &factsJSON{}
	}
	if l := r.Log; l != nil {
		v.Log = &logJSON{Release: l.Release, CommandLine: l.CommandLine, Boots: l.Boots, Lines: l.Lines, LongLines: l.LongLines,
			BinaryLines: l.BinaryLines, Events: l.Events, DroppedEvents: l.DroppedEvents, DroppedIncidents: l.DroppedIncidents,
			BackwardsTimes: l.Backwards, Addresses: l.Addresses, DroppedAddresses: l.DroppedAddresses}
		for _, in := range l.Incidents {
			ij := incidentJSON{Controller: in.Controller, PCI: in.PCI, Boot: in.Boot, Start: in.Start.String(), End: in.End.String(),
				Counts: in.Counts, Omitted: in.Omitted, Events: []eventJSON{}}
			for i := range in.Events {
				ij.Events = append(ij.Events, eventView(&in.Events[i]))
			}
			v.Incidents = append(v.Incidents, ij)
		}
	}
	return v
}

// writeDiagnosisText prints the diagnosis for people.
func writeDiagnosisText(w io.Writer, r *diagnoseResult) {
	fmt.Fprintln(w, esc(r.Summary))
	fmt.Fprintln(w)
	fmt.Fprintln(w, "causes, most likely first:")
	for _, c := range r.Causes {
		fmt.Fprintf(w, "  %-10s  %-8s  (score %d)\n", c.Layer, c.Likelihood, c.Score)
		for _, l := range c.Evidence {
			fmt.Fprintf(w, "      + %s: %s\n", esc(l.Source), esc(l.Text))
		}
		for _, l := range c.Against {
			fmt.Fprintf(w, "      - %s: %s\n", esc(l.Source), esc(l.Text))
		}
		if c.Likelihood == diagnose.Unlikely {
			continue
		}
		for i, t := range c.Tests {
			fmt.Fprintf(w, "      test %d: %s\n", i+1, esc(t.Action))
			if t.Command != "" {
				fmt.Fprintf(w, "          $ %s\n", esc(t.Command))
			}
			fmt.Fprintf(w, "          cost: %s\n", esc(t.Cost))
		}
	}
	if r.Log != nil {
		fmt.Fprintln(w)
		l := r.Log
		fmt.Fprintf(w, "kernel log: %d lines, %d events, %d incidents", l.Lines, l.Events, len(l.Incidents))
		if l.Release != "" {
			fmt.Fprintf(w, ", release %s", esc(l.Release))
		}
		fmt.Fprintln(w)
		if l.LongLines > 0 || l.BinaryLines > 0 || l.DroppedEvents > 0 {
			fmt.Fprintf(w, "  skipped: %d lines over %d bytes, %d binary lines; %d events not kept\n", l.LongLines, kernlog.MaxLineLength, l.BinaryLines, l.DroppedEvents)
		}
		if l.DroppedAddresses > 0 {
			fmt.Fprintf(w, "  skipped: %d pci function lines of addresses beyond the first %d\n", l.DroppedAddresses, kernlog.MaxAddresses)
		}
		for _, in := range l.Incidents {
			span := in.Start.String()
			if e := in.End.String(); e != span {
				span += " .. " + e
			}
			if span == "" {
				span = "no times"
			}
			kinds := make([]string, 0, len(in.Counts))
			for k := range in.Counts {
				kinds = append(kinds, string(k))
			}
			slices.Sort(kinds)
			var parts []string
			for _, k := range kinds {
				parts = append(parts, fmt.Sprintf("%d %s", in.Counts[kernlog.Kind(k)], k))
			}
			fmt.Fprintf(w, "  %s (boot %d, %s): %s\n", esc(in.Name()), in.Boot, esc(span), strings.Join(parts, ", "))
		}
	}
	if f := r.Facts; f != nil && f.Controller != "" {
		fmt.Fprintln(w)
		fmt.Fprintf(w, "facts (%s):\n", esc(f.Controller))
		for _, x := range []diagnose.Fact{f.KernelRelease, f.CommandLine} {
			if x.Source != "" {
				fmt.Fprintf(w, "  %s\n", esc(x.Describe()))
			}
		}
		writeFacts(w, f, "  ")
	}
	assumed := assumptionLines(&r.Assumptions, "")
	if len(r.Notes) > 0 || len(r.Problems) > 0 || len(assumed) > 0 {
		fmt.Fprintln(w)
		for _, l := range assumed {
			fmt.Fprintln(w, l)
		}
		for _, n := range r.Notes {
			fmt.Fprintf(w, "note: %s\n", esc(n))
		}
		for _, p := range r.Problems {
			fmt.Fprintf(w, "problem: %s\n", esc(p))
		}
	}
}

// short is a fact's value, or what is known about it, in a word.
func short(f diagnose.Fact) string {
	switch f.Status {
	case diagnose.Read:
		return esc(f.Value)
	case diagnose.NotExposed:
		return "(not exposed)"
	case diagnose.Unreadable:
		return "(unreadable)"
	}
	return "(unknown)"
}

// writeFacts prints the power-management facts of one controller, each line
// after indent.
func writeFacts(w io.Writer, f *diagnose.Facts, indent string) {
	for _, x := range []diagnose.Fact{f.ASPMPolicy, f.State, f.ResetCount, f.ReconnectCount, f.CommandErrorCount} {
		if x.Source != "" {
			fmt.Fprintf(w, "%s%s\n", indent, esc(x.Describe()))
		}
	}
	for _, fn := range f.Path {
		fmt.Fprintf(w, indent+"%s %s: d3cold_allowed %s, control %s, runtime_status %s, power_state %s\n", esc(fn.Role), esc(fn.Address),
			short(fn.D3coldAllowed), short(fn.Control), short(fn.RuntimeStatus), short(fn.PowerState))
		var link []string
		for _, c := range fn.Link.All() {
			link = append(link, c.Name+" "+short(*c.Fact))
		}
		fmt.Fprintf(w, indent+"    link: %s\n", strings.Join(link, ", "))
	}
	switch {
	case f.Health != nil:
		h := f.Health
		fmt.Fprintf(w, indent+"SMART / Health: %d power cycles, %d unsafe shutdowns, %d media errors, %d error log entries, critical warning 0x%02x\n",
			h.PowerCycles, h.UnsafeShutdowns, h.MediaErrors, h.ErrorLogEntries, h.CriticalWarning)
	case f.HealthError != "":
		fmt.Fprintf(w, indent+"SMART / Health: not read (%s)\n", esc(f.HealthError))
	}
}

// writePowerLayers is inspect's block on the power layers beside APST.
func writePowerLayers(w io.Writer, f *diagnose.Facts) {
	if f == nil {
		return
	}
	fmt.Fprintln(w, "  power management (PCIe and device, beside APST):")
	if len(f.Path) == 0 {
		fmt.Fprintln(w, "    PCI path: unknown (not a PCI function, or a bundle collected before the path was recorded)")
	}
	writeFacts(w, f, "    ")
}
