package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
	"github.com/nvmeapst/nvmeapst/apst/persist"
	"github.com/nvmeapst/nvmeapst/examples/internal/view"
	"github.com/nvmeapst/nvmeapst/examples/internal/view/diagview"
)

// diagnosisJSON is the JSON of apstctl diagnose.
type diagnosisJSON struct {
	Controller   string           `json:"controller,omitempty"`
	Address      string           `json:"address,omitempty"`
	Failure      bool             `json:"failure"`
	Summary      string           `json:"summary"`
	APSTRuledOut bool             `json:"apst_ruled_out"`
	Undecided    []diagnose.Layer `json:"undecided"`
	Separate     *view.Test       `json:"separate,omitempty"`
	OnResume     bool             `json:"on_resume"`
	Replace      bool             `json:"replace"`
	Causes       []diagCauseJSON  `json:"causes"`
	Known        []knownJSON      `json:"known"`
	Tried        []triedJSON      `json:"tried"`
	Platform     persist.Platform `json:"platform"`
	Unread       []view.Unread    `json:"unread"`
	Relayed      []view.Unread    `json:"relayed"`
	Incidents    []incidentJSON   `json:"incidents"`
	Facts        *factsJSON       `json:"facts"`
	Log          *logJSON         `json:"log"`
	Notes        []string         `json:"notes,omitempty"`
	Problems     []string         `json:"problems,omitempty"`
	// Assumptions are what the plan of --id-ctrl assumed (cli.md, "What
	// was assumed"); nothing otherwise.
	Assumptions assumptionsJSON `json:"assumptions"`
	// Consequences quote, without a failure, the lines of one whose own
	// lines the log lacks (diagnose.Diagnosis.Consequences).
	Consequences []view.Evidence `json:"consequences"`
}

// diagCauseJSON is one diagnose.Cause.
type diagCauseJSON struct {
	Layer      diagnose.Layer      `json:"layer"`
	Likelihood diagnose.Likelihood `json:"likelihood"`
	Score      int                 `json:"score"`
	Evidence   []view.Evidence     `json:"evidence"`
	Against    []view.Evidence     `json:"against"`
	Tests      []view.Test         `json:"tests"`
}

// knownJSON is one diagnose.Known matched; a release range's ends are
// "" when open.
type knownJSON struct {
	ID       string         `json:"id"`
	Layer    diagnose.Layer `json:"layer"`
	Title    string         `json:"title"`
	Fix      string         `json:"fix"`
	First    apst.Release   `json:"first"`
	Fixed    apst.Release   `json:"fixed"`
	Releases []string       `json:"releases,omitempty"`
	FixedIn  []apst.Release `json:"fixed_in,omitempty"`
	Needs    string         `json:"needs,omitempty"`
	Signs    []string       `json:"signs"`
	Source   string         `json:"source"`
}

// triedJSON is one diagnose.Tried.
type triedJSON struct {
	Setting string           `json:"setting"`
	Value   string           `json:"value,omitempty"`
	Outcome diagnose.Outcome `json:"outcome"`
	FromLog bool             `json:"from_log"`
	Weighed bool             `json:"weighed"`
}

// causesView is the JSON of cs; nil stays nil.
func causesView(cs []diagnose.Cause) []diagCauseJSON {
	if cs == nil {
		return nil
	}
	v := make([]diagCauseJSON, len(cs))
	for i, c := range cs {
		v[i] = diagCauseJSON{Layer: c.Layer, Likelihood: c.Likelihood, Score: c.Score,
			Evidence: diagview.Lines(c.Evidence, diagview.Plain), Against: diagview.Lines(c.Against, diagview.Plain)}
		if c.Tests != nil {
			v[i].Tests = make([]view.Test, len(c.Tests))
			for j, t := range c.Tests {
				v[i].Tests[j] = diagview.Test(&t, diagview.Plain)
			}
		}
	}
	return v
}

type logJSON struct {
	Release     string `json:"release,omitempty"`
	CommandLine string `json:"command_line,omitempty"`
	// Taint is the boot's first dump's taint flags but G
	// (kernlog.Log.Taint).
	Taint             string            `json:"taint,omitempty"`
	Boots             int               `json:"boots"`
	Lines             int64             `json:"lines"`
	Compression       string            `json:"compression,omitempty"`
	LongLines         int64             `json:"long_lines,omitempty"`
	BinaryLines       int64             `json:"binary_lines,omitempty"`
	Events            int64             `json:"events"`
	DroppedEvents     int64             `json:"dropped_events,omitempty"`
	DroppedIncidents  int64             `json:"dropped_incidents,omitempty"`
	BackwardsTimes    int64             `json:"backwards_times,omitempty"`
	Addresses         map[string]string `json:"addresses,omitempty"`
	DroppedAddresses  int64             `json:"dropped_addresses,omitempty"`
	Namespaces        map[string]string `json:"namespaces,omitempty"`
	DroppedNamespaces int64             `json:"dropped_namespaces,omitempty"`
	DeviceIDs         map[string]string `json:"device_ids,omitempty"`
	// Fabrics maps the controllers the log shows connected over a fabric
	// to the line that connected them (kernlog.Log.Fabrics).
	Fabrics map[string]int `json:"fabrics,omitempty"`
	// Passthrough maps the PCI functions the log shows bound to a
	// passthrough driver to the line that shows it
	// (kernlog.Log.Passthrough).
	Passthrough map[string]int `json:"passthrough,omitempty"`
	// RemoveRequest is the line of a command that asked the PCI core to
	// remove a device (kernlog.Log.RemoveRequest).
	RemoveRequest int `json:"remove_request,omitempty"`
	// UnreadLines counts every line the reader could not read, another
	// driver's among them (kernlog.Log.UnreadLines); the diagnosis's
	// unread lists those that may be the drive's (Diagnosis.Unread), so
	// it can be empty while this is not.
	UnreadLines int64 `json:"unread_lines"`
	// Hosts are the hosts the log's kernel lines name, when it names them
	// (kernlog.Log.Hosts), and MoreHosts that further hosts' lines came;
	// Host the one --host (or --each-host) read, and OtherHostLines the
	// lines of the others it left out.
	Hosts     []string `json:"hosts,omitempty"`
	MoreHosts bool     `json:"more_hosts,omitempty"`
	// NewestFirst says the log's lines ran newest first, and were read
	// reversed: every line number counts from its end
	// (kernlog.Log.NewestFirst).
	NewestFirst    bool   `json:"newest_first,omitempty"`
	Host           string `json:"host,omitempty"`
	OtherHostLines int64  `json:"other_host_lines,omitempty"`
	// RelayedLines counts other programs' lines that repeat a kernel
	// failure message (kernlog.Log.Relayed).
	RelayedLines int64 `json:"relayed_lines,omitempty"`
	// FileSystemErrors are a file system's reports of I/O errors on NVMe
	// disks, in no incident (kernlog.Log.FileSystemErrors).
	FileSystemErrors     []eventJSON `json:"file_system_errors,omitempty"`
	FileSystemErrorLines int64       `json:"file_system_error_lines,omitempty"`
	// OtherDisks are the failure lines of disks on another transport
	// than NVMe (kernlog.Log.OtherDisks).
	OtherDisks     []otherDiskJSON `json:"other_disks,omitempty"`
	OtherDiskLines int64           `json:"other_disk_lines,omitempty"`
}

// otherDiskJSON is one failure line of a disk on another transport than
// NVMe (kernlog.OtherDiskLine).
type otherDiskJSON struct {
	Line      int    `json:"line"`
	Disk      string `json:"disk,omitempty"`
	Host      string `json:"host,omitempty"`
	Transport string `json:"transport"`
	Port      string `json:"port,omitempty"`
	Text      string `json:"text"`
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
	Kind       kernlog.Kind `json:"kind"`
	Line       int          `json:"line"`
	EndLine    int          `json:"end_line"`
	Raw        string       `json:"raw"`
	Driver     string       `json:"driver,omitempty"`
	Device     string       `json:"device,omitempty"`
	Controller string       `json:"controller,omitempty"`
	PCI        string       `json:"pci,omitempty"`
	Disk       string       `json:"disk,omitempty"`
	// GuessedController says that only the disk's number tied it to
	// Controller (kernlog.Event.GuessedController).
	GuessedController bool   `json:"guessed_controller,omitempty"`
	Reporter          string `json:"reporter,omitempty"`
	CSTS              uint32 `json:"csts,omitempty"`
	PCIStatus         uint16 `json:"pci_status,omitempty"`
	PCIStatusFailed   bool   `json:"pci_status_failed,omitempty"`
	Tag               int    `json:"tag,omitempty"`
	CommandID         string `json:"command_id,omitempty"`
	QID               int    `json:"qid,omitempty"`
	Opcode            int    `json:"opcode,omitempty"`
	OpName            string `json:"op,omitempty"`
	ReqOp             string `json:"req_op,omitempty"`
	Size              int64  `json:"size,omitempty"`
	Action            string `json:"action,omitempty"`
	Errno             int    `json:"errno,omitempty"`
	Status            int    `json:"status,omitempty"`
	SCT               int    `json:"sct,omitempty"`
	SC                int    `json:"sc,omitempty"`
	FromState         string `json:"from_state,omitempty"`
	Phase             string `json:"phase,omitempty"`
	Mode              string `json:"mode,omitempty"`
	IRQ               int    `json:"irq,omitempty"`
	Severity          string `json:"severity,omitempty"`
	Layer             string `json:"layer,omitempty"`
	// AERStatus and AERErrors are an AER report's unmasked status bits
	// and their names (kernlog.Event.AERStatus, AERErrors).
	AERStatus uint32   `json:"aer_status,omitempty"`
	AERErrors []string `json:"aer_errors,omitempty"`
	// Stack and StackLine are the dump line that places a kernel crash or
	// a hung task in the NVMe driver's code (kernlog.Event.Stack).
	Stack     string `json:"stack,omitempty"`
	StackLine int    `json:"stack_line,omitempty"`
	Text      string `json:"text"`
	Time      string `json:"time,omitempty"`
}

func eventView(e *kernlog.Event) eventJSON {
	return eventJSON{
		Kind: e.Kind, Line: e.Line, EndLine: e.EndLine, Raw: e.Raw, Driver: e.Driver, Device: e.Device,
		Controller: e.Controller, PCI: e.PCI, Disk: e.Disk, GuessedController: e.GuessedController, Reporter: e.Reporter,
		CSTS: e.CSTS, PCIStatus: e.PCIStatus, PCIStatusFailed: e.PCIStatusFailed,
		Tag: e.Tag, CommandID: e.CommandID, QID: e.QID, Opcode: e.Opcode, OpName: e.OpName,
		ReqOp: e.ReqOp, Size: e.Size, Action: e.Action,
		Errno: e.Errno, Status: e.Status, SCT: e.SCT, SC: e.SC, FromState: e.FromState, Phase: e.Phase, Mode: e.Mode, IRQ: e.IRQ,
		Severity: e.Severity, Layer: e.Layer, AERStatus: e.AERStatus, AERErrors: e.AERErrors(), Stack: e.Stack, StackLine: e.StackLine, Text: e.Text, Time: e.Time.String(),
	}
}

func diagnoseView(r *diagnoseResult) diagnosisJSON {
	v := diagnosisJSON{Controller: r.Controller, Address: r.Address, Failure: r.Failure, Summary: r.Summary, APSTRuledOut: r.APSTRuledOut,
		Undecided: []diagnose.Layer{}, OnResume: r.OnResume, Replace: r.Replace, Causes: causesView(r.Causes),
		Known: []knownJSON{}, Tried: []triedJSON{}, Platform: r.Platform, Unread: []view.Unread{}, Relayed: []view.Unread{},
		Incidents: []incidentJSON{}, Facts: factsView(r.Facts), Notes: r.Notes, Problems: r.Problems,
		Assumptions: assumptionsView(&r.Assumptions), Consequences: []view.Evidence{}}
	v.Consequences = append(v.Consequences, diagview.Lines(r.Consequences, diagview.Plain)...)
	if v.Causes == nil {
		v.Causes = []diagCauseJSON{}
	}
	v.Undecided = append(v.Undecided, r.Undecided...)
	if r.Separate != nil {
		t := diagview.Test(r.Separate, diagview.Plain)
		v.Separate = &t
	}
	for _, k := range r.Known {
		v.Known = append(v.Known, knownJSON{ID: k.ID, Layer: k.Layer, Title: k.Title, Fix: k.Fix, First: k.First, Fixed: k.Fixed,
			Releases: k.Releases, FixedIn: k.FixedIn, Needs: k.Needs, Signs: k.Signs, Source: k.Source})
	}
	for i := range r.Tried {
		if t := &r.Tried[i]; diagview.Listed(t) {
			v.Tried = append(v.Tried, triedJSON{Setting: t.Setting, Value: t.Value, Outcome: t.Outcome, FromLog: t.FromLog, Weighed: t.Weighed})
		}
	}
	for _, u := range r.Unread {
		v.Unread = append(v.Unread, view.Unread{Line: u.Line, Text: u.Text})
	}
	for _, u := range r.Relayed {
		v.Relayed = append(v.Relayed, view.Unread{Line: u.Line, Text: u.Text, Program: u.Program})
	}
	if v.Facts == nil {
		v.Facts = factsView(&diagnose.Facts{})
	}
	if l := r.Log; l != nil {
		v.Log = &logJSON{Release: l.Release, CommandLine: l.CommandLine, Taint: l.Taint, Boots: l.Boots, Lines: l.Lines, Compression: l.Compression, LongLines: l.LongLines,
			BinaryLines: l.BinaryLines, Events: l.Events, DroppedEvents: l.DroppedEvents, DroppedIncidents: l.DroppedIncidents,
			BackwardsTimes: l.Backwards, Addresses: l.Addresses, DroppedAddresses: l.DroppedAddresses,
			Namespaces: l.Namespaces, DroppedNamespaces: l.DroppedNamespaces, DeviceIDs: l.DeviceIDs, UnreadLines: l.UnreadLines, RelayedLines: l.RelayedLines,
			Hosts: l.Hosts, MoreHosts: l.MoreHosts, NewestFirst: l.NewestFirst, Host: l.Host, OtherHostLines: l.OtherHostLines,
			FileSystemErrorLines: l.FileSystemErrorLines, OtherDiskLines: l.OtherDiskLines}
		for _, o := range l.OtherDisks {
			v.Log.OtherDisks = append(v.Log.OtherDisks, otherDiskJSON{Line: o.Line, Disk: o.Disk, Host: o.Host, Transport: o.Transport, Port: o.Port, Text: o.Text})
		}
		for c, e := range l.Fabrics {
			if v.Log.Fabrics == nil {
				v.Log.Fabrics = map[string]int{}
			}
			v.Log.Fabrics[c] = e.Line
		}
		for a, e := range l.Passthrough {
			if v.Log.Passthrough == nil {
				v.Log.Passthrough = map[string]int{}
			}
			v.Log.Passthrough[a] = e.Line
		}
		if r := l.RemoveRequest; r != nil {
			v.Log.RemoveRequest = r.Line
		}
		for i := range l.FileSystemErrors {
			v.Log.FileSystemErrors = append(v.Log.FileSystemErrors, eventView(&l.FileSystemErrors[i]))
		}
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

// writeDiagnosisText prints the diagnosis for people: the answer first,
// then the one test that separates the undecided layers, then the causes
// with their quoted lines and tests.
func writeDiagnosisText(w io.Writer, r *diagnoseResult) {
	fmt.Fprintln(w, view.EscapeMessage(r.Summary))
	if r.Separate != nil {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "to tell them apart:")
		writeTest(w, "  ", *r.Separate)
	}
	if len(r.Relayed) > 0 {
		// Other programs' copies, listed only in a log without the
		// kernel's lines (Diagnosis.Relayed).
		fmt.Fprintln(w)
		fmt.Fprintf(w, "%d line(s) of other programs repeat the kernel's NVMe or PCIe failure messages:\n", len(r.Relayed))
		for _, u := range r.Relayed {
			fmt.Fprintf(w, "  line %d (%s's, not the kernel's): %s\n", u.Line, view.Escape(u.Program), view.Escape(u.Text))
		}
		fmt.Fprintln(w, "  (give the kernel's own lines: journalctl -k -b -1 --no-pager > kern.log)")
	}
	if len(r.Unread) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintf(w, "%d line(s) look like NVMe or PCIe failure messages but could not be read:\n", len(r.Unread))
		for _, u := range r.Unread {
			fmt.Fprintf(w, "  line %d: %s\n", u.Line, view.Escape(u.Text))
		}
		fmt.Fprintln(w, "  (re-paste the log as the system wrote it: journalctl -k -b -1 --no-pager > kern.log)")
	}
	if len(r.Consequences) > 0 {
		// The lines the summary names, quoted.
		fmt.Fprintln(w)
		fmt.Fprintln(w, "what the log shows of that failure:")
		for _, l := range r.Consequences {
			fmt.Fprintf(w, "  %s: %s\n", view.Escape(l.Source), view.Escape(l.Text))
			fmt.Fprintf(w, "      | %s\n", view.Escape(l.Quote))
		}
	}
	if len(r.Causes) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "causes, most likely first:")
	}
	var quiet []string
	for _, c := range r.Causes {
		if c.Score <= 0 && len(c.Evidence) == 0 && len(c.Against) == 0 {
			quiet = append(quiet, string(c.Layer))
			continue
		}
		fmt.Fprintf(w, "  %-10s  %-8s  (score %d)\n", c.Layer, c.Likelihood, c.Score)
		for _, l := range c.Evidence {
			writeEvidence(w, "+", l)
		}
		for _, l := range c.Against {
			writeEvidence(w, "-", l)
		}
		if c.Likelihood == diagnose.Unlikely {
			continue
		}
		for i, t := range c.Tests {
			writeTest(w, fmt.Sprintf("      test %d: ", i+1), t)
		}
	}
	if len(quiet) > 0 {
		fmt.Fprintf(w, "  no evidence for: %s\n", strings.Join(quiet, ", "))
	}
	if len(r.Known) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "known issues this log matches:")
		for _, k := range r.Known {
			fmt.Fprintf(w, "  %s (%s): %s; fixed by %s [%s]\n", k.ID, k.Layer, view.Escape(k.Title), view.Escape(k.Fix), view.Escape(k.Source))
			if k.Needs != "" {
				// What the log cannot show, as -o json's "needs" says.
				fmt.Fprintf(w, "      applies only to %s\n", view.Escape(k.Needs))
			}
		}
	}
	var tried []string
	for i := range r.Tried {
		if s, ok := diagview.Tried(&r.Tried[i], view.Escape); ok {
			tried = append(tried, s)
		}
	}
	if len(tried) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintf(w, "tried: %s\n", strings.Join(tried, "; "))
	}
	if r.Log != nil {
		fmt.Fprintln(w)
		l := r.Log
		fmt.Fprintf(w, "kernel log: %s, %s, %s", plural64(l.Lines, "line"), plural64(l.Events, "event"), plural(len(l.Incidents), "incident"))
		if l.Compression != "" {
			fmt.Fprintf(w, ", read from %s-compressed input", l.Compression)
		}
		if l.Release != "" {
			fmt.Fprintf(w, ", release %s", view.Escape(l.Release))
		}
		fmt.Fprintln(w)
		var skipped []string
		if l.LongLines > 0 {
			skipped = append(skipped, fmt.Sprintf("%s over %d bytes", plural64(l.LongLines, "line"), kernlog.MaxLineLength))
		}
		if l.BinaryLines > 0 {
			skipped = append(skipped, plural64(l.BinaryLines, "binary line"))
		}
		if l.DroppedEvents > 0 {
			skipped = append(skipped, plural64(l.DroppedEvents, "event")+" not kept")
		}
		if len(skipped) > 0 {
			fmt.Fprintf(w, "  skipped: %s\n", strings.Join(skipped, ", "))
		}
		if l.DroppedAddresses > 0 {
			fmt.Fprintf(w, "  skipped: %s of addresses beyond the first %d\n", plural64(l.DroppedAddresses, "pci function line"), kernlog.MaxAddresses)
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
			fmt.Fprintf(w, "  %s (boot %d, %s): %s\n", view.Escape(in.Name()), in.Boot, view.Escape(span), strings.Join(parts, ", "))
		}
	}
	if f := r.Facts; f != nil && f.Controller != "" {
		fmt.Fprintln(w)
		fmt.Fprintf(w, "facts (%s):\n", view.Escape(f.Controller))
		for _, x := range []diagnose.Fact{f.KernelRelease, f.CommandLine} {
			if x.Source != "" {
				fmt.Fprintf(w, "  %s\n", view.Escape(x.Describe()))
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
			fmt.Fprintf(w, "note: %s\n", view.EscapeMessage(n))
		}
		for _, p := range r.Problems {
			fmt.Fprintf(w, "problem: %s\n", view.Escape(p))
		}
	}
}

// writeEvidence prints one line of evidence: where it comes from and what
// it means, then the log line as it appears.
func writeEvidence(w io.Writer, sign string, l diagnose.Line) {
	fmt.Fprintf(w, "      %s %s: %s\n", sign, view.Escape(l.Source), view.Escape(l.Text))
	if l.Quote != "" {
		fmt.Fprintf(w, "          | %s\n", view.Escape(l.Quote))
	}
}

// writeTest prints one test: the action after lead, the command, where a
// lasting setting goes, and the cost.
func writeTest(w io.Writer, lead string, t diagnose.Test) {
	fmt.Fprintf(w, "%s%s\n", lead, view.Escape(t.Action))
	ind := strings.Repeat(" ", min(len(lead), 6)+4)
	if t.Command != "" {
		fmt.Fprintf(w, "%s$ %s\n", ind, view.Escape(t.Command))
	}
	for _, s := range t.Where {
		fmt.Fprintf(w, "%swhere: %s\n", ind, view.Escape(s))
	}
	fmt.Fprintf(w, "%scost: %s\n", ind, view.Escape(t.Cost))
}

// short is a fact's value, or what is known about it, in a word (and why
// a fact read is unknown, in a few: "(unknown: needs root)").
func short(f diagnose.Fact) string {
	switch f.Status {
	case diagnose.Read:
		return view.Escape(f.Value)
	case diagnose.NotExposed:
		return "(not exposed)"
	case diagnose.Unreadable:
		return "(unreadable)"
	}
	if f.Error != "" { // read, not understood: why, in its first words ("needs root")
		reason := f.Error
		if i := strings.IndexAny(reason, "(:"); i > 0 {
			reason = strings.TrimSpace(reason[:i])
		}
		return "(unknown: " + view.Escape(reason) + ")"
	}
	return "(unknown)"
}

// writeFacts prints the power-management facts of one controller, each line
// after indent.
func writeFacts(w io.Writer, f *diagnose.Facts, indent string) {
	facts := []diagnose.Fact{f.ASPMPolicy}
	for _, row := range diagnose.ControllerFiles() {
		facts = append(facts, *row.Fact(f))
	}
	for _, x := range facts {
		if x.Source != "" {
			fmt.Fprintf(w, "%s%s\n", indent, view.Escape(x.Describe()))
		}
	}
	for i := range f.Path {
		fn := &f.Path[i]
		var own, link []string
		for _, row := range diagnose.FunctionFiles() {
			kf := functionKey(row) + " " + short(*row.Fact(fn))
			if strings.HasPrefix(row.File, "link/") {
				link = append(link, kf)
			} else {
				own = append(own, kf)
			}
		}
		fmt.Fprintf(w, indent+"%s %s: %s\n", view.Escape(fn.Role), view.Escape(fn.Address), strings.Join(own, ", "))
		fmt.Fprintf(w, indent+"    link: %s\n", strings.Join(link, ", "))
	}
	switch {
	case f.Health != nil:
		h := f.Health
		fmt.Fprintf(w, indent+"SMART / Health: %d power cycles, %d unsafe shutdowns, %d media errors, %d error log entries, critical warning 0x%02x\n",
			h.PowerCycles, h.UnsafeShutdowns, h.MediaErrors, h.ErrorLogEntries, h.CriticalWarning)
	case f.HealthError != "":
		fmt.Fprintf(w, indent+"SMART / Health: not read (%s)\n", view.Escape(f.HealthError))
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
