package trace

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// blkparse's default layout: the header "%D %2c %8s %5T.%9t %5p %2a %3d "
// (blkparse_fmt.c's HEADER and the blkparse(1) man page; %D is
// "%3d,%-3d"), then a trailer per action. The trailers, as blkparse prints
// them (blkparse(1), "DEFAULT OUTPUT"; the lines of real traces in
// harvester/harvesterhci.io kb/2023-07-06/package_your_own_toolbox_image.md
// and apst/analysis/trace/testdata/blkparse.txt):
//
//	Q G I D B F M S   SECTOR + SIZE [COMMAND]
//	C R               SECTOR + SIZE [ERROR]   (C of a flush: [ERROR] alone)
//	A                 SECTOR + SIZE <- (MAJ,MIN) SECTOR
//	X                 SECTOR / SECTOR [COMMAND]
//	P                 [COMMAND]
//	U UT              [COMMAND] REQUESTS
//	m                 N MESSAGE
//
// RWBS is F (preflush), then R, W, D (discard) or N (none), then F (FUA),
// A (readahead), S (sync), M (metadata), E (secure erase).

// blkDefaultActions are the actions of blkparse's default layout and what
// follows their RWBS.
var blkDefaultActions = []struct {
	act     string
	trailer func(sector uint64, comm string) string
}{
	{"Q", sectorComm}, {"G", sectorComm}, {"I", sectorComm}, {"D", sectorComm}, {"B", sectorComm},
	{"F", sectorComm}, {"M", sectorComm}, {"S", sectorComm},
	{"C", func(s uint64, _ string) string { return fmt.Sprintf("%d + 8 [0]", s) }},
	{"C", func(uint64, string) string { return "[0]" }}, // a flush's completion: no sector
	{"R", func(s uint64, _ string) string { return fmt.Sprintf("%d + 8 [0]", s) }},
	{"A", func(s uint64, _ string) string { return fmt.Sprintf("%d + 8 <- (259,1) %d", s, s-2048) }},
	{"X", func(s uint64, c string) string { return fmt.Sprintf("%d / %d [%s]", s, s+256, c) }},
	{"P", func(_ uint64, c string) string { return "[" + c + "]" }},
	{"U", func(_ uint64, c string) string { return "[" + c + "] 1" }},
	{"UT", func(_ uint64, c string) string { return "[" + c + "] 3" }},
	{"m", func(uint64, string) string { return "N cfq697 put_queue" }},
}

func sectorComm(s uint64, c string) string { return fmt.Sprintf("%d + 8 [%s]", s, c) }

// genBlkparseDefault draws a trace in blkparse's default layout, as
// blkparse prints it: every action and RWBS, PIDs of 1 to 7 digits (0 for
// an interrupt), CPUs past 99, sequence numbers past 8 digits and seconds
// past 5 (fields wider than their width push the rest right), several
// devices, and now and then a byte changed.
func genBlkparseDefault(t *rapid.T) string {
	var b strings.Builder
	maj := rapid.SampledFrom([]uint64{8, 259, 253, 1000}).Draw(t, "maj")
	mins := rapid.SampledFrom([][]uint64{{0}, {0, 1}, {0, 16, 160}, {1234}}).Draw(t, "minors")
	seq := rapid.SampledFrom([]uint64{1, 9990, 99999990, 999999999990}).Draw(t, "first seq")
	at := rapid.SampledFrom([]uint64{0, 99999e9, 123456789e9}).Draw(t, "start")
	pids := []uint64{0, 7, 42, 697, 4242, 34084, 3328328}
	comms := []string{"fio", "kworker/3:1H", "jbd2/nvme0n1p1-", "0", "x y"}
	rwbss := []string{"R", "W", "WS", "RA", "RM", "RSM", "WSM", "FWS", "FWFS", "FWFSM", "N", "FN", "D", "DS", "WFS", "E", "RAS"}
	for range rapid.IntRange(1, 80).Draw(t, "lines") {
		seq += rapid.Uint64Range(1, 5).Draw(t, "seq step")
		at += rapid.Uint64Range(0, 3000).Draw(t, "dt")
		a := blkDefaultActions[rapid.IntRange(0, len(blkDefaultActions)-1).Draw(t, "action")]
		pid := rapid.SampledFrom(pids).Draw(t, "pid")
		if a.act == "C" && rapid.IntRange(0, 2).Draw(t, "irq?") > 0 {
			pid = 0
		}
		rwbs := rapid.SampledFrom(rwbss).Draw(t, "rwbs")
		if a.act == "P" || a.act == "U" || a.act == "UT" || a.act == "m" {
			rwbs = "N"
		}
		sector := rapid.SampledFrom([]uint64{0, 8, 2048, 7768, 2414127984, 1 << 40}).Draw(t, "sector") + 8*seq
		line := fmt.Sprintf("%3d,%-3d %2d %8d %5d.%09d %5d %2s %3s %s",
			maj, rapid.SampledFrom(mins).Draw(t, "minor"), rapid.SampledFrom([]int{0, 1, 9, 10, 63, 127}).Draw(t, "cpu"),
			seq, at/1e9, at%1e9, pid, a.act, rwbs, a.trailer(sector, rapid.SampledFrom(comms).Draw(t, "comm")))
		if pads := paddingBlanks(line); len(pads) > 0 && rapid.IntRange(0, 7).Draw(t, "pad?") == 0 {
			// A blank of the padding of a right-aligned number changed:
			// 0x21 to 0x2f look like digits but for their low nibble (the
			// check that a blank's is 0), '0' and '1' are digits, making
			// a number with blanks after a digit (or a longer one).
			k := rapid.SampledFrom(pads).Draw(t, "pad at")
			line = line[:k] + string(rapid.SampledFrom([]byte("!!#)/\"01\x01")).Draw(t, "pad byte")) + line[k+1:]
		}
		if rapid.IntRange(0, 15).Draw(t, "change?") == 0 {
			k := rapid.IntRange(0, len(line)-1).Draw(t, "at")
			line = line[:k] + string(rapid.SampledFrom([]byte("\n\r\t x0.,9DC")).Draw(t, "byte")) + line[k+1:]
		}
		b.WriteString(line)
		b.WriteString(rapid.SampledFrom([]string{"\n", "\n", "\n", "\n", "\r\n"}).Draw(t, "eol"))
	}
	s := b.String()
	if rapid.IntRange(0, 5).Draw(t, "cut?") == 0 {
		s = s[:rapid.IntRange(0, len(s)-1).Draw(t, "cut")]
	}
	return s
}

// paddingBlanks returns where line has a blank after a blank and before
// the first letter (the action): the padding of the right-aligned numbers
// of the header (CPU, sequence number, seconds, PID) and the blanks after
// a short minor number.
func paddingBlanks(line string) []int {
	var pads []int
	for k := 1; k < len(line); k++ {
		switch c := line[k]; {
		case c|0x20 >= 'a' && c|0x20 <= 'z':
			return pads
		case c == ' ' && line[k-1] == ' ':
			pads = append(pads, k)
		}
	}
	return pads
}

// On blkparse's default layout, whatever the widths of its fields, its
// actions and RWBS: the templates' loop (blkParser.lines) gives the
// records of the general path, and the one-pass scanner of a line
// (parseBlkparseFast) what parseBlkparseFields gives.
func TestPropertyBlkparseDefaultFastIsSlow(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		text := genBlkparseDefault(t)
		past := rapid.SliceOfN(rapid.SampledFrom([]byte("0123456789 \t\r\n,.DCx")), 0, 2*lineReach).Draw(t, "past")
		block := append([]byte(text), past...)[:len(text)]
		p := blkParser{max: DefaultMaxLineLength}
		if p.selected = rapid.Bool().Draw(t, "selected"); p.selected {
			p.selMaj, p.selMin = 259, 0
		}
		got, gotLines := p.parse(block, nil)
		p.general = true
		want, wantLines := p.parse(block, nil)
		require.Equal(t, wantLines, gotLines)
		require.Equal(t, len(want), len(got))
		if len(want) > 0 {
			require.Equal(t, want, got)
		}

		// Line by line, through the Reader's sequential path.
		opts := Options{Format: FormatBlkparse}
		if p.selected {
			opts.Device = "259,0"
		}
		fast, err := NewReader(bytes.NewReader(nil), opts)
		require.NoError(t, err)
		slow, err := NewReader(bytes.NewReader(nil), opts)
		require.NoError(t, err)
		for _, l := range strings.Split(text, "\n") {
			l = strings.TrimSuffix(l, "\r")
			fast.line++
			slow.line++
			b := append([]byte(l), past...)[:len(l)]
			errFast := fast.parseBlkparse(b)
			var errSlow error
			if !slow.summary {
				errSlow = slow.parseBlkparseFields([]byte(l))
			}
			require.Equal(t, errSlow, errFast, "line %q", l)
			require.Equal(t, slow.buf, fast.buf, "line %q", l)
			require.Equal(t, slow.heap, fast.heap, "line %q", l)
			require.Equal(t, slow.device, fast.device)
			require.Equal(t, slow.devices, fast.devices)
			if errFast != nil {
				return
			}
		}
	})
}

// Every event line of a trace in blkparse's default layout is read by the
// templates' loop, whatever the PIDs' widths: none is left to the general
// path once each layout has been met (a test of speed that counts, not
// times: a layout the templates miss would go through scanWide on every
// line).
func TestBlkparseDefaultReadByTemplates(t *testing.T) {
	var b strings.Builder
	pids := []int{4242, 0, 697, 0, 34084, 0, 7, 3328328, 0}
	for i := range 2000 {
		act := "DC"[i%2 : i%2+1]
		fmt.Fprintf(&b, "%3d,%-3d %2d %8d %5d.%09d %5d %2s %3s %d + 8 [fio]\n", 259, 0, i%12, 99999000+i, 99990+i/100, i*1000, pids[i%len(pids)], act, "WS", 2048+8*(i/2))
	}
	block := []byte(b.String())
	var sc blkScanner
	p := blkParser{max: DefaultMaxLineLength}
	var d blkDev
	general := 0
	var recs []blkRec
	line := uint32(0)
	for i := 0; i < len(block); {
		if t := &sc.tmpls[sc.cur]; t.ok && t.sector > 0 {
			if i, recs, line = p.lines(block, i, &sc, &d, recs, line); i >= len(block) {
				break
			}
		}
		e := i + bytes.IndexByte(block[i:], '\n')
		var l blkLine
		require.True(t, sc.scan(block[i:e], &l))
		recs = append(recs, blkRec{})
		line++
		general++
		i = e + 1
	}
	require.Equal(t, 2000, int(line))
	require.Len(t, recs, 2000)
	// A layout is met once for each width of the sequence number, the
	// seconds and the PID: a few dozen lines, not thousands.
	require.Less(t, general, 40)
}
