package apst

import (
	"fmt"
	"strconv"
	"strings"
)

// Params holds every input of the kernel's nvme_configure_apst() besides the
// Identify Controller data, and the kernel release the configuration is
// for.
//
// The zero value is rejected by Build (its Generation is unset), with an
// error wrapping ErrUnknownGeneration: start from [DefaultParams], a preset
// (ParseConfig with policy=) or [ParseConfig]. Build reads the four apst_*
// module parameters only for Current; V4_12 and V4_11 always use the
// heuristic. Params is a plain value, safe to copy and to share
// between goroutines.
//
// Its text form ([Params.String], [Params.MarshalText]) is the key=value
// list that [ParseConfig] and [Params.Set] accept, so Params round-trips
// through text and, through MarshalText, through encoding/json (as a JSON
// string).
type Params struct {
	// Generation selects the kernel algorithm.
	Generation Generation
	// Release is the kernel release the parameters are for; the zero value
	// means unknown (Build then uses the newest quirk tables and the plan
	// says so). It selects the quirk tables Build applies unless
	// QuirksGiven ([QuirkTables]), and Params.Set("kernel", "6.8") sets it
	// together with the Generation that release runs.
	Release Release
	// Bound is the controller's ps_max_latency_us (struct nvme_ctrl),
	// set from PM QoS: 0 turns APST off (APSTE=0), NoLimit admits every exit
	// latency. ParseTolerance and ModuleDefaultBound derive it from what
	// users set.
	Bound Microseconds
	// PrimaryTimeout is nvme_core.apst_primary_timeout_ms (default 100).
	PrimaryTimeout Milliseconds
	// SecondaryTimeout is nvme_core.apst_secondary_timeout_ms (default 2000).
	SecondaryTimeout Milliseconds
	// PrimaryTolerance is nvme_core.apst_primary_latency_tol_us (default 15000).
	PrimaryTolerance Microseconds
	// SecondaryTolerance is nvme_core.apst_secondary_latency_tol_us (default 100000).
	SecondaryTolerance Microseconds
	// Quirks are quirks Build adds to those the kernel's quirk tables of
	// Release assign the controller ([QuirkLookup]); with QuirksGiven they
	// are the controller's whole quirk set and no table is consulted. Only
	// QuirkNoAPST and QuirkNoDeepestPS change the table.
	Quirks Quirks
	// QuirksGiven makes Quirks the controller's whole quirk set: Build
	// looks nothing up (a live system's lookup with its PCI ID and DMI
	// strings, the sysfs quirks file, or quirks left out on purpose:
	// quirks=none). The zero value, false, applies the tables of Release to
	// the controller, as the kernel does at probe time, and the Plan records
	// what that lookup inferred and left unchecked (Plan.Quirks).
	QuirksGiven bool
	// ForceAPST is nvme_core.force_apst: it lets a NO_APST controller use APST
	// (when APSTA is non-zero) and cancels NO_DEEPEST_PS. V4_11 had no such
	// parameter and ignores it.
	ForceAPST bool
}

// defaultBound is default_ps_max_latency_us since v4.12, in µs; v4.11's was
// 25000 ([Generation.DefaultBound]).
const defaultBound Microseconds = 100000

// Defaults of the four nvme_core.apst_* module parameters (v5.14 and later).
const (
	defaultPrimaryTimeout     Milliseconds = 100    // apst_primary_timeout_ms
	defaultSecondaryTimeout   Milliseconds = 2000   // apst_secondary_timeout_ms
	defaultPrimaryTolerance   Microseconds = 15000  // apst_primary_latency_tol_us
	defaultSecondaryTolerance Microseconds = 100000 // apst_secondary_latency_tol_us
)

// DefaultParams returns the kernel's defaults for generation g. They are its
// default bound (25000 µs for V4_11, 100000 µs otherwise), the four apst_*
// defaults (100 ms, 2000 ms, 15000 µs, 100000 µs), the quirks of the kernel's
// quirk tables (QuirksGiven false: Build looks them up for the controller),
// force_apst off and the release unknown. An invalid g yields Params that
// Build rejects.
func DefaultParams(g Generation) Params {
	return Params{
		Generation:         g,
		Bound:              g.DefaultBound(),
		PrimaryTimeout:     defaultPrimaryTimeout,
		SecondaryTimeout:   defaultSecondaryTimeout,
		PrimaryTolerance:   defaultPrimaryTolerance,
		SecondaryTolerance: defaultSecondaryTolerance,
	}
}

// String returns the canonical text form of p, which UnmarshalText, and
// ParseConfig on a base of DefaultParams (of any generation), read back to
// p. The keys it leaves out are DefaultParams' values: ParseConfig on
// another base keeps that base's module parameters, quirks and force_apst
// where p has the defaults:
//
//	kernel=<release or generation>,ps-max-latency-us=<µs or unlimited>[,generation=<name>][,<other keys>]
//
// kernel is the release when p.Release is known (e.g. "kernel=5.15.80"),
// the generation name otherwise ("kernel=v4.12"); generation follows only
// when it is not the one the release runs. The other keys appear only where
// p differs from [DefaultParams]: the four apst_* parameters, quirks (every
// bit, by name: "quirks=none" when QuirksGiven leaves them out,
// "quirks=tables,no-apst" for bits added to the tables') and force-apst. Example:
// "kernel=v4.12,ps-max-latency-us=100000". For an invalid Generation the
// text does not parse (kernel=unset).
func (p Params) String() string {
	var b strings.Builder
	b.WriteString("kernel=")
	relGen, relErr := p.Release.Generation()
	if !p.Release.IsZero() {
		b.WriteString(p.Release.String())
	} else {
		b.WriteString(p.Generation.String())
	}
	b.WriteString(",ps-max-latency-us=")
	if p.Bound == NoLimit {
		b.WriteString("unlimited")
	} else {
		b.WriteString(strconv.FormatUint(uint64(p.Bound), 10))
	}
	if !p.Release.IsZero() && (relErr != nil || relGen != p.Generation) {
		b.WriteString(",generation=" + p.Generation.String())
	}
	d := DefaultParams(Current)
	num := func(key string, v, def uint64) {
		if v != def {
			b.WriteString("," + key + "=" + strconv.FormatUint(v, 10))
		}
	}
	num("apst-primary-timeout-ms", uint64(p.PrimaryTimeout), uint64(d.PrimaryTimeout))
	num("apst-secondary-timeout-ms", uint64(p.SecondaryTimeout), uint64(d.SecondaryTimeout))
	num("apst-primary-latency-tol-us", uint64(p.PrimaryTolerance), uint64(d.PrimaryTolerance))
	num("apst-secondary-latency-tol-us", uint64(p.SecondaryTolerance), uint64(d.SecondaryTolerance))
	switch {
	case p.QuirksGiven:
		b.WriteString(",quirks=" + p.Quirks.String())
	case p.Quirks != 0:
		b.WriteString(",quirks=tables," + p.Quirks.String())
	}
	if p.ForceAPST {
		b.WriteString(",force-apst=1")
	}
	return b.String()
}

// MarshalText implements encoding.TextMarshaler with String. Params whose
// Generation is invalid (the zero Params included) are an error wrapping
// ErrUnknownGeneration, and so is a Release before v4.11.
func (p Params) MarshalText() ([]byte, error) {
	if err := p.Generation.check(); err != nil {
		return nil, err
	}
	if !p.Release.IsZero() {
		if _, err := p.Release.Generation(); err != nil {
			return nil, err
		}
	}
	return []byte(p.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler: ParseConfig of the
// text on DefaultParams(Current).
func (p *Params) UnmarshalText(b []byte) error {
	v, err := ParseConfig(string(b), DefaultParams(Current))
	if err != nil {
		return err
	}
	*p = v
	return nil
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

	endModes
)

var modeNames = [...]string{
	ModeTolerance:          "tolerance",
	ModeHeuristic:          "heuristic",
	ModeHeuristicTotalGate: "heuristic-total-gate",
}

// String names the mode: "tolerance", "heuristic" or
// "heuristic-total-gate" ("Mode(N)" for other values).
func (m Mode) String() string {
	if m < endModes {
		return modeNames[m]
	}
	return "Mode(" + strconv.Itoa(int(m)) + ")"
}

// MarshalText implements encoding.TextMarshaler with String; other values
// than the three modes are an error.
func (m Mode) MarshalText() ([]byte, error) {
	if m >= endModes {
		return nil, fmt.Errorf("apst: invalid Mode %d", uint8(m))
	}
	return []byte(m.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler for the names String
// returns.
func (m *Mode) UnmarshalText(b []byte) error {
	v, err := parseName(modeNames[:], string(b), "Mode")
	if err != nil {
		return err
	}
	*m = Mode(v)
	return nil
}

// parseName finds s in names (indexed by value) and returns its index; the
// error names the type and the valid names.
func parseName(names []string, s, typ string) (int, error) {
	for i, n := range names {
		if n != "" && n == s {
			return i, nil
		}
	}
	var valid []string
	for _, n := range names {
		if n != "" {
			valid = append(valid, n)
		}
	}
	return 0, fmt.Errorf("apst: invalid %s %q: want one of %s", typ, s, strings.Join(valid, ", "))
}

// Mode reports the algorithm Build uses for p: the tolerance bands for
// Current when apst_primary_timeout_ms and apst_primary_latency_tol_us are
// both non-zero, the heuristic otherwise.
func (p Params) Mode() Mode {
	switch {
	case p.Generation == V4_11:
		return ModeHeuristicTotalGate
	case p.Generation == Current && p.PrimaryTimeout != 0 && p.PrimaryTolerance != 0:
		return ModeTolerance
	}
	return ModeHeuristic
}
