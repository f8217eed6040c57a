package apst_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// goldenCase is one case of testdata/golden: NAME.in, NAME.out, NAME.dmesg
// (format in testdata/golden/README.md).
type goldenCase struct {
	ctrl   powerstate.Controller
	params apst.Params
}

func parseGoldenNumber(s string) (uint64, error) {
	switch s {
	case "max", "inf", "u64max":
		return 1<<64 - 1, nil
	}
	if h, ok := strings.CutPrefix(s, "0x"); ok {
		return strconv.ParseUint(h, 16, 64)
	}
	return strconv.ParseUint(s, 10, 64)
}

func parseGoldenIn(path string) (goldenCase, error) {
	f, err := os.Open(path)
	if err != nil {
		return goldenCase{}, err
	}
	defer f.Close()
	gc := goldenCase{params: apst.DefaultParams(apst.Current)}
	gc.ctrl.APSTA = 1
	p := &gc.params
	apstEnabled := true
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		text, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(text)
		if len(fields) == 0 {
			continue
		}
		bad := func(err error) error { return fmt.Errorf("%s:%d: %w", path, line, err) }
		switch fields[0] {
		case "params":
			for _, kv := range fields[1:] {
				k, v, _ := strings.Cut(kv, "=")
				if k == "pmqos" {
					if t, err := apst.ParseTolerance(v); err == nil {
						p.Bound = t.Bound()
					}
					continue
				}
				n, err := parseGoldenNumber(v)
				if err != nil {
					return gc, bad(err)
				}
				switch k {
				case "max_lat_us", "ps_max_latency_us":
					p.Bound = apst.Microseconds(n)
				case "default_ps":
					p.Bound = apst.ModuleDefaultBound(n)
				case "primary_timeout_ms":
					p.PrimaryTimeout = apst.Milliseconds(n)
				case "secondary_timeout_ms":
					p.SecondaryTimeout = apst.Milliseconds(n)
				case "primary_tol_us":
					p.PrimaryTolerance = apst.Microseconds(n)
				case "secondary_tol_us":
					p.SecondaryTolerance = apst.Microseconds(n)
				case "legacy":
					p.Generation = []apst.Generation{apst.Current, apst.V4_12, apst.V4_11}[n]
				case "no_deepest_ps":
					setQuirk(p, apst.QuirkNoDeepestPS, n != 0)
				case "no_apst":
					setQuirk(p, apst.QuirkNoAPST, n != 0)
				case "force_apst":
					p.ForceAPST = n != 0
				case "apst_enabled":
					apstEnabled = n != 0
				case "apsta":
					gc.ctrl.APSTA = uint8(n)
				default:
					return gc, bad(fmt.Errorf("unknown key %q", k))
				}
			}
		case "npss":
			n, err := strconv.ParseUint(fields[1], 10, 8)
			if err != nil {
				return gc, bad(err)
			}
			gc.ctrl.NPSS = uint8(n)
		case "ps":
			i, err := strconv.Atoi(fields[1])
			if err != nil || i < 0 || i > 31 {
				return gc, bad(fmt.Errorf("bad state %q", fields[1]))
			}
			d := &gc.ctrl.PowerStates[i]
			for _, kv := range fields[2:] {
				k, v, _ := strings.Cut(kv, "=")
				n, err := parseGoldenNumber(v)
				if err != nil {
					return gc, bad(err)
				}
				switch k {
				case "nops":
					d.NonOperational = n != 0
				case "flags":
					d.NonOperational = n&2 != 0
					d.MaxPower = powerstate.MaxPowerOf(0, n&1 != 0)
				case "enlat":
					d.EntryLatency = powerstate.Microseconds(n)
				case "exlat":
					d.ExitLatency = powerstate.Microseconds(n)
				default:
					return gc, bad(fmt.Errorf("unknown ps key %q", k))
				}
			}
		default:
			return gc, bad(fmt.Errorf("unknown directive %q", fields[0]))
		}
	}
	if !apstEnabled {
		// apst_enabled=0 is the state a NO_APST quirk without force_apst leaves.
		p.Quirks |= apst.QuirkNoAPST
		p.ForceAPST = false
	}
	return gc, sc.Err()
}

func setQuirk(p *apst.Params, q apst.Quirks, on bool) {
	if on {
		p.Quirks |= q
	} else {
		p.Quirks &^= q
	}
}

// formatGoldenOut renders a plan in the NAME.out format.
func formatGoldenOut(plan *apst.Plan) string {
	if !plan.Sent {
		return "skip\n"
	}
	var b strings.Builder
	apste := 0
	if plan.Enabled {
		apste = 1
	}
	fmt.Fprintf(&b, "apste=%d\nmax_ps=%d\nmax_lat_us=%d\n", apste, plan.MaxPS, uint64(plan.MaxRoundTrip))
	for _, e := range plan.Table {
		fmt.Fprintf(&b, "%016x\n", uint64(e))
	}
	return b.String()
}

func goldenInputs(t *testing.T) []string {
	t.Helper()
	ins, err := filepath.Glob("testdata/golden/*.in")
	require.NoError(t, err)
	require.Len(t, ins, 56, "the golden set has 56 cases")
	return ins
}

func TestGolden(t *testing.T) {
	ins := goldenInputs(t)
	for _, in := range ins {
		name := strings.TrimSuffix(filepath.Base(in), ".in")
		t.Run(name, func(t *testing.T) {
			gc, err := parseGoldenIn(in)
			require.NoError(t, err)
			wantOut, err := os.ReadFile(strings.TrimSuffix(in, ".in") + ".out")
			require.NoError(t, err)
			wantLog, err := os.ReadFile(strings.TrimSuffix(in, ".in") + ".dmesg")
			require.NoError(t, err)

			plan, err := apst.Build(&gc.ctrl, gc.params)
			require.NoError(t, err)
			require.Equal(t, string(wantOut), formatGoldenOut(&plan), "table")
			require.Equal(t, strings.TrimSuffix(string(wantLog), "\n"), plan.KernelLog(), "kernel log line")
		})
	}
}
