package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	nvmeapst "github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/measure"
	"github.com/nvmeapst/nvmeapst/examples/internal/view"
	"github.com/nvmeapst/nvmeapst/internal/safeio"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// measureDefaultConfigs are the two settings the 25 ms patch interleaved,
// used when no --with is given.
var measureDefaultConfigs = []string{"ps-max-latency-us=100000", "ps-max-latency-us=25000"}

// measureSynopsis is the usage line after "apstctl ".
const measureSynopsis = "measure [flags] nvmeNnM\n       apstctl measure [flags] --simulate CAPTURE"

// measureLong is the paragraph of the help.
const measureLong = `Measures the real wake stall of a drive, as the 25 ms patch did: for each trial, each idle time
and each configuration in turn (interleaved), sets the controller's pm_qos_latency_tolerance_us to
the configuration's bound, waits the idle time with no I/O from apstctl, then times one 4 KiB
O_DIRECT read (and a warm read right after it). Prints p50/p90/p99/max per configuration and idle
time, the state the plan says the drive was in, and the measured/advertised exit-latency factor
per state, which simulate and replay take as --exit-factor. Trials during which the device's I/O
counters moved (other I/O resets the drive's idle timer) are discarded and counted.

Reads only: the namespace is opened O_RDONLY|O_DIRECT. The only write is the tolerance file,
validated and read back as set-latency does; its value is printed before the first change and
restored at the end, on ^C, SIGTERM, SIGHUP, SIGQUIT or SIGPIPE and after any error. Needs root.

With --simulate CAPTURE, runs against a simulated drive that follows the plan's idle timeline on a
virtual clock (exit latency x --exit-factor, plus seeded noise): deterministic and instant.
Without --with, the configurations are ps-max-latency-us=100000 and ps-max-latency-us=25000.`

// measureOptions are the flags of measure, and what its tests change.
type measureOptions struct {
	with         withFlags
	trials       int
	idle         string
	idleList     string
	offsets      string
	offset       int64
	seed         uint64
	format       *outputFormat
	trialsDetail bool
	factorOut    outputFile
	simulate     string
	exitFactor   string
	noise        float64
	foreignIO    float64
	lateDescent  float64
	pciID        string

	hooks measureHooks
}

// measureHooks are what a test changes in a measure run; the zero value
// measures the live machine.
type measureHooks struct {
	// setup, when set, may change the setup before it runs.
	setup func(*measure.Setup)
	// liveSystem opens the machine; nil means nvmeapst.Live.
	liveSystem func() (*nvmeapst.System, error)
	// openOptions are passed to OpenTarget.
	openOptions nvmeapst.TargetOptions
}

// measureTestHook, when set, edits the hooks of every measure command line
// before it runs. Only the package's tests set it, in an apstctl process
// they start and signal (a fake sysfs root and a simulated drive in place
// of the machine's); the tests run in-process use newMeasureCommand.
var measureTestHook func(*measureHooks)

// measureCommand is "apstctl measure".
func measureCommand() *command {
	var h measureHooks
	if measureTestHook != nil {
		measureTestHook(&h)
	}
	return newMeasureCommand(h)
}

// measureOffsets are the words --offsets takes (measureOptions.run reads
// each).
var measureOffsets = []string{"random", "fixed"}

// newMeasureCommand is measure with the hooks of a test.
func newMeasureCommand(h measureHooks) *command {
	fs := newFlagSet("measure")
	o := &measureOptions{hooks: h}
	fs.Var(&o.with, "with", "CONFIG", "a configuration to measure: comma list of k=v as plan's flags without dashes, e.g. ps-max-latency-us=25000 (repeat; configurations differ only in the bound)")
	fs.IntVar(&o.trials, "trials", "N", measure.DefaultTrials, "trials per configuration and idle time")
	fs.StringVar(&o.idle, "idle", "DURATION", "3s", "idle time before each cold read (100ms, 3s)")
	fs.StringVar(&o.idleList, "idle-list", "DURATIONS", "", "comma list of idle times, each measured in turn (replaces --idle): 100ms,500ms,3s")
	fs.StringVar(&o.offsets, "offsets", strings.Join(measureOffsets, "|"), "random", "where the reads go: random (seeded, aligned to the logical block size) or fixed (--offset)")
	fs.Values("offsets", false, measureOffsets)
	fs.Int64Var(&o.offset, "offset", "BYTES", 0, "byte offset of every read with --offsets fixed (a multiple of the logical block size)")
	fs.Uint64Var(&o.seed, "seed", "N", 1, "seed of the random offsets (and of the simulated drive's noise)")
	o.format = addOutputFormat(fs)
	fs.BoolVar(&o.trialsDetail, "trials-detail", false, "add every trial to the JSON output (trials_detail)")
	fs.Var(&o.factorOut, "factor-out", "FILE", "write the measured exit factor to FILE (one line, as --exit-factor of simulate, replay and recommend reads it); with none measured, FILE is left as it was and the exit status is 1")
	fs.StringVar(&o.simulate, "simulate", "CAPTURE", "", "measure a simulated drive built from the Identify CAPTURE instead of a live one")
	fs.StringVar(&o.exitFactor, "exit-factor", "FACTOR", "1", "with --simulate: the simulated drive's measured/advertised exit-latency factor: 0.78, 78% or 39/50")
	fs.Float64Var(&o.noise, "noise", "FRACTION", 0.005, "with --simulate: relative noise of each simulated read (0 to 0.5)")
	fs.Float64Var(&o.foreignIO, "foreign-io", "P", 0, "with --simulate: probability that other I/O touches the drive during an idle wait (0 to 1)")
	fs.StringVar(&o.pciID, "pci-id", "VVVV:DDDD", "", "with --simulate: the PCI vendor:device ID of the drive, for the PCI-ID quirk table (a capture carries none; default: inferred from the model where that is certain)")
	fs.Float64Var(&o.lateDescent, "late-descent", "P", 0, "with --simulate: probability that a read finds the drive one state short of its timeline (0 to 1; the patch saw 5/6)")
	c := &command{
		name:      "measure",
		usageLine: measureSynopsis,
		short:     "measure the real wake stall of a live drive at two or more bounds",
		long:      measureLong,
		examples: []string{
			"measure nvme0n1",
			"measure nvme0n1 --with pm-qos=100000 --with pm-qos=25000 --idle-list 100ms,500ms,3s -o json",
			"measure --simulate testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin --exit-factor 0.78 --seed 1",
		},
		flags:   fs,
		minArgs: 0, maxArgs: 1,
	}
	c.run = o.run
	return c
}

// run measures: the namespace (nvmeNnM) of args, or with --simulate a
// simulated drive. The value of the tolerance file is printed on stderr
// before the first change; after a runtime failure it has been restored (or
// the error says how to restore it).
func (o *measureOptions) run(ctx context.Context, x *invocation, args []string) error {
	stdout, stderr := io.Writer(x.out), io.Writer(x.errw)
	if err := o.factorOut.besideReport("--factor-out"); err != nil {
		return err
	}
	if x.cmd.flags.firstGiven("idle") != "" && x.cmd.flags.firstGiven("idle-list") != "" {
		return usagef("--idle and --idle-list contradict each other: --idle-list replaces --idle; give one")
	}
	idle, err := parseIdleList(o.idle, o.idleList)
	if err != nil {
		return usagef("%v", err)
	}
	var offsets measure.Offsets
	switch o.offsets {
	case "random":
		if o.offset != 0 {
			return usagef("--offset needs --offsets fixed")
		}
	case "fixed":
		offsets = measure.OffsetsFixed
		if o.simulate == "" && x.cmd.flags.firstGiven("seed") != "" {
			// The seed draws the random offsets (and, with --simulate, the
			// simulated drive's noise): a live drive at a fixed offset has
			// nothing for it to draw.
			return usagef("--seed draws the random offsets: with --offsets fixed on a live drive it would be ignored")
		}
	default:
		return usagef("--offsets %q: want %s", o.offsets, orList(measureOffsets))
	}
	if o.trialsDetail && !o.format.json {
		return usagef("--trials-detail does nothing for text output: it adds trials_detail to -o json")
	}
	if o.trials < 1 || o.trials > measure.MaxTrials {
		return usagef("--trials %d: want 1 to %d", o.trials, measure.MaxTrials)
	}
	texts := []string(o.with)
	if len(texts) == 0 {
		texts = measureDefaultConfigs
	}

	var (
		setup  measure.Setup
		header measureHeader
		parse  func(string) (measure.Config, error)
		// assumed is what the answer for a configuration assumed.
		assumed func(measure.Config) apst.Assumptions
	)
	if o.simulate != "" {
		if len(args) != 0 {
			return usagef("--simulate measures a simulated drive: no device argument (got %q)", args)
		}
		sim, c, base, err := o.simulationInput(x.stdin)
		if err != nil {
			return err
		}
		setup = sim.Setup()
		header = measureHeader{Device: "simulated", Controller: c, Simulated: true, SimulatedFactor: o.exitFactor,
			Notes: []string{"simulated drive: the current kernel's defaults with the quirks the capture implies (apst.DriveQuirks, newest tables); --with sets only the bound, as on a live machine"}}
		if q := base.Quirks; q != 0 {
			header.Notes = append(header.Notes, "quirks applied: "+q.String())
		}
		// The simulated drive, like a live one, takes only the bound.
		parse = func(s string) (measure.Config, error) { return measure.ParseConfig(s, base) }
		assumed = func(cfg measure.Config) apst.Assumptions { return planAssumptions(c, cfg.Params) }
		setup.OnOriginal = func(t apst.Tolerance) {
			fmt.Fprintf(stderr, "apstctl measure: the simulated pm_qos_latency_tolerance_us holds %s; it is restored at the end\n", t)
		}
	} else {
		for _, flagName := range []string{"exit-factor", "noise", "foreign-io", "late-descent", "pci-id"} {
			if o.simFlagSet(flagName) {
				return usagef("--%s needs --simulate", flagName)
			}
		}
		if len(args) != 1 {
			return usagef("want 1 argument (the namespace, e.g. nvme0n1), got %d %q", len(args), args)
		}
		if err := checkMeasureDevice(args[0]); err != nil {
			return err // before the machine is looked at
		}
		open := o.hooks.liveSystem
		if open == nil {
			open = nvmeapst.Live
		}
		sys, err := open()
		if err != nil {
			return err
		}
		target, err := sys.OpenTarget(ctx, args[0], o.hooks.openOptions)
		if err != nil {
			return err
		}
		defer target.Close()
		setup = target.Setup()
		header = measureHeader{Device: target.Disk, ControllerName: target.Controller, Controller: target.Report.Identify}
		parse = target.Config
		// The plans take the machine's quirk set (QuirksGiven): what the
		// lookup behind it assumed is the controller's, the same for every
		// configuration (they differ only in the bound).
		report := &target.Report
		assumed = func(measure.Config) apst.Assumptions { return report.Assumptions() }
		path := target.TolerancePath
		setup.OnOriginal = func(t apst.Tolerance) {
			fmt.Fprintf(stderr, "apstctl measure: %s holds %s; if this run is killed, restore it with: echo %s > %s\n", path, t, t, path)
		}
	}
	for _, s := range texts {
		cfg, err := parse(s)
		if err != nil {
			return usagef("--with %q: %v", s, err)
		}
		setup.Configs = append(setup.Configs, cfg)
		header.Configs = append(header.Configs, cfg.Text)
		header.Assumptions = append(header.Assumptions, assumed(cfg))
	}
	setup.Idle, setup.Trials, setup.Offsets, setup.FixedOffset, setup.Seed = idle, o.trials, offsets, o.offset, o.seed
	if p := x.progress(); p != nil {
		setup.OnTrial = measureProgress(p, &setup)
	}
	if o.hooks.setup != nil {
		o.hooks.setup(&setup)
	}
	res, err := measure.Run(ctx, setup)
	if errors.Is(err, measure.ErrSetup) && res == nil {
		return usagef("%v", err)
	}
	if err != nil {
		if res != nil && res.Restored {
			fmt.Fprintf(stderr, "apstctl measure: pm_qos_latency_tolerance_us restored to %s\n", res.Original)
		}
		return err
	}
	if o.factorOut.path != "" && res.ExitFactorTrials > 0 {
		err := writeFileOrFail("--factor-out", o.factorOut.path, func(w io.Writer) error {
			_, err := io.WriteString(w, exitFactorsText(res)+"\n")
			return err
		})
		if err != nil {
			return err
		}
	}
	header.ReadBytes = setup.Drive.ReadLength()
	header.Trials = setup.Trials
	write := writeMeasureText
	if o.format.json {
		write = func(w io.Writer, h *measureHeader, r *measure.Result) error {
			return writeMeasureJSON(w, h, r, o.trialsDetail)
		}
	}
	if err := write(stdout, &header, res); err != nil {
		return err
	}
	if o.factorOut.path != "" && res.ExitFactorTrials == 0 {
		// A script reads FILE next: an old factor left in it must not
		// pass for this run's.
		return fmt.Errorf("--factor-out %s: no exit factor was measured (no kept trial met a non-operational state), so it was not written", view.Escape(o.factorOut.path))
	}
	return nil
}

// measureProgress returns the OnTrial of a run whose standard error is a
// terminal: one line, rewritten after each trial, with the trial's number,
// configuration and idle time, and a newline after the last.
func measureProgress(w io.Writer, s *measure.Setup) func(measure.Trial) {
	total, done := s.Trials*len(s.Idle)*len(s.Configs), 0
	return func(t measure.Trial) {
		done++
		cfg := ""
		if t.Config >= 0 && t.Config < len(s.Configs) {
			cfg = s.Configs[t.Config].Text
		}
		fmt.Fprintf(w, "\r\x1b[Kapstctl measure: trial %d of %d: %s, idle %s", done, total, safeio.EscapeTerminal(cfg), durationText(t.Idle))
		if done == total {
			fmt.Fprintln(w)
		}
	}
}

// simFlagSet reports whether a flag of the simulation differs from its
// default.
func (o *measureOptions) simFlagSet(name string) bool {
	switch name {
	case "exit-factor":
		return o.exitFactor != "1"
	case "noise":
		return o.noise != 0.005
	case "foreign-io":
		return o.foreignIO != 0
	case "late-descent":
		return o.lateDescent != 0
	case "pci-id":
		return o.pciID != ""
	}
	return false
}

// maxSimulatedFactor bounds the --exit-factor of a simulated drive.
const maxSimulatedFactor = 1000

// simulation builds the simulated drive of --simulate, with nothing on
// standard input.
func (o *measureOptions) simulation() (*measure.Simulation, *powerstate.Controller, apst.Params, error) {
	return o.simulationInput(&commandInput{ctx: context.Background(), r: eofReader{}})
}

// simulationInput is simulation reading a --simulate of "-" from stdin,
// the command's standard input, whose context ends a wait for a FIFO's
// writer.
func (o *measureOptions) simulationInput(stdin io.Reader) (*measure.Simulation, *powerstate.Controller, apst.Params, error) {
	factor, err := analysis.ParseFactor(o.exitFactor)
	if err != nil {
		return nil, nil, apst.Params{}, usagef("--exit-factor: %v", err)
	}
	if factor.Den == 0 || factor.Num/factor.Den > maxSimulatedFactor || factor.Num/factor.Den == maxSimulatedFactor && factor.Num%factor.Den != 0 {
		// A simulated read's latency is a time.Duration: 2^32-1 µs times
		// the factor must fit in it, and no drive is 1000 times slower
		// than it says.
		return nil, nil, apst.Params{}, usagef("--exit-factor %s: want 0 to %d for a simulated drive", quoteArg(o.exitFactor), maxSimulatedFactor)
	}
	b, err := readCapture(o.simulate, stdin)
	if err != nil && inputContext(stdin).Err() != nil {
		return nil, nil, apst.Params{}, err // interrupted: runCommand says so
	}
	if err != nil {
		return nil, nil, apst.Params{}, usagef("--simulate: %v", err)
	}
	c, err := capture.ParseBytes(b)
	if err != nil {
		err = captureHint(err, b)
		return nil, nil, apst.Params{}, usagef("--simulate %s: %v", o.simulate, err)
	}
	if err := setPCIID(&c, o.pciID); err != nil {
		return nil, nil, apst.Params{}, err
	}
	base := apst.DefaultParams(apst.Current)
	base.Quirks = apst.DriveQuirks(&c, apst.Release{}).APST()
	sim, err := measure.NewSimulation(&c, base, measure.SimulationOptions{
		ExitFactor: factor, Seed: o.seed, Noise: o.noise, ForeignIO: o.foreignIO, LateDescent: o.lateDescent,
		Initial: apst.Tolerance{Kind: apst.ToleranceValue, Value: uint32(apst.Current.DefaultBound())},
	})
	if err != nil {
		return nil, nil, apst.Params{}, usagef("%v", err)
	}
	return sim, &c, base, nil
}

// parseIdleList parses --idle, or --idle-list when set: Go durations
// (100ms, 3s), each positive and at most an hour, at most 32 of them.
func parseIdleList(idle, list string) ([]time.Duration, error) {
	flagName, text := "--idle", idle
	if list != "" {
		flagName, text = "--idle-list", list
	}
	var out []time.Duration
	for _, item := range strings.Split(text, ",") {
		item = strings.TrimSpace(item)
		d, err := time.ParseDuration(item)
		if err != nil || d <= 0 || d > time.Hour {
			return nil, fmt.Errorf("%s %q: %q is not a duration from 1us to 1h (100ms, 3s)", flagName, text, item)
		}
		out = append(out, d)
	}
	if len(out) > 32 {
		return nil, fmt.Errorf("%s: %d idle times, want at most 32", flagName, len(out))
	}
	return out, nil
}

// measureHeader is what the output says about the drive.
type measureHeader struct {
	Device          string
	ControllerName  string
	Controller      *powerstate.Controller
	Simulated       bool
	SimulatedFactor string
	ReadBytes       int
	Trials          int
	// Notes come before the measurement's own.
	Notes []string
	// Configs are the configurations' texts and Assumptions what the
	// answer for each assumed, in the same order.
	Configs     []string
	Assumptions []apst.Assumptions
}

// us returns d in whole microseconds, rounded to the nearest.
func us(d time.Duration) int64 { return int64(d.Round(time.Microsecond) / time.Microsecond) }

// latencyText formats a latency for the table: 33.59ms, or 60us below 1 ms.
func latencyText(d time.Duration) string {
	if d < time.Millisecond {
		return strconv.FormatInt(us(d), 10) + "us"
	}
	return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 2, 64) + "ms"
}

// statsText writes a row's percentiles, "-" each when no read is behind
// them.
func statsText(l measure.LatencyStats) (p50, p90, p99, mx string) {
	if l.Count == 0 {
		return "-", "-", "-", "-"
	}
	return latencyText(l.P50), latencyText(l.P90), latencyText(l.P99), latencyText(l.Max)
}

// writeMeasureText writes the table of the patch and the factors.
func writeMeasureText(w io.Writer, h *measureHeader, r *measure.Result) error {
	var b strings.Builder
	c := h.Controller
	fmt.Fprintf(&b, "%s, firmware %s: ", view.Escape(c.Model), view.Escape(c.Firmware))
	if h.Simulated {
		fmt.Fprintf(&b, "simulated drive, exit factor %s\n", h.SimulatedFactor)
	} else {
		fmt.Fprintf(&b, "%s on %s\n", h.Device, h.ControllerName)
	}
	writeCaptureNotes(&b, c)
	for _, l := range groupedAssumptionLines(h.Assumptions, h.Configs) {
		fmt.Fprintln(&b, l)
	}
	fmt.Fprintf(&b, "%s per row, interleaved; %d-byte reads at %s offsets (seed %d)\n\n", plural(h.Trials, "trial"), h.ReadBytes, r.Offsets, r.Seed)
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "config\tidle\ttrials\tkept\tstate\tp50\tp90\tp99\tmax")
	for _, row := range r.Rows {
		p50, p90, p99, mx := statsText(row.Latency)
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\tps%d\t%s\t%s\t%s\t%s\n", row.ConfigText, durationText(row.Idle), row.Trials, row.Kept, row.State,
			p50, p90, p99, mx)
	}
	p50, p90, p99, mx := statsText(r.Warm)
	fmt.Fprintf(tw, "warm\t-\t%d\t%d\t-\t%s\t%s\t%s\t%s\n", r.Warm.Count, r.Warm.Count, p50, p90, p99, mx)
	tw.Flush()
	if len(r.States) > 0 {
		fmt.Fprintln(&b, "\nexit latency, measured / advertised:")
		for _, s := range r.States {
			fmt.Fprintf(&b, "  ps%d  %s / %s  factor %s  (%s)\n", s.State, latencyText(s.Measured), latencyText(s.Advertised.Duration()), s.Factor, plural(s.Trials, "trial"))
		}
	}
	if r.ExitFactorTrials > 0 {
		fmt.Fprintf(&b, "\nexit factor %s over %s: apstctl simulate --exit-factor %s (replay takes the same)\n", r.ExitFactor, plural(r.ExitFactorTrials, "trial"), r.ExitFactor)
		fmt.Fprintf(&b, "per state: %s (apstctl simulate --exit-factor %s uses them)\n", r.ExitFactorByState(), exitFactorsText(r))
	}
	if r.CountersChecked {
		fmt.Fprintf(&b, "\n%d of %s kept (%d discarded: other I/O during the idle wait)\n", len(r.Trials)-r.Discarded, plural(len(r.Trials), "trial"), r.Discarded)
	}
	if r.Restored {
		fmt.Fprintf(&b, "pm_qos_latency_tolerance_us restored to %s\n", r.Original)
	}
	if notes := append(h.Notes[:len(h.Notes):len(h.Notes)], r.Notes...); len(notes) > 0 {
		fmt.Fprintln(&b, "\nnotes:")
		for _, n := range notes {
			fmt.Fprintf(&b, "  - %s\n", n)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// measureLatencyJSON are the latency keys of a row and of warm.
// measureLatencyJSON holds a row's percentiles: null when no read is
// behind them (every trial discarded), never a 0 that was not measured.
type measureLatencyJSON struct {
	P50 *int64 `json:"p50_us"`
	P90 *int64 `json:"p90_us"`
	P99 *int64 `json:"p99_us"`
	Max *int64 `json:"max_us"`
}

func latencyJSON(l measure.LatencyStats) measureLatencyJSON {
	if l.Count == 0 {
		return measureLatencyJSON{}
	}
	p := func(d time.Duration) *int64 { v := us(d); return &v }
	return measureLatencyJSON{P50: p(l.P50), P90: p(l.P90), P99: p(l.P99), Max: p(l.Max)}
}

type measureRowJSON struct {
	Config string `json:"config"`
	IdleUS int64  `json:"idle_us"`
	Trials int    `json:"trials"`
	Kept   int    `json:"kept"`
	measureLatencyJSON
	State         string `json:"state"`
	ExitLatencyUS uint64 `json:"exit_latency_us"`
	Shallow       int    `json:"shallow"`
}

type measureWarmJSON struct {
	Trials int `json:"trials"`
	measureLatencyJSON
}

type measureStateJSON struct {
	State        string `json:"state"`
	AdvertisedUS uint64 `json:"advertised_us"`
	MeasuredUS   int64  `json:"measured_us"`
	Factor       string `json:"factor"`
	Trials       int    `json:"trials"`
}

type measureTrialJSON struct {
	Trial      int    `json:"trial"`
	Config     string `json:"config"`
	IdleUS     int64  `json:"idle_us"`
	State      string `json:"state"`
	Offset     int64  `json:"offset"`
	LatencyUS  int64  `json:"latency_us"`
	WarmOffset int64  `json:"warm_offset"`
	WarmUS     int64  `json:"warm_us"`
	Kept       bool   `json:"kept"`
}

// measureConfigJSON is a configuration of measure's JSON.
type measureConfigJSON struct {
	Config string `json:"config"`
	// Assumptions are what this configuration assumed beyond the
	// top-level assumptions; null when nothing.
	Assumptions *assumptionsJSON `json:"assumptions"`
}

type measureJSON struct {
	Device           string             `json:"device"`
	Controller       string             `json:"controller,omitempty"`
	Model            string             `json:"model"`
	Firmware         string             `json:"firmware"`
	Simulated        bool               `json:"simulated"`
	SimulatedFactor  string             `json:"simulated_exit_factor,omitempty"`
	Original         string             `json:"original_tolerance"`
	Restored         bool               `json:"restored"`
	TrialsPerRow     int                `json:"trials_per_row"`
	ReadBytes        int                `json:"read_bytes"`
	Offsets          string             `json:"offsets"`
	Seed             uint64             `json:"seed"`
	CountersChecked  bool               `json:"counters_checked"`
	Discarded        int                `json:"discarded"`
	Rows             []measureRowJSON   `json:"rows"`
	Warm             measureWarmJSON    `json:"warm"`
	States           []measureStateJSON `json:"states"`
	ExitFactor       *string            `json:"exit_factor"`
	ExitFactorTrials int                `json:"exit_factor_trials"`
	ExitFactorStates string             `json:"exit_factor_by_state"`
	Notes            []string           `json:"notes"`
	// CaptureNotes are what the reader of --simulate's capture noted.
	CaptureNotes []string `json:"capture_notes"`
	// Assumptions are what every configuration assumed, said once;
	// Configs what each adds.
	Assumptions  assumptionsJSON     `json:"assumptions"`
	Configs      []measureConfigJSON `json:"configs"`
	TrialsDetail []measureTrialJSON  `json:"trials_detail,omitempty"`
}

// writeMeasureJSON writes the JSON document of cli.md's "## measure".
func writeMeasureJSON(w io.Writer, h *measureHeader, r *measure.Result, detail bool) error {
	j := measureJSON{
		Device: h.Device, Controller: h.ControllerName, Model: h.Controller.Model, Firmware: h.Controller.Firmware,
		Simulated: h.Simulated, Original: r.Original.String(), Restored: r.Restored,
		TrialsPerRow: h.Trials, ReadBytes: h.ReadBytes, Offsets: r.Offsets.String(), Seed: r.Seed,
		CountersChecked: r.CountersChecked, Discarded: r.Discarded,
		Rows: []measureRowJSON{}, States: []measureStateJSON{}, Notes: append(h.Notes[:len(h.Notes):len(h.Notes)], r.Notes...),
		Warm:             measureWarmJSON{Trials: r.Warm.Count, measureLatencyJSON: latencyJSON(r.Warm)},
		ExitFactorTrials: r.ExitFactorTrials, ExitFactorStates: r.ExitFactorByState(),
		CaptureNotes: captureNotesView(h.Controller),
	}
	if h.Simulated {
		j.SimulatedFactor = h.SimulatedFactor
	}
	common, own := splitAssumptions(h.Assumptions)
	j.Assumptions = assumptionsView(&common)
	j.Configs = make([]measureConfigJSON, len(h.Configs))
	for i, text := range h.Configs {
		j.Configs[i] = measureConfigJSON{Config: text, Assumptions: ownAssumptionsView(&own[i])}
	}
	for _, row := range r.Rows {
		j.Rows = append(j.Rows, measureRowJSON{
			Config: row.ConfigText, IdleUS: us(row.Idle), Trials: row.Trials, Kept: row.Kept,
			measureLatencyJSON: latencyJSON(row.Latency),
			State:              "ps" + strconv.Itoa(int(row.State)), ExitLatencyUS: uint64(row.ExitLatency), Shallow: row.Shallow,
		})
	}
	for _, s := range r.States {
		j.States = append(j.States, measureStateJSON{
			State: "ps" + strconv.Itoa(int(s.State)), AdvertisedUS: uint64(s.Advertised),
			MeasuredUS: us(s.Measured), Factor: s.Factor.String(), Trials: s.Trials,
		})
	}
	if r.ExitFactorTrials > 0 {
		f := r.ExitFactor.String()
		j.ExitFactor = &f
	}
	if detail {
		texts := map[int]string{}
		for _, row := range r.Rows {
			texts[row.Config] = row.ConfigText
		}
		for _, t := range r.Trials {
			j.TrialsDetail = append(j.TrialsDetail, measureTrialJSON{
				Trial: t.Trial, Config: texts[t.Config], IdleUS: us(t.Idle), State: "ps" + strconv.Itoa(int(t.State)),
				Offset: t.Offset, LatencyUS: us(t.Latency), WarmOffset: t.WarmOffset, WarmUS: us(t.Warm), Kept: t.Kept,
			})
		}
	}
	b, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(safeio.AppendJSONSafe(nil, b), '\n'))
	return err
}

// exitFactorsText is the measured exit factors as --exit-factor reads them:
// the factor over every trial, for the states not met, then each met
// state's own ("0.78,ps3=0.78,ps4=0.8").
func exitFactorsText(r *measure.Result) string {
	s := r.ExitFactor.String()
	if by := r.ExitFactorByState(); by != "" {
		s += "," + by
	}
	return s
}

// checkMeasureDevice refuses, as a usage error, a device argument that is
// not a namespace's block device name, nvmeNnM (or /dev/nvmeNnM), as
// OpenTarget reads it: a controller, a multipath path, a file. A name of
// that form whose device is missing or unusable is the machine's failure
// (OpenTarget's error, exit 1).
func checkMeasureDevice(arg string) error {
	name := strings.TrimPrefix(arg, "/dev/")
	if isNamespace(name) && !strings.Contains(name, "c") {
		return nil
	}
	hint := ""
	switch ctrl, ns, multipath := strings.Cut(strings.TrimPrefix(name, "nvme"), "c"); {
	case validName(name):
		hint = fmt.Sprintf("; that is a controller: give one of its namespaces (%sn1; ls /sys/block lists them)", name)
	case multipath && isNamespace(name):
		_, n, _ := strings.Cut(ns, "n")
		hint = fmt.Sprintf("; that is a path of native multipath: give its namespace, nvme%sn%s", ctrl, n)
	}
	return usagef("%q is not an NVMe namespace block device (want nvmeNnM, e.g. nvme0n1)%s", arg, hint)
}
