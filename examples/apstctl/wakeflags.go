package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/internal/safeio"
)

// wakeFlags are --exit-factor and --cpu-wake-us, which simulate and
// recommend share: how a measured wake differs from the advertised exit
// latency.
type wakeFlags struct {
	factor  *string
	cpuWake *string
}

func addWakeFlags(fs *flagSet) *wakeFlags {
	return &wakeFlags{
		factor:  fs.String("exit-factor", "FACTOR", "1", "measured/advertised factor scaling exit latencies: 0.78, 78% or 39/50, per state (0.78,ps4=0.81), or a FILE or named pipe holding one (what measure --factor-out writes, or measure's JSON); each above 0, at most 10000"),
		cpuWake: fs.String("cpu-wake-us", "US", "0", "CPU wake latency added to every wake, in us (or a duration: 150us)"),
	}
}

// maxCPUWake bounds --cpu-wake-us: the widest exit latency a drive can
// advertise (2^32-1 µs), far beyond any CPU's wake, so that sums of wakes
// stay far from overflowing.
const maxCPUWake apst.Microseconds = 1<<32 - 1

// options parses the flags into simulation options; ctx ends the read of
// a pipe named by --exit-factor FILE (^C).
func (wf *wakeFlags) options(ctx context.Context) (analysis.SimOptions, error) {
	factor, err := parseExitFactorContext(ctx, *wf.factor)
	if err != nil && ctx.Err() != nil {
		return analysis.SimOptions{}, err // interrupted: runCommand says so
	}
	if err != nil {
		return analysis.SimOptions{}, usagef("--exit-factor %s: %v", quoteArg(*wf.factor), err)
	}
	cpu, err := apst.ParseMicroseconds(*wf.cpuWake)
	if err != nil {
		return analysis.SimOptions{}, usagef("--cpu-wake-us %s: %v", quoteArg(*wf.cpuWake), err)
	}
	if cpu > maxCPUWake {
		return analysis.SimOptions{}, usagef("--cpu-wake-us %s: want 0 to %d (about 71 minutes)", quoteArg(*wf.cpuWake), uint64(maxCPUWake))
	}
	return analysis.SimOptions{ExitFactor: factor, CPUWake: cpu}, nil
}

// stall is the wake stall of a state with advertised exit latency exlat:
// exlat scaled by the factor plus the CPU wake, as simulate counts a wake's
// penalty.
func stall(opt analysis.SimOptions, exlat apst.Microseconds) apst.Microseconds {
	s := opt.ExitFactor.Default.Apply(exlat)
	if s > apst.NoLimit-opt.CPUWake {
		return apst.NoLimit
	}
	return s + opt.CPUWake
}

// exitLatencyLimit is the largest advertised exit latency whose stall is
// at most limit: the goal analysis.Recommend compares exit latencies with.
// stall is monotonic, so a binary search over the u64 range is exact. The
// caller checks stall(opt, 0) <= limit first.
func exitLatencyLimit(opt analysis.SimOptions, limit apst.Microseconds) apst.Microseconds {
	if opt.ExitFactor.IsOne() && opt.CPUWake == 0 || limit == apst.NoLimit {
		return limit
	}
	lo, hi := apst.Microseconds(0), apst.NoLimit // stall(lo) <= limit holds for lo = 0
	for lo < hi {
		mid := lo + (hi-lo)/2 + 1
		if stall(opt, mid) <= limit {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// maxFactorFile bounds what --exit-factor reads from a file: measure's JSON
// with every trial is the largest thing it is meant to be given.
const maxFactorFile = 16 << 20

// parseExitFactor reads --exit-factor: factors as analysis.ParseExitFactors
// reads them (one for every state, or per state, each above 0 and at most
// analysis.MaxExitFactor), or the path of a file holding them: what measure
// --factor-out writes (on a line of its own, "#" comments allowed) or
// measure's JSON output (its "exit_factor_by_state" key where it has one,
// else "exit_factor"). The file is a regular file, or a pipe or FIFO the
// user named (`--exit-factor <(ssh host cat nvme0.factor)`), read once a
// writer writes, ^C (the end of ctx) ending the wait; at most maxFactorFile
// bytes either way. A value that is both factors and a file name is the
// factors, and factors out of range are refused, not looked for as a file.
func parseExitFactor(s string) (analysis.ExitFactors, error) {
	return parseExitFactorContext(context.Background(), s)
}

// parseExitFactorContext is parseExitFactor whose read of a pipe the end
// of ctx interrupts.
func parseExitFactorContext(ctx context.Context, s string) (analysis.ExitFactors, error) {
	f, err := analysis.ParseExitFactors(s)
	if err == nil || errors.Is(err, analysis.ErrFactorRange) {
		return f, err
	}
	st, serr := os.Stat(s)
	if serr != nil {
		return analysis.ExitFactors{}, err
	}
	if st.IsDir() {
		return analysis.ExitFactors{}, fmt.Errorf("%s is a directory: want factors (0.78, 78%%, 39/50) or a file holding them (what measure --factor-out writes)", s)
	}
	b, rerr := safeio.ReadFile(s, maxFactorFile)
	if errors.Is(rerr, safeio.ErrNotRegular) && isNamedPipe(s) {
		b, rerr = readNamedPipeContext(ctx, s, maxFactorFile)
	}
	if errors.Is(rerr, safeio.ErrTooLarge) {
		return analysis.ExitFactors{}, fmt.Errorf("%s is larger than the limit of %d bytes (%d MiB): want what measure --factor-out writes, or measure's JSON", s, maxFactorFile, maxFactorFile>>20)
	}
	if rerr != nil {
		return analysis.ExitFactors{}, rerr
	}
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '{' {
		var doc struct {
			ExitFactor        *string `json:"exit_factor"`
			ExitFactorByState string  `json:"exit_factor_by_state"`
		}
		if jerr := json.Unmarshal(t, &doc); jerr != nil || doc.ExitFactor == nil {
			return analysis.ExitFactors{}, fmt.Errorf("%s: want measure's JSON with an \"exit_factor\" key", s)
		}
		text := *doc.ExitFactor
		if doc.ExitFactorByState != "" {
			text += "," + doc.ExitFactorByState
		}
		f, err := analysis.ParseExitFactors(text)
		if errors.Is(err, analysis.ErrFactorRange) { // its message names a factor, not the text
			return analysis.ExitFactors{}, fmt.Errorf("%s: its exit_factor or exit_factor_by_state: %w", s, err)
		}
		if err != nil { // the file's text is not quoted: it may be anything
			return analysis.ExitFactors{}, fmt.Errorf("%s: its exit_factor and exit_factor_by_state are not exit factors (want measure's JSON)", s)
		}
		return f, nil
	}
	for n, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f, err := analysis.ParseExitFactors(line)
		if errors.Is(err, analysis.ErrFactorRange) { // its message names a factor, not the line
			return analysis.ExitFactors{}, fmt.Errorf("%s: line %d: %w", s, n+1, err)
		}
		if err != nil { // the line is not quoted: the file may be anything
			return analysis.ExitFactors{}, fmt.Errorf("%s: line %d is not an exit factor (want what measure --factor-out writes: 0.78, or per state 0.78,ps4=0.81)", s, n+1)
		}
		return f, nil
	}
	return analysis.ExitFactors{}, fmt.Errorf("%s: holds no exit factor", s)
}
