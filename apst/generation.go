package apst

import (
	"fmt"
)

// Generation selects which kernel's nvme_configure_apst() Build replicates.
type Generation uint8

const (
	// Current is Linux v5.14 and later: the primary/secondary tolerance bands
	// (commit ebd8a93aa4f5), with the 2% heuristic as the fallback when
	// apst_primary_timeout_ms or apst_primary_latency_tol_us is 0. The exit
	// latency alone is gated by the bound. Default bound 100000 µs.
	Current Generation = iota
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

	numGenerations
)

var generationNames = [...]string{Current: "current", V4_12: "v4.12", V4_11: "v4.11"}

// Generations lists every generation Build models, newest first.
func Generations() []Generation { return []Generation{Current, V4_12, V4_11} }

// String returns the generation's stable name: "current", "v4.12" or "v4.11".
func (g Generation) String() string {
	if g < numGenerations {
		return generationNames[g]
	}
	return fmt.Sprintf("Generation(%d)", uint8(g))
}

// Valid reports whether g is one of the modelled generations.
func (g Generation) Valid() bool { return g < numGenerations }

// MarshalText implements encoding.TextMarshaler.
func (g Generation) MarshalText() ([]byte, error) {
	if !g.Valid() {
		return nil, fmt.Errorf("%w: %d", ErrUnknownGeneration, uint8(g))
	}
	return []byte(g.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler with ParseGeneration.
func (g *Generation) UnmarshalText(b []byte) error {
	v, err := ParseGeneration(string(b))
	if err != nil {
		return err
	}
	*g = v
	return nil
}

// ParseGeneration parses a generation name. Besides the names String returns
// it accepts "v5.14" (and "5.14") for Current, "4.12" and "4.11".
func ParseGeneration(s string) (Generation, error) {
	switch s {
	case "current", "v5.14", "5.14":
		return Current, nil
	case "v4.12", "4.12":
		return V4_12, nil
	case "v4.11", "4.11":
		return V4_11, nil
	}
	return 0, fmt.Errorf("%w %q: want current, v4.12 or v4.11", ErrUnknownGeneration, s)
}

// defaultBound is the generation's default_ps_max_latency_us.
func (g Generation) defaultBound() Microseconds {
	if g == V4_11 {
		return 25000
	}
	return 100000
}
