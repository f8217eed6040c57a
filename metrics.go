package nvmeapst

import (
	"context"
	"errors"
	"fmt"
	diag "github.com/nvmeapst/nvmeapst/apst/diagnose"
	"io/fs"
	"math"
	"strconv"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/ioctl"
	"github.com/nvmeapst/nvmeapst/sysfs"
)

// MetricsSnapshot is one scrape of the machine's APST facts, the values an
// exporter publishes (apstctl metrics writes them in the Prometheus text
// format). It holds per controller whether the kernel has APST enabled, the
// bound in effect, the deepest state the kernel's table reaches, whether
// the drive holds that table, the APST quirks, the PCI power-management files, the
// diag/ counters and the health log counters; and for every source whether
// it could be read.
//
// A value the machine does not expose (a file the running kernel lacks, a
// command the data source cannot send) is absent (Reading.Present false)
// and its source still counts as read: only a source that exists and could
// not be read, or a command that failed, is a failed source.
//
// A snapshot is a value: [System.Metrics] returns a new one; a
// [MetricsReader] refills the one it is given, reusing its storage. The
// zero MetricsSnapshot is a scrape of nothing (no source, no controller)
// and a ready destination for MetricsReader.Read, which overwrites it
// entirely (System.Metrics starts from one).
type MetricsSnapshot struct {
	// KernelRelease is uname -r ("" when unknown).
	KernelRelease string
	// Generation is the kernel algorithm the plans assume.
	Generation apst.Generation
	// ASPMPolicy is the pcie_aspm policy in force (the bracketed word of
	// module/pcie_aspm/parameters/policy), "" when not exposed.
	ASPMPolicy string
	// Sources are the machine-wide sources, always in the order of
	// MachineSources.
	Sources []SourceStatus
	// Controllers holds one entry per controller, in name order.
	Controllers []ControllerMetrics
}

// The machine-wide sources of a scrape, in the order of
// MetricsSnapshot.Sources.
const (
	SourceKernelRelease    = "kernel_release"    // uname -r
	SourceModuleParameters = "module_parameters" // module/nvme_core/parameters
	SourceDMI              = "dmi"               // class/dmi/id
	SourceQuirksParameter  = "quirks_parameter"  // module/nvme/parameters/quirks
	SourceASPMPolicy       = "aspm_policy"       // module/pcie_aspm/parameters/policy
)

// The sources of one controller, in the order of
// ControllerMetrics.Sources.
const (
	SourceSysfs       = "sysfs"        // class/nvme/NAME attributes
	SourceIdentify    = "identify"     // Identify Controller
	SourceAPSTFeature = "apst_feature" // Get Features 0Ch
	SourcePCI         = "pci"          // the PCI function's power files
	SourceDiag        = "diag"         // class/nvme/NAME/diag/ (Linux 7.2)
	SourceHealthLog   = "health_log"   // Get Log Page 02h
)

// MachineSources lists the machine-wide sources in the order
// MetricsSnapshot.Sources holds them.
func MachineSources() []string {
	return []string{SourceKernelRelease, SourceModuleParameters, SourceDMI, SourceQuirksParameter, SourceASPMPolicy}
}

// ControllerSources lists the sources of one controller in the order
// ControllerMetrics.Sources holds them.
func ControllerSources() []string {
	return []string{SourceSysfs, SourceIdentify, SourceAPSTFeature, SourcePCI, SourceDiag, SourceHealthLog}
}

// SourceStatus says whether one source of a scrape could be read.
//
// The zero SourceStatus names no source and reads as failed (OK false) with
// no Err.
type SourceStatus struct {
	// Source names it (the Source constants).
	Source string
	// OK is false when the source exists but could not be read (a
	// permission, a file that does not parse, a failed admin command); a
	// source the machine does not have is OK, with nothing exposed.
	OK bool
	// Err says why the source failed; nil when OK.
	Err error
}

// Reading is one value of a scrape: Present is false when the machine does
// not expose it (or its source failed).
//
// The zero Reading is absent (Present false).
type Reading struct {
	Value   float64
	Present bool
}

// read returns a present Reading of v.
func read(v float64) Reading { return Reading{Value: v, Present: true} }

// Holding is what a scrape says of the drive's APST table against the
// kernel's, the value of the why label of apstctl metrics.
type Holding string

// The holdings.
const (
	// HoldsMatch: the drive holds the table the kernel programs.
	HoldsMatch Holding = "match"
	// HoldsMismatch: APSTE or an entry differs.
	HoldsMismatch Holding = "mismatch"
	// HoldsNotProgrammed: the kernel sends no APST configuration (APSTA
	// = 0, NPSS above 31); the drive keeps its own.
	HoldsNotProgrammed Holding = "not-programmed"
	// HoldsNoPlan: no Identify data, so no plan to compare.
	HoldsNoPlan Holding = "no-identify"
	// HoldsNoDrive: the drive's APST feature could not be read.
	HoldsNoDrive Holding = "no-drive-table"
	// HoldsNoBound: power/pm_qos_latency_tolerance_us exists but could not
	// be read (or a bundle did not collect it), so the bound, and with it
	// the kernel's table, is unknown.
	HoldsNoBound Holding = "no-bound"
	// HoldsNoSysfs: the controller's sysfs folder could not be read at all.
	HoldsNoSysfs Holding = "no-sysfs"
)

// ControllerMetrics is the scrape of one controller.
//
// The zero ControllerMetrics is the scrape of no controller: every Reading
// absent (Present false), Holding empty (none of the holdings) and no
// Sources.
type ControllerMetrics struct {
	// Name is the controller ("nvme0"), node_exporter's device label.
	Name string
	// Model, Firmware, Transport, State and Address are the sysfs
	// attributes (model, firmware_rev, transport, state, address), ""
	// when absent.
	Model, Firmware, Transport, State, Address string
	// PCIAddress is the controller's PCI function ("0000:04:00.0"), ""
	// when it is not a PCI function or its address is not one.
	PCIAddress string

	// APSTEnabled is 1 when the kernel has APST enabled for the
	// controller (power/pm_qos_latency_tolerance_us exists and is not 0),
	// 0 when not (no file, or a bound of 0, with which the kernel sends
	// APSTE = 0); absent when the file could not be read.
	APSTEnabled Reading
	// ToleranceSeconds is the bound in effect (ps_max_latency_us) in
	// seconds: +Inf for no limit ("auto", "any"), 0 for a bound of 0;
	// absent while the file is (APST disabled) and when it could not be
	// read.
	ToleranceSeconds Reading
	// DeepestState, DeepestExitLatencySeconds and DeepestMaxPowerWatts
	// describe the deepest state the kernel's table takes the controller to
	// from state 0 (state 0, exit latency 0, when the table makes no
	// transition): its number, its exit latency (EXLAT) and its maximum
	// power (MP), which is an upper bound on what it draws while idle.
	// Absent without Identify data or a readable bound (HoldsNoBound), and
	// the power when the descriptor reports none.
	DeepestState, DeepestExitLatencySeconds, DeepestMaxPowerWatts Reading
	// HoldsKernelTable is 1 when the drive holds the table the kernel
	// programs, 0 when it holds another; absent when the kernel programs
	// none or one of the two is unknown. Holding says which.
	HoldsKernelTable Reading
	Holding          Holding
	// Quirks are the APST quirks the kernel applies (no_apst,
	// no_deepest_ps); QuirksKnown is false when they could not be
	// determined.
	Quirks      apst.Quirks
	QuirksKnown bool

	// D3coldAllowed, RuntimePMAuto (power/control reads auto) and
	// ASPML1 (link/l1_aspm) are the files of the controller's PCI
	// function.
	D3coldAllowed, RuntimePMAuto, ASPML1 Reading
	// Resets, Reconnects and CommandErrors are the diag/ counters of Linux
	// 7.2 (reset_count, reconnect_count, command_error_count).
	Resets, Reconnects, CommandErrors Reading
	// UnsafeShutdowns and ErrorLogEntries are the SMART / Health log
	// counters.
	UnsafeShutdowns, ErrorLogEntries Reading

	// Sources are the controller's sources, in the order of
	// ControllerSources; a controller whose sysfs folder could not be
	// read has its sysfs source alone (failed): the others, read through
	// that folder, were never tried.
	Sources []SourceStatus
}

// Metrics scrapes the machine once (see MetricsSnapshot). It reads what
// Inspect reads, without the search for configurations that reproduce a
// mismatched table, and the PCI power files, the diag/ counters and the
// health log. Metrics fails only when sysfs cannot be enumerated or ctx is
// done; everything else is a failed source in the snapshot.
//
// A scraper that runs often uses a [MetricsReader], which reuses its
// buffers between scrapes.
func (s *System) Metrics(ctx context.Context) (*MetricsSnapshot, error) {
	if s == nil {
		return nil, nilSystem("metrics")
	}
	var snap MetricsSnapshot
	r := s.NewMetricsReader()
	defer r.Close()
	if err := r.Read(ctx, &snap); err != nil {
		return nil, err
	}
	return &snap, nil
}

// scrape fills snap from the machine.
func (s *System) scrape(ctx context.Context, snap *MetricsSnapshot) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("nvmeapst: metrics: %w", err)
	}
	rd := s.beginRead(needHealth)
	defer rd.end()
	names, err := rd.sys.FS.ControllerNames()
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return noControllers("nvmeapst: metrics", err)
		}
		return fmt.Errorf("nvmeapst: metrics: %w", err)
	}
	rep, m := rd.machine()
	*snap = MetricsSnapshot{KernelRelease: m.release, Generation: m.gen}
	relStatus := SourceStatus{Source: SourceKernelRelease, OK: true}
	if _, err := rd.sys.kernelRelease(); err != nil && s.KernelRelease != nil {
		relStatus = failed(SourceKernelRelease, err)
	}
	qp := SourceStatus{Source: SourceQuirksParameter, OK: rep.QuirksParamProblem == nil, Err: rep.QuirksParamProblem.Err()}
	mod := SourceStatus{Source: SourceModuleParameters, OK: true}
	if p := rep.ModuleProblem; p != nil && !(p.NotExist && len(rep.Module.Unreadable) == 0) {
		mod = SourceStatus{Source: SourceModuleParameters, Err: p}
	}
	aspm := SourceStatus{Source: SourceASPMPolicy, OK: true}
	snap.Sources = append(snap.Sources, relStatus, mod,
		SourceStatus{Source: SourceDMI, OK: rep.DMIProblem == nil, Err: rep.DMIProblem.Err()}, qp, aspm)
	for _, n := range names {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("nvmeapst: metrics: %w", err)
		}
		c, err := rd.sys.FS.Controller(n)
		if c.Name == "" {
			// Not readable at all (a controller a bundle lists but does
			// not hold): a failed sysfs source, nothing else known.
			if err == nil {
				err = fmt.Errorf("nvmeapst: %s: %w", n, sysfs.ErrMissingController)
			}
			snap.Controllers = append(snap.Controllers, unreadableController(n, err))
			continue
		}
		cr, dev := rd.controller(ctx, c)
		cm := controllerMetrics(&cr)
		rd.sys.scrapePower(&cm, &snap.Sources[4], &snap.ASPMPolicy)
		scrapeHealth(&cm, dev)
		snap.Controllers = append(snap.Controllers, cm)
	}
	return nil
}

// unreadableController is the scrape of a controller whose folder could
// not be read: its sysfs source failed, and the sources read through that
// folder were never tried, so they have no status (an absent series, not
// a success nobody saw).
func unreadableController(name string, err error) ControllerMetrics {
	return ControllerMetrics{Name: name, Holding: HoldsNoSysfs, Sources: []SourceStatus{failed(SourceSysfs, err)}}
}

// failed is the status of a source that could not be read.
func failed(source string, err error) SourceStatus {
	return SourceStatus{Source: source, Err: err}
}

// problemStatus is the status of a source from the problem a report
// recorded: none, or one that says the source cannot exist here (no admin
// command path, a bundle that did not record it), is OK.
func problemStatus(source string, p *Problem) SourceStatus {
	if p == nil || p.Unsupported {
		return SourceStatus{Source: source, OK: true}
	}
	return SourceStatus{Source: source, Err: p}
}

// controllerMetrics takes the values of a (lean) controller report.
func controllerMetrics(r *ControllerReport) ControllerMetrics {
	c := r.Sysfs
	m := ControllerMetrics{Name: r.Name, Model: c.Model, Firmware: c.FirmwareRev, Transport: c.Transport, State: c.State, Address: c.Address}
	if c.HasPCI || c.Transport == "pcie" {
		if _, ok := parsePCIAddress(c.Address); ok {
			m.PCIAddress = c.Address
		}
	}
	sysfsOK := SourceStatus{Source: SourceSysfs, OK: len(r.SysfsProblems) == 0}
	if !sysfsOK.OK {
		sysfsOK.Err = r.SysfsProblems[0]
	}
	// A bound that could not be read leaves the table unknown, unless the
	// kernel sends none whatever the bound.
	boundKnown := r.BoundSource != BoundUnreadable || r.Plan != nil && !r.Plan.Sent
	if r.BoundSource != BoundUnreadable {
		m.APSTEnabled = read(b2f(!r.APSTDisabled && r.Bound != 0))
		if !r.APSTDisabled {
			m.ToleranceSeconds = read(seconds(r.Bound))
		}
	}
	if r.ExpectedReach != nil && boundKnown {
		e := r.ExpectedReach
		m.DeepestState = read(float64(e.Deepest))
		m.DeepestExitLatencySeconds = read(seconds(e.DeepestExitLatency))
		if e.DeepestMaxPower.Reported() {
			m.DeepestMaxPowerWatts = read(e.DeepestMaxPower.Watts())
		}
	}
	switch {
	case r.Plan == nil:
		m.Holding = HoldsNoPlan
	case !r.Plan.Sent:
		m.Holding = HoldsNotProgrammed
	case !boundKnown:
		m.Holding = HoldsNoBound
	case r.Drive == nil:
		m.Holding = HoldsNoDrive
	case r.Verdict.Status == StatusMatch:
		m.Holding, m.HoldsKernelTable = HoldsMatch, read(1)
	default:
		m.Holding, m.HoldsKernelTable = HoldsMismatch, read(0)
	}
	m.Quirks, m.QuirksKnown = r.Params.Quirks.APST(), r.Plan != nil || r.Sysfs.HasQuirks
	if r.Plan != nil {
		m.Quirks = r.Plan.Quirks.Applied.APST()
	}
	identify := problemStatus(SourceIdentify, r.DeviceProblem)
	if identify.OK {
		identify = problemStatus(SourceIdentify, r.IdentifyProblem)
	}
	drive := problemStatus(SourceAPSTFeature, r.DeviceProblem)
	if drive.OK {
		drive = problemStatus(SourceAPSTFeature, r.DriveProblem)
	}
	m.Sources = append(m.Sources, sysfsOK, identify, drive,
		SourceStatus{Source: SourcePCI, OK: true}, SourceStatus{Source: SourceDiag, OK: true}, SourceStatus{Source: SourceHealthLog, OK: true})
	return m
}

// scrapePower reads the diag/ counters, the PCI function's power files and
// the ASPM policy.
func (s *System) scrapePower(m *ControllerMetrics, aspm *SourceStatus, policy *string) {
	p, _, err := s.FS.PowerFacts(m.Name)
	if err != nil {
		m.Sources[3] = failed(SourcePCI, err)
		m.Sources[4] = failed(SourceDiag, err)
		return
	}
	// factErr is an unreadable fact's error, naming its file.
	factErr := func(f diag.Fact) error { return fmt.Errorf("nvmeapst: %s: %s", f.Source, f.Error) }
	counter := func(dst *Reading, st *SourceStatus, f diag.Fact) {
		switch f.Status {
		case diag.Unreadable:
			if st.OK {
				*st = failed(st.Source, factErr(f))
			}
		case diag.Read:
			n, perr := strconv.ParseUint(f.Value, 10, 64)
			if perr != nil {
				if st.OK {
					*st = failed(st.Source, fmt.Errorf("nvmeapst: %q is not a counter: %w", f.Value, perr))
				}
				return
			}
			*dst = read(float64(n))
		}
	}
	counter(&m.Resets, &m.Sources[4], p.ResetCount)
	counter(&m.Reconnects, &m.Sources[4], p.ReconnectCount)
	counter(&m.CommandErrors, &m.Sources[4], p.CommandErrorCount)
	switch a := p.ASPMPolicy; a.Status {
	case diag.Unreadable:
		*aspm = failed(SourceASPMPolicy, factErr(a))
	case diag.Read:
		*policy = a.Value
	}
	if len(p.Path) == 0 {
		return
	}
	fn := p.Path[0]
	flag := func(dst *Reading, f diag.Fact, on func(string) (bool, bool)) {
		switch f.Status {
		case diag.Unreadable:
			if m.Sources[3].OK {
				m.Sources[3] = failed(SourcePCI, factErr(f))
			}
		case diag.Read:
			v, ok := on(f.Value)
			if !ok {
				if m.Sources[3].OK {
					m.Sources[3] = failed(SourcePCI, fmt.Errorf("nvmeapst: %s reads %q", f.Source, f.Value))
				}
				return
			}
			*dst = read(b2f(v))
		}
	}
	flag(&m.D3coldAllowed, fn.D3coldAllowed, parseFlag)
	flag(&m.RuntimePMAuto, fn.Control, parseControl)
	flag(&m.ASPML1, fn.Link.L1, parseFlag)
}

// parseFlag reads a sysfs 0/1 attribute.
func parseFlag(s string) (v, ok bool) {
	switch s {
	case "0":
		return false, true
	case "1":
		return true, true
	}
	return false, false
}

// parseControl reads power/control: auto (runtime PM allowed) or on.
func parseControl(s string) (v, ok bool) {
	switch s {
	case "auto":
		return true, true
	case "on":
		return false, true
	}
	return false, false
}

// scrapeHealth takes the SMART / Health log counters of what dev read.
func scrapeHealth(m *ControllerMetrics, dev controllerDevice) {
	h, err := dev.health, dev.healthErr
	switch {
	case err == nil:
		m.UnsafeShutdowns, m.ErrorLogEntries = read(float64(h.UnsafeShutdowns)), read(float64(h.ErrorLogEntries))
	case errors.Is(err, ioctl.ErrUnsupported) || errors.Is(err, errors.ErrUnsupported) || errHealthUnavailable(err):
	default:
		m.Sources[5] = failed(SourceHealthLog, err)
	}
}

// errHealthUnavailable reports the errors of healthLog that say the source
// cannot send the command at all.
func errHealthUnavailable(err error) bool {
	var p *Problem
	if errors.As(err, &p) && p.Unsupported {
		return true
	}
	msg := err.Error()
	return msg == "no admin command path" || msg == "the SMART / Health log is not available from this source" || errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrPermission)
}

// seconds converts a bound to seconds, +Inf for no limit.
func seconds(us apst.Microseconds) float64 {
	if us == apst.NoLimit {
		return math.Inf(1)
	}
	return float64(us) / 1e6
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// PCILocation is a PCI address split as node_exporter's pcidevice
// collector labels it.
//
// The zero PCILocation labels nothing (every label empty): it is what
// ParsePCILocation returns with ok false.
type PCILocation struct {
	Segment, Bus, Device, Function string
}

// ParsePCILocation splits a PCI address ("0000:04:00.0") into the
// segment, bus, device and function labels of node_exporter's
// node_pcidevice_* metrics (prometheus/procfs PciDeviceLocation.Strings:
// %04x, %02x, %02x and %x of the parsed numbers); ok is false for anything
// else.
func ParsePCILocation(addr string) (PCILocation, bool) { return parsePCIAddress(addr) }

func parsePCIAddress(addr string) (PCILocation, bool) {
	seg, rest, ok1 := strings.Cut(addr, ":")
	bus, rest, ok2 := strings.Cut(rest, ":")
	dev, fn, ok3 := strings.Cut(rest, ".")
	if !ok1 || !ok2 || !ok3 {
		return PCILocation{}, false
	}
	var n [4]uint64
	for i, f := range []struct {
		s    string
		bits int
	}{{seg, 32}, {bus, 8}, {dev, 5}, {fn, 3}} {
		if f.s == "" || len(f.s) > 8 {
			return PCILocation{}, false
		}
		v, err := strconv.ParseUint(f.s, 16, f.bits)
		if err != nil {
			return PCILocation{}, false
		}
		n[i] = v
	}
	return PCILocation{
		Segment:  fmt.Sprintf("%04x", n[0]),
		Bus:      fmt.Sprintf("%02x", n[1]),
		Device:   fmt.Sprintf("%02x", n[2]),
		Function: fmt.Sprintf("%x", n[3]),
	}, true
}

// MetricsReader scrapes a System again and again, the way an exporter
// does, reusing its buffers between scrapes. It never caches a value: each
// Read reads every source anew, and recomputes what it derives (a decoded
// Identify image, a plan) only from what that Read read. On Linux it reads
// each controller once, relative to its directories and without
// allocating per file (sysfs.AttrReader); elsewhere it scrapes as Inspect
// reads. A MetricsReader is for one goroutine at a time; Close releases the
// tree it holds open.
//
// The zero MetricsReader reads nothing: Read refuses it with an error that
// says to get one from System.NewMetricsReader, and Close does nothing.
type MetricsReader struct {
	sys  *System
	fast *fastScraper
}

// NewMetricsReader returns a reader of s's metrics. That of a nil *System
// is a zero MetricsReader, whose Read fails.
func (s *System) NewMetricsReader() *MetricsReader {
	if s == nil {
		return &MetricsReader{}
	}
	return &MetricsReader{sys: s, fast: newFastScraper(s)}
}

// Read scrapes the machine into snap, which it overwrites entirely,
// reusing its slices. Its errors are those of System.Metrics.
func (r *MetricsReader) Read(ctx context.Context, snap *MetricsSnapshot) error {
	if r == nil || r.sys == nil || snap == nil {
		return errors.New("nvmeapst: metrics: a zero MetricsReader or a nil snapshot: get one from System.NewMetricsReader")
	}
	if r.fast != nil {
		return r.fast.scrape(ctx, snap)
	}
	return r.sys.scrape(ctx, snap)
}

// Close releases what the reader holds open; a closed reader must not be
// used again.
func (r *MetricsReader) Close() error {
	if r != nil && r.fast != nil {
		return r.fast.attrs.Close()
	}
	return nil
}
