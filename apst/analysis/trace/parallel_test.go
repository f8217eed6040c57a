package trace_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst/analysis/trace"
	"github.com/nvmeapst/nvmeapst/apst/analysis/trace/tracetest"
)

// outcome is everything a Reader gives for a trace: its events, its final
// error (io.EOF at the end), and its state after that error.
type outcome struct {
	Events []trace.Event
	Err    string
	Line   int
	Device string
	Format trace.Format
}

// readOutcome reads src to its end with opt (with workers, in blocks of
// block bytes).
func readOutcome(t require.TestingT, src io.Reader, opt trace.Options, block int) outcome {
	r, err := trace.NewReaderBlocks(src, opt, block)
	if err != nil {
		return outcome{Err: err.Error()}
	}
	defer r.Close()
	var o outcome
	for {
		ev, err := r.Next()
		if err != nil {
			o.Err = err.Error()
			if err != io.EOF {
				var se *trace.SyntaxError
				var de *trace.DeviceError
				if !errors.As(err, &se) && !errors.As(err, &de) && !strings.HasPrefix(err.Error(), "trace: reading line ") {
					t.Errorf("untyped error %v", err)
					t.FailNow()
				}
			}
			_, again := r.Next()
			require.Equal(t, err, again, "the error is final")
			break
		}
		o.Events = append(o.Events, ev)
	}
	o.Line, o.Device, o.Format = r.Line(), r.Device(), r.Format()
	return o
}

// genBlkparse draws a blkparse trace: event lines of several devices and
// actions, in order or shuffled within or beyond the reorder window, with
// malformed, blank, long and CRLF lines, and the summary blkparse prints
// at the end.
func genBlkparse(t *rapid.T) string {
	devs := []string{"259,0", "8,0", "8,16", "0259,0", "259,00"}
	ndev := rapid.IntRange(1, len(devs)).Draw(t, "devices")
	n := rapid.IntRange(0, 60).Draw(t, "lines")
	var b strings.Builder
	var at int64
	for seq := 1; seq <= n; seq++ {
		at += rapid.Int64Range(0, 3).Draw(t, "dt") * 1000
		tm := at - rapid.Int64Range(0, 4).Draw(t, "late")*1000*int64(rapid.IntRange(0, 1).Draw(t, "shuffle"))
		tm = max(tm, 0)
		sep := rapid.SampledFrom([]string{" ", "  ", "\t", " \t "}).Draw(t, "sep")
		dev := devs[rapid.IntRange(0, ndev-1).Draw(t, "dev")]
		act := rapid.SampledFrom([]string{"D", "C", "D", "C", "Q", "G", "M", "m"}).Draw(t, "act")
		// RWBS right-aligned as blkparse writes it ("%3s"), so that the
		// sector stays in place; sectors of any length.
		rwbs := fmt.Sprintf("%3s", rapid.SampledFrom([]string{"R", "WS", "RA", "FWS", "N"}).Draw(t, "rwbs"))
		sector := fmt.Sprint(rapid.SampledFrom([]uint64{2048, 8, 1953525168, 123456789012345678}).Draw(t, "sector") + uint64(8*seq))
		sector = strings.Repeat(" ", rapid.SampledFrom([]int{0, 0, 0, 1, 2}).Draw(t, "sector shift")) + sector
		rwbs = rapid.SampledFrom([]string{rwbs, rwbs, strings.TrimSpace(rwbs)}).Draw(t, "rwbs align")
		line := strings.Join([]string{dev, "1", fmt.Sprint(seq), fmt.Sprintf("%d.%09d", tm/1e9, tm%1e9), "4242", act, rwbs, sector, "+", "8", "[fio]"}, sep)
		switch rapid.IntRange(0, 30).Draw(t, "shape") {
		case 0:
			line = "" // blank
		case 1:
			line = "  \t "
		case 2:
			fields := strings.Fields(line)
			k := rapid.IntRange(0, len(fields)-1).Draw(t, "bad field")
			fields[k] = rapid.SampledFrom([]string{"x", "-1", "1.2.3", "99999999999999999999", "", "D1"}).Draw(t, "bad")
			line = strings.Join(fields, " ")
		case 3:
			line += strings.Repeat("x", rapid.IntRange(0, 200).Draw(t, "long"))
		case 4:
			line = strings.Join(strings.Fields(line)[:rapid.IntRange(1, 7).Draw(t, "cut")], " ")
		case 5:
			line = rapid.SampledFrom([]string{"CPU0 (259,0):", "Total (259,0):", "Throughput (R/W): 0KiB/s / 0KiB/s", "Events (259,0): 6 entries", "Skips: 0 forward (0 -   0.0%)"}).Draw(t, "summary")
		case 6:
			line = fmt.Sprintf("%s 1 %d %d.%09d 4242 D R 18446744073709551615 + 8", dev, seq, tm/1e9, tm%1e9) // no ID
		case 7:
			line = fmt.Sprintf("%s 1 %d 12.5 4242 D", dev, seq) // a time of another shape
		}
		b.WriteString(line)
		if rapid.IntRange(0, 9).Draw(t, "crlf") == 0 {
			b.WriteString("\r")
		}
		if seq < n || rapid.Bool().Draw(t, "final newline") {
			b.WriteString("\n")
		}
	}
	return b.String()
}

// The parallel path gives exactly the events, the final error (its line
// included) and the state the sequential Reader gives, whatever the block
// size, the workers and the options.
func TestPropertyParallelIsSequential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		text := genBlkparse(t)
		opt := trace.Options{
			Format:        rapid.SampledFrom([]trace.Format{trace.FormatAuto, trace.FormatBlkparse}).Draw(t, "format"),
			Device:        rapid.SampledFrom([]string{"", "259,0", "8,0", "9,9"}).Draw(t, "device"),
			MaxLineLength: rapid.SampledFrom([]int{0, 16, 40, 64, 100}).Draw(t, "max line"),
			ReorderWindow: rapid.IntRange(1, 12).Draw(t, "window"),
		}
		want := readOutcome(t, strings.NewReader(text), opt, 0)
		opt.Workers = rapid.IntRange(1, 4).Draw(t, "workers")
		block := rapid.IntRange(1, 300).Draw(t, "block")
		var src io.Reader = strings.NewReader(text)
		switch rapid.IntRange(0, 2).Draw(t, "reads") {
		case 1:
			src = iotest.OneByteReader(src)
		case 2:
			src = iotest.HalfReader(src)
		}
		got := readOutcome(t, src, opt, block)
		require.Equal(t, want, got)
	})
}

// A read error ends the parallel path as it ends the sequential Reader,
// naming the same line.
func TestParallelReadError(t *testing.T) {
	text := "259,0 1 1 0.000000000 1 D R 8 + 8\n259,0 1 2 0.000001000 1 C R 8 + 8\n259,0 1 3 0.0000"
	boom := errors.New("boom")
	for _, block := range []int{1, 7, 64, 4096} {
		src := func() io.Reader { return io.MultiReader(strings.NewReader(text), iotest.ErrReader(boom)) }
		want := readOutcome(t, src(), trace.Options{}, 0)
		got := readOutcome(t, src(), trace.Options{Workers: 2}, block)
		require.Equal(t, want, got, "block %d", block)
		require.Equal(t, "trace: reading line 3: boom", got.Err)
	}
}

// Workers is bounded.
func TestParallelOptions(t *testing.T) {
	for _, w := range []int{-1, trace.MaxWorkers + 1} {
		_, err := trace.NewReader(strings.NewReader("1.0\n"), trace.Options{Workers: w})
		require.ErrorIs(t, err, trace.ErrOptions, "Workers %d", w)
	}
	r, err := trace.NewReader(strings.NewReader("1.0\n"), trace.Options{Workers: trace.MaxWorkers})
	require.NoError(t, err)
	require.NoError(t, r.Close())
	_, err = r.Next()
	require.ErrorIs(t, err, trace.ErrClosed)
	require.NoError(t, r.Close(), "Close twice")
}

// waitGoroutines waits until at most n goroutines run (those of other
// tests end in their own time): the parallel path leaves none behind.
func waitGoroutines(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > n {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines, want %d:\n%s", runtime.NumGoroutine(), n, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(time.Millisecond)
	}
}

// The goroutines of the parallel path end at the end of the trace, at an
// error, and on Close, read or not, even with a Read blocked in a pipe.
func TestParallelGoroutinesEnd(t *testing.T) {
	var big bytes.Buffer
	require.NoError(t, tracetest.Render(&big, trace.FormatBlkparse, tracetest.Interactive(1, 50000, 1e6, 1e5), tracetest.Options{}))
	var base int // the goroutines of a subtest when it starts
	open := func(src io.Reader) *trace.Reader {
		r, err := trace.NewReaderBlocks(src, trace.Options{Workers: 3, ReorderWindow: 1}, 4096)
		require.NoError(t, err)
		return r
	}
	t.Run("eof", func(t *testing.T) {
		base = runtime.NumGoroutine()
		r := open(bytes.NewReader(big.Bytes()))
		for {
			if _, err := r.Next(); err != nil {
				require.Equal(t, io.EOF, err)
				break
			}
		}
		waitGoroutines(t, base) // they have returned; the runtime removes them a moment later
	})
	t.Run("early close", func(t *testing.T) {
		base = runtime.NumGoroutine()
		r := open(bytes.NewReader(big.Bytes()))
		for range 10 {
			_, err := r.Next()
			require.NoError(t, err)
		}
		require.NoError(t, r.Close())
		waitGoroutines(t, base)
	})
	t.Run("close unread", func(t *testing.T) {
		base = runtime.NumGoroutine()
		r := open(bytes.NewReader(big.Bytes()))
		require.NoError(t, r.Close())
		waitGoroutines(t, base)
	})
	t.Run("error", func(t *testing.T) {
		base = runtime.NumGoroutine()
		r := open(io.MultiReader(bytes.NewReader(big.Bytes()[:100000]), strings.NewReader("\nnot a line\n"), bytes.NewReader(big.Bytes())))
		var err error
		for err == nil {
			_, err = r.Next()
		}
		require.ErrorIs(t, err, trace.ErrSyntax)
		waitGoroutines(t, base)
	})
	t.Run("blocked pipe", func(t *testing.T) {
		base = runtime.NumGoroutine()
		pr, pw := io.Pipe()
		go func() { pw.Write(big.Bytes()[:50000]) }() // then nothing: the Reader waits
		r := open(pr)
		_, err := r.Next()
		require.NoError(t, err)
		pr.CloseWithError(errors.New("closed"))
		require.NoError(t, r.Close())
		waitGoroutines(t, base)
	})
}

// A live pipe gives its events as its lines come, without waiting for a
// full block.
func TestParallelLivePipe(t *testing.T) {
	pr, pw := io.Pipe()
	defer pr.Close()
	go func() {
		pw.Write([]byte("259,0 1 1 0.000000000 1 D R 8 + 8\n259,0 1 2 0.000001000 1 C R 8 + 8\n"))
		// Nothing more until the test ends.
	}()
	r, err := trace.NewReader(pr, trace.Options{Workers: 2, ReorderWindow: 1})
	require.NoError(t, err)
	done := make(chan trace.Event)
	go func() {
		ev, err := r.Next()
		assert.NoError(t, err)
		done <- ev
	}()
	select {
	case ev := <-done:
		require.Equal(t, trace.Event{Time: 0, Kind: trace.Dispatch, Device: "259,0", ID: 9}, ev)
	case <-time.After(10 * time.Second):
		t.Fatal("no event from the lines that came")
	}
	pr.CloseWithError(errors.New("closed"))
	require.NoError(t, r.Close())
}

// The fuzz target of the parallel path: the same outcome as the
// sequential Reader, for blocks of 1 to 256 bytes (the first byte).
func FuzzReaderParallel(f *testing.F) {
	f.Add(byte(7), readTestdata(f, "blkparse.txt"))
	f.Add(byte(1), readTestdata(f, "blkparse-two-devices.txt"))
	f.Add(byte(40), []byte("8,0 0 1 0.1 1 D R 0 + 8\r\n8,0 0 2 0.0 1 D R 0 + 8\n\nCPU0 (8,0):\n8,0 x\n"))
	f.Fuzz(func(t *testing.T, block byte, data []byte) {
		opt := trace.Options{Format: trace.FormatBlkparse, MaxLineLength: 64, ReorderWindow: 4}
		want := readOutcome(t, bytes.NewReader(data), opt, 0)
		opt.Workers = 2
		got := readOutcome(t, bytes.NewReader(data), opt, int(block)+1)
		if !assert.ObjectsAreEqual(want, got) {
			t.Fatalf("parallel %+v\nsequential %+v", got, want)
		}
	})
}

// NextEvents gives the events and the error Next gives, in batches of any
// size, on either path.
func TestPropertyNextEventsIsNext(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		text := genBlkparse(t)
		opt := trace.Options{
			Device:        rapid.SampledFrom([]string{"", "259,0"}).Draw(t, "device"),
			MaxLineLength: rapid.SampledFrom([]int{0, 40}).Draw(t, "max line"),
			ReorderWindow: rapid.IntRange(1, 12).Draw(t, "window"),
		}
		want := readOutcome(t, strings.NewReader(text), opt, 0)
		opt.Workers = rapid.IntRange(0, 2).Draw(t, "workers")
		r, err := trace.NewReaderBlocks(strings.NewReader(text), opt, rapid.IntRange(1, 100).Draw(t, "block"))
		if err != nil {
			require.Equal(t, want.Err, err.Error())
			return
		}
		defer r.Close()
		var got outcome
		for {
			evs := make([]trace.Event, rapid.IntRange(1, 9).Draw(t, "batch"))
			n, err := r.NextEvents(evs)
			if err != nil {
				require.Zero(t, n)
				got.Err = err.Error()
				break
			}
			require.Positive(t, n)
			got.Events = append(got.Events, evs[:n]...)
		}
		got.Line, got.Device, got.Format = r.Line(), r.Device(), r.Format()
		require.Equal(t, want, got)
	})
}

// A trace in blkparse's default layout with every action it prints (Q G
// P I U D C A M X m UT R), RWBS of one to four letters, PIDs of 1 to 7
// digits, CPUs past 99, sequence numbers past 8 digits and seconds past 5:
// its 8 dispatches and 8 completions, alike on either path, whatever the
// blocks.
func TestBlkparseDefaultFile(t *testing.T) {
	data := readTestdata(t, "blkparse-default.txt")
	want := readOutcome(t, bytes.NewReader(data), trace.Options{}, 0)
	require.Equal(t, "EOF", want.Err)
	require.Len(t, want.Events, 16)
	require.Equal(t, "259,0", want.Device)
	kinds := map[trace.Kind]int{}
	for _, ev := range want.Events {
		kinds[ev.Kind]++
	}
	require.Equal(t, map[trace.Kind]int{trace.Dispatch: 8, trace.Completion: 8}, kinds)
	last := want.Events[len(want.Events)-1]
	require.Equal(t, int64(100000_000009000-1003990), last.Time, "from the first event, at 0.001003990 s")
	for _, block := range []int{1, 50, 4096} {
		got := readOutcome(t, bytes.NewReader(data), trace.Options{Workers: 2}, block)
		require.Equal(t, want, got, "block %d", block)
	}
}
