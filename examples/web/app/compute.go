// Command app is the WebAssembly half of the APST page (examples/web): it
// parses a capture with powerstate, plans, sweeps, compares, simulates and
// checks it with apst and apst/analysis, diagnoses a pasted kernel log with
// apst/diagnose as apstctl diagnose --log does, and hands the page one JSON
// answer per request. Everything runs in the browser; nothing leaves it.
//
// Build it with GOOS=js GOARCH=wasm (go run ./examples/web does); on other
// platforms it only says so. The computation (Compute) is plain Go and is
// tested natively.
package main

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/examples/internal/view"
	"github.com/nvmeapst/nvmeapst/internal/describe"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// Limits of what a request may ask for.
const (
	// maxGaps bounds the gaps drawn for a simulation.
	maxGaps = 1_000_000
	// maxCapture bounds a capture or a get-feature capture, as the command does.
	maxCapture = capture.MaxSize
)

// Request is what the page asks: a capture (or a shared drive instead), an
// optional get-feature capture, the configuration, and an optional kernel
// log to diagnose, each field as the matching apstctl flag takes it.
type Request struct {
	// Capture is the identify capture as the user gave it (any format
	// capture.ParseBytes reads); Drive, a shared drive (EncodeDrive),
	// is used when Capture is empty.
	Capture []byte `json:"-"`
	Drive   string `json:"drive"`
	// Feature is a get-feature (FID 0Ch) capture; empty for none.
	Feature []byte `json:"-"`
	// Bound is --ps-max-latency-us as people type it (normalizeBound: "" =
	// the kernel's default, 25000, 25,000, 25 ms, 1.5 s), Kernel is
	// --kernel ("" = current), PCIID is --pci-id ("" = inferred).
	Bound  string `json:"bound"`
	Kernel string `json:"kernel"`
	PCIID  string `json:"pci_id"`
	// CompareA and CompareB are the two --with configurations of compare
	// (comma lists of key=value, on top of the configuration above).
	CompareA string `json:"compare_a"`
	CompareB string `json:"compare_b"`
	// Gaps is simulate's --gaps (a list, or fixed:D, uniform:D1..D2,
	// exp:D), Count its --count and Seed its --seed.
	Gaps  string `json:"gaps"`
	Count int    `json:"count"`
	Seed  uint64 `json:"seed"`
	// Log is a pasted kernel log (dmesg, dmesg -T, journalctl -k, syslog:
	// what apstctl diagnose --log reads); empty for none. Tried is
	// diagnose's --tried (settings already tried, each
	// SETTING[=VALUE][:helped|:no], separated by commas or blanks) and
	// Platform its --platform ("" or "auto", or one of persist.Platforms).
	// With a capture (or a shared drive) too, the drive is the diagnosis's
	// Identify, as --id-ctrl is the command's.
	Log      []byte `json:"-"`
	Tried    string `json:"tried"`
	Platform string `json:"platform"`
}

// Response is the page's answer. Errors maps an input ("capture",
// "feature", "bound", "kernel", "pci_id", "compare_a", "compare_b",
// "gaps", "count", "log", "tried", "platform") to the library's message,
// shown beside that input; the sections an error prevents are nil. A
// kernel log without a capture is no error: the capture's sections are
// then nil and Diagnosis alone is set.
type Response struct {
	Errors      map[string]string `json:"errors,omitempty"`
	Controller  *ControllerView   `json:"controller,omitempty"`
	Params      string            `json:"params,omitempty"`
	Config      string            `json:"config,omitempty"`
	Assumptions []string          `json:"assumptions,omitempty"`
	// Headline is the answer in one sentence (HeadlineView).
	Headline *HeadlineView `json:"headline,omitempty"`
	Plan     *PlanView     `json:"plan,omitempty"`
	Sweep    *SweepView    `json:"sweep,omitempty"`
	Compare  *CompareView  `json:"compare,omitempty"`
	Simulate []SimView     `json:"simulate,omitempty"`
	Check    *CheckView    `json:"check,omitempty"`
	// Diagnosis is the diagnosis of the kernel log; nil without one.
	Diagnosis *DiagnosisView `json:"diagnosis,omitempty"`
	// Drive is the shareable encoding of the drive (EncodeDrive: the power
	// state table, no serial).
	Drive string `json:"drive,omitempty"`
	// Millis is the time each step took, in milliseconds.
	Millis map[string]float64 `json:"millis"`
}

// ControllerView is the drive as the page describes it (never its serial).
type ControllerView struct {
	Describe   string `json:"describe"`
	Model      string `json:"model"`
	Firmware   string `json:"firmware"`
	VendorID   string `json:"vid"`
	NPSS       int    `json:"npss"`
	APSTA      string `json:"apsta"`
	Format     string `json:"format"`
	HadSerial  bool   `json:"had_serial"`
	FromShared bool   `json:"from_shared"`
}

// StateView is one power state of a plan. Decision is plan.Explain's
// sentence in the page's unit style (unitStyle), as the outcomes of the
// plan, the sweep's intervals and the comparison are; parameters and table
// entries read as apstctl prints them.
type StateView struct {
	State    int     `json:"state"`
	Op       string  `json:"op"`
	MaxPower string  `json:"max_power"`
	PowerW   float64 `json:"max_power_w"`
	EnLat    uint64  `json:"enlat_us"`
	ExLat    uint64  `json:"exlat_us"`
	Entry    string  `json:"entry"`
	Decision string  `json:"decision"`
	Selected bool    `json:"selected"`
}

// PlanView is the plan at the bound set, as apstctl plan prints it.
type PlanView struct {
	Params    string      `json:"params"`
	Outcome   string      `json:"outcome"`
	MaxPS     int         `json:"max_ps"`
	Reachable []int       `json:"reachable"`
	Deepest   int         `json:"deepest"`
	States    []StateView `json:"states"`
	KernelLog string      `json:"kernel_log"`
	Logs      bool        `json:"logs"`
	Table     string      `json:"table"`
}

// IntervalView is one interval of the sweep. Lo and Hi are the interval's
// bounds as floats for drawing (Hi is Max+1), MinText and MaxText as text
// (formatBound), MinUS the smallest bound exactly (what a click sets).
type IntervalView struct {
	MinText        string   `json:"min"`
	MaxText        string   `json:"max"`
	MinUS          uint64   `json:"min_us"`
	Lo             float64  `json:"lo"`
	Hi             float64  `json:"hi"`
	MaxPS          int      `json:"max_ps"`
	Deepest        int      `json:"deepest"`
	WorstExitUS    uint64   `json:"worst_exit_us"`
	WorstExitState int      `json:"worst_exit_state"`
	WorstExit      string   `json:"worst_exit"`
	DeepestPowerW  float64  `json:"deepest_power_w"`
	DeepestPower   string   `json:"deepest_power"`
	Outcome        string   `json:"outcome"`
	Table          string   `json:"table"`
	Entries        []string `json:"entries"`
	Current        bool     `json:"current"`
}

// SweepView is the whole bound range split into intervals. Bound is the
// bound set and Default the kernel's default bound (as floats for drawing),
// each with its text.
type SweepView struct {
	Params      string         `json:"params"`
	Bound       float64        `json:"bound"`
	BoundText   string         `json:"bound_text"`
	Default     float64        `json:"default"`
	DefaultText string         `json:"default_text"`
	Intervals   []IntervalView `json:"intervals"`
}

// CompareConfigView is one side of the comparison.
type CompareConfigView struct {
	Name        string `json:"name"`
	Params      string `json:"params"`
	Outcome     string `json:"outcome"`
	MaxPS       int    `json:"max_ps"`
	Deepest     int    `json:"deepest"`
	DeepestPow  string `json:"deepest_power"`
	WorstExitUS uint64 `json:"worst_exit_us"`
	WorstExit   string `json:"worst_exit"`
	KernelLog   string `json:"kernel_log"`
}

// CompareRowView is one state across the two configurations.
type CompareRowView struct {
	State   int      `json:"state"`
	Entries []string `json:"entries"`
	Reasons []string `json:"reasons"`
	Differs bool     `json:"differs"`
}

// CompareView is two configurations side by side.
type CompareView struct {
	Configs     []CompareConfigView `json:"configs"`
	Rows        []CompareRowView    `json:"rows"`
	Differences []string            `json:"differences"`
	PowerDeltaW float64             `json:"power_delta_w"`
	PowerDelta  string              `json:"power_delta"`
}

// SimView is the simulate answer for one configuration.
type SimView struct {
	Name          string   `json:"name"`
	Source        string   `json:"source"`
	Count         uint64   `json:"count"`
	TotalIdle     string   `json:"total_idle"`
	P50           string   `json:"p50"`
	P90           string   `json:"p90"`
	P99           string   `json:"p99"`
	Max           string   `json:"max"`
	AvgIdlePowerW float64  `json:"avg_idle_power_w"`
	Residency     []string `json:"residency"`
}

// ReproductionView is one configuration that reproduces the drive's table.
type ReproductionView struct {
	Config string `json:"config"`
	Min    string `json:"min"`
	Max    string `json:"max"`
	Reason string `json:"reason"`
}

// CheckView is the check verdict against a get-feature capture.
type CheckView struct {
	Match        bool               `json:"match"`
	Format       string             `json:"format"`
	Summary      string             `json:"summary"`
	Differences  []string           `json:"differences"`
	ReproducedBy []ReproductionView `json:"reproduced_by"`
	Notes        []string           `json:"notes"`
	// Feature is the feature as the check read it (APSTE, the table,
	// whether the capture gave ITPS and ITPT alone, the entries it did not
	// show): the page's link carries it, and gives it back to the engine
	// as the capture that reads as it (app.js, featureLink and
	// featureText), so that a shared link checks the same table.
	Feature apst.Feature `json:"feature"`
}

// Compute answers one request. It never panics on bad input: every problem
// is an entry of Errors.
func Compute(req *Request) *Response {
	r := &Response{Millis: map[string]float64{}}
	fail := func(field string, err error) {
		if r.Errors == nil {
			r.Errors = map[string]string{}
		}
		r.Errors[field] = userMessage(err)
	}
	t0 := time.Now()
	lap := func(name string) {
		t := time.Now()
		r.Millis[name] = float64(t.Sub(t0).Microseconds()) / 1000
		t0 = t
	}

	c, shared, err := loadDrive(req)
	lap("parse")
	if len(req.Log) > 0 {
		var id *powerstate.Controller
		if err == nil {
			cc := c // as parsed: the PCI ID field below is the plan's, not the command's
			id = &cc
		}
		d, field, derr := diagnoseLog(req, id)
		if derr != nil {
			fail(field, derr)
		} else {
			if err != nil && !errors.Is(err, errNoCapture) {
				d.Notes = append(d.Notes, "the capture above could not be read: the diagnosis was made without the drive's power state table")
			}
			r.Diagnosis = d
		}
		lap("diagnose")
	}
	if err != nil {
		if !errors.Is(err, errNoCapture) || len(req.Log) == 0 {
			fail("capture", err)
		}
		return r
	}
	r.Drive = EncodeDrive(&c)
	r.Controller = driveSection(&c, shared)

	p, defaultBound, field, err := kernelParams(&c, req)
	if err != nil {
		fail(field, err)
		return r
	}
	r.Params = describe.Params(&p, true)
	r.Config = view.ConfigText(&p)
	plan, err := apst.Build(&c, p)
	if err != nil {
		fail("bound", err)
		return r
	}
	r.Assumptions = assumptions(&c, &plan, shared)
	r.Plan = planSection(&c, &plan)
	var def *apst.Plan
	if p.Bound != defaultBound {
		dp := p
		dp.Bound = defaultBound
		if d, err := apst.Build(&c, dp); err == nil {
			def = &d
		}
	}
	r.Headline = headline(&c, &plan, def)
	lap("plan")

	sw, err := analysis.Sweep(&c, p)
	if err != nil {
		fail("bound", err)
		return r
	}
	r.Sweep = sweepView(&c, &sw, p.Bound, defaultBound)
	lap("sweep")

	a, errA := apst.ParseConfig(req.CompareA, p)
	b, errB := apst.ParseConfig(req.CompareB, p)
	switch {
	case errA != nil:
		fail("compare_a", errA)
	case errB != nil:
		fail("compare_b", errB)
	default:
		cmp, err := analysis.Compare(&c,
			analysis.Config{Name: orDefault(req.CompareA, "as above"), Params: a},
			analysis.Config{Name: orDefault(req.CompareB, "as above"), Params: b})
		if err != nil {
			fail("compare_a", err)
		} else {
			r.Compare = compareView(&c, &cmp)
		}
	}
	lap("compare")

	if gaps, source, err := drawGaps(req.Gaps, req.Count, req.Seed); err != nil {
		fail("gaps", err)
	} else {
		configs := []analysis.Config{{Name: "bound " + p.Bound.String(), Params: p}}
		if r.Compare != nil {
			configs = append(configs, analysis.Config{Name: req.CompareA, Params: a}, analysis.Config{Name: req.CompareB, Params: b})
		}
		for _, cfg := range configs {
			pl, err := apst.Build(&c, cfg.Params)
			if err != nil {
				continue // reported by compare
			}
			sim, err := analysis.Simulate(&c, &pl.Table, gaps, analysis.SimOptions{})
			if err != nil {
				fail("gaps", err)
				break
			}
			r.Simulate = append(r.Simulate, simView(cfg.Name, source, &sim))
		}
	}
	lap("simulate")

	if len(req.Feature) > 0 {
		if len(req.Feature) > maxCapture {
			fail("feature", fmt.Errorf("get-feature capture is larger than %d bytes", maxCapture))
		} else if fc, err := capture.ParseFeatureBytes(req.Feature); err != nil {
			if errors.Is(err, capture.ErrIdentifyCapture) {
				err = fmt.Errorf("this is an identify controller capture, not a get-feature (APST table) capture: give it as the capture above: %w", err)
			}
			fail("feature", err)
		} else if v, err := analysis.Check(&c, p, fc.Feature); err != nil {
			fail("feature", err)
		} else {
			r.Check = checkSection(&v, fc.Format)
			r.Check.Feature = fc.Feature
		}
	}
	lap("check")
	return r
}

// libraryPrefixes are the package names the library's errors start with
// (the guide's rule for errors); the page shows a message without them,
// in the user's terms.
var libraryPrefixes = []string{"powerstate: ", "apst: ", "analysis: ", "kernlog: ", "diagnose: ", "persist: "}

// userMessage is err's message without the library's package prefixes.
func userMessage(err error) string {
	msg := err.Error()
	for again := true; again; {
		again = false
		for _, p := range libraryPrefixes {
			if strings.HasPrefix(msg, p) {
				msg, again = msg[len(p):], true
			}
		}
	}
	return msg
}

func orDefault(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}

// loadDrive parses the capture, or decodes the shared drive when there is
// no capture.
func loadDrive(req *Request) (c powerstate.Controller, shared bool, err error) {
	switch {
	case len(req.Capture) > 0:
		in := req.Capture
		if len(in) > maxCapture {
			in = in[:64<<10] // what the first lines look like, said after the size
		}
		c, err = capture.ParseBytes(in)
		var pe *capture.ParseError
		looks := errors.As(err, &pe) && pe.Looks != ""
		switch {
		case len(req.Capture) > maxCapture:
			msg := "capture is larger than " + strconv.Itoa(maxCapture) + " bytes (1 MiB): no Identify capture is"
			if looks {
				msg += "; it looks like " + pe.Looks + " instead"
			}
			err = errors.New(msg)
		case errors.Is(err, capture.ErrFeatureCapture):
			err = fmt.Errorf("this is a get-feature (APST table) capture, not an identify controller capture: give it as the get-feature capture below: %w", err)
		case looks && strings.HasPrefix(pe.Looks, "a kernel log"):
			err = fmt.Errorf("this is a kernel log, not an identify controller capture: paste it in the kernel log box below to have it diagnosed: %w", err)
		}
		return c, false, err
	case req.Drive != "":
		c, err = DecodeDrive(req.Drive)
		return c, true, err
	}
	return c, false, errNoCapture
}

// errNoCapture is loadDrive's error without a capture or a shared drive;
// with a kernel log, no error.
var errNoCapture = errors.New("no capture: paste, drop or pick one (nvme id-ctrl, -o json, -b, smartctl -a/-x/-j)")

// kernelParams builds the kernel parameters as apstctl's plan flags do: the
// kernel first (it sets its default bound), then the bound, then the PCI ID
// given, which becomes the controller's (so Build's own quirk lookup uses
// it), and the quirks of the release's tables for the drive in p.Quirks
// (what Build's lookup finds, for the descriptions). defaultBound is the
// kernel's default bound for the release (before the bound given). field
// names the input an error belongs to.
func kernelParams(c *powerstate.Controller, req *Request) (p apst.Params, defaultBound apst.Microseconds, field string, err error) {
	p = apst.DefaultParams(apst.Current)
	if k := strings.TrimSpace(req.Kernel); k != "" {
		if err := p.Set("kernel", k); err != nil {
			return p, 0, "kernel", err
		}
	}
	defaultBound = p.Bound
	if b := strings.TrimSpace(req.Bound); b != "" {
		n, err := normalizeBound(b)
		if err != nil {
			return p, 0, "bound", err
		}
		if err := p.Set("ps-max-latency-us", n); err != nil {
			return p, 0, "bound", fmt.Errorf("latency bound %q: at most 18446744073709551615 µs: %s", b, errBoundSyntax)
		}
	}
	if id := strings.TrimSpace(req.PCIID); id != "" {
		var pci apst.PCIID
		if err := pci.UnmarshalText([]byte(id)); err != nil {
			return p, 0, "pci_id", err
		}
		if pci.Vendor != c.VendorID && !c.Missing.Has(powerstate.FieldVendorID) {
			return p, 0, "pci_id", fmt.Errorf("PCI ID %s: the vendor %04x is not the capture's VID %04x", id, pci.Vendor, c.VendorID)
		}
		c.PCIDeviceID = pci.Device
	}
	p.Quirks = apst.DriveQuirks(c, p.Release).Quirks
	return p, defaultBound, "", nil
}

// drawGaps is simulate's --gaps with the page's defaults (exp:10s, 10000
// gaps) and bound: analysis.DrawGaps, and where the gaps came from.
func drawGaps(spec string, count int, seed uint64) ([]apst.Microseconds, string, error) {
	if strings.TrimSpace(spec) == "" {
		spec = "exp:10s"
	}
	if count <= 0 {
		count = 10000
	}
	if count > maxGaps {
		return nil, "", fmt.Errorf("count %d: at most %d", count, maxGaps)
	}
	g, err := analysis.DrawGaps(spec, count, seed)
	if err != nil {
		return nil, "", err
	}
	if g.Listed() {
		return g.Gaps, counted(len(g.Gaps), "gap") + ", listed", nil
	}
	return g.Gaps, fmt.Sprintf("%s, %s, seed %d", counted(count, "gap"), g.Dist, seed), nil
}

// counted writes n and the noun, with an s when n is not 1 ("1 wake").
func counted(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

func driveSection(c *powerstate.Controller, shared bool) *ControllerView {
	apsta := fmt.Sprintf("%#x", c.APSTA)
	if !c.APSTAKnown() {
		apsta = "unknown"
	}
	return &ControllerView{
		Describe:   describe.Controller(c),
		Model:      c.Model,
		Firmware:   c.Firmware,
		VendorID:   fmt.Sprintf("%04x", c.VendorID),
		NPSS:       int(c.NPSS),
		APSTA:      apsta,
		Format:     c.Format.String(),
		HadSerial:  c.Serial != "",
		FromShared: shared,
	}
}

// assumptions lists, one line each, what the answer assumed or inferred:
// the lines apstctl plan prints for the same capture and configuration
// (describe.Assumptions of the plan's apst.Assumptions, with the page's
// PCI ID field as what settles a PCI ID), after the shared-link note, then
// the fabrics note (describe.Fabrics), the capture's notes and the
// kernel's warnings.
func assumptions(c *powerstate.Controller, plan *apst.Plan, shared bool) []string {
	var out []string
	if shared {
		out = append(out, "from a shared link: the drive's power state table as the sender's capture gave it (no serial number)")
	}
	a := plan.Assumptions(c)
	out = append(out, describe.Assumptions(&a, "", "a PCI ID")...)
	if s := describe.Fabrics(c); s != "" {
		out = append(out, "note: "+s)
	}
	for _, n := range c.Notes {
		out = append(out, "note: "+n)
	}
	for _, w := range plan.Warnings() {
		out = append(out, "kernel warning: "+w)
	}
	return out
}

func planSection(c *powerstate.Controller, plan *apst.Plan) *PlanView {
	reach := analysis.Reachability(c, &plan.Table)
	v := &PlanView{
		Params:    describe.Params(&plan.Params, true),
		Outcome:   unitStyle(describe.Outcome(plan)),
		MaxPS:     plan.MaxPS,
		Deepest:   int(reach.Deepest),
		Reachable: []int{},
		KernelLog: plan.KernelLog(),
		Logs:      plan.Logs(),
		Table:     describe.Table(&plan.Table, c.StateCount()),
	}
	for s := range reach.States.All() {
		v.Reachable = append(v.Reachable, int(s))
	}
	for i, d := range c.States() {
		op := "op"
		if d.NonOperational {
			op = "non-op"
		}
		v.States = append(v.States, StateView{
			State: i, Op: op, MaxPower: formatWatts(d.MaxPower.Watts()), PowerW: d.MaxPower.Watts(),
			EnLat: uint64(d.EntryLatency), ExLat: uint64(d.ExitLatency),
			Entry: plan.Table[i].String(), Decision: unitStyle(plan.Explain(c, uint8(i))),
			Selected: plan.Decision(uint8(i)).Reason.Selected(),
		})
	}
	return v
}

func sweepView(c *powerstate.Controller, sw *analysis.BoundSweep, bound, defaultBound apst.Microseconds) *SweepView {
	v := &SweepView{Params: describe.Params(&sw.Params, false), Bound: float64(bound), BoundText: formatBound(bound),
		Default: float64(defaultBound), DefaultText: formatBound(defaultBound)}
	n := c.StateCount()
	for i := range sw.Intervals {
		iv := &sw.Intervals[i]
		pow := c.PowerStates[iv.Reach.Deepest].MaxPower
		iw := IntervalView{
			MinText: formatBound(iv.Min), MaxText: formatBound(iv.Max), MinUS: uint64(iv.Min),
			Lo: float64(iv.Min), Hi: float64(iv.Max) + 1,
			MaxPS: iv.Plan.MaxPS, Deepest: int(iv.Reach.Deepest),
			WorstExitUS: uint64(iv.Reach.WorstExitLatency), WorstExitState: iv.Reach.WorstExitState,
			WorstExit:     formatMicros(uint64(iv.Reach.WorstExitLatency)),
			DeepestPowerW: pow.Watts(), DeepestPower: formatWatts(pow.Watts()),
			Outcome: unitStyle(describe.Outcome(&iv.Plan)), Table: describe.Table(&iv.Plan.Table, n),
			Current: iv.Contains(bound),
		}
		for s := range n {
			iw.Entries = append(iw.Entries, iv.Plan.Table[s].String())
		}
		v.Intervals = append(v.Intervals, iw)
	}
	return v
}

func compareView(c *powerstate.Controller, cmp *analysis.Comparison) *CompareView {
	v := &CompareView{Differences: []string{}}
	for i := range cmp.Configs {
		r := &cmp.Configs[i]
		v.Configs = append(v.Configs, CompareConfigView{
			Name: r.Config.Name, Params: describe.Params(&r.Plan.Params, true), Outcome: unitStyle(describe.Outcome(&r.Plan)),
			MaxPS: r.Plan.MaxPS, Deepest: int(r.Reach.Deepest), DeepestPow: formatWatts(r.DeepestMaxPower.Watts()),
			WorstExitUS: uint64(r.Reach.WorstExitLatency), WorstExit: formatMicros(uint64(r.Reach.WorstExitLatency)),
			KernelLog: r.Plan.KernelLog(),
		})
	}
	for _, row := range cmp.States {
		rv := CompareRowView{State: int(row.State), Differs: row.Differs}
		for i := range row.Entries {
			rv.Entries = append(rv.Entries, row.Entries[i].String())
			rv.Reasons = append(rv.Reasons, row.Reasons[i].String())
		}
		v.Rows = append(v.Rows, rv)
	}
	for _, d := range cmp.Differences {
		v.Differences = append(v.Differences, d.String())
	}
	v.PowerDeltaW = float64(cmp.PowerDelta) / 1e6
	v.PowerDelta = fmt.Sprintf("%+.1f mW", float64(cmp.PowerDelta)/1000) // the second's idle power less the first's
	return v
}

func simView(name, source string, sim *analysis.Simulation) SimView {
	v := SimView{
		Name: name, Source: source, Count: sim.Count, TotalIdle: sim.TotalIdle.Duration().String(),
		P50: formatMicros(uint64(sim.P50)), P90: formatMicros(uint64(sim.P90)), P99: formatMicros(uint64(sim.P99)), Max: formatMicros(uint64(sim.Max)),
		AvgIdlePowerW: float64(sim.AverageIdlePower) / 1e6,
	}
	for s := range sim.Timeline.States().All() {
		share := 100 * float64(sim.Residency[s]) / math.Max(float64(sim.TotalIdle), 1)
		v.Residency = append(v.Residency, fmt.Sprintf("ps%d: %s, %.1f%% of the idle time", s, counted(int(sim.Wakes[s]), "wake"), share))
	}
	return v
}

func checkSection(v *analysis.Verdict, f capture.FeatureFormat) *CheckView {
	out := &CheckView{Match: v.Match, Format: f.String(), Differences: []string{}, ReproducedBy: []ReproductionView{}, Notes: v.Notes}
	if out.Notes == nil {
		out.Notes = []string{}
	}
	if v.Match {
		out.Summary = "match: the drive holds the table the kernel programs under these parameters"
	} else {
		out.Summary = "mismatch: the drive does not hold the table the kernel programs under these parameters"
	}
	if v.APSTEDiffers {
		out.Differences = append(out.Differences, fmt.Sprintf("APSTE: kernel %s, drive %s", apst.APSTEOf(v.Expected.Enabled), v.Drive.APSTE))
	}
	for _, d := range v.Differences {
		out.Differences = append(out.Differences, fmt.Sprintf("ps%d: kernel %s, drive %s", d.State, d.Expected, d.Drive))
	}
	for _, rp := range v.ReproducedBy {
		out.ReproducedBy = append(out.ReproducedBy, ReproductionView{Config: view.ConfigText(&rp.Params), Min: rp.Min.String(), Max: rp.Max.String(), Reason: rp.Reason})
	}
	return out
}
