package apsttest

import (
	"encoding/binary"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// FuzzInputSize is the length of a complete fuzz input (see
// DecodeFuzzInput): a 44-byte header and 32 descriptors of 9 bytes.
const FuzzInputSize = fuzzHeader + powerstate.MaxStates*fuzzDescriptor

const (
	fuzzHeader     = 44
	fuzzDescriptor = 9
)

// Flag bits of byte 1 of a fuzz input.
const (
	fuzzNoAPST         = 1 << 0
	fuzzNoDeepestPS    = 1 << 1
	fuzzForceAPST      = 1 << 2
	fuzzAPSTAUnknown   = 1 << 3
	fuzzNonOperational = 1 << 0 // byte 0 of a descriptor
)

// DecodeFuzzInput turns any byte string into a controller and parameters,
// so that a native fuzz target (func(t *testing.T, b []byte)) reaches Build
// with every input. The encoding, little-endian, missing bytes read as
// zero and bytes beyond FuzzInputSize ignored:
//
//	byte  0      generation: the value modulo 3, in apst.Generations() order
//	byte  1      flags: bit 0 NO_APST, bit 1 NO_DEEPEST_PS, bit 2 force_apst,
//	             bit 3 APSTA unknown (powerstate.FieldAPSTA in Missing)
//	byte  2      NPSS (any value, above 31 included)
//	byte  3      APSTA
//	bytes 4-11   bound (ps_max_latency_us)
//	bytes 12-19  apst_primary_timeout_ms
//	bytes 20-27  apst_secondary_timeout_ms
//	bytes 28-35  apst_primary_latency_tol_us
//	bytes 36-43  apst_secondary_latency_tol_us
//	bytes 44-    32 descriptors PSD0..PSD31 of 9 bytes each: a flags byte
//	             (bit 0 NOPS), ENLAT (4 bytes), EXLAT (4 bytes)
//
// The empty input is the zero controller (NPSS 0, APSTA 0) under Current
// with every parameter 0. EncodeFuzzInput is the inverse for the fields it
// covers.
func DecodeFuzzInput(b []byte) (powerstate.Controller, apst.Params) {
	var buf [FuzzInputSize]byte
	copy(buf[:], b)
	gens := apst.Generations()
	p := apst.Params{
		Generation:         gens[int(buf[0])%len(gens)],
		Bound:              apst.Microseconds(binary.LittleEndian.Uint64(buf[4:])),
		PrimaryTimeout:     apst.Milliseconds(binary.LittleEndian.Uint64(buf[12:])),
		SecondaryTimeout:   apst.Milliseconds(binary.LittleEndian.Uint64(buf[20:])),
		PrimaryTolerance:   apst.Microseconds(binary.LittleEndian.Uint64(buf[28:])),
		SecondaryTolerance: apst.Microseconds(binary.LittleEndian.Uint64(buf[36:])),
		ForceAPST:          buf[1]&fuzzForceAPST != 0,
	}
	if buf[1]&fuzzNoAPST != 0 {
		p.Quirks |= apst.QuirkNoAPST
	}
	if buf[1]&fuzzNoDeepestPS != 0 {
		p.Quirks |= apst.QuirkNoDeepestPS
	}
	var c powerstate.Controller
	c.NPSS, c.APSTA = buf[2], buf[3]
	if buf[1]&fuzzAPSTAUnknown != 0 {
		c.Missing |= powerstate.FieldAPSTA
	}
	for i := range c.PowerStates {
		d := buf[fuzzHeader+i*fuzzDescriptor:]
		ps := &c.PowerStates[i]
		ps.NonOperational = d[0]&fuzzNonOperational != 0
		ps.EntryLatency = powerstate.Microseconds(binary.LittleEndian.Uint32(d[1:]))
		ps.ExitLatency = powerstate.Microseconds(binary.LittleEndian.Uint32(d[5:]))
	}
	return c, p
}

// EncodeFuzzInput encodes c and p as DecodeFuzzInput reads them (a
// FuzzInputSize-byte input): NPSS, APSTA and whether it is known, NOPS,
// ENLAT and EXLAT of the 32 descriptors, and every field of p but Release
// and the quirk bits other than NO_APST and NO_DEEPEST_PS. An invalid
// generation is encoded as Current.
func EncodeFuzzInput(c *powerstate.Controller, p apst.Params) []byte {
	b := make([]byte, FuzzInputSize)
	for i, g := range apst.Generations() {
		if g == p.Generation {
			b[0] = byte(i)
		}
	}
	if p.Quirks&apst.QuirkNoAPST != 0 {
		b[1] |= fuzzNoAPST
	}
	if p.Quirks&apst.QuirkNoDeepestPS != 0 {
		b[1] |= fuzzNoDeepestPS
	}
	if p.ForceAPST {
		b[1] |= fuzzForceAPST
	}
	if !c.APSTAKnown() {
		b[1] |= fuzzAPSTAUnknown
	}
	b[2], b[3] = c.NPSS, c.APSTA
	binary.LittleEndian.PutUint64(b[4:], uint64(p.Bound))
	binary.LittleEndian.PutUint64(b[12:], uint64(p.PrimaryTimeout))
	binary.LittleEndian.PutUint64(b[20:], uint64(p.SecondaryTimeout))
	binary.LittleEndian.PutUint64(b[28:], uint64(p.PrimaryTolerance))
	binary.LittleEndian.PutUint64(b[36:], uint64(p.SecondaryTolerance))
	for i := range c.PowerStates {
		d := b[fuzzHeader+i*fuzzDescriptor:]
		ps := &c.PowerStates[i]
		if ps.NonOperational {
			d[0] = fuzzNonOperational
		}
		binary.LittleEndian.PutUint32(d[1:], uint32(ps.EntryLatency))
		binary.LittleEndian.PutUint32(d[5:], uint32(ps.ExitLatency))
	}
	return b
}

// seedController is a five-state drive shaped like the Samsung 990 EVO Plus
// (ps3 ENLAT/EXLAT 1600/4600 µs, ps4 1600/43000 µs), with the latencies of
// the deepest state replaced by deep.
func seedController(npss, apsta uint8, deepEnlat, deepExlat powerstate.Microseconds) powerstate.Controller {
	var c powerstate.Controller
	c.NPSS, c.APSTA = npss, apsta
	for i := range c.PowerStates {
		c.PowerStates[i].NonOperational = i >= 3
	}
	c.PowerStates[3].EntryLatency, c.PowerStates[3].ExitLatency = 1600, 4600
	c.PowerStates[4].EntryLatency, c.PowerStates[4].ExitLatency = deepEnlat, deepExlat
	return c
}

// FuzzSeeds returns the edge values as fuzz inputs (DecodeFuzzInput's
// encoding), for f.Add in a fuzz target. They are: every generation;
// bounds 0, 1, each breakpoint and unlimited; module parameters 0, 2^24-1,
// 2^24, 2^56 and 2^64-1; both quirks with and without force_apst; NPSS 0,
// 4, 31, 32 and 255; APSTA 0, 1, 2 and unknown; latencies 0 and 2^32-1 and
// the heuristic's cap. The slice is a fresh copy, in a fixed order.
func FuzzSeeds() [][]byte {
	var out [][]byte
	add := func(c powerstate.Controller, p apst.Params) { out = append(out, EncodeFuzzInput(&c, p)) }
	evo := seedController(4, 1, 1600, 43000)
	for _, g := range apst.Generations() {
		for _, b := range []apst.Microseconds{0, 1, 4599, 4600, 42999, 43000, 25000, 100000, apst.NoLimit} {
			p := apst.DefaultParams(g)
			p.Bound = b
			add(evo, p)
		}
	}
	for _, v := range []uint64{0, 1<<24 - 1, 1 << 24, 1 << 56, 1<<64 - 1} {
		for field := range 4 {
			p := apst.DefaultParams(apst.Current)
			p.Bound = apst.NoLimit
			switch field {
			case 0:
				p.PrimaryTimeout = apst.Milliseconds(v)
			case 1:
				p.SecondaryTimeout = apst.Milliseconds(v)
			case 2:
				p.PrimaryTolerance = apst.Microseconds(v)
			case 3:
				p.SecondaryTolerance = apst.Microseconds(v)
			}
			add(evo, p)
		}
	}
	for _, q := range []apst.Quirks{apst.QuirkNoAPST, apst.QuirkNoDeepestPS, apst.QuirksAPST} {
		for _, force := range []bool{false, true} {
			for _, g := range apst.Generations() {
				p := apst.DefaultParams(g)
				p.Quirks, p.ForceAPST = q, force
				add(evo, p)
			}
		}
	}
	for _, npss := range []uint8{0, 4, 31, 32, 255} {
		for _, apsta := range []uint8{0, 1, 2} {
			add(seedController(npss, apsta, 1600, 43000), apst.DefaultParams(apst.Current))
		}
	}
	unknown := evo
	unknown.Missing |= powerstate.FieldAPSTA
	add(unknown, apst.DefaultParams(apst.Current))
	for _, lat := range [][2]powerstate.Microseconds{{0, 0}, {1<<32 - 1, 1<<32 - 1}, {0, 335544301}, {335544280, 0}} {
		for _, g := range apst.Generations() {
			p := apst.DefaultParams(g)
			p.Bound = apst.NoLimit
			add(seedController(4, 1, lat[0], lat[1]), p)
		}
	}
	return out
}
