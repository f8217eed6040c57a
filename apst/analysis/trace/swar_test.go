package trace

import (
	"encoding/binary"
	"strconv"
	"testing"

	"pgregory.net/rapid"
)

// swarInput draws a line for the eight-bytes-at-a-time scanners: digits,
// blanks and other bytes, with bytes past its end (in its capacity) that
// must never count.
func swarInput(t *rapid.T) []byte {
	alphabet := []byte("0123456789 \t,./:+-\r\n\x00\xff\xfa\x2f\x3a\x19\x29")
	tok := rapid.SampledFrom([]string{"", "0", "7", "259", "2048", "12345678", "123456789", "0.000100000", "2100.865303000", "  ", "\t", " \t  ", ","})
	var b []byte
	for range rapid.IntRange(0, 6).Draw(t, "parts") {
		switch rapid.IntRange(0, 2).Draw(t, "part") {
		case 0:
			b = append(b, tok.Draw(t, "tok")...)
		case 1:
			b = strconv.AppendUint(b, rapid.Uint64().Draw(t, "v"), 10)
		default:
			b = append(b, rapid.SliceOfN(rapid.SampledFrom(alphabet), 0, 12).Draw(t, "bytes")...)
		}
	}
	past := rapid.SliceOfN(rapid.SampledFrom([]byte("0123456789 \t.")), 0, 12).Draw(t, "past")
	return append(b, past...)[:len(b)]
}

// leadingUint, skipUint, skipBlank and blkparseTime read what a
// byte-at-a-time loop reads, at every offset, whatever lies past the end.
func TestSWARIsLoop(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := swarInput(t)
		i := rapid.IntRange(0, len(b)).Draw(t, "i")
		s, j := i, i
		var v uint64
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			v = v*10 + uint64(b[j]-'0')
			j++
		}
		ok := j > s && j-s <= 19
		gv, gj, gok := leadingUint(b, i)
		if gok != ok || gj != j || ok && gv != v {
			t.Fatalf("leadingUint(%q, %d) = %d, %d, %v; want %d, %d, %v", b, i, gv, gj, gok, v, j, ok)
		}
		if sj, sok := skipUint(b, i); sj != j || sok != ok {
			t.Fatalf("skipUint(%q, %d) = %d, %v; want %d, %v", b, i, sj, sok, j, ok)
		}
		if got, want := skipBlank(b, i), skipBlankSlow(b, i); got != want {
			t.Fatalf("skipBlank(%q, %d) = %d, want %d", b, i, got, want)
		}
		end := skipToken(b, i)
		wt, wok := parseFixed(b[i:end], 9)
		tt, te, tok := blkparseTime(b, i)
		if tok != wok || te != end || wok && tt != wt {
			t.Fatalf("blkparseTime(%q, %d) = %d, %d, %v; want %d, %d, %v", b, i, tt, te, tok, wt, end, wok)
		}
	})
}

// blankBits classifies each byte as a byte-at-a-time test does.
func TestByteClassBits(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var b [8]byte
		for i := range b {
			b[i] = rapid.SampledFrom([]byte{' ', '\t', '0', '9', '/', ':', 0, 0xff, 0xb0, 0xb9, 0xa0, 0x89, 'a', '\n', '\r'}).Draw(t, "b")
			if rapid.Bool().Draw(t, "any") {
				b[i] = rapid.Byte().Draw(t, "any byte")
			}
		}
		x := binary.LittleEndian.Uint64(b[:])
		var blank uint64
		for i, c := range b {
			if c == ' ' || c == '\t' {
				blank |= 1 << i
			}
		}
		if got := blankBits(x); got != blank {
			t.Fatalf("blankBits(%q) = %08b, want %08b", b, got, blank)
		}
	})
}

// TestTemplateWordIsByteLoop checks blkTemplate.word against the bytes one
// at a time: a word matches when each byte the template fixes is that
// byte, each byte where a digit must be is '0' to '9', whatever the other
// bytes are (carries included: bytes 0xfa to 0xff where a digit must be).
func TestTemplateWordIsByteLoop(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var line [wide + 16]byte
		var tm blkTemplate
		want := true
		bytes := []byte("0123456789/:\x00\xff\xfa\xf9\x30\x39\x2f\x3a\x20\t,.DQ")
		for p := range 8 {
			b := rapid.SampledFrom(bytes).Draw(t, "b")
			line[p] = b
			sh := 8 * p
			switch rapid.IntRange(0, 2).Draw(t, "role") {
			case 0: // a digit, or a byte next to one
				b = rapid.SampledFrom([]byte("0123456789012345678909/:\xfa\xff\x40")).Draw(t, "d")
				line[p] = b
				tm.digit[0] |= 0x40 << sh
				tm.six[0] |= 0x06 << sh
				tm.exact[0] |= 0x30 << sh
				tm.mask[0] |= 0xf0 << sh
				want = want && b >= '0' && b <= '9'
			case 1: // a fixed byte
				e := b
				if rapid.IntRange(0, 7).Draw(t, "differ") == 0 {
					e = rapid.SampledFrom(bytes).Draw(t, "exact")
				}
				tm.exact[0] |= uint64(e) << sh
				tm.mask[0] |= 0xff << sh
				want = want && b == e
			}
		}
		got := tm.word((*[wide]byte)(line[:wide]), 0) == 0
		if got != want {
			t.Fatalf("word(%q) = %v, want %v (exact %#x mask %#x digit %#x)", line[:8], got, want, tm.exact[0], tm.mask[0], tm.digit[0])
		}
	})
}
