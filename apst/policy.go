package apst

import (
	"fmt"
	"strings"
)

// Policy is a named preset of parameters.
//
// The zero Policy is no preset: it has no name, and its Params are the zero
// Params, which Build rejects.
type Policy struct {
	// Name is the preset's stable name, e.g. "windows-balanced-dc".
	Name string
	// Description says what the preset is and where its values come from.
	Description string
	// Params are the preset's parameters, force_apst off and the quirks
	// those of the kernel's tables (QuirksGiven false), which
	// Params.Set("policy", ...) keeps as they were; quirks=none leaves
	// them out (a Windows scheme has no Linux quirks).
	Params Params
}

// windowsParams models a Windows scheme: tolerance mode with bound NoLimit.
// Timeouts are in ms, tolerances in ms as Windows states them.
func windowsParams(t1 Milliseconds, l1ms uint64, t2 Milliseconds, l2ms uint64) Params {
	return Params{
		Generation:         Current,
		Bound:              NoLimit,
		PrimaryTimeout:     t1,
		PrimaryTolerance:   Microseconds(l1ms * 1000),
		SecondaryTimeout:   t2,
		SecondaryTolerance: Microseconds(l2ms * 1000),
	}
}

// Policies lists the named presets, Linux first. The slice is a fresh copy.
//
// The Linux presets are the kernel's own defaults (kernel-apst.md §2 and §9).
//
// The Windows presets are StorNVMe's idle settings for each power scheme and
// power source, from Microsoft Learn, "Power management for storage hardware
// devices: NVMe" (see docs/spec/windows-policies.md), expressed as Linux
// tolerance-mode parameters with the bound NoLimit, because Windows has no
// exit-latency gate. With that bound the v5.14 tolerance bands select what
// Windows selects: after the primary idle timeout the deepest
// non-operational state whose ENLAT+EXLAT is within the primary tolerance,
// and after the secondary timeout in that state the deepest one within the
// secondary tolerance. Where Windows and the model part:
//
//   - Windows moves the drive itself (it does not program APST for these
//     schemes) and switches between the AC and DC values when the power
//     source changes; the model is a static APST table for one source.
//   - A Windows tolerance of 0 means no state qualifies, whereas Linux treats
//     apst_primary_latency_tol_us = 0 as "use the 2% heuristic". The
//     Performance AC preset (primary tolerance 0) is therefore modelled with
//     the bound 0, which turns APST off (APSTE=0) and keeps the drive in its
//     operational states as Windows does; its other parameters carry the
//     Windows values for reference, so overriding the bound alone would give
//     the heuristic, not Windows. A secondary tolerance of 0 (Performance)
//     needs no such care: Linux then has an empty secondary band too.
//   - When no state fits the primary tolerance but one fits the secondary,
//     Linux still uses it, entered from the operational state after the
//     secondary timeout; Windows counts the secondary timeout from entering
//     the primary state and may never go there.
//   - Linux's NO_APST and NO_DEEPEST_PS quirks have no Windows counterpart;
//     Params.Set("policy", ...) keeps the quirks it had, so a quirked
//     drive stays quirked under a Windows preset unless quirks=none follows.
//
// The presets, by name:
//
//   - linux-default: Linux v5.14 and later with its defaults:
//     default_ps_max_latency_us 100000, apst_primary_timeout_ms 100,
//     apst_primary_latency_tol_us 15000, apst_secondary_timeout_ms 2000,
//     apst_secondary_latency_tol_us 100000 (commit ebd8a93aa4f5). The kernel
//     comment calls them a compromise between Windows' AC and battery
//     values.
//   - linux-v4.12: Linux v4.12 to v5.13 with its defaults: the 2% heuristic
//     gated on EXLAT, bound 100000.
//   - linux-v4.11: Linux v4.11 with its defaults: the 2% heuristic gated on
//     ENLAT+EXLAT, bound 25000.
//   - linux-25ms: the proposal the project's seeds argue about: the current
//     algorithm with default_ps_max_latency_us lowered from 100000 to 25000
//     (the v4.11 value), to keep the worst wake stall of drives like the 990
//     EVO Plus (ps4 EXLAT 43000) out of reach.
//   - windows-balanced-ac: Balanced on AC: primary 200 ms / 15 ms, secondary
//     2000 ms / 100 ms.
//   - windows-balanced-dc: Balanced on battery: primary 100 ms / 50 ms,
//     secondary 1000 ms / 100 ms.
//   - windows-power-saver-ac: Power Saver on AC: primary 100 ms / 100 ms,
//     secondary 1000 ms / 200 ms.
//   - windows-power-saver-dc: Power Saver on battery: primary 100 ms / 200
//     ms, secondary 1000 ms / 200 ms (an empty secondary band: the primary
//     state is final).
//   - windows-performance-ac: Performance on AC: primary 200 ms / 0 ms,
//     secondary 2000 ms / 0 ms, i.e. no idle state at all; modelled with the
//     bound 0 (APST off).
//   - windows-performance-dc: Performance on battery: primary 200 ms / 10
//     ms, secondary 2000 ms / 0 ms (no secondary state).
//   - windows-modern-standby: the Modern Standby (S0 low power idle) row:
//     primary 50 ms / 500 ms, no secondary tier (secondary timeout 0).
func Policies() []Policy {
	linux25 := DefaultParams(Current)
	linux25.Bound = 25000
	perfAC := windowsParams(200, 0, 2000, 0)
	perfAC.Bound = 0 // a Windows tolerance of 0: no idle state (see the const block)
	const win = " (Microsoft Learn, Power management for storage hardware devices: NVMe; bound unlimited since Windows has no exit-latency gate)"
	return []Policy{
		{"linux-default", "Linux v5.14+ defaults: bound 100000us, primary 100ms/15000us, secondary 2000ms/100000us", DefaultParams(Current)},
		{"linux-v4.12", "Linux v4.12-v5.13 defaults: 2% heuristic gated on EXLAT, bound 100000us", DefaultParams(V4_12)},
		{"linux-v4.11", "Linux v4.11 defaults: 2% heuristic gated on ENLAT+EXLAT, bound 25000us", DefaultParams(V4_11)},
		{"linux-25ms", "proposed Linux default: v5.14+ algorithm with default_ps_max_latency_us 25000", linux25},
		{"windows-balanced-ac", "Windows StorNVMe Balanced, AC: primary 200ms/15ms, secondary 2000ms/100ms" + win, windowsParams(200, 15, 2000, 100)},
		{"windows-balanced-dc", "Windows StorNVMe Balanced, DC: primary 100ms/50ms, secondary 1000ms/100ms" + win, windowsParams(100, 50, 1000, 100)},
		{"windows-power-saver-ac", "Windows StorNVMe Power Saver, AC: primary 100ms/100ms, secondary 1000ms/200ms" + win, windowsParams(100, 100, 1000, 200)},
		{"windows-power-saver-dc", "Windows StorNVMe Power Saver, DC: primary 100ms/200ms, secondary 1000ms/200ms" + win, windowsParams(100, 200, 1000, 200)},
		{"windows-performance-ac", "Windows StorNVMe Performance, AC: tolerances 0, no idle state; modelled as bound 0 (APST off)", perfAC},
		{"windows-performance-dc", "Windows StorNVMe Performance, DC: primary 200ms/10ms, secondary 2000ms/0ms (none)" + win, windowsParams(200, 10, 2000, 0)},
		{"windows-modern-standby", "Windows Modern Standby (S0 low power idle): primary 50ms/500ms, no secondary" + win, windowsParams(50, 500, 0, 0)},
	}
}

// policyAlias maps other accepted spellings to the canonical names.
func policyAlias(key string) string {
	switch key {
	case "linux", "linux-current", "linux-v5.14", "current":
		return "linux-default"
	case "linux-4.12":
		return "linux-v4.12"
	case "linux-4.11":
		return "linux-v4.11"
	case "linux-25000":
		return "linux-25ms"
	case "windows-powersaver-ac":
		return "windows-power-saver-ac"
	case "windows-powersaver-dc":
		return "windows-power-saver-dc"
	}
	return key
}

// policyByName returns the parameters of the preset with the given name
// (case and underscores ignored; a few aliases such as "linux-current" are
// accepted). An unknown name is an error wrapping ErrInvalidConfig that
// lists the valid names.
func policyByName(name string) (Params, error) {
	key := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(name)), "_", "-")
	key = policyAlias(key)
	ps := Policies()
	names := make([]string, len(ps))
	for i, p := range ps {
		if p.Name == key {
			return p.Params, nil
		}
		names[i] = p.Name
	}
	return Params{}, fmt.Errorf("%w: unknown policy %q: want one of %s", ErrInvalidConfig, name, strings.Join(names, ", "))
}
