package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/persist"
	"github.com/nvmeapst/nvmeapst/examples/internal/view"
	"github.com/nvmeapst/nvmeapst/internal/sniff"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// persistFlags are the flags of persist.
type persistFlags struct {
	plan                   *planFlags
	format                 *outputFormat
	output                 outputFile
	bound, goal, from      *string
	maxStall, maxStallUS   *string
	bar                    *string
	ac, battery            *string
	scope, model, serial   *string
	forms                  *string
	check, checkLine, root *string
	// fs is the command's flag set, to tell a flag given empty from one
	// not given.
	fs *flagSet
}

func persistCommand() *command {
	fs := newFlagSet("persist")
	f := &persistFlags{plan: addPlanFlags(fs), format: addOutputFormat(fs), fs: fs}
	f.plan.pciIDScopes = true // --scope pci and --check key on --pci-id, whatever --quirks says
	f.bound = fs.String("bound", "VALUE", "", "the bound to make last: µs 0..2147483646 (0 turns APST off), or any (unlimited)")
	f.goal = fs.String("goal", "GOAL", "", "instead: choose the bound on CAPTURE for a goal: stall=25ms, bar=ps4, power=10mW or deepest")
	f.maxStall = fs.String("max-stall", "DURATION", "", "instead: the goal stall=DURATION (as recommend; the stall is the advertised exit latency)")
	f.maxStallUS = fs.String("max-stall-us", "US", "", "instead: the goal stall=US")
	f.bar = fs.String("bar-state", "STATES", "", "instead: the goal bar=STATES (4, ps4 or ps3,ps4)")
	f.from = fs.String("from", "FILE", "", "instead: the recommended_us of a recommend -o json result (- for standard input)")
	f.ac = fs.String("ac", "GOAL", "", "with --battery: the bound or goal on mains power; prints the rules that switch on a power-supply change")
	f.battery = fs.String("battery", "GOAL", "", "with --ac: the bound or goal on battery")
	f.scope = fs.String("scope", "SCOPE", "", "the drives: all, model (CAPTURE's model), family (every capacity of it; the default with a CAPTURE), pci (--pci-id) or serial (CAPTURE's)")
	fs.Values("scope", false, persistScopes)
	f.model = fs.String("model", "MODEL", "", "the model to key the udev rule on, exact or a glob (Samsung SSD 990 EVO Plus *)")
	f.serial = fs.String("serial", "SERIAL", "", "the one serial number to key the udev rule on")
	fs.emptyChecked("model", "serial") // persistScope says what to give instead
	f.forms = fs.String("form", "LIST", "", "comma list of udev, cmdline, modprobe, tmpfiles, tuned (default: udev for a model, PCI or serial scope, all five for every drive)")
	fs.Values("form", true, persistFormNames())
	fs.Var(&f.output, "output", "FILE", "write the one form's file to FILE, atomically (give one --form); with --check, the check's report")
	f.check = fs.String("check", "FILE", "", "instead: check a setting the user has (udev rules, a kernel command line, modprobe.d lines, tmpfiles w lines, a tuned [sysfs] section; - for standard input) against the drives of CAPTURE... and --root (default: this machine's)")
	f.checkLine = fs.String("check-line", "TEXT", "", "instead: check this text (a rule, nvme_core.default_ps_max_latency_us=V, an options line)")
	f.root = fs.String("root", "DIR", "", "with --check: also check the controllers of the sysfs tree or bundle at DIR")
	c := &command{
		name:      "persist",
		usageLine: "persist [flags] [CAPTURE] (--bound V | --goal G | --from FILE | --ac G --battery G | --check FILE [CAPTURE...])",
		short:     "make a bound last: udev rule, kernel command line, modprobe.d, tmpfiles, tuned; check an existing one",
		long: `
Turns a bound and a scope into the settings that make it last, each with what it affects and how
to undo it. The bound is given (--bound), chosen on CAPTURE for a goal (--goal, --max-stall,
--bar-state: one value in the best range, as recommend chooses it) or read from a recommend -o json
result (--from). The scope is every controller, a model exact or as a glob (--model, or the
CAPTURE's model with --scope model, or every capacity of it with --scope family, the default with a
CAPTURE), a PCI vendor:device ID (--scope pci with --pci-id) or one serial number (--serial, or
--scope serial). A udev rule can take any scope; it writes
/sys/class/nvme/nvmeN/power/pm_qos_latency_tolerance_us (the controller's file, not the PCI
function's device/power/) only where that file exists. The kernel command line, modprobe.d,
systemd-tmpfiles and tuned forms set every controller: the first two the module default
nvme_core.default_ps_max_latency_us, which applies to controllers probed after it is set.

--ac and --battery take a bound or a goal each (power=10mW, deepest, stall=25ms, bar=ps4) and print
both bounds with their worst exit latency and idle power, and the udev rules that switch between
them on a power-supply change.

--check FILE (or --check-line TEXT) reads a setting the user has (udev rules, a kernel command
line, modprobe.d lines, systemd-tmpfiles w lines, a tuned [sysfs] section) and says, for each drive
of the CAPTUREs and of the sysfs tree or bundle at --root (without either: this machine's
controllers), whether it reaches it, whether the path it writes exists, and the table that
results; it explains the common mistakes (the PCI function's device/power/ path, a low default
taken for deeper states, a global 0, a rule keyed on one serial, a sysfs path that climbs out of
the controller's directory with ".."). The paths a setting writes are looked up inside the tree
only. The exit status is 1 when it finds a serious mistake, 0 otherwise, also on a machine
without NVMe controllers (the file is then checked on its own, and that is said); a --root
without NVMe controllers is status 2.`,
		examples: []string{
			"persist --bound 25000 --scope family testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin",
			"persist testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin --max-stall 25ms",
			"persist --bound 25000 --form cmdline,modprobe",
			"persist testdata/identify/intel-ssdpekkw256g7-PSF109C.bin --ac stall=25ms --battery deepest",
			"persist --check examples/apstctl/testdata/persist/evo-family.rules --root testdata/bundle",
		},
		flags:   fs,
		minArgs: 0, maxArgs: -1,
	}
	c.run = func(ctx context.Context, x *invocation, args []string) error {
		if err := oneStandardInput(args, "--check", *f.check, "--from", *f.from); err != nil {
			return err
		}
		if *f.check != "" || *f.checkLine != "" {
			return runPersistCheck(ctx, x, f, args)
		}
		if *f.root != "" {
			return usagef("--root goes with --check")
		}
		if len(args) > 1 {
			return usagef("persist takes one CAPTURE (several only with --check)")
		}
		return runPersist(x, f, args)
	}
	return c
}

// persistOutputJSON is one rendered form in persist's JSON.
type persistOutputJSON struct {
	Form    string   `json:"form"`
	File    string   `json:"file"`
	Text    string   `json:"text"`
	Affects string   `json:"affects"`
	Apply   []string `json:"apply"`
	Undo    []string `json:"undo"`
	Notes   []string `json:"notes"`
}

func outputView(o persist.Output) persistOutputJSON {
	return persistOutputJSON{Form: o.Form.String(), File: o.File, Text: o.Text, Affects: o.Affects,
		Apply: nonNil(o.Apply), Undo: nonNil(o.Undo), Notes: nonNil(o.Notes)}
}

type persistScopeJSON struct {
	Kind        string  `json:"kind"`
	Model       *string `json:"model"`
	ModelIsGlob bool    `json:"model_is_glob"`
	PCIID       *string `json:"pci_id"`
	Serial      *string `json:"serial"`
	Description string  `json:"description"`
}

func scopeView(s persist.Scope) persistScopeJSON {
	v := persistScopeJSON{Kind: s.Kind.String(), Description: s.String()}
	switch s.Kind {
	case persist.ScopeModel:
		v.Model, v.ModelIsGlob = &s.Model, s.IsGlob()
	case persist.ScopePCI:
		id := s.PCI.String()
		v.PCIID = &id
	case persist.ScopeSerial:
		v.Serial = &s.Serial
	}
	return v
}

// persistAnswerJSON is a bound and where it takes the drive.
type persistAnswerJSON struct {
	Goal               string   `json:"goal"`
	BoundUS            uint64   `json:"bound_us"`
	BoundUnlimited     bool     `json:"bound_unlimited"`
	Written            string   `json:"written"`
	Rule               string   `json:"rule"`
	Why                string   `json:"why"`
	SameTableRange     *string  `json:"same_table_range"`
	DeepestState       *int     `json:"deepest_state"`
	WorstExitLatencyUS *uint64  `json:"worst_exit_latency_us"`
	MaxPowerW          *float64 `json:"deepest_state_max_power_w"`
}

type persistCmdJSON struct {
	Controller *string             `json:"controller"`
	Bound      *persistAnswerJSON  `json:"bound"`
	AC         *persistAnswerJSON  `json:"ac"`
	Battery    *persistAnswerJSON  `json:"battery"`
	Scope      persistScopeJSON    `json:"scope"`
	Outputs    []persistOutputJSON `json:"outputs"`
	Notes      []string            `json:"notes"`
	WroteFile  *string             `json:"wrote_file"`
	// Capture is the CAPTURE's identity; null without.
	Capture *captureJSON `json:"capture"`
	// CaptureNotes are what the reader of the CAPTURE noted; [] without.
	CaptureNotes []string `json:"capture_notes"`
	// Assumptions are the plan's, for a CAPTURE; nothing assumed without.
	Assumptions assumptionsJSON `json:"assumptions"`
}

// answer is a bound with, when a capture was given, where it takes it.
type answer struct {
	persist.Answer
	known bool // Reach and power come from a capture
}

func (a *answer) view() *persistAnswerJSON {
	b := a.Choice.Bound
	v := &persistAnswerJSON{Goal: a.Goal.String(), BoundUS: uint64(b), BoundUnlimited: b == apst.NoLimit,
		Written: a.Choice.Tolerance().String(), Rule: a.Choice.Rule.String(), Why: a.Choice.Why}
	if a.known {
		r := a.Choice.Range.String()
		d, w, p := int(a.Reach.Deepest), uint64(a.Reach.WorstExitLatency), float64(a.MaxPower)/1e6
		v.SameTableRange, v.DeepestState, v.WorstExitLatencyUS, v.MaxPowerW = &r, &d, &w, &p
	}
	return v
}

func (a *answer) text() string {
	s := boundText(a.Choice.Bound)
	if a.Choice.Rule != persist.RuleGiven {
		s += fmt.Sprintf(" (goal %s: %s)", a.Goal, a.Choice.Why)
	}
	if a.known {
		s += fmt.Sprintf("\n  every bound in %s programs the same table: deepest ps%d (max power %s), worst exit latency %s",
			a.Choice.Range, a.Reach.Deepest, a.MaxPower, a.Reach.WorstExitLatency)
	}
	return s
}

// resolveGoal turns a goal into a bound on ctl (nil for a bound given
// without a capture).
func resolveGoal(g persist.Goal, ctl *powerstate.Controller, p apst.Params, what string) (answer, error) {
	if ctl == nil {
		if g.Kind != persist.GoalBound {
			return answer{}, usagef("%s %s: a goal needs a CAPTURE to choose the bound on", what, quoteArg(g.String()))
		}
		return answer{Answer: persist.Answer{Goal: g, Choice: persist.Choice{Bound: g.Bound, Rule: persist.RuleGiven, Why: "given"}}}, nil
	}
	a, err := persist.Resolve(ctl, p, g)
	if err != nil {
		return answer{}, inputErr(fmt.Errorf("%s %s: %w", what, g, err))
	}
	return answer{Answer: a, known: true}, nil
}

// persistGoal is the one bound source of the flags.
func (f *persistFlags) persistGoal(stdin io.Reader) (persist.Goal, string, error) {
	var given []string
	var g persist.Goal
	set := func(name string, parse func() (persist.Goal, error)) error {
		given = append(given, name)
		v, err := parse()
		g = v
		return err
	}
	var err error
	if *f.bound != "" {
		err = set("--bound", func() (persist.Goal, error) {
			v := *f.bound
			if v == "unlimited" {
				v = "any" // as --goal, --ac and --battery read it
			}
			if apst.OctalLooking(v) {
				return g, usagef("--bound %s: a leading 0 is octal to the kernel and decimal to a reader: write the bound without it", quoteArg(*f.bound))
			}
			t, err := apst.ParseTolerance(v)
			if err != nil || t.Kind == apst.ToleranceAuto {
				return g, usagef("--bound %s: want µs 0..%d, or any (unlimited)", quoteArg(*f.bound), persist.MaxValue)
			}
			return persist.Goal{Kind: persist.GoalBound, Bound: t.Bound()}, nil
		})
	}
	for _, kv := range [][3]string{{"--goal", *f.goal, ""}, {"--max-stall", *f.maxStall, "stall="}, {"--max-stall-us", *f.maxStallUS, "stall="}, {"--bar-state", *f.bar, "bar="}} {
		if kv[1] != "" && err == nil {
			err = set(kv[0], func() (persist.Goal, error) {
				v, err := persist.ParseGoal(kv[2] + kv[1])
				if err != nil {
					return v, usagef("%s %s: %v", kv[0], quoteArg(kv[1]), strings.TrimPrefix(err.Error(), "persist: goal: "))
				}
				return v, nil
			})
		}
	}
	if *f.from != "" && err == nil {
		err = set("--from", func() (persist.Goal, error) { return readRecommendJSON(*f.from, stdin) })
	}
	if err != nil {
		return g, "", err
	}
	if len(given) > 1 {
		return g, "", usagef("give one of %s", strings.Join(given, ", "))
	}
	if len(given) == 0 {
		return g, "", usagef("give a bound: --bound, --goal, --max-stall, --bar-state, --from, or --ac and --battery")
	}
	return g, given[0], nil
}

// readRecommendJSON reads the recommended_us of a recommend -o json result.
func readRecommendJSON(path string, stdin io.Reader) (persist.Goal, error) {
	b, err := readInputFile(path, stdin, "--from", "recommend result")
	if err != nil {
		return persist.Goal{}, err
	}
	var r struct {
		RecommendedUS        *uint64 `json:"recommended_us"`
		RecommendedUnlimited bool    `json:"recommended_unlimited"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		msg := fmt.Sprintf("--from %s: not a recommend -o json result: %s", view.Escape(path), jsonErrorAt(b, err))
		if looks := sniff.Looks(b, sniff.RecommendResult); looks != "" {
			msg += "; " + looks
		}
		return persist.Goal{}, inputErr(errors.New(msg))
	}
	switch {
	case r.RecommendedUS == nil:
		return persist.Goal{}, inputErr(fmt.Errorf("--from %s: no recommended_us: no bound meets that recommend's goal (or this is not its output)", view.Escape(path)))
	case r.RecommendedUnlimited:
		return persist.Goal{Kind: persist.GoalBound, Bound: apst.NoLimit}, nil
	case *r.RecommendedUS > uint64(persist.MaxValue):
		return persist.Goal{}, inputErr(fmt.Errorf("--from %s: recommended_us %d is above %d", view.Escape(path), *r.RecommendedUS, persist.MaxValue))
	}
	return persist.Goal{Kind: persist.GoalBound, Bound: apst.Microseconds(*r.RecommendedUS)}, nil
}

// persistScope resolves the scope flags, with the capture's identity.
func (f *persistFlags) persistScope(ctl *powerstate.Controller) (persist.Scope, []string, error) {
	var notes []string
	kind := *f.scope
	if name := f.fs.firstGiven("model", "serial"); name != "" {
		if v := map[string]string{"model": *f.model, "serial": *f.serial}[name]; strings.TrimSpace(v) == "" {
			return persist.Scope{}, nil, usagef("--%s is empty: give the %s the rule matches (a rule for every controller is --scope all)", name, name)
		}
	}
	switch {
	case *f.model != "" && *f.serial != "":
		return persist.Scope{}, nil, usagef("give one of --model and --serial")
	case *f.model != "":
		if kind != "" && kind != "model" {
			return persist.Scope{}, nil, usagef("--model goes with --scope model, not %s", quoteArg(kind))
		}
		return persist.ModelScope(*f.model), nil, nil
	case *f.serial != "":
		if kind != "" && kind != "serial" {
			return persist.Scope{}, nil, usagef("--serial goes with --scope serial, not %s", quoteArg(kind))
		}
		return persist.SerialScope(*f.serial), nil, nil
	}
	if kind == "" {
		kind = "all"
		if ctl != nil {
			kind = "family"
		}
	}
	need := func() error {
		if ctl == nil {
			return usagef("--scope %s takes the drive's identity from a CAPTURE (or give --model, --serial)", kind)
		}
		return nil
	}
	switch kind {
	case "all":
		return persist.AllControllers(), nil, nil
	case "model", "family":
		if err := need(); err != nil {
			return persist.Scope{}, nil, err
		}
		m := strings.TrimSpace(ctl.Model)
		if m == "" {
			return persist.Scope{}, nil, inputErr(fmt.Errorf("the capture has no model: give --model"))
		}
		if kind == "family" {
			glob, ok := persist.ModelFamily(m)
			if ok {
				notes = append(notes, fmt.Sprintf("the rule is keyed on %q, every capacity of the capture's model %q", glob, m))
			} else {
				notes = append(notes, fmt.Sprintf("the model %q ends in no capacity word: the rule is keyed on it exactly (give --model with a glob to widen it)", m))
			}
			m = glob
		}
		if kind == "family" {
			return persist.ModelScope(m), notes, nil // the glob ModelFamily made
		}
		return persist.ExactModelScope(m), notes, nil
	case "serial":
		if err := need(); err != nil {
			return persist.Scope{}, nil, err
		}
		return persist.SerialScope(ctl.Serial), nil, nil
	case "pci":
		var id apst.PCIID
		if *f.plan.pciID != "" {
			if err := id.UnmarshalText([]byte(*f.plan.pciID)); err != nil {
				return persist.Scope{}, nil, usagef("--pci-id %s: %v", quoteArg(*f.plan.pciID), err)
			}
		} else if f.plan.match != nil && !f.plan.match.InferredPCI.IsZero() {
			id = f.plan.match.InferredPCI
			notes = append(notes, fmt.Sprintf("the capture carries no PCI ID: %s was inferred from %s (give --pci-id to override)", id, f.plan.match.InferredFrom))
		} else {
			return persist.Scope{}, nil, usagef("--scope pci needs the PCI ID: give --pci-id VVVV:DDDD (lspci -nn shows it; a capture carries only the vendor)")
		}
		return persist.PCIScope(id), notes, nil
	}
	return persist.Scope{}, nil, usagef("--scope %s: want all, model, family, pci or serial", quoteArg(kind))
}

// persistScopes are the words --scope takes, for completion (persistScope
// reads each).
var persistScopes = []string{"all", "model", "family", "pci", "serial"}

// persistFormNames are the words of a --form list, for completion: the
// forms of package persist (persist.ParseForm reads each).
func persistFormNames() []string {
	var names []string
	for _, fm := range persist.Forms() {
		names = append(names, fm.String())
	}
	return names
}

// persistForms resolves --form for the scope.
func (f *persistFlags) persistForms(s persist.Scope) ([]persist.Form, error) {
	if *f.forms == "" {
		if s.Kind == persist.ScopeAll {
			return persist.Forms(), nil
		}
		return []persist.Form{persist.FormUdev}, nil
	}
	var out []persist.Form
	for _, name := range strings.Split(*f.forms, ",") {
		fm, err := persist.ParseForm(strings.TrimSpace(name))
		if err != nil {
			return nil, usagef("--form %s: want a comma list of udev, cmdline, modprobe, tmpfiles, tuned", quoteArg(name))
		}
		if !fm.Scoped() && s.Kind != persist.ScopeAll {
			return nil, usagef("--form %s sets every controller: it cannot select %s (only udev can; or give --scope all)", fm, s)
		}
		if slices.Contains(out, fm) {
			return nil, usagef("--form %s names %s twice: each form is written once", quoteArg(*f.forms), fm)
		}
		out = append(out, fm)
	}
	return out, nil
}

func runPersist(x *invocation, f *persistFlags, args []string) error {
	if *f.bound != "" {
		// The plan flags give the drive's bound now, which a goal is
		// weighed against; --bound is the answer itself, and they would
		// change nothing.
		if name := f.plan.fs.firstGiven("ps-max-latency-us", "pm-qos", "default-ps-max-latency-us"); name != "" {
			return usagef("--bound and --%s contradict each other: --%s gives the bound the drive has now, which a goal (--goal, --max-stall, --bar-state) is weighed against, and --bound makes a bound last without one", name, name)
		}
	}
	var ctl *powerstate.Controller
	var p apst.Params
	if len(args) == 1 {
		var err error
		if ctl, p, err = f.plan.loadWithParams(args[0], x.stdin); err != nil {
			return err
		}
	}
	if ctl == nil {
		if name := x.cmd.flags.firstGiven("ps-max-latency-us", "pm-qos", "default-ps-max-latency-us", "apst-primary-timeout-ms", "apst-secondary-timeout-ms",
			"apst-primary-latency-tol-us", "apst-secondary-latency-tol-us", "kernel", "quirks", "force-apst", "force"); name != "" {
			return usagef("--%s describes the kernel a CAPTURE is planned under: give the CAPTURE, or drop it", name)
		}
	}
	scope, notes, err := f.persistScope(ctl)
	if err != nil {
		return err
	}
	if ctl == nil && *f.plan.pciID != "" && scope.Kind != persist.ScopePCI {
		// Without a CAPTURE (whose quirk lookup it would settle) the PCI ID
		// only keys a --scope pci rule.
		return usagef("--pci-id goes with --scope pci (or a CAPTURE, whose quirks it settles): the %s scope would not use it", scope.Kind)
	}
	if err := scope.Validate(); err != nil {
		return inputErr(errors.New(ownPackage(err)))
	}
	label := ""
	if ctl != nil && scope.Kind == persist.ScopePCI {
		label = strings.TrimSpace(ctl.Model)
	}
	out := persistCmdJSON{Scope: scopeView(scope), Outputs: []persistOutputJSON{}}
	var outs []persist.Output
	var ac, bat, one *answer
	if *f.ac != "" || *f.battery != "" {
		if *f.ac == "" || *f.battery == "" {
			return usagef("give both --ac and --battery")
		}
		if *f.bound != "" || *f.goal != "" || *f.maxStall != "" || *f.maxStallUS != "" || *f.bar != "" || *f.from != "" || *f.forms != "" {
			return usagef("--ac and --battery give the bounds: drop --bound, --goal, --max-stall, --bar-state, --from and --form")
		}
		var as [2]answer
		for i, kv := range [][2]string{{"--ac", *f.ac}, {"--battery", *f.battery}} {
			g, err := persist.ParseGoal(kv[1])
			if err != nil {
				return usagef("%s %s: %v", kv[0], quoteArg(kv[1]), strings.TrimPrefix(err.Error(), "persist: goal: "))
			}
			if as[i], err = resolveGoal(g, ctl, p, kv[0]); err != nil {
				return err
			}
		}
		ac, bat = &as[0], &as[1]
		o, err := persist.RenderPowerSupply(scope, label, ac.Choice.Bound, bat.Choice.Bound)
		if err != nil {
			return inputErr(err)
		}
		outs = append(outs, o)
		out.AC, out.Battery = ac.view(), bat.view()
	} else {
		g, _, err := f.persistGoal(x.stdin)
		if err != nil {
			return err
		}
		a, err := resolveGoal(g, ctl, p, "goal")
		if err != nil {
			return err
		}
		if g.Kind == persist.GoalBar && ctl != nil {
			if beyond := g.Bar &^ (apst.States(1)<<(uint(ctl.NPSS)+1) - 1); beyond != 0 {
				// As recommend says it: the drive has no such state, so
				// every bound bars it.
				notes = append(notes, fmt.Sprintf("%s is not a state of this drive (NPSS %d: ps0 to ps%d): no bound reaches it", beyond, ctl.NPSS, ctl.NPSS))
			}
		}
		one = &a
		forms, err := f.persistForms(scope)
		if err != nil {
			return err
		}
		for _, fm := range forms {
			o, err := persist.Render(persist.Setting{Bound: a.Choice.Bound, Scope: scope, Label: label}, fm)
			if err != nil {
				return usagef("%s", ownPackage(err))
			}
			outs = append(outs, o)
		}
		out.Bound = a.view()
	}
	if ctl != nil {
		d := describeController(ctl)
		out.Controller = &d
	}
	out.Notes = nonNil(notes)
	for _, o := range outs {
		out.Outputs = append(out.Outputs, outputView(o))
	}
	if f.output.path != "" {
		if len(outs) != 1 || outs[0].File == "" {
			return usagef("--output writes one file: give one --form other than cmdline")
		}
		if f.output.stdout {
			return usagef("--output %s: persist prints its report on standard output, the file's text included; give a file", f.output.path)
		}
		if err := writeFileOrFail("--output", f.output.path, func(w io.Writer) error {
			_, err := io.WriteString(w, outs[0].Text)
			return err
		}); err != nil {
			return err
		}
		out.WroteFile = &f.output.path
	}
	var a apst.Assumptions
	out.CaptureNotes = []string{}
	if ctl != nil {
		a = planAssumptions(ctl, p)
		cv := captureView(ctl)
		out.Capture, out.CaptureNotes = &cv, captureNotesView(ctl)
	}
	out.Assumptions = assumptionsView(&a)
	if f.format.json {
		return writeJSON(x.out, out)
	}
	w := x.out
	if ctl != nil {
		fmt.Fprintln(w, describeController(ctl))
		fmt.Fprintln(w, describeParamsBound(&p, false))
		writeCaptureNotes(w, ctl)
		writeAssumptions(w, &a)
	}
	if one != nil {
		fmt.Fprintln(w, "bound:", one.text())
	} else {
		fmt.Fprintln(w, "on AC:", ac.text())
		fmt.Fprintln(w, "on battery:", bat.text())
		if ac.known && bat.known && ac.Choice.Range == bat.Choice.Range {
			fmt.Fprintf(w, "AC and battery program the same table (every bound in %s does): one setting is enough, no switch is needed\n", ac.Choice.Range)
		} else if ac.known && bat.known {
			fmt.Fprintf(w, "battery against AC: %+.1f mW max power of the deepest state, worst exit latency %s instead of %s\n",
				(bat.MaxPower - ac.MaxPower).MilliWatts(), bat.Reach.WorstExitLatency, ac.Reach.WorstExitLatency)
		}
	}
	fmt.Fprintln(w, "scope:", view.Escape(scope.String()))
	for _, n := range notes {
		fmt.Fprintln(w, "note:", view.EscapeMessage(n))
	}
	for _, o := range outs {
		fmt.Fprintln(w)
		writeOutputText(w, o, f.output.path)
	}
	return nil
}

// writeOutputText prints one form: its file (or argument), what it affects,
// how to apply and undo it.
func writeOutputText(w io.Writer, o persist.Output, wrote string) {
	head := "== " + o.Form.String()
	if o.File != "" {
		head += ": " + o.File
	}
	fmt.Fprintln(w, head)
	if wrote != "" {
		fmt.Fprintf(w, "  (written to %s)\n", view.Escape(wrote))
	} else {
		for _, l := range strings.Split(strings.TrimRight(o.Text, "\n"), "\n") {
			fmt.Fprintln(w, "  "+view.Escape(l))
		}
	}
	fmt.Fprintln(w, "affects:", view.Escape(o.Affects))
	for _, a := range o.Apply {
		fmt.Fprintln(w, "apply:", view.Escape(a))
	}
	for _, u := range o.Undo {
		fmt.Fprintln(w, "undo:", view.Escape(u))
	}
	for _, n := range o.Notes {
		fmt.Fprintln(w, "note:", view.EscapeMessage(n))
	}
}

// ownPackage is the message of an error of package persist without its
// "persist: " prefix: the command's own "apstctl persist: " names the
// package already ("apstctl persist: scope: ...", not "apstctl persist:
// persist: scope: ...").
func ownPackage(err error) string {
	return strings.TrimPrefix(err.Error(), "persist: ")
}

// oneStandardInput refuses a command line that names standard input ("-")
// twice, among the CAPTUREs args and the files of the flags (name, value
// pairs): standard input holds one file, which the first read would take,
// leaving the second an empty input that says nothing of the mistake.
func oneStandardInput(args []string, flagFiles ...string) error {
	var where []string
	for i := 0; i+1 < len(flagFiles); i += 2 {
		if namesStandardInput(flagFiles[i+1]) {
			where = append(where, flagFiles[i]+" "+flagFiles[i+1])
		}
	}
	for _, a := range args {
		if namesStandardInput(a) {
			where = append(where, "CAPTURE "+a)
		}
	}
	if len(where) > 1 {
		return usagef("%s and %s both name standard input, which holds one file: give one of them as a file", where[0], where[1])
	}
	return nil
}
