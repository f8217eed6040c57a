package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/analysis/trace"
	"github.com/nvmeapst/nvmeapst/examples/internal/view"
	"github.com/nvmeapst/nvmeapst/internal/safeio"
	"github.com/nvmeapst/nvmeapst/internal/sniff"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// replayHelp is the paragraph of "apstctl help replay".
const replayHelp = `
Replays a recorded I/O trace against the APST plan of a drive (docs/spec/replay.md): each idle
period of the trace (no command outstanding) ends in one wake, from the state the plan's idle
timeline has reached by then. For each configuration it gives the wakes by state, the stall (sum,
p50/p90/p99/max of the wake penalties: exit latency scaled by --exit-factor, plus --cpu-wake-us),
the idle energy at each state's max power, the transition energy range (0 to ps0's max power for
every ENLAT and exit latency) and the break-even idle time of each state. The replay is open loop:
the recorded times are kept, so the stall is an upper bound of the time added to the run.
TRACE is blkparse text, biosnoop (bcc or bpftrace), a fio iolog v3 or a plain list of
"SECONDS [DURATION]" lines, detected from the content; - reads it from standard input. Without
--with the plan flags give the configuration; each --with (comma list of k=v, or policy=NAME, on
top of the flags) is one configuration, and from two on the differences from the first follow.`

// replayOptions are the flags of replay.
type replayOptions struct {
	plan   *planFlags
	wake   *wakeFlags
	format *outputFormat
	with   withFlags
	device string
	disk   string
	// lostAfter is --lost-after: how long a command's completion is
	// waited for.
	lostAfter string
}

// replayCommand is "apstctl replay CAPTURE TRACE".
func replayCommand() *command {
	fs := newFlagSet("replay")
	o := &replayOptions{plan: addPlanFlags(fs), format: addOutputFormat(fs)}
	fs.Var(&o.with, "with", "CONFIG", "a configuration to replay: comma list of k=v, or policy=NAME, on top of the flags (repeat)")
	o.wake = addWakeFlags(fs)
	fs.StringVar(&o.device, "device", "MAJ,MIN", "", "the device of a blkparse trace that holds several (259,0)")
	fs.StringVar(&o.disk, "disk", "NAME", "", "the disk of a biosnoop trace, or the file of a fio iolog, that holds several (nvme0n1)")
	fs.StringVar(&o.lostAfter, "lost-after", "DURATION", "30s", "a command whose completion has not come this long after its dispatch is counted lost and replayed as if absent (with its unit, 1us to 24h: 500ms, 30s)")
	c := &command{
		name:      "replay",
		usageLine: "replay [flags] CAPTURE TRACE [--with CONFIG]...",
		short:     "what APST costs a recorded I/O trace: stalls and energy",
		long:      replayHelp,
		examples: []string{
			"replay testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin examples/apstctl/testdata/replay/writeback.blkparse",
			"replay testdata/identify/intel-ssdpekkw256g7-PSF109C.bin examples/apstctl/testdata/replay/intel-600p-run.plain --pci-id 8086:f1a5 --with ps-max-latency-us=100000 --with ps-max-latency-us=25000",
		},
		flags:   fs,
		minArgs: 2, maxArgs: 2,
	}
	c.run = o.run
	return c
}

// run replays the trace args[1] against the capture args[0], writing the
// report to standard output and, with -o json, the warnings to standard
// error (text output holds them); on a terminal, standard error shows how
// far the trace has been read. Its errors are those of the command table
// (errors.go): *usageError for flags, *inputError for a capture or trace
// that cannot be read, the context's cause when ctx ends the replay.
func (o *replayOptions) run(ctx context.Context, x *invocation, args []string) error {
	stdout, stderr := io.Writer(x.out), io.Writer(x.errw)
	capPath, tracePath := args[0], args[1]
	if namesStandardInput(capPath) && namesStandardInput(tracePath) {
		return usagef("CAPTURE %s and TRACE %s both name standard input, which holds one file: give one of them as a file", quoteArg(capPath), quoteArg(tracePath))
	}
	if o.device != "" && o.disk != "" {
		return usagef("--device and --disk contradict each other: give the one the trace's format uses")
	}
	sim, err := o.wake.options(ctx)
	if err != nil {
		return err
	}
	stdin := x.stdin
	if stdin == nil {
		stdin = eofReader{}
	}
	ctl, base, err := o.plan.loadWithParams(capPath, stdin)
	if err != nil {
		return err
	}
	configs, err := replayConfigs(ctl, base, o.with, sim)
	if err != nil {
		return err
	}
	lostAfter, err := parseLostAfter(o.lostAfter)
	if err != nil {
		return err
	}
	ropts := analysis.ReplayOptions{LostAfter: lostAfter}
	if _, err := analysis.NewReplayerWithOptions(ctl, ropts, configs...); err != nil {
		return inputErr(err) // a plan Build refuses, before the trace is opened
	}
	// tctx ends the reading of the trace once the replay is over, so that
	// a read of standard input left waiting for a writer ends too.
	tctx, endTrace := context.WithCancel(ctx)
	defer endTrace()
	src, release, err := openTrace(tctx, tracePath, stdin)
	if err != nil {
		return err
	}
	closeTrace := sync.OnceFunc(release)
	defer closeTrace()
	// A blkparse trace is parsed on every CPU (trace.Options.Workers).
	rec := newHeadRecorder(src)
	r, err := trace.NewReader(rec, trace.Options{Device: o.device, Disk: o.disk, Workers: min(runtime.GOMAXPROCS(0), trace.MaxWorkers)})
	switch {
	case errors.Is(err, trace.ErrOptions):
		return usagef("%s: %v", traceName(tracePath), err)
	case errors.Is(err, trace.ErrUnknownFormat):
		return inputErr(fmt.Errorf("%s: %w", traceName(tracePath), withLooks(err, rec.head, sniff.BlockTrace)))
	case err != nil:
		return inputErr(fmt.Errorf("%s: %w", traceName(tracePath), err))
	}
	rec.head = nil // read on without keeping more
	format := r.Format()
	// A blkparse trace is read ahead by the Reader's own goroutines; the
	// other formats by one goroutine of aheadSource.
	var events analysis.EventSource = &directSource{ctx: ctx, r: r, progress: x.progress()}
	stop := func() {}
	if format != trace.FormatBlkparse {
		ahead := readAhead(ctx, r, x.progress())
		events, stop = ahead, ahead.stop
	}
	rep, err := analysis.ReplayWithOptions(ctl, events, ropts, configs...)
	// The trace was read to its end, or the replay stopped early: end
	// any read still waiting (standard input, a named pipe), then the
	// goroutines reading it.
	endTrace()
	closeTrace()
	stop()
	r.Close()
	if err != nil {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		return inputErr(fmt.Errorf("%s: %w", traceName(tracePath), err))
	}
	if err := replayEmpty(traceName(tracePath), &rep, o.lostAfter); err != nil {
		return err
	}
	if err := replaySaturated(&rep); err != nil {
		return err
	}
	as := make([]apst.Assumptions, len(rep.Configs))
	for i := range rep.Configs {
		as[i] = rep.Configs[i].Plan.Assumptions(ctl)
	}
	common, own := splitAssumptions(as)
	if o.format.json {
		for _, w := range powerWarnings(ctl, &rep) {
			fmt.Fprintln(stderr, w)
		}
		v := replayView(&rep)
		v.Capture, v.CaptureNotes, v.Assumptions = captureView(ctl), captureNotesView(ctl), assumptionsView(&common)
		for i := range own {
			v.Configs[i].Assumptions = ownAssumptionsView(&own[i])
		}
		return writeJSON(stdout, v)
	}
	warnings := append(captureNoteLines(ctl), groupedAssumptionLines(as, numbered(len(as)))...)
	warnings = append(warnings, powerWarnings(ctl, &rep)...)
	writeReplayText(stdout, ctl, &rep, replayTextHead{
		trace: traceName(tracePath), format: format, warnings: warnings, sim: sim,
	})
	return nil
}

// replayConfigs are the configurations of the command line: the plan
// flags' alone without --with, else one per --with applied on top of them.
// Each is named by its canonical text (Params.String), which --with reads.
func replayConfigs(ctl *powerstate.Controller, base apst.Params, with []string, sim analysis.SimOptions) ([]analysis.ReplayConfig, error) {
	params := []apst.Params{base}
	if len(with) > 0 {
		params = params[:0]
		for _, w := range with {
			p, err := withConfig(ctl, base, w)
			if err != nil {
				return nil, usagef("--with %s: %v", quoteArg(w), err)
			}
			params = append(params, p)
		}
	}
	out := make([]analysis.ReplayConfig, len(params))
	for i, p := range params {
		out[i] = analysis.ReplayConfig{Name: view.ConfigText(&p), Params: p, CPUWake: sim.CPUWake}
		if !sim.ExitFactor.IsOne() {
			out[i].ExitFactor = sim.ExitFactor
		}
	}
	return out, nil
}

// eofReader is an empty standard input.
type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// traceName is what messages call the trace at path.
func traceName(path string) string {
	if path == "-" {
		return "standard input"
	}
	return safeio.EscapeTerminal(path)
}

// openTrace opens the trace at path ("-" = stdin, read so that ^C ends a
// read waiting for a writer: contextReader). A regular file is
// opened without blocking (safeio.Open); a pipe or FIFO the user named
// (`replay CAP <(biosnoop ...)`) is read as it comes, ^C ending the wait;
// anything else (a socket, a device) is refused without being opened.
func openTrace(ctx context.Context, path string, stdin io.Reader) (io.Reader, func(), error) {
	if path == "-" {
		// ^C ends a read that waits for the writer of the pipe.
		return newContextReader(ctx, stdin), func() {}, nil
	}
	f, _, err := safeio.Open(path)
	if errors.Is(err, safeio.ErrNotRegular) && isNamedPipe(path) {
		p, release, perr := openNamedPipe(ctx, path)
		if perr != nil {
			return nil, nil, inputErr(perr)
		}
		return p, release, nil
	}
	if err != nil {
		return nil, nil, inputErr(err)
	}
	return f, func() { f.Close() }, nil
}

// replaySaturated refuses a report whose stall or transition energy is
// beyond 2^63-1 (an exit factor beyond any real drive; the analysis
// saturates at 2^64-1, and the differences between configurations are
// signed), rather than print a number that is not the answer.
func replaySaturated(rep *analysis.ReplayReport) error {
	for i := range rep.Configs {
		res := &rep.Configs[i]
		if res.StallTotal > math.MaxInt64 || res.TransitionEnergyMax == math.MaxInt64 {
			return usagef("--exit-factor/--cpu-wake-us: the stall or transition energy of %s exceeds 2^63-1 (µs, µJ)", view.Escape(res.Config.Name))
		}
	}
	return nil
}

// replayEmpty refuses a trace that holds no completed command: with no
// completion there is no idle period to measure, and its figures (0
// stall, the average idle power of a timeline never entered) would answer
// nothing. A trace whose commands all ran back to back is an answer, kept.
// When the completions came but every command had been counted lost
// first, the message says so with --lost-after (lostAfter, as given) and
// the shortest command, the --lost-after that would have matched one.
func replayEmpty(name string, rep *analysis.ReplayReport, lostAfter string) error {
	switch {
	case rep.Events == 0 && rep.Completions == 0:
		return inputErr(fmt.Errorf("%s: the trace holds no command: want commands with their completions (blkparse D and C events, biosnoop, a fio iolog, or SECONDS [DURATION] lines)", name))
	case rep.Completions > 0 && rep.Completions == rep.UnmatchedCompletions && rep.LostCommands > 0:
		were := plural64(int64(rep.LostCommands), "command") + " were"
		if rep.LostCommands == 1 {
			were = "1 command was"
		}
		msg := fmt.Sprintf("%s: no command completed within --lost-after %s of its dispatch: %s counted lost and the completions ignored, so there is no idle period to replay",
			name, quoteArg(lostAfter), were)
		if rep.ShortestLost > 0 {
			us := (rep.ShortestLost + time.Microsecond - 1) / time.Microsecond
			if us*time.Microsecond > analysis.MaxLostAfter {
				msg += fmt.Sprintf(" (the shortest command took %s, more than --lost-after takes: at most %s)", apst.Microseconds(us), lostAfterMaxText)
			} else {
				msg += fmt.Sprintf(" (the shortest command took %s: give --lost-after %s or more)", apst.Microseconds(us), apst.Microseconds(us))
			}
		}
		return inputErr(errors.New(msg))
	case rep.Completions == 0 || rep.Completions == rep.UnmatchedCompletions:
		return inputErr(fmt.Errorf("%s: the trace holds %s but no completion of one: idle time runs from a completion to the next dispatch (a blkparse trace needs its D and C events)",
			name, plural64(int64(rep.Events), "dispatch event")))
	}
	return nil
}

// powerWarnings say which states of the timelines report no max power: their
// idle and transition energy count as 0.
func powerWarnings(c *powerstate.Controller, rep *analysis.ReplayReport) []string {
	var seen apst.States
	var out []string
	for i := range rep.Configs {
		for _, st := range rep.Configs[i].Steps {
			if seen.Has(st.State) || st.MaxPower.Reported() {
				continue
			}
			seen |= 1 << st.State
			out = append(out, fmt.Sprintf("warning: ps%d reports no max power (%s): its energy counts as 0", st.State, c.PowerStates[st.State].MaxPower))
		}
	}
	return out
}

// replayJSON is the JSON of replay (docs/spec/replay.md §4, cli.md).
type replayJSON struct {
	Device      string `json:"device"`
	Events      uint64 `json:"events"`
	SpanUS      uint64 `json:"span_us"`
	IdlePeriods uint64 `json:"idle_periods"`
	// LostCommands and UnmatchedCompletions count the trace's anomalies:
	// dispatches whose completion did not come within --lost-after
	// (replayed as if absent), completions of no outstanding dispatch
	// (ignored).
	LostCommands         uint64             `json:"lost_commands"`
	UnmatchedCompletions uint64             `json:"unmatched_completions"`
	Configs              []replayConfigJSON `json:"configs"`
	// Capture is the capture's identity.
	Capture captureJSON `json:"capture"`
	// CaptureNotes are what the reader of the capture noted.
	CaptureNotes []string `json:"capture_notes"`
	// Assumptions are what every configuration assumed, said once.
	Assumptions assumptionsJSON `json:"assumptions"`
}

type replayConfigJSON struct {
	Config                string      `json:"config"`
	Wakes                 uint64      `json:"wakes"`
	StallTotalUS          uint64      `json:"stall_total_us"`
	StallP50US            uint64      `json:"stall_p50_us"`
	StallP90US            uint64      `json:"stall_p90_us"`
	StallP99US            uint64      `json:"stall_p99_us"`
	StallMaxUS            uint64      `json:"stall_max_us"`
	WakesByState          stateValues `json:"wakes_by_state"`
	IdleUS                uint64      `json:"idle_us"`
	IdleEnergyUJ          uint64      `json:"idle_energy_uj"`
	TransitionEnergyMaxUJ uint64      `json:"transition_energy_max_uj"`
	BreakEvenUS           stateValues `json:"break_even_us"`
	// Assumptions are what this configuration assumed beyond the
	// top-level ones; null when nothing.
	Assumptions *assumptionsJSON `json:"assumptions"`
}

// stateValues is a JSON object of one number per state, keyed "psN", in
// the order of the timeline (not sorted by key as a map would be).
type stateValues []stateValue

type stateValue struct {
	state uint8
	v     uint64
}

func (s stateValues) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, sv := range s {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `"ps`...)
		b = strconv.AppendUint(b, uint64(sv.state), 10)
		b = append(b, `":`...)
		b = strconv.AppendUint(b, sv.v, 10)
	}
	return append(b, '}'), nil
}

// replayView is the JSON of a report: every state of each timeline in
// wakes_by_state, the states that have one in break_even_us.
func replayView(rep *analysis.ReplayReport) replayJSON {
	out := replayJSON{Device: rep.Device, Events: rep.Events, SpanUS: uint64(rep.Span.Microseconds()), IdlePeriods: rep.IdlePeriods,
		LostCommands: rep.LostCommands, UnmatchedCompletions: rep.UnmatchedCompletions,
		Configs: make([]replayConfigJSON, len(rep.Configs)), Assumptions: assumptionsView(&apst.Assumptions{})}
	for i := range rep.Configs {
		res := &rep.Configs[i]
		c := replayConfigJSON{
			Config: res.Config.Name, Wakes: res.Wakes, StallTotalUS: uint64(res.StallTotal),
			StallP50US: uint64(res.P50), StallP90US: uint64(res.P90), StallP99US: uint64(res.P99), StallMaxUS: uint64(res.Max),
			WakesByState: stateValues{}, IdleUS: uint64(res.Idle.Microseconds()), IdleEnergyUJ: uint64(res.IdleEnergy),
			TransitionEnergyMaxUJ: uint64(res.TransitionEnergyMax), BreakEvenUS: stateValues{},
		}
		for _, st := range res.Steps {
			c.WakesByState = append(c.WakesByState, stateValue{st.State, st.Wakes})
			if st.HasBreakEven {
				c.BreakEvenUS = append(c.BreakEvenUS, stateValue{st.State, uint64(st.BreakEven)})
			}
		}
		out.Configs[i] = c
	}
	return out
}

// replayTextHead is what the text report says before the configurations.
type replayTextHead struct {
	trace    string
	format   trace.Format
	warnings []string
	sim      analysis.SimOptions
}

// writeReplayText prints the report for people: the drive, the trace and
// the model's assumptions, a table per configuration, then one line per
// configuration after the first with its differences from the first.
func writeReplayText(w io.Writer, c *powerstate.Controller, rep *analysis.ReplayReport, h replayTextHead) {
	fmt.Fprintln(w, describeController(c))
	for _, warn := range h.warnings {
		fmt.Fprintln(w, warn)
	}
	dev := ""
	if rep.Device != "" {
		dev = ", device " + view.Escape(rep.Device)
	}
	fmt.Fprintf(w, "trace %s (%s%s): %s, %s, %s from the first dispatch to the last completion\n",
		h.trace, h.format, dev, plural64(int64(rep.Events), "command"), plural64(int64(rep.IdlePeriods), "idle period"), seconds(rep.Span))
	if rep.LostCommands+rep.UnmatchedCompletions > 0 {
		fmt.Fprintf(w, "anomalies: %s lost (no completion within --lost-after: replayed as if absent), %s of no outstanding command (ignored)\n",
			plural64(int64(rep.LostCommands), "command"), plural64(int64(rep.UnmatchedCompletions), "completion"))
	}
	fmt.Fprintln(w, "open loop: the recorded times are kept, so the stall is an upper bound of the time added;")
	fmt.Fprintln(w, "transitions are instantaneous; idle power is each state's max power (MP)")
	if !h.sim.ExitFactor.IsOne() || h.sim.CPUWake != 0 {
		fmt.Fprintf(w, "exit latencies scaled by %s, CPU wake %s added to every wake\n", h.sim.ExitFactor, h.sim.CPUWake)
	}
	for i := range rep.Configs {
		res := &rep.Configs[i]
		fmt.Fprintf(w, "\n[%d] %s\n", i+1, view.Escape(res.Config.Name))
		fmt.Fprintf(w, "    %s\n    %s\n", describeParams(&res.Plan.Params), describeOutcome(&res.Plan))
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "    state\tfrom idle\tmax power\tenlat/exlat us\tpenalty\tbreak-even\twakes\tidle time")
		for k, st := range res.Steps {
			lat, be := "-", "-"
			if k > 0 {
				lat = fmt.Sprintf("%d/%d", uint64(st.EntryLatency), uint64(st.ExitLatency))
			}
			if st.HasBreakEven {
				be = st.BreakEven.String()
			}
			fmt.Fprintf(tw, "    ps%d\t%s\t%s\t%s\t%s\t%s\t%d\t%s (%.1f%%)\n", st.State, durationText(st.From.Duration()), st.MaxPower, lat,
				st.Penalty, be, st.Wakes, seconds(st.Residency), percent(st.Residency, res.Idle))
		}
		tw.Flush()
		fmt.Fprintf(w, "    stall %s over %s: p50 %s, p90 %s, p99 %s, max %s\n",
			millis(int64(res.StallTotal)), plural(int(res.Wakes), "wake"), res.P50, res.P90, res.P99, res.Max)
		fmt.Fprintf(w, "    idle %s: %s at an average %.4f W; transitions 0 to %s more\n",
			seconds(res.Idle), joules(res.IdleEnergy), float64(res.AverageIdlePower)/1e6, joules(res.TransitionEnergyMax))
	}
	if len(rep.Configs) < 2 {
		return
	}
	fmt.Fprintln(w, "\ndifferences from [1]:")
	for i := 1; i < len(rep.Configs); i++ {
		res := &rep.Configs[i]
		d := res.Delta(&rep.Configs[0])
		if d == (analysis.ReplayDelta{}) {
			fmt.Fprintf(w, "[%d] vs [1]: no differences\n", i+1)
			continue
		}
		fmt.Fprintf(w, "[%d] vs [1]: %s of stall, %s of idle energy (transitions at most %s); p99 stall %s%s\n", i+1,
			signed(millis(d.StallTotal.Microseconds())), signed(millijoules(int64(d.IdleEnergy))), signed(millijoules(int64(d.TransitionEnergyMax))),
			signed(millis(d.P99.Microseconds())), wakeDeltas(&d))
	}
}

// wakeDeltas lists the changes of the wakes per state: "; wakes ps3 +2,
// ps4 -2", or "" when none changed.
func wakeDeltas(d *analysis.ReplayDelta) string {
	s := ""
	for st, n := range d.Wakes {
		if n == 0 {
			continue
		}
		if s == "" {
			s = "; wakes"
		} else {
			s += ","
		}
		s += fmt.Sprintf(" ps%d %s", st, signed(strconv.FormatInt(n, 10)))
	}
	return s
}

// signed writes a number's sign: "+" before a positive or zero value,
// the ASCII "-" of a negative one (as compare prints it).
func signed(s string) string {
	if len(s) > 0 && s[0] == '-' {
		return s
	}
	return "+" + s
}

// millis formats µs as milliseconds with one decimal: "90.6 ms".
func millis(us int64) string { return fixed(us, 1000, 1) + " ms" }

// millijoules formats µJ as millijoules with one decimal: "65.7 mJ".
func millijoules(uj int64) string { return fixed(uj, 1000, 1) + " mJ" }

// joules formats µJ as joules with four decimals: "2.4263 J".
func joules(e apst.MicroJoules) string {
	uj := uint64(e) // never negative
	return strconv.FormatUint(uj/1e6, 10) + "." + fmt.Sprintf("%04d", uj%1e6/100) + " J"
}

// seconds formats ns as seconds with three decimals: "5.250 s".
func seconds(d time.Duration) string {
	ns := uint64(d) // never negative
	return strconv.FormatUint(ns/1e9, 10) + "." + fmt.Sprintf("%03d", ns%1e9/1e6) + " s"
}

// fixed formats v/div with the given decimals, rounded toward zero
// (exact: integer arithmetic).
func fixed(v, div int64, decimals int) string {
	neg := v < 0
	u := uint64(v)
	if neg {
		u = -u
	}
	scale := uint64(1)
	for range decimals {
		scale *= 10
	}
	q := u / (uint64(div) / scale)
	neg = neg && q != 0
	s := strconv.FormatUint(q/scale, 10) + "." + fmt.Sprintf("%0*d", decimals, q%scale)
	if neg {
		s = "-" + s
	}
	return s
}

func percent(part, whole time.Duration) float64 {
	if whole == 0 {
		return 0
	}
	return 100 * float64(part) / float64(whole)
}

// lostAfterMaxText is analysis.MaxLostAfter as --lost-after is written.
const lostAfterMaxText = "24h"

// parseLostAfter reads --lost-after: a duration with its unit (30s, 500ms,
// 150us) from 1 µs to analysis.MaxLostAfter. A bare number other than 0 is
// refused, as simulate's --gap and measure's --idle refuse one: a time a
// command may take is not written in µs the way a latency bound is, and
// "--lost-after 100" meaning 100 µs, every command lost, is never what a
// user who meant 100 s asked for.
func parseLostAfter(s string) (time.Duration, error) {
	if t := strings.TrimSpace(s); t != "" && strings.Trim(t, "0123456789") == "" && strings.Trim(t, "0") != "" {
		return 0, usagef("--lost-after %s: a number needs its unit: write %sus, %sms or %ss (from 1us to %s)", quoteArg(s), t, t, t, lostAfterMaxText)
	}
	us, err := apst.ParseMicroseconds(s)
	if err != nil || us < 1 || us > apst.Microseconds(analysis.MaxLostAfter/time.Microsecond) {
		return 0, usagef("--lost-after %s: want a duration from 1us to %s (500ms, 30s)", quoteArg(s), lostAfterMaxText)
	}
	return time.Duration(us) * time.Microsecond, nil
}
