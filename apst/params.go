package apst

// Params holds every input of the kernel's nvme_configure_apst() besides the
// Identify Controller data.
//
// Build reads the four apst_* module parameters only for Current; V4_12 and
// V4_11 always use the heuristic.
type Params struct {
	// Generation selects the kernel algorithm.
	Generation Generation
	// Bound is the controller's ps_max_latency_us (struct nvme_ctrl),
	// set from PM QoS: 0 turns APST off (APSTE=0), NoLimit admits every exit
	// latency. Use ToleranceBound or ModuleDefaultBound to derive it from the
	// strings and parameters users set.
	Bound Microseconds
	// PrimaryTimeout is nvme_core.apst_primary_timeout_ms (default 100).
	PrimaryTimeout Milliseconds
	// SecondaryTimeout is nvme_core.apst_secondary_timeout_ms (default 2000).
	SecondaryTimeout Milliseconds
	// PrimaryTolerance is nvme_core.apst_primary_latency_tol_us (default 15000).
	PrimaryTolerance Microseconds
	// SecondaryTolerance is nvme_core.apst_secondary_latency_tol_us (default 100000).
	SecondaryTolerance Microseconds
	// Quirks is the controller's quirk set; only QuirkNoAPST and
	// QuirkNoDeepestPS matter here.
	Quirks Quirks
	// ForceAPST is nvme_core.force_apst: it lets a NO_APST controller use APST
	// (when APSTA is non-zero) and cancels NO_DEEPEST_PS. V4_11 had no such
	// parameter and ignores it.
	ForceAPST bool
}

// Kernel defaults of the nvme_core module parameters (drivers/nvme/host/core.c).
const (
	DefaultBound              Microseconds = 100000 // default_ps_max_latency_us since v4.12
	DefaultBoundV4_11         Microseconds = 25000  // default_ps_max_latency_us in v4.11
	DefaultPrimaryTimeout     Milliseconds = 100    // apst_primary_timeout_ms
	DefaultSecondaryTimeout   Milliseconds = 2000   // apst_secondary_timeout_ms
	DefaultPrimaryTolerance   Microseconds = 15000  // apst_primary_latency_tol_us
	DefaultSecondaryTolerance Microseconds = 100000 // apst_secondary_latency_tol_us
)

// DefaultParams returns the kernel's defaults for generation g: its default
// bound (25000 µs for V4_11, 100000 µs otherwise), the four apst_* defaults,
// no quirks and force_apst off. An invalid g yields Params that Build rejects.
func DefaultParams(g Generation) Params {
	return Params{
		Generation:         g,
		Bound:              g.defaultBound(),
		PrimaryTimeout:     DefaultPrimaryTimeout,
		SecondaryTimeout:   DefaultSecondaryTimeout,
		PrimaryTolerance:   DefaultPrimaryTolerance,
		SecondaryTolerance: DefaultSecondaryTolerance,
	}
}

// Mode is how Build chooses idle times.
type Mode uint8

const (
	// ModeTolerance is the v5.14 primary/secondary tolerance bands.
	ModeTolerance Mode = iota
	// ModeHeuristic is the 2% heuristic gated on exit latency (v4.12 to
	// v5.13, and Current when a primary parameter is 0).
	ModeHeuristic
	// ModeHeuristicTotalGate is the v4.11 heuristic, gated on ENLAT+EXLAT.
	ModeHeuristicTotalGate
)

// String names the mode.
func (m Mode) String() string {
	switch m {
	case ModeTolerance:
		return "tolerance"
	case ModeHeuristic:
		return "heuristic"
	case ModeHeuristicTotalGate:
		return "heuristic-total-gate"
	}
	return "unknown"
}

// Mode reports the algorithm Build uses for p: the tolerance bands for
// Current when apst_primary_timeout_ms and apst_primary_latency_tol_us are
// both non-zero, the heuristic otherwise.
func (p *Params) Mode() Mode {
	switch {
	case p.Generation == V4_11:
		return ModeHeuristicTotalGate
	case p.Generation == Current && p.PrimaryTimeout != 0 && p.PrimaryTolerance != 0:
		return ModeTolerance
	}
	return ModeHeuristic
}
