package apst

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// ErrUnknownKey is returned for a configuration key that Params.Set does not know.
var ErrUnknownKey = errors.New("apst: unknown configuration key")

// ConfigKeys lists the keys Params.Set accepts: the apstctl plan flags
// without their dashes.
func ConfigKeys() []string {
	return []string{
		"kernel", "ps-max-latency-us", "pm-qos", "default-ps-max-latency-us",
		"apst-primary-timeout-ms", "apst-secondary-timeout-ms",
		"apst-primary-latency-tol-us", "apst-secondary-latency-tol-us",
		"quirks", "force-apst", "policy",
	}
}

// Set sets one parameter by its apstctl flag name (without dashes):
//
//   - kernel: the generation (ParseGeneration); it also resets the bound to
//     the generation's default, so give it before an explicit bound;
//   - ps-max-latency-us: the bound as is (ParseBound; "unlimited" = NoLimit);
//   - pm-qos: a pm_qos_latency_tolerance_us string mapped as the kernel does
//     (ToleranceBound);
//   - default-ps-max-latency-us: the module parameter at probe time
//     (ModuleDefaultBound);
//   - apst-primary-timeout-ms, apst-secondary-timeout-ms,
//     apst-primary-latency-tol-us, apst-secondary-latency-tol-us: u64;
//   - quirks: a ParseQuirks list, replacing the APST quirks;
//   - force-apst: a boolean (1/0, true/false, y/n; empty = true);
//   - policy: a named preset (PolicyByName) replacing every parameter but
//     the quirks and force_apst.
//
// On error p is unchanged.
func (p *Params) Set(key, value string) error {
	bad := func(err error) error {
		return fmt.Errorf("apst: %s=%q: %w", key, value, err)
	}
	switch key {
	case "kernel", "generation":
		g, err := ParseGeneration(value)
		if err != nil {
			return err
		}
		if p.Bound == p.Generation.defaultBound() {
			p.Bound = g.defaultBound()
		}
		p.Generation = g
	case "ps-max-latency-us":
		b, err := ParseBound(value)
		if err != nil {
			return err
		}
		p.Bound = b
	case "pm-qos":
		b, err := ToleranceBound(value)
		if err != nil {
			return err
		}
		p.Bound = b
	case "default-ps-max-latency-us":
		v, err := parseU64(value)
		if err != nil {
			return bad(ErrInvalidBound)
		}
		p.Bound = ModuleDefaultBound(v)
	case "apst-primary-timeout-ms", "apst-secondary-timeout-ms",
		"apst-primary-latency-tol-us", "apst-secondary-latency-tol-us":
		v, err := parseU64(value)
		if err != nil {
			return bad(fmt.Errorf("%w: want an unsigned 64-bit integer", ErrInvalidBound))
		}
		switch key {
		case "apst-primary-timeout-ms":
			p.PrimaryTimeout = Milliseconds(v)
		case "apst-secondary-timeout-ms":
			p.SecondaryTimeout = Milliseconds(v)
		case "apst-primary-latency-tol-us":
			p.PrimaryTolerance = Microseconds(v)
		default:
			p.SecondaryTolerance = Microseconds(v)
		}
	case "quirks":
		q, err := ParseQuirks(value)
		if err != nil {
			return err
		}
		p.Quirks = p.Quirks&^QuirksAPST | q
	case "policy":
		pp, err := PolicyByName(value)
		if err != nil {
			return err
		}
		pp.Quirks, pp.ForceAPST = p.Quirks, p.ForceAPST
		*p = pp
	case "force-apst":
		b, err := parseBool(value)
		if err != nil {
			return bad(err)
		}
		p.ForceAPST = b
	default:
		return fmt.Errorf("%w %q: want one of %s", ErrUnknownKey, key, strings.Join(ConfigKeys(), ", "))
	}
	return nil
}

func parseBool(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "1", "y", "yes", "true", "on":
		return true, nil
	case "0", "n", "no", "false", "off":
		return false, nil
	}
	_, err := strconv.ParseBool(s)
	return false, err
}

// ParseConfig applies a comma-separated list of key=value pairs (the apstctl
// plan flags without dashes, e.g. "kernel=v4.12,ps-max-latency-us=25000") to
// base and returns the result. A policy key is applied first and a kernel
// key next, so that neither overrides an explicit parameter. A bare key
// ("force-apst") means key=true, except after quirks=, whose comma list
// continues ("quirks=no-apst,no-deepest-ps").
func ParseConfig(s string, base Params) (Params, error) {
	p := base
	var pairs [][2]string
	for _, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		k, v, hasValue := strings.Cut(item, "=")
		k = strings.TrimLeft(strings.TrimSpace(k), "-")
		if _, err := ParseQuirks(k); err == nil && !hasValue && len(pairs) > 0 && pairs[len(pairs)-1][0] == "quirks" {
			// "quirks=no-apst,no-deepest-ps": the list continues.
			pairs[len(pairs)-1][1] += "," + k
			continue
		}
		pairs = append(pairs, [2]string{k, v})
	}
	rank := func(k string) int {
		switch k {
		case "policy":
			return 0
		case "kernel", "generation":
			return 1
		}
		return 2
	}
	if n := len(slices.DeleteFunc(slices.Clone(pairs), func(kv [2]string) bool { return kv[0] != "policy" })); n > 1 {
		return base, fmt.Errorf("apst: %q: %d policy items, want at most one", s, n)
	}
	slices.SortStableFunc(pairs, func(a, b [2]string) int { return rank(a[0]) - rank(b[0]) })
	for _, kv := range pairs {
		if err := p.Set(kv[0], kv[1]); err != nil {
			return base, err
		}
	}
	return p, nil
}
