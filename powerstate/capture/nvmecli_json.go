package capture

import (
	"io"
	"strconv"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// ParseNVMeCLIJSON parses the output of "nvme id-ctrl -o json" of every
// nvme-cli key generation. Each "psds" element is read by the keys it has:
//
//   - v1.0 to v2.0: "flags" (the raw PSD byte 3: bit 0 MXPS, bit 1 NOPS),
//     "idle_scale" and "active_work_scale" as the raw PSD bytes 18 and 22
//     (scale in bits 7:6, APW in bits 2:0 of byte 22);
//   - v2.1 to v2.5: "flags", "idle_scale" (IPS, already shifted),
//     "active_power_work" (APW) and "active_scale" (APS);
//   - v2.6 and later: "max_power_scale" (MXPS) and "non-operational_state"
//     (NOPS) instead of "flags";
//   - v2.12 and later: the same plus the NVMe 2.1 time fields, which are
//     accepted and not kept.
//
// "max_power" is the raw MP, scaled by MXPS; "read_tput", "read_lat",
// "write_tput" and "write_lat" are RRT, RRL, RWT and RWL. The top-level keys
// vid, ssvid, sn, mn, fr, ieee (ieee[2]<<16|ieee[1]<<8|ieee[0]), cntlid, ver,
// rtd3r, rtd3e, cntrltype, oacs, npss, avscc, apsta, wctemp, cctemp and
// ioccsz are read when present; sn, mn and fr lose their space padding. The controller knows the
// keys present, FieldPowerStates, and FieldIdlePower and FieldActivePower
// when every element carries them. Without "npss", NPSS is the number of
// elements minus one and stays unknown; with it, the element count must be
// NPSS+1 (at most 32).
//
// Lines or text before the JSON object (a shell prompt) and anything after
// it are ignored. Values that do not fit their Identify field are errors.
func ParseNVMeCLIJSON(r io.Reader) (powerstate.Controller, error) {
	return parseAs(r, powerstate.FormatNVMeCLIJSON)
}

// Indexes of the keys of a psds element.
// The bits of the "flags" key of nvme-cli v1.0 to v2.5, byte 3 of a power
// state descriptor (NVMe Base Specification, Power State Descriptor).
const (
	psdMXPS = 0x01 // Max Power Scale
	psdNOPS = 0x02 // Non-Operational State
)

const (
	pkMaxPower = iota
	pkFlags
	pkMaxPowerScale
	pkNonOp
	pkEntryLat
	pkExitLat
	pkReadTput
	pkReadLat
	pkWriteTput
	pkWriteLat
	pkIdlePower
	pkIdleScale
	pkActivePower
	pkActiveWorkScale
	pkActivePowerWork
	pkActiveScale
	numPSDKeys
)

// psdJSONKeys maps the keys of a psds element to their index and width.
var psdJSONKeys = map[string]struct {
	idx  int
	bits int
}{
	"max_power":             {pkMaxPower, 16},
	"flags":                 {pkFlags, 8},
	"max_power_scale":       {pkMaxPowerScale, 8},
	"non-operational_state": {pkNonOp, 8},
	"entry_lat":             {pkEntryLat, 32},
	"exit_lat":              {pkExitLat, 32},
	"read_tput":             {pkReadTput, 8},
	"read_lat":              {pkReadLat, 8},
	"write_tput":            {pkWriteTput, 8},
	"write_lat":             {pkWriteLat, 8},
	"idle_power":            {pkIdlePower, 16},
	"idle_scale":            {pkIdleScale, 8},
	"active_power":          {pkActivePower, 16},
	"active_work_scale":     {pkActiveWorkScale, 8},
	"active_power_work":     {pkActivePowerWork, 8},
	"active_scale":          {pkActiveScale, 8},
}

func parseNVMeCLIJSON(s string) (powerstate.Controller, int, error) {
	const f = powerstate.FormatNVMeCLIJSON
	w, err := newJSON(f, s)
	if err != nil {
		return powerstate.Controller{}, 0, err
	}
	c := powerstate.Controller{Format: f}
	nks := nvmeKeysOf(&c)
	k := keys{f: f}
	states := -1
	psdsLine := 0
	idleAll, activeAll := true, true
	err = w.Object("the id-ctrl object", func(key string, keyLine int) error {
		if key == "psds" {
			if err := k.seen(powerstate.FieldPowerStates, key, keyLine); err != nil {
				return err
			}
			psdsLine = w.Line()
			states = 0
			idleAll, activeAll = true, true
			c.PowerStates = [powerstate.MaxStates]powerstate.Descriptor{} // a repeated key replaces the array
			return w.Array("psds", func(i, line int) error {
				if i >= powerstate.MaxStates {
					if k.known.Has(powerstate.FieldNPSS) && c.NPSS >= powerstate.MaxStates {
						// nvme-cli prints NPSS+1 elements even for an
						// invalid NPSS; only PSD0..PSD31 exist.
						return w.Skip("psds")
					}
					return syntaxErr(f, line, "at most 32 psds elements", "element "+strconv.Itoa(i))
				}
				idle, active, err := parsePSDJSON(w, i, line, &c.PowerStates[i])
				if err != nil {
					return err
				}
				idleAll = idleAll && idle
				activeAll = activeAll && active
				states++
				return nil
			})
		}
		ki, ok := nvmeKeyIndex[key]
		if !ok {
			return w.Skip(key)
		}
		nk := &nks[ki]
		if err := k.seen(nk.field, key, keyLine); err != nil {
			return err
		}
		line := w.Line()
		if nk.kind == keyString {
			v, err := w.String(key)
			if err != nil {
				return err
			}
			if err := setNVMeKey(key, nk, v); err != nil {
				return k.bad(nk.field, key, line, err.Error(), v)
			}
		} else {
			v, ok, found, err := w.UintOK(key, nk.bits)
			if err != nil {
				return err
			}
			if !ok {
				return k.bad(nk.field, key, line, "an unsigned "+strconv.Itoa(nk.bits)+"-bit integer for "+key, found)
			}
			setUintAt(nk.p, v)
		}
		k.set(nk.field)
		return nil
	})
	if err != nil {
		return powerstate.Controller{}, 0, err
	}
	switch {
	case states < 0:
		return powerstate.Controller{}, 0, &ParseError{Format: f, Line: lastLine(s), Expected: `the "psds" array of power state descriptors`, Err: ErrNoPowerStates}
	case states == 0:
		return powerstate.Controller{}, 0, &ParseError{Format: f, Line: psdsLine, Expected: "at least one psds element", Err: ErrNoPowerStates}
	}
	if k.known.Has(powerstate.FieldNPSS) {
		want := int(c.NPSS) + 1
		if want > powerstate.MaxStates {
			want = powerstate.MaxStates
		}
		switch {
		case states < want:
			return powerstate.Controller{}, 0, &ParseError{Format: f, Line: psdsLine,
				Expected: strconv.Itoa(want) + " psds elements (npss is " + strconv.Itoa(int(c.NPSS)) + ")",
				Err:      ErrTruncated}
		case states > want:
			return powerstate.Controller{}, 0, syntaxErr(f, psdsLine,
				strconv.Itoa(want)+" psds elements (npss is "+strconv.Itoa(int(c.NPSS))+")",
				strconv.Itoa(states)+" elements")
		}
	} else {
		c.NPSS = uint8(states - 1)
	}
	k.set(powerstate.FieldPowerStates)
	if idleAll {
		k.set(powerstate.FieldIdlePower)
	}
	if activeAll {
		k.set(powerstate.FieldActivePower | powerstate.FieldActiveWorkload)
	}
	for i := range c.PowerStates {
		if !idleAll {
			c.PowerStates[i].IdlePower = powerstate.Power{}
		}
		if !activeAll {
			c.PowerStates[i].ActivePower = powerstate.Power{}
			c.PowerStates[i].ActiveWorkload = 0
		}
	}
	k.finish(&c)
	return c, w.Pos(), nil
}

// parsePSDJSON reads one psds element into d and reports whether it carried
// the idle and the active power.
func parsePSDJSON(w *jsonWalker, i, line int, d *powerstate.Descriptor) (idle, active bool, err error) {
	const f = powerstate.FormatNVMeCLIJSON
	var v [numPSDKeys]uint64
	var have uint32
	var lines [numPSDKeys]int
	w.SetScope("psds", i)
	defer w.SetScope("", 0)
	what := func() string { return "psds[" + strconv.Itoa(i) + "]" }
	err = w.Object("", func(key string, keyLine int) error {
		k, ok := psdJSONKeys[key]
		if !ok {
			return w.Skip(key)
		}
		if first := lines[k.idx]; first != 0 {
			return dupKey(f, "psds["+strconv.Itoa(i)+"]."+key, first, keyLine)
		}
		lines[k.idx] = keyLine
		x, err := w.Uint(key, k.bits)
		if err != nil {
			return err
		}
		v[k.idx] = x
		have |= 1 << k.idx
		return nil
	})
	if err != nil {
		return false, false, err
	}
	has := func(idx ...int) bool {
		for _, i := range idx {
			if have&(1<<i) == 0 {
				return false
			}
		}
		return true
	}
	need := func(names string, idx ...int) error {
		if !has(idx...) {
			return syntaxErr(f, line, "the keys "+names+" in "+what(), "an element without them")
		}
		return nil
	}
	if err := need("max_power, entry_lat, exit_lat, read_tput, read_lat, write_tput, write_lat",
		pkMaxPower, pkEntryLat, pkExitLat, pkReadTput, pkReadLat, pkWriteTput, pkWriteLat); err != nil {
		return false, false, err
	}
	*d = powerstate.Descriptor{
		EntryLatency:            powerstate.Microseconds(v[pkEntryLat]),
		ExitLatency:             powerstate.Microseconds(v[pkExitLat]),
		RelativeReadThroughput:  uint8(v[pkReadTput]),
		RelativeReadLatency:     uint8(v[pkReadLat]),
		RelativeWriteThroughput: uint8(v[pkWriteTput]),
		RelativeWriteLatency:    uint8(v[pkWriteLat]),
	}
	mp := uint16(v[pkMaxPower])
	raw := has(pkActiveWorkScale) // v1.0 .. v2.0: raw scale bytes
	switch {
	case has(pkMaxPowerScale) || has(pkNonOp): // v2.6 and later
		if err := need("max_power_scale, non-operational_state", pkMaxPowerScale, pkNonOp); err != nil {
			return false, false, err
		}
		mxps, nops := v[pkMaxPowerScale], v[pkNonOp]
		if mxps > 1 || nops > 1 {
			return false, false, syntaxErr(f, line, "0 or 1 for max_power_scale and non-operational_state in "+what(),
				strconv.FormatUint(mxps, 10)+", "+strconv.FormatUint(nops, 10))
		}
		d.MaxPower = powerstate.MaxPowerOf(mp, mxps == 1)
		d.NonOperational = nops == 1
	case has(pkFlags): // v1.0 .. v2.5
		flags := v[pkFlags]
		d.MaxPower = powerstate.MaxPowerOf(mp, flags&psdMXPS != 0)
		d.NonOperational = flags&psdNOPS != 0
	default:
		return false, false, syntaxErr(f, line, `"flags" or "max_power_scale" and "non-operational_state" in `+what(), "neither")
	}
	if has(pkIdlePower, pkIdleScale) {
		idle = true
		scale := v[pkIdleScale]
		// The raw byte of v1.0 to v2.0 keeps the scale in bits 7:6; a value
		// above 3 can only be that byte, even without "active_work_scale".
		if raw || has(pkFlags) && scale > 3 {
			scale >>= 6
		} else if scale > 3 {
			return false, false, syntaxErr(f, line, "idle_scale 0 to 3 in "+what(), strconv.FormatUint(scale, 10))
		}
		d.IdlePower = powerstate.Power{Units: uint16(v[pkIdlePower]), Scale: powerstate.Scale(scale)}
	}
	if raw {
		if has(pkActivePower) {
			active = true
			b := v[pkActiveWorkScale]
			d.ActivePower = powerstate.Power{Units: uint16(v[pkActivePower]), Scale: powerstate.Scale(b >> 6)}
			d.ActiveWorkload = powerstate.Workload(b & 7)
		}
	} else if has(pkActivePower, pkActiveScale, pkActivePowerWork) {
		active = true
		scale, work := v[pkActiveScale], v[pkActivePowerWork]
		if scale > 3 || work > 7 {
			return false, false, syntaxErr(f, line, "active_scale 0 to 3 and active_power_work 0 to 7 in "+what(),
				strconv.FormatUint(scale, 10)+", "+strconv.FormatUint(work, 10))
		}
		d.ActivePower = powerstate.Power{Units: uint16(v[pkActivePower]), Scale: powerstate.Scale(scale)}
		d.ActiveWorkload = powerstate.Workload(work)
	}
	return idle, active, nil
}
