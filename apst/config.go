package apst

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// configKeys lists the keys Params.Set accepts: the apstctl plan flags
// without their dashes.
func configKeys() []string {
	return []string{
		"kernel", "generation", "ps-max-latency-us", "pm-qos", "default-ps-max-latency-us",
		"apst-primary-timeout-ms", "apst-secondary-timeout-ms",
		"apst-primary-latency-tol-us", "apst-secondary-latency-tol-us",
		"quirks", "force-apst", "policy",
	}
}

// Set sets one parameter by its apstctl flag name (without dashes). The
// keys are:
//
//   - kernel: a generation name ("current", "v4.12", "v4.11"), which sets
//     the Generation and makes the Release unknown, or a kernel release
//     ([ParseRelease]: "6.8", "v7.1", "5.15.0-91-generic"), which sets the
//     Release and the Generation that release runs; a release before v4.11
//     is refused (no APST). It also resets the bound to the generation's
//     default when the bound was the old generation's default;
//   - generation: the generation alone (a name or a release's generation),
//     keeping the Release; String writes it only when it differs from the
//     release's own;
//   - ps-max-latency-us: the bound as is, a decimal or 0x u64
//     ("unlimited" = NoLimit);
//   - pm-qos: a pm_qos_latency_tolerance_us string mapped as the kernel does
//     (ParseTolerance, then Tolerance.Bound);
//   - default-ps-max-latency-us: the module parameter at probe time, mapped
//     as the driver does (it requests min(v, S32_MAX) from PM QoS, so 0
//     disables APST and 2147483647 or more means NoLimit);
//   - apst-primary-timeout-ms, apst-secondary-timeout-ms,
//     apst-primary-latency-tol-us, apst-secondary-latency-tol-us: u64;
//   - quirks: a ParseQuirks list, the controller's whole quirk set
//     (QuirksGiven: "none" leaves the quirks out); "tables" first
//     ("quirks=tables" or "quirks=tables,no-apst") keeps the lookup of the
//     release's quirk tables and adds the bits listed after it;
//   - force-apst: a boolean (1/0, true/false, y/n; empty = true);
//   - policy: a named preset ([Policies]) replacing every parameter but
//     the quirks and force_apst (the Release becomes unknown).
//
// On error p is unchanged. Every error wraps ErrInvalidConfig, and the
// sentinel of its cause as well: ErrUnknownGeneration for a kernel or
// generation value, ErrInvalidTolerance for a pm-qos value.
func (p *Params) Set(key, value string) error {
	bad := func(err error) error { return &keyError{key, value, err} }
	switch key {
	case "kernel", "generation":
		g, r, err := parseKernel(value)
		if err != nil {
			return bad(err)
		}
		if p.Bound == p.Generation.DefaultBound() {
			p.Bound = g.DefaultBound()
		}
		p.Generation = g
		if key == "kernel" {
			p.Release = r
		}
	case "ps-max-latency-us":
		b, err := ParseBound(value)
		if err != nil {
			return bad(err)
		}
		p.Bound = b
	case "pm-qos":
		t, err := ParseTolerance(value)
		if err != nil {
			return bad(err)
		}
		p.Bound = t.Bound()
	case "default-ps-max-latency-us":
		v, err := parseU64(value)
		if err != nil {
			return bad(fmt.Errorf("%w: want an unsigned 64-bit integer", ErrInvalidConfig))
		}
		p.Bound = ModuleDefaultBound(v)
	case "apst-primary-timeout-ms", "apst-secondary-timeout-ms",
		"apst-primary-latency-tol-us", "apst-secondary-latency-tol-us":
		v, err := parseU64(value)
		if err != nil {
			return bad(fmt.Errorf("%w: want an unsigned 64-bit integer", ErrInvalidConfig))
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
		list, tables := strings.CutPrefix(strings.TrimSpace(value), "tables")
		if tables {
			list = strings.TrimPrefix(list, ",")
			if list == "" {
				list = "none"
			}
		}
		q, err := ParseQuirks(list)
		if err != nil {
			return bad(err)
		}
		p.Quirks, p.QuirksGiven = q, !tables
	case "policy":
		pp, err := policyByName(value)
		if err != nil {
			return bad(err)
		}
		pp.Quirks, pp.QuirksGiven, pp.ForceAPST = p.Quirks, p.QuirksGiven, p.ForceAPST
		*p = pp
	case "force-apst":
		b, err := parseBool(value)
		if err != nil {
			return bad(err)
		}
		p.ForceAPST = b
	default:
		return fmt.Errorf("%w: unknown key %q: want one of %s", ErrInvalidConfig, key, strings.Join(configKeys(), ", "))
	}
	return nil
}

// keyError is an error of Params.Set: the item, then the cause without
// its repeated package prefix.
type keyError struct {
	key, value string
	err        error
}

func (e *keyError) Error() string {
	return "apst: " + e.key + "=" + strconv.Quote(e.value) + ": " + strings.TrimPrefix(e.err.Error(), "apst: ")
}

func (e *keyError) Unwrap() error { return e.err }

// Is makes every error of Set, and so of ParseConfig, match
// ErrInvalidConfig, beside the sentinel of its cause (ErrUnknownGeneration
// of a kernel key, ErrInvalidTolerance of pm-qos).
func (e *keyError) Is(target error) bool { return target == ErrInvalidConfig }

// parseKernel reads the value of the kernel key: a generation name (release
// unknown) or a release and its generation.
func parseKernel(s string) (Generation, Release, error) {
	switch s {
	case "current", "v4.12", "v4.11":
		g, err := parseGeneration(s)
		return g, Release{}, err
	}
	r, err := ParseRelease(s)
	if err == nil && !typedRelease(s) {
		err = ErrInvalidConfig
	}
	if err != nil {
		return 0, Release{}, fmt.Errorf("%w %q: want current, v4.12, v4.11 or a kernel release such as 6.8 or 5.15.0-91-generic", ErrUnknownGeneration, s)
	}
	g, err := r.Generation()
	return g, r, err
}

// typedRelease reports whether a release given as a parameter has the
// shape of a uname -r: ParseRelease ignores what follows X.Y.Z, which in
// uname -r starts with "-" (Debian's 5.10.0-28-amd64, an -rc), "+" (a
// tree with local changes) or "_" / "~"; "6.8zzz" or "6.8 banana" is a
// typo, not a release. The forms that carry a stable base in words
// (parentheses, Debian's uname -v, Ubuntu's version_signature) are
// ParseRelease's own.
func typedRelease(s string) bool {
	t := strings.TrimSpace(s)
	if strings.HasPrefix(t, "Ubuntu ") || strings.HasPrefix(t, "#") || strings.HasSuffix(t, ")") {
		return true
	}
	t = strings.TrimPrefix(t, "v")
	rest := strings.TrimLeft(t, "0123456789.")
	return rest == "" || strings.ContainsRune("-+_~", rune(rest[0])) && !strings.ContainsAny(rest, " \t\r\n")
}

func parseBool(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "1", "y", "yes", "true", "on":
		return true, nil
	case "0", "n", "no", "false", "off":
		return false, nil
	}
	return false, fmt.Errorf("%w: boolean %q: want 1 or 0, true or false, y or n, on or off", ErrInvalidConfig, s)
}

// ParseConfig applies a comma-separated list of key=value pairs (the apstctl
// plan flags without dashes, e.g. "kernel=v4.12,ps-max-latency-us=25000") to
// base and returns the result; [Params.String] writes this form. A policy
// key is applied first, a kernel key next and a generation key after it, so
// that none overrides an explicit parameter. A bare key ("force-apst") means
// key=true, except after quirks=, whose comma list continues
// ("quirks=no-apst,no-deepest-ps"). A key given twice, or two of the keys
// that set the bound (ps-max-latency-us, pm-qos, default-ps-max-latency-us),
// is refused. On error base is returned unchanged with an error naming the
// item, wrapping ErrInvalidConfig.
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
		if _, err := ParseQuirks(k); (err == nil || k == "tables") && !hasValue && len(pairs) > 0 && pairs[len(pairs)-1][0] == "quirks" {
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
		case "kernel":
			return 1
		case "generation":
			return 2
		}
		return 3
	}
	if n := len(slices.DeleteFunc(slices.Clone(pairs), func(kv [2]string) bool { return kv[0] != "policy" })); n > 1 {
		return base, fmt.Errorf("%w: config %q: %d policy items, want at most one", ErrInvalidConfig, s, n)
	}
	// A key given twice would be decided by its last value, and two keys
	// that each set the bound by the order they are applied in: the
	// flags refuse both, so does the list.
	var bound string
	for i, kv := range pairs {
		for _, prev := range pairs[:i] {
			if prev[0] == kv[0] {
				return base, fmt.Errorf("%w: config %q: %s given twice; give it once", ErrInvalidConfig, s, kv[0])
			}
		}
		switch kv[0] {
		case "ps-max-latency-us", "pm-qos", "default-ps-max-latency-us":
			if bound != "" {
				return base, fmt.Errorf("%w: config %q: %s and %s contradict each other: each sets the bound; give one", ErrInvalidConfig, s, bound, kv[0])
			}
			bound = kv[0]
		}
	}
	// sort.SliceStable, not slices.SortStableFunc: the one reflective sort
	// every element type shares (the page's wasm pays some 9 KB for each
	// generic instantiation).
	sort.SliceStable(pairs, func(i, j int) bool { return rank(pairs[i][0]) < rank(pairs[j][0]) })
	for _, kv := range pairs {
		if err := p.Set(kv[0], kv[1]); err != nil {
			return base, err
		}
	}
	return p, nil
}
