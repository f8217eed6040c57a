package analysis_test

import (
	"bytes"
	"flag"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/analysis/trace"
	"github.com/nvmeapst/nvmeapst/apst/analysis/trace/tracetest"
)

// replayBenchConfigs are four configurations: the default bound, 25 ms,
// v4.12 and the default with the 0.78 exit factor and a 150 µs CPU wake.
func replayBenchConfigs(b testing.TB) []analysis.ReplayConfig {
	scaled := replayConfig(b, "ps-max-latency-us=100000")
	scaled.ExitFactor, scaled.CPUWake = analysis.ExitFactors{Default: analysis.Factor{Num: 39, Den: 50}}, 150
	return []analysis.ReplayConfig{replayConfig(b, "ps-max-latency-us=100000"), replayConfig(b, "ps-max-latency-us=25000"), replayConfig(b, "kernel=v4.12"), scaled}
}

// BenchmarkReplay measures the engine alone: 10^6 events (an interactive
// reader, exponential gaps of mean 50 ms) added to a Replayer of 1 or 4
// configurations; an op is the whole pass, NewReplayer and Report included.
func BenchmarkReplay(b *testing.B) {
	c := replayController(b, replay990)
	var evs []trace.Event
	for cmd := range tracetest.Interactive(7, 500_000, 50*time.Millisecond, 100*time.Microsecond) {
		evs = append(evs, trace.Event{Time: cmd.Dispatch, Kind: trace.Dispatch, Device: "nvme0n1"}, trace.Event{Time: cmd.Completion, Kind: trace.Completion, Device: "nvme0n1"})
	}
	for _, n := range []int{1, 4} {
		cfgs := replayBenchConfigs(b)[:n]
		b.Run("configs="+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			var total int
			for b.Loop() {
				r, err := analysis.NewReplayer(c, cfgs...)
				if err != nil {
					b.Fatal(err)
				}
				for _, ev := range evs {
					if err := r.Add(ev); err != nil {
						b.Fatal(err)
					}
				}
				if r.Report().IdlePeriods == 0 {
					b.Fatal("no idle periods")
				}
				total += len(evs)
			}
			b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

// BenchmarkReplayTrace measures the whole pipeline, reading and replaying
// an in-memory trace of 10^6 events with 1 configuration.
func BenchmarkReplayTrace(b *testing.B) {
	c := replayController(b, replay990)
	cfgs := replayBenchConfigs(b)[:1]
	for _, f := range trace.Formats() {
		b.Run(f.String(), func(b *testing.B) {
			var buf bytes.Buffer
			require.NoError(b, tracetest.Render(&buf, f, tracetest.Interactive(7, 500_000, 50*time.Millisecond, 100*time.Microsecond), tracetest.Options{}))
			data := buf.Bytes()
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			var total uint64
			for b.Loop() {
				r, err := trace.NewReader(bytes.NewReader(data), trace.Options{})
				if err != nil {
					b.Fatal(err)
				}
				rep, err := analysis.Replay(c, r, cfgs...)
				if err != nil {
					b.Fatal(err)
				}
				total += rep.Events + rep.Completions
			}
			b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "events/s")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(total), "ns/event")
		})
	}
}

// peakRSS returns the process's peak resident set size (VmHWM) in KiB, or
// 0 where /proc/self/status does not exist.
func peakRSS() uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			n, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return n
		}
	}
	return 0
}

// replayTraceEvents is the size of TestReplayBoundedMemory's trace, in events:
// 10^6 by default (about 0.7 s), 10^7 as the docs quote it with
// -replay.events=10000000.
var replayTraceEvents = flag.Int("replay.events", 1_000_000, "events of TestReplayBoundedMemory's trace (even, at least 2*10^5)")

// A long trace (blkparse text rendered as it is read) replays with a heap
// that does not grow with the trace: the live heap, sampled every 10^5
// events, stays under 32 MiB, and the peak of the second half is within
// 4 MiB of the peak of the first. Skipped with -short and under the race
// detector (too slow there).
func TestReplayBoundedMemory(t *testing.T) {
	if testing.Short() || replayRaceEnabled {
		t.Skip("10^6 events: skipped with -short and -race")
	}
	require.True(t, *replayTraceEvents >= 200_000 && *replayTraceEvents%2 == 0, "-replay.events=%d: want an even number, at least 200000", *replayTraceEvents)
	c := replayController(t, replay990)
	commands := *replayTraceEvents / 2
	src := tracetest.NewReader(trace.FormatBlkparse, tracetest.Interactive(11, commands, 20*time.Millisecond, 100*time.Microsecond), tracetest.Options{})
	defer src.Close()
	r, err := trace.NewReader(src, trace.Options{})
	require.NoError(t, err)
	p, err := analysis.NewReplayer(c, replayBenchConfigs(t)...)
	require.NoError(t, err)
	runtime.GC()
	start := time.Now()
	var maxHeap, firstHalf uint64
	var ms runtime.MemStats
	n := 0
	for ev, err := range r.All() {
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Add(ev); err != nil {
			t.Fatal(err)
		}
		if n++; n%100_000 == 0 {
			runtime.ReadMemStats(&ms)
			maxHeap = max(maxHeap, ms.HeapInuse)
			if n <= commands {
				firstHalf = maxHeap
			}
		}
	}
	elapsed := time.Since(start)
	rep := p.Report()
	require.Equal(t, uint64(commands), rep.Events)
	require.Equal(t, 2*commands, n)
	require.Less(t, maxHeap, uint64(32<<20), "live heap")
	require.Less(t, maxHeap, firstHalf+4<<20, "the live heap grew in the second half of the trace")
	t.Logf("%d events (blkparse text rendered on the fly, 4 configurations): %v, %.2f M events/s, peak live heap %.1f MiB, peak RSS %.1f MiB",
		n, elapsed.Round(time.Millisecond), float64(n)/elapsed.Seconds()/1e6, float64(maxHeap)/(1<<20), float64(peakRSS())/1024)
}
