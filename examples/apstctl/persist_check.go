package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/persist"
	"github.com/nvmeapst/nvmeapst/apst/persist/udev"
	"github.com/nvmeapst/nvmeapst/examples/internal/view"
	"github.com/nvmeapst/nvmeapst/internal/sniff"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// settingDrive is one drive a checked setting may reach.
type settingDrive struct {
	label  string // "nvme0 (sysfs)" or the capture's name
	drive  udev.Drive
	ctl    *powerstate.Controller // nil when the Identify data is unknown
	params apst.Params
	// assumed is what the drive's plan assumed (a capture's; a live
	// controller's report's).
	assumed apst.Assumptions
}

type settingFindingJSON struct {
	Mistake     string `json:"mistake"`
	Serious     bool   `json:"serious"`
	Line        int    `json:"line"`
	Text        string `json:"text"`
	Explanation string `json:"explanation"`
}

type settingWriteJSON struct {
	Line       int      `json:"line"`
	Attr       string   `json:"attr"`
	Value      string   `json:"value"`
	Exists     bool     `json:"exists"`
	Actions    []string `json:"actions"`
	Conditions []string `json:"conditions"`
}

type settingDriveJSON struct {
	// Assumptions are what this drive's answer assumed beyond the
	// top-level ones; null when nothing.
	Assumptions               *assumptionsJSON `json:"assumptions"`
	own                       apst.Assumptions
	Drive                     string             `json:"drive"`
	Model                     string             `json:"model"`
	Serial                    string             `json:"serial"`
	PCIID                     *string            `json:"pci_id"`
	APSTAttribute             bool               `json:"apst_attribute_exists"`
	Reached                   bool               `json:"reached"`
	By                        string             `json:"by"`
	Line                      int                `json:"line"`
	Writes                    []settingWriteJSON `json:"writes"`
	BoundUS                   uint64             `json:"bound_us"`
	BoundUnlimited            bool               `json:"bound_unlimited"`
	TableKnown                bool               `json:"table_known"`
	DeepestState              *int               `json:"deepest_state"`
	WorstExitLatencyUS        *uint64            `json:"worst_exit_latency_us"`
	DefaultDeepestState       *int               `json:"default_deepest_state"`
	DefaultWorstExitLatencyUS *uint64            `json:"default_worst_exit_latency_us"`
	GivesUp                   []int              `json:"gives_up"`
}

type settingCheckJSON struct {
	Kind        string               `json:"kind"`
	Rules       int                  `json:"rules"`
	SysfsWrites int                  `json:"sysfs_writes"`
	Defaults    []string             `json:"defaults"`
	Findings    []settingFindingJSON `json:"findings"`
	Drives      []settingDriveJSON   `json:"drives"`
	Serious     bool                 `json:"serious"`
	// DrivesNotEvaluated says why no drive was checked (this machine has
	// no NVMe controller); absent when drives were.
	DrivesNotEvaluated string `json:"drives_not_evaluated,omitempty"`
	// Assumptions are what every drive's answer assumed, said once.
	Assumptions assumptionsJSON `json:"assumptions"`
	common      apst.Assumptions
	lines       []string // the assumptions' text lines, each once
}

// runPersistCheck runs persist --check: with --output FILE its report
// goes to FILE, atomically, as every command's does.
func runPersistCheck(ctx context.Context, x *invocation, f *persistFlags, args []string) error {
	if f.output.path != "" && !f.output.stdout {
		return reportToFile(ctx, x, f.output.path, func(inner *invocation) error {
			return checkSetting(ctx, inner, f, args)
		})
	}
	return checkSetting(ctx, x, f, args)
}

// checkSetting checks the setting of --check or --check-line against the
// drives, writing the report to x.out.
func checkSetting(ctx context.Context, x *invocation, f *persistFlags, args []string) error {
	if *f.check != "" && *f.checkLine != "" {
		return usagef("give one of --check and --check-line")
	}
	if name := x.cmd.flags.firstGiven("bound", "goal", "from", "ac", "battery", "scope", "model", "serial", "form", "max-stall", "max-stall-us", "bar-state"); name != "" {
		return usagef("--%s does not go with --check (it checks a setting, it does not make one)", name)
	}
	// The setting checked gives each drive its bound (a drive it does not
	// reach keeps the module's default, 100000us): a bound flag would
	// change nothing.
	if name := x.cmd.flags.firstGiven("ps-max-latency-us", "pm-qos", "default-ps-max-latency-us"); name != "" {
		return usagef("--%s does not go with --check: the setting checked gives each drive its bound (a drive it does not reach keeps the default 100000us)", name)
	}
	// The drives of --root (or of this machine) are read with their own
	// kernel, module parameters, quirks and PCI ID: the plan flags apply to
	// a CAPTURE's plan.
	if len(args) == 0 {
		if name := x.cmd.flags.firstGiven("apst-primary-timeout-ms", "apst-secondary-timeout-ms", "apst-primary-latency-tol-us",
			"apst-secondary-latency-tol-us", "kernel", "quirks", "pci-id", "force-apst", "force"); name != "" {
			return usagef("--%s applies to a CAPTURE's plan: with --check and no CAPTURE the drives of --root (or of this machine) are read as they are; give a CAPTURE, or drop it", name)
		}
	}
	text, name := *f.checkLine, "--check-line"
	if *f.check != "" {
		b, err := readInputFile(*f.check, x.stdin, "--check", "rules file")
		if err != nil {
			return err
		}
		text, name = string(b), *f.check
	}
	flag := "--check-line"
	if *f.check != "" {
		flag = "--check"
	}
	if err := notText(flag, name, text); err != nil {
		return err
	}
	if err := notAKernelLog(ctx, flag, name, text); err != nil {
		return err
	}
	out := settingCheckJSON{Defaults: []string{}, Findings: []settingFindingJSON{}, Drives: []settingDriveJSON{}}
	rules, rerr := udev.ParseRules(text)
	defaults, derr := persist.ParseDefaults(text)
	if derr != nil {
		return inputErr(fmt.Errorf("%s: %w", view.Escape(name), derr))
	}
	var findings []persist.Finding
	var sysfsWrites []persist.SysfsWrite
	switch {
	case rerr == nil && len(rules) > 0:
		out.Kind, out.Rules = "udev", len(rules)
		findings = persist.CheckRules(rules, text)
		defaults = nil
	case len(defaults) > 0:
		out.Kind = "module-default"
		rules = nil
		findings = append(persist.CheckDefaults(defaults), persist.CheckPCIeArgs(text)...)
	default:
		var werr error
		if sysfsWrites, werr = persist.ParseSysfsWrites(text); werr != nil {
			return inputErr(fmt.Errorf("%s: %w", view.Escape(name), werr))
		}
		if len(sysfsWrites) > 0 {
			out.Kind, out.SysfsWrites, rules, defaults = "sysfs-writes", len(sysfsWrites), nil, nil
			findings = persist.CheckSysfsWrites(sysfsWrites)
			break
		}
		findings = persist.CheckText(text)
		if len(findings) == 0 {
			why := ""
			if rerr != nil {
				why = " (as udev rules: " + strings.TrimPrefix(rerr.Error(), "persist: ") + ")"
			}
			if looks := sniff.Looks([]byte(text), sniff.PersistFile); looks != "" {
				why = "; " + looks
			}
			return inputErr(fmt.Errorf("%s: no udev rule, nvme_core.default_ps_max_latency_us, options nvme_core, tmpfiles w line or tuned [sysfs] line found%s", view.Escape(name), why))
		}
		out.Kind = "text"
	}
	for _, d := range defaults {
		out.Defaults = append(out.Defaults, fmt.Sprintf("line %d (%s): %s", d.Line, d.Source, d.Text))
	}
	for _, fd := range findings {
		out.Findings = append(out.Findings, settingFindingJSON{Mistake: fd.Mistake.String(), Serious: fd.Mistake.Serious(),
			Line: fd.Line, Text: fd.Text, Explanation: fd.Explanation})
		out.Serious = out.Serious || fd.Mistake.Serious()
	}

	var drives []settingDrive
	if out.Kind != "text" || len(args) > 0 || *f.root != "" {
		var err error
		if drives, err = f.settingDrives(ctx, x, args); errors.Is(err, errNoNVMeHere) {
			// Nothing to check the setting on: the file's own mistakes
			// still decide the status (0, or 1 for a serious one).
			out.DrivesNotEvaluated = noNVMeHere
		} else if err != nil {
			return err
		}
	}
	if out.Kind == "text" {
		drives = nil // what such a file writes where is not evaluated
	}
	as := make([]apst.Assumptions, len(drives))
	for i := range drives {
		as[i] = drives[i].assumed
	}
	common, own := splitAssumptions(as)
	names := make([]string, len(drives))
	for i := range drives {
		names[i] = drives[i].label
	}
	out.lines = groupedAssumptionLines(as, names)
	out.common, out.Assumptions = common, assumptionsView(&common)
	for i := range drives {
		dj := checkSettingOn(&drives[i], rules, defaults, sysfsWrites)
		dj.own, dj.Assumptions = own[i], ownAssumptionsView(&own[i])
		out.Drives = append(out.Drives, dj)
	}
	if f.format.json {
		if err := writeJSON(x.out, out); err != nil {
			return err
		}
	} else {
		writeSettingCheck(x.out, name, &out)
	}
	if out.Serious {
		return exitStatus(exitFailure)
	}
	return nil
}

// settingDrives reads the drives of the CAPTUREs and of --root.
func (f *persistFlags) settingDrives(ctx context.Context, x *invocation, args []string) ([]settingDrive, error) {
	var out []settingDrive
	for _, a := range args {
		ctl, p, err := f.plan.loadWithParams(a, x.stdin)
		if err != nil {
			return nil, err
		}
		d := udev.Drive{Model: strings.TrimSpace(ctl.Model), Serial: strings.TrimSpace(ctl.Serial), Firmware: strings.TrimSpace(ctl.Firmware)}
		if id := capturePCI(f.plan, ctl); !id.IsZero() {
			d.PCI, d.HasPCI = id, true
		}
		d.HasTolerance = (!ctl.APSTAKnown() || ctl.APSTA&1 != 0) && (p.Quirks&apst.QuirkNoAPST == 0 || p.ForceAPST)
		out = append(out, settingDrive{label: captureName(a), drive: d, ctl: ctl, params: p, assumed: planAssumptions(ctl, p)})
	}
	live := *f.root == "" && len(args) == 0 // no drives named: this machine's
	if *f.root != "" || live {
		label := *f.root
		if live {
			label = "this machine"
		}
		sys, err := openSystem(*f.root)
		if err != nil {
			return nil, err
		}
		rep, err := sys.Inspect(ctx)
		switch {
		case err != nil && ctx.Err() == nil && errors.Is(err, fs.ErrNotExist):
			if live && len(out) == 0 {
				return nil, errNoNVMeHere
			}
			return nil, inputErr(fmt.Errorf("--check: --root %s: %w", view.Escape(*f.root), err))
		case err != nil:
			return nil, systemError(err)
		case live && len(rep.Controllers) == 0:
			return nil, errNoNVMeHere
		}
		for _, r := range rep.Controllers {
			dir := path.Join("class/nvme", r.Name)
			d := udev.Drive{Name: r.Name, Model: r.Sysfs.Model, Serial: r.Sysfs.Serial, Firmware: r.Sysfs.FirmwareRev,
				PCI: r.Sysfs.PCI, HasPCI: r.Sysfs.HasPCI, HasTolerance: r.Sysfs.HasTolerance,
				Exists: func(rel string) bool { return existsInTree(sys.FS.Root(), dir, rel) }}
			out = append(out, settingDrive{label: r.Name + " (" + label + ")", drive: d, ctl: r.Identify, params: r.Params, assumed: r.Assumptions()})
		}
	}
	if len(out) == 0 {
		return nil, inputErr(fmt.Errorf("--check: no NVMe controller here: give the drives to check it on (CAPTURE... or --root DIR)"))
	}
	return out, nil
}

// errNoNVMeHere is settingDrives' error when no drive is named and this
// machine has no NVMe controller: nothing to check the setting on, which is
// not a mistake in it.
var errNoNVMeHere = errors.New("no NVMe controller on this machine")

// noNVMeHere is what --check says then.
const noNVMeHere = "this machine has no NVMe controller (no /sys/class/nvme/nvme*): the file was checked for mistakes on its own; give the drives to check it on (CAPTURE... or --root DIR)"

// existsInTree reports whether the attribute rel of the controller
// directory dir (both slash-separated, dir relative to the tree) exists in
// the sysfs tree at root. The lookup stays inside the tree (os.Root: a
// symbolic link leading out of it is not followed), and a rel with a ".."
// component, which would leave the controller's directory, is not looked
// up at all: it does not exist there.
func existsInTree(root, dir, rel string) bool {
	if slices.Contains(strings.Split(rel, "/"), "..") {
		return false
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return false
	}
	defer r.Close()
	_, err = r.Stat(filepath.FromSlash(path.Join(dir, rel)))
	return err == nil
}

// capturePCI is the PCI ID of --pci-id, or the one inferred from the model.
func capturePCI(pf *planFlags, ctl *powerstate.Controller) apst.PCIID {
	var id apst.PCIID
	if *pf.pciID != "" && id.UnmarshalText([]byte(*pf.pciID)) == nil {
		return id
	}
	if pf.match != nil {
		return pf.match.InferredPCI
	}
	return id
}

// checkSettingOn says whether the setting reaches the drive and what table
// results.
func checkSettingOn(cd *settingDrive, rules udev.Rules, defaults []persist.Default, sysfsWrites []persist.SysfsWrite) settingDriveJSON {
	d := &cd.drive
	v := settingDriveJSON{Drive: cd.label, Model: d.Model, Serial: d.Serial, APSTAttribute: d.HasTolerance, Writes: []settingWriteJSON{}, GivesUp: []int{}}
	if d.HasPCI {
		s := d.PCI.String()
		v.PCIID = &s
	}
	bound := persist.DefaultBound
	for _, w := range rules.Apply(*d) {
		v.Writes = append(v.Writes, settingWriteJSON{Line: w.Line, Attr: w.Attr, Value: w.Value, Exists: w.Exists, Actions: w.Actions, Conditions: nonNil(w.Conditions)})
	}
	if w, ok := udev.Tolerance(rules.Apply(*d)); ok {
		if t, err := apst.ParseTolerance(w.Value); err == nil {
			v.Reached, v.By, v.Line, bound = true, "udev", w.Line, t.Bound()
		}
	}
	for _, sw := range sysfsWrites {
		rel, ok := sw.Reaches(*d)
		if !ok {
			continue
		}
		exists := d.Exists != nil && d.Exists(rel) || d.Exists == nil && rel == persist.ToleranceAttr && d.HasTolerance
		v.Writes = append(v.Writes, settingWriteJSON{Line: sw.Line, Attr: rel, Value: sw.Value, Exists: exists, Actions: []string{whenWritten(sw.Form)}, Conditions: []string{}})
		if t, err := apst.ParseTolerance(sw.Value); err == nil && exists && rel == persist.ToleranceAttr {
			v.Reached, v.By, v.Line, bound = true, sw.Form.String(), sw.Line, t.Bound()
		}
	}
	if !v.Reached && len(defaults) > 0 {
		last := defaults[len(defaults)-1]
		for _, df := range defaults {
			if df.Source == persist.SourceCmdline {
				last = df // the kernel command line wins over modprobe.d
			}
		}
		v.Reached, v.By, v.Line, bound = true, "module-default", last.Line, last.Bound
		if bound >= apst.LatencyAny {
			bound = apst.NoLimit
		}
	}
	if !d.HasTolerance {
		v.Reached = false
	}
	v.BoundUS, v.BoundUnlimited = uint64(bound), bound == apst.NoLimit
	if cd.ctl == nil {
		return v
	}
	sw, err := analysis.Sweep(cd.ctl, cd.params)
	if err != nil {
		return v
	}
	at, def := sw.At(bound).Reach, sw.At(persist.DefaultBound).Reach
	ds, dw, fs, fw := int(at.Deepest), uint64(at.WorstExitLatency), int(def.Deepest), uint64(def.WorstExitLatency)
	v.TableKnown, v.DeepestState, v.WorstExitLatencyUS, v.DefaultDeepestState, v.DefaultWorstExitLatencyUS = true, &ds, &dw, &fs, &fw
	v.GivesUp = stateList(def.States &^ at.States)
	return v
}

func writeSettingCheck(w *checkedWriter, name string, out *settingCheckJSON) {
	switch out.Kind {
	case "udev":
		fmt.Fprintf(w, "%s: udev rules (%d)\n", view.Escape(name), out.Rules)
	case "sysfs-writes":
		fmt.Fprintf(w, "%s: sysfs writes (systemd-tmpfiles w lines, tuned [sysfs] lines): %d\n", view.Escape(name), out.SysfsWrites)
	case "module-default":
		fmt.Fprintf(w, "%s: nvme_core.default_ps_max_latency_us, the default of every controller at probe\n", view.Escape(name))
		for _, d := range out.Defaults {
			fmt.Fprintln(w, "  "+view.Escape(d))
		}
	default:
		fmt.Fprintf(w, "%s: neither udev rules nor a module default: only searched for the paths it writes (which drives it reaches is not evaluated)\n", view.Escape(name))
	}
	if len(out.Findings) == 0 {
		fmt.Fprintln(w, "no known mistake")
	}
	if out.DrivesNotEvaluated != "" {
		fmt.Fprintln(w, out.DrivesNotEvaluated)
	}
	for _, fd := range out.Findings {
		kind := "weakness"
		if fd.Serious {
			kind = "mistake"
		}
		fmt.Fprintf(w, "%s (%s), line %d: %s\n  %s\n", kind, fd.Mistake, fd.Line, view.Escape(fd.Text), view.EscapeMessage(fd.Explanation))
	}
	fmt.Fprintln(w)
	for _, l := range out.lines {
		fmt.Fprintln(w, l)
	}
	for _, d := range out.Drives {
		fmt.Fprintf(w, "%s: %s", view.Escape(d.Drive), view.Escape(d.Model))
		if d.Serial != "" {
			fmt.Fprintf(w, ", serial %s", view.Escape(d.Serial))
		}
		if d.PCIID != nil {
			fmt.Fprintf(w, ", PCI %s", *d.PCIID)
		}
		fmt.Fprintln(w)
		for _, wr := range d.Writes {
			exists := "exists"
			if !wr.Exists {
				exists = "DOES NOT EXIST on this drive: nothing is written there"
			}
			fmt.Fprintf(w, "  line %d writes %s = %s at %s: the path %s", wr.Line, view.Escape(wr.Attr), view.Escape(wr.Value), strings.Join(wr.Actions, ", "), exists)
			if len(wr.Conditions) > 0 {
				fmt.Fprintf(w, " (when %s holds)", view.Escape(strings.Join(wr.Conditions, ", ")))
			}
			fmt.Fprintln(w)
		}
		switch {
		case !d.APSTAttribute:
			fmt.Fprintln(w, "  not reached: the kernel has APST disabled for it (no power/pm_qos_latency_tolerance_us)")
			continue
		case !d.Reached:
			fmt.Fprintf(w, "  not reached: it keeps the default %s\n", persist.DefaultBound)
		case d.By == "udev":
			fmt.Fprintf(w, "  reached by the rule of line %d: bound %s\n", d.Line, boundText(apst.Microseconds(d.BoundUS)))
		case d.By == "tmpfiles" || d.By == "tuned":
			fmt.Fprintf(w, "  reached by the %s line %d: bound %s\n", d.By, d.Line, boundText(apst.Microseconds(d.BoundUS)))
		default:
			fmt.Fprintf(w, "  reached by the module default of line %d at probe: bound %s\n", d.Line, boundText(apst.Microseconds(d.BoundUS)))
		}
		if !d.TableKnown {
			fmt.Fprintln(w, "  table: unknown (no Identify data for this controller)")
			continue
		}
		fmt.Fprintf(w, "  table: deepest ps%d, worst exit latency %s (at the default %s: ps%d, %s)",
			*d.DeepestState, apst.Microseconds(*d.WorstExitLatencyUS), persist.DefaultBound, *d.DefaultDeepestState, apst.Microseconds(*d.DefaultWorstExitLatencyUS))
		if len(d.GivesUp) > 0 {
			fmt.Fprintf(w, "; gives up %s", statesText(d.GivesUp))
		}
		fmt.Fprintln(w)
	}
}

func statesText(ss []int) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = fmt.Sprintf("ps%d", s)
	}
	return strings.Join(parts, ",")
}

// whenWritten says when a sysfs write of the form happens.
func whenWritten(f persist.Form) string {
	if f == persist.FormTuned {
		return "tuned profile applied"
	}
	return "boot (systemd-tmpfiles)"
}

// notText refuses, for persist --check or --check-line (flag), input that
// is not text (sniff.NotText: a NUL byte, UTF-16, more control characters
// or invalid UTF-8 than a comment in another encoding holds), saying what
// it is instead and, when it looks like one, which command reads it: a
// binary file's stray bytes could otherwise read as a sysfs write ("w"
// at the start of a line) and be checked as a setting.
func notText(flag, name, text string) error {
	what := sniff.NotText([]byte(text))
	if what == "" {
		return nil
	}
	looks := sniff.Looks([]byte(text), sniff.PersistFile)
	if looks != "" {
		looks = "; " + looks
	}
	return inputErr(fmt.Errorf("%s: %s, not a setting: %s reads UTF-8 text (udev rules, a modprobe.d options line, a kernel command line, sysfs writes, a tmpfiles.d w line or a tuned [sysfs] line)%s", view.Escape(name), what, flag, looks))
}
