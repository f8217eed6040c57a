package survey

import (
	"encoding/binary"
	"hash/maphash"
)

// A drive's stored outcome (its vendor, per configuration its worst stall,
// power and flags and bar class, and its bound sweep) is its profile; the
// drives of one model and firmware under the same configurations share
// one. A Survey stores each distinct profile once and per drive only its
// name and the index of its profile (4 bytes): a fleet of few models costs
// little more than its names.

// profileMax bounds the interning table: beyond it, new profiles are
// stored without being remembered (each such drive then holds its own).
const profileMax = 1 << 20

// profile is a drive's outcome, as intern receives it (scratch slices).
type profile struct {
	vendor       uint32
	stall, power []uint32
	bars         []BarClass
	steps        []step
}

// profileSeed is the hash seed of the interning table (one per process:
// the table never leaves it).
var profileSeed = maphash.MakeSeed()

// hash returns the profile's hash, encoding it into st.key.
func (st *store) hash(p *profile) uint64 {
	b := binary.LittleEndian.AppendUint32(st.key[:0], p.vendor)
	for k := range p.stall {
		b = binary.LittleEndian.AppendUint32(b, p.stall[k])
		b = binary.LittleEndian.AppendUint32(b, p.power[k])
	}
	for _, c := range p.bars {
		b = append(b, byte(c))
	}
	for _, s := range p.steps {
		b = binary.LittleEndian.AppendUint64(b, s.min)
		b = binary.LittleEndian.AppendUint32(b, s.stall)
		b = binary.LittleEndian.AppendUint32(b, s.power)
	}
	st.key = b
	return maphash.Bytes(profileSeed, b)
}

// equal reports whether stored profile i is p.
func (st *store) equal(i uint32, p *profile) bool {
	if st.vendor.at(int(i)) != p.vendor {
		return false
	}
	for k := range p.stall {
		if st.stall[k].at(int(i)) != p.stall[k] || st.power[k].at(int(i)) != p.power[k] {
			return false
		}
	}
	for k, c := range p.bars {
		if st.bars[k].at(int(i)) != c {
			return false
		}
	}
	lo, hi := st.sweep(int(i))
	if hi-lo != len(p.steps) {
		return false
	}
	for j, s := range p.steps {
		if st.steps.at(lo+j) != s {
			return false
		}
	}
	return true
}

// intern returns the index of profile p, storing it if it is new.
func (st *store) intern(p *profile) uint32 {
	h := st.hash(p)
	if i, ok := st.profN[h]; ok && st.equal(i, p) {
		return i
	}
	i := uint32(st.vendor.len())
	st.vendor.add(p.vendor)
	for k := range p.stall {
		st.stall[k].add(p.stall[k])
		st.power[k].add(p.power[k])
	}
	for k, c := range p.bars {
		st.bars[k].add(c)
	}
	for _, s := range p.steps {
		st.steps.add(s)
	}
	st.sweepEnd.add(uint64(st.steps.len()))
	if _, taken := st.profN[h]; !taken && len(st.profN) < profileMax {
		st.profN[h] = i
	}
	return i
}

// profileOf fills p (reusing its slices) with stored profile i of st.
func (st *store) profileOf(i uint32, p *profile) {
	p.vendor = st.vendor.at(int(i))
	p.stall, p.power, p.bars = p.stall[:0], p.power[:0], p.bars[:0]
	for k := range st.stall {
		p.stall = append(p.stall, st.stall[k].at(int(i)))
		p.power = append(p.power, st.power[k].at(int(i)))
	}
	for k := range st.bars {
		p.bars = append(p.bars, st.bars[k].at(int(i)))
	}
	lo, hi := st.sweep(int(i))
	p.steps = p.steps[:0]
	for j := lo; j < hi; j++ {
		p.steps = append(p.steps, st.steps.at(j))
	}
}
