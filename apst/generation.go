package apst

import (
	"fmt"
)

// Generation selects which kernel's nvme_configure_apst() Build replicates.
//
// The zero value is no generation: [Build] rejects it (use [DefaultParams]
// or [Params.Set] with the key "kernel"), so a zero [Params] never passes
// for a kernel.
type Generation uint8

const (
	// Current is Linux v5.14 and later: the primary/secondary tolerance bands
	// (commit ebd8a93aa4f5), with the 2% heuristic as the fallback when
	// apst_primary_timeout_ms or apst_primary_latency_tol_us is 0. The exit
	// latency alone is gated by the bound. Default bound 100000 µs.
	Current Generation = iota + 1
	// V4_12 is Linux v4.12 to v5.13: every usable non-operational state gets
	// the 2% heuristic idle time, ceil((ENLAT+EXLAT)/20) ms capped at 2^24-1,
	// gated on the exit latency alone; force_apst exists; default bound
	// 100000 µs. NO_APST is modelled as v4.13 to v5.13 handled it (after the
	// apst_enabled split): Set Features with APSTE=0 and a zero table. The
	// v4.12 release itself sent nothing for a NO_APST device.
	V4_12
	// V4_11 is Linux v4.11 as released: the 2% heuristic gated on
	// ENLAT+EXLAT, default bound 25000 µs, no force_apst (Params.ForceAPST is
	// ignored), and NO_APST implemented by treating APSTA as 0, so nothing is
	// sent. v4.11 logged no debug line.
	V4_11

	endGenerations
)

var generationNames = [...]string{Current: "current", V4_12: "v4.12", V4_11: "v4.11"}

// Generations lists every generation Build models, newest first.
func Generations() []Generation { return []Generation{Current, V4_12, V4_11} }

// String returns the generation's stable name: "current", "v4.12" or
// "v4.11"; "unset" for the zero value.
//
// Not inlined: 1.7 KB of the page's wasm in copies.
//
//go:noinline
func (g Generation) String() string {
	switch {
	case g == 0:
		return "unset"
	case g < endGenerations:
		return generationNames[g]
	}
	return fmt.Sprintf("Generation(%d)", uint8(g))
}

// Valid reports whether g is one of the modelled generations (the zero
// value is not).
func (g Generation) Valid() bool { return g > 0 && g < endGenerations }

// check returns nil for a valid generation and otherwise an error wrapping
// ErrUnknownGeneration that names the constructor to use.
func (g Generation) check() error {
	if g == 0 {
		return fmt.Errorf("%w: the generation is unset (a zero Params): start from apst.DefaultParams", ErrUnknownGeneration)
	}
	if !g.Valid() {
		return fmt.Errorf("%w: %d: want apst.Current, apst.V4_12 or apst.V4_11", ErrUnknownGeneration, uint8(g))
	}
	return nil
}

// MarshalText implements encoding.TextMarshaler; an invalid generation
// (the zero value included) is an error wrapping ErrUnknownGeneration.
func (g Generation) MarshalText() ([]byte, error) {
	if err := g.check(); err != nil {
		return nil, err
	}
	return []byte(g.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler: a generation name
// ("current", "v4.12", "v4.11") or a kernel release (ParseRelease), which
// gives the generation that release runs; a release before v4.11 is
// refused. Errors wrap ErrUnknownGeneration.
func (g *Generation) UnmarshalText(b []byte) error {
	v, err := parseGeneration(string(b))
	if err != nil {
		return err
	}
	*g = v
	return nil
}

// parseGeneration parses what UnmarshalText accepts.
func parseGeneration(s string) (Generation, error) {
	switch s {
	case "current":
		return Current, nil
	case "v4.12":
		return V4_12, nil
	case "v4.11":
		return V4_11, nil
	}
	r, err := ParseRelease(s)
	if err != nil {
		return 0, fmt.Errorf("%w %q: want current, v4.12, v4.11 or a kernel release such as 6.8", ErrUnknownGeneration, s)
	}
	return r.Generation()
}

// DefaultBound returns the generation's default_ps_max_latency_us: 25000 µs
// for V4_11, 100000 µs for the others, 0 for an invalid
// generation.
func (g Generation) DefaultBound() Microseconds {
	switch {
	case g == V4_11:
		return 25000
	case g.Valid():
		return defaultBound
	}
	return 0
}
