package trace

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// genBlkparseBlock draws a block of blkparse lines in runs of one layout
// (the fields padded to the same widths, as blkparse pads them, so that a
// template is built and reused), with near misses: fields of other widths
// or shapes, sectors of 0 to 20 digits or followed by other bytes, long
// lines, CRLF, a byte changed anywhere (a '\n' among them), no final
// '\n'.
func genBlkparseBlock(t *rapid.T) string {
	var b strings.Builder
	for range rapid.IntRange(1, 6).Draw(t, "runs") {
		pad := func(name string) string {
			return strings.Repeat(" ", rapid.IntRange(0, 3).Draw(t, name))
		}
		lead, p1, p2, p3, p4, p5 := pad("lead"), pad("p1"), pad("p2"), pad("p3"), pad("p4"), pad("p5")
		// Devices of one length in a run: the template reads their digits
		// as digits, the device cache compares their bytes.
		devs := rapid.SampledFrom([][]string{{"259,0", "259,1", "8,160"}, {"8,16"}, {"259,00", "259,10"}, {"8,1234567", "8,1234568", "9,1234567"},
			{"1234,5678901", "1234,5678902"}, {"12345678,87654321", "12345678,87654322"}, {"1,2"}}).Draw(t, "devs")
		seqWidth := rapid.IntRange(1, 12).Draw(t, "seq width")
		secWidth := rapid.IntRange(1, 10).Draw(t, "sec width")
		cpuWidth := rapid.IntRange(1, 2).Draw(t, "cpu width")
		// RWBS as blkparse aligns it ("%3s") or not, the sector after
		// one blank or more; now and then another in the run.
		rwbsRun := rapid.SampledFrom([]string{"  R", " WS", "FWS", "R", "RA", " R ", "R  "}).Draw(t, "rwbs")
		padRun := strings.Repeat(" ", rapid.IntRange(0, 1).Draw(t, "sector pad"))
		for range rapid.IntRange(2, 10).Draw(t, "lines") {
			rwbs, sector := rwbsRun, padRun
			if rapid.IntRange(0, 4).Draw(t, "other rwbs?") == 0 {
				rwbs = rapid.SampledFrom([]string{"  R", " WS", "FWS", "R", "RA", " R ", "R  "}).Draw(t, "rwbs")
				sector = strings.Repeat(" ", rapid.IntRange(0, 1).Draw(t, "sector pad"))
			}
			dev := rapid.SampledFrom(devs).Draw(t, "dev")
			seq := fmt.Sprintf("%*d", seqWidth, rapid.Uint64Range(pow10u(seqWidth)/10, pow10u(seqWidth)-1).Draw(t, "seq"))
			sec := fmt.Sprintf("%*d", secWidth, rapid.Uint64Range(pow10u(secWidth)/10, pow10u(secWidth)-1).Draw(t, "sec"))
			act := rapid.SampledFrom([]string{"D", "C", "D", "C", "Q", "G", "1", "DC", "QG", "GD"}).Draw(t, "act")
			for range rapid.SampledFrom([]int{0, 1, 4, 8, 9, 15, 16, 17, 19, 20}).Draw(t, "sector digits") {
				sector += string(rune('0' + rapid.IntRange(0, 9).Draw(t, "digit")))
			}
			rest := rapid.SampledFrom([]string{" + 8 [fio]", "", " ", "x + 8", "\t+ 8 [kworker/0:1H]", strings.Repeat(" long", 30)}).Draw(t, "rest")
			line := lead + dev + p1 + " " + fmt.Sprintf("%*d", cpuWidth, rapid.Uint64Range(pow10u(cpuWidth)/10, pow10u(cpuWidth)-1).Draw(t, "cpu")) + p2 + " " + seq + p3 + " " +
				sec + "." + fmt.Sprintf("%09d", rapid.IntRange(0, 999999999).Draw(t, "ns")) + p4 + " 4242" + p5 + " " + act + " " + rwbs + " " + sector + rest
			if rapid.IntRange(0, 5).Draw(t, "change?") == 0 {
				k := rapid.IntRange(0, len(line)-1).Draw(t, "at")
				line = line[:k] + string(rapid.SampledFrom([]byte("\n\r\t x0.,9D")).Draw(t, "byte")) + line[k+1:]
			}
			b.WriteString(line)
			b.WriteString(rapid.SampledFrom([]string{"\n", "\n", "\n", "\r\n"}).Draw(t, "eol"))
		}
	}
	s := b.String()
	if len(s) > 0 && rapid.IntRange(0, 3).Draw(t, "cut?") == 0 {
		s = s[:rapid.IntRange(0, len(s)-1).Draw(t, "cut")]
	}
	return s
}

// blkParser.line gives the records the general path gives, whatever the
// bytes past the block's end (what a buffer held before).
func TestPropertyLineIsGeneral(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		text := genBlkparseBlock(t)
		past := rapid.SliceOfN(rapid.SampledFrom([]byte("0123456789 \t\r\n,.DCx")), 0, 2*lineReach).Draw(t, "past")
		block := append([]byte(text), past...)[:len(text)]
		// MaxLineLength near the length of a line (without its '\r'), or
		// the default.
		lines := strings.Split(text, "\n")
		near := len(strings.TrimSuffix(lines[rapid.IntRange(0, len(lines)-1).Draw(t, "near line")], "\r"))
		p := blkParser{max: max(16, near+rapid.IntRange(-1, 1).Draw(t, "max-near"))}
		if rapid.Bool().Draw(t, "default max") {
			p.max = DefaultMaxLineLength
		}
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
	})
}

// pow10u returns 10^n.
func pow10u(n int) uint64 {
	v := uint64(1)
	for range n {
		v *= 10
	}
	return v
}

// The fuzz target of blkParser.line: the records of the general path for
// any block, the bytes past its end (the last byte's count of them) any.
func FuzzBlkparseLine(f *testing.F) {
	for _, name := range []string{"blkparse.txt", "blkparse-two-devices.txt"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, uint16(40))
	}
	f.Add([]byte("  259,0    1  1  0.000000000  4242  D  R 2048 + 8 [fio]\n  259,0    1  2  0.000000100  4242  C  R 2048 + 8 [fio]\r\n  259,0    1  3  0.000000200  4242  Q  R 2048 + 8 [fio]\n"), uint16(300))
	f.Fuzz(func(t *testing.T, data []byte, slack uint16) {
		for _, max := range []int{16, 64, DefaultMaxLineLength} {
			block := append(slices.Clip(data), bytes.Repeat([]byte("0 \n\r9"), int(slack)%200)...)[:len(data)]
			p := blkParser{max: max, selected: true, selMaj: 259}
			got, gotLines := p.parse(block, nil)
			p.general = true
			want, wantLines := p.parse(block, nil)
			if gotLines != wantLines || len(got) != len(want) || len(got) > 0 && !reflect.DeepEqual(got, want) {
				t.Fatalf("max %d: line gives %d lines %+v, the general path %d lines %+v", max, gotLines, got, wantLines, want)
			}
		}
	})
}
