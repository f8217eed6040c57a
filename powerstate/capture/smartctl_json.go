package capture

import (
	"io"
	"strconv"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// ParseSmartctlJSON parses "smartctl -j" output of an NVMe device. The power
// states are in "nvme_power_states", which smartctl emits from 7.5 on; older
// versions print the table only as text, and their JSON returns
// ErrNoPowerStates.
//
// Each "nvme_power_states" element gives "non_operational_state" (NOPS),
// "relative_read_latency" (RRL), "relative_read_throughput" (RRT),
// "relative_write_latency" (RWL), "relative_write_throughput" (RWT),
// "entry_latency_us" (ENLAT), "exit_latency_us" (EXLAT) and "max_power"
// {"value": MP, "scale": 1 (0.0001 W, MXPS=1) or 2 (0.01 W)}. The top-level
// keys "model_name", "serial_number", "firmware_version",
// "nvme_pci_vendor" {"id", "subsystem_id"}, "nvme_ieee_oui_identifier",
// "nvme_controller_id", "nvme_version" {"value"},
// "nvme_optional_admin_commands" {"value"} and
// "nvme_composite_temperature_threshold" {"warning", "critical"} (Celsius,
// stored as Kelvin = C+273) are read when present.
//
// As in smartctl's text, APSTA, AVSCC and RTD3R/RTD3E are not recorded, and
// the "active_power" and "idle_power" objects come from the same wrong
// decoding as the text's Active and Idle columns, so IdlePower and
// ActivePower stay unknown. NPSS is the number of elements minus one, known
// when there are fewer than 32 (see ParseSmartctlText).
func ParseSmartctlJSON(r io.Reader) (powerstate.Controller, error) {
	return parseAs(r, powerstate.FormatSmartctlJSON)
}

func parseSmartctlJSON(s string) (powerstate.Controller, int, error) {
	const f = powerstate.FormatSmartctlJSON
	w, err := newJSON(f, s)
	if err != nil {
		return powerstate.Controller{}, 0, err
	}
	c := powerstate.Controller{Format: f}
	k := keys{f: f}
	rows := -1
	statesLine := 0
	str := func(key string, field powerstate.Fields, width int, dst *string) error {
		line := w.Line()
		v, err := w.String(key)
		if err != nil {
			return err
		}
		cv, ok := cleanString(v, width)
		if !ok {
			return k.bad(field, key, line, "at most "+strconv.Itoa(width)+" characters for "+key, v)
		}
		*dst = cv
		k.set(field)
		return nil
	}
	// num reads an unsigned value of a field; one that does not fit is
	// kept as unknown with a note (no field read this way is one APST uses
	// but the VID, which is refused).
	num := func(key string, field powerstate.Fields, bits int) (uint64, error) {
		line := w.Line()
		v, ok, found, err := w.UintOK(key, bits)
		if err != nil {
			return 0, err
		}
		if !ok {
			return 0, k.bad(field, key, line, "an unsigned "+strconv.Itoa(bits)+"-bit integer for "+key, found)
		}
		k.set(field)
		return v, nil
	}
	err = w.Object("the smartctl object", func(key string, keyLine int) error {
		if f := smartctlJSONField(key); f != 0 {
			if err := k.seen(f, key, keyLine); err != nil {
				return err
			}
		}
		switch key {
		case "model_name":
			return str(key, powerstate.FieldModel, maxModel, &c.Model)
		case "serial_number":
			return str(key, powerstate.FieldSerial, maxSerial, &c.Serial)
		case "firmware_version":
			return str(key, powerstate.FieldFirmware, maxFirmware, &c.Firmware)
		case "nvme_pci_vendor":
			return w.Object(key, func(k string, _ int) error {
				switch k {
				case "id":
					v, err := num("nvme_pci_vendor.id", powerstate.FieldVendorID, 16)
					c.VendorID = uint16(v)
					return err
				case "subsystem_id":
					v, err := num("nvme_pci_vendor.subsystem_id", powerstate.FieldSubsystemVendorID, 16)
					c.SubsystemVendorID = uint16(v)
					return err
				}
				return w.Skip(k)
			})
		case "nvme_ieee_oui_identifier":
			v, err := num(key, powerstate.FieldIEEE, 24)
			c.IEEE = uint32(v)
			return err
		case "nvme_controller_id":
			v, err := num(key, powerstate.FieldControllerID, 16)
			c.ControllerID = uint16(v)
			return err
		case "nvme_version":
			return w.Object(key, func(k string, _ int) error {
				if k == "value" {
					v, err := num("nvme_version.value", powerstate.FieldVersion, 32)
					c.Version = powerstate.Version(v)
					return err
				}
				return w.Skip(k)
			})
		case "nvme_optional_admin_commands":
			return w.Object(key, func(k string, _ int) error {
				if k == "value" {
					v, err := num("nvme_optional_admin_commands.value", powerstate.FieldOACS, 16)
					c.OACS = uint16(v)
					return err
				}
				return w.Skip(k)
			})
		case "nvme_composite_temperature_threshold":
			return w.Object(key, func(sub string, _ int) error {
				var dst *powerstate.Kelvin
				var field powerstate.Fields
				switch sub {
				case "warning":
					dst, field = &c.WarningTemp, powerstate.FieldWarningTemp
				case "critical":
					dst, field = &c.CriticalTemp, powerstate.FieldCriticalTemp
				default:
					return w.Skip(sub)
				}
				line := w.Line()
				v, err := w.Int(sub)
				if err != nil {
					return err
				}
				if v+273 < 0 || v+273 > 0xffff {
					return k.bad(field, key+"."+sub, line, "a temperature in Celsius from -273 to 65262", strconv.FormatInt(v, 10))
				}
				*dst = powerstate.Kelvin(v + 273)
				k.set(field)
				return nil
			})
		case "nvme_power_states":
			statesLine = w.Line()
			rows = 0
			c.PowerStates = [powerstate.MaxStates]powerstate.Descriptor{} // a repeated key replaces the array
			return w.Array(key, func(i, line int) error {
				if i >= powerstate.MaxStates {
					return syntaxErr(f, line, "at most 32 nvme_power_states elements", "element "+strconv.Itoa(i))
				}
				if err := parseSmartctlPSJSON(w, i, line, &c.PowerStates[i]); err != nil {
					return err
				}
				rows++
				return nil
			})
		}
		return w.Skip(key)
	})
	if err != nil {
		return powerstate.Controller{}, 0, err
	}
	switch {
	case rows < 0:
		return powerstate.Controller{}, 0, &ParseError{Format: f, Line: lastLine(s),
			Expected: `the "nvme_power_states" array (smartctl 7.5 or later; older versions print the table only as text)`,
			Err:      ErrNoPowerStates, Looks: notNVMe(s)}
	case rows == 0:
		return powerstate.Controller{}, 0, &ParseError{Format: f, Line: statesLine, Expected: "at least one nvme_power_states element", Err: ErrNoPowerStates}
	}
	c.NPSS = uint8(rows - 1)
	if rows < powerstate.MaxStates {
		k.set(powerstate.FieldNPSS)
	}
	k.set(powerstate.FieldPowerStates)
	k.finish(&c)
	return c, w.Pos(), nil
}

// smartctlJSONField returns the field a top-level key of smartctl's JSON
// holds, to refuse a key given twice; 0 for the keys not read.
func smartctlJSONField(key string) powerstate.Fields {
	switch key {
	case "model_name":
		return powerstate.FieldModel
	case "serial_number":
		return powerstate.FieldSerial
	case "firmware_version":
		return powerstate.FieldFirmware
	case "nvme_pci_vendor":
		return powerstate.FieldVendorID
	case "nvme_ieee_oui_identifier":
		return powerstate.FieldIEEE
	case "nvme_controller_id":
		return powerstate.FieldControllerID
	case "nvme_version":
		return powerstate.FieldVersion
	case "nvme_optional_admin_commands":
		return powerstate.FieldOACS
	case "nvme_composite_temperature_threshold":
		return powerstate.FieldWarningTemp
	case "nvme_power_states":
		return powerstate.FieldPowerStates
	}
	return 0
}

// parseSmartctlPSJSON reads one nvme_power_states element into d.
func parseSmartctlPSJSON(w *jsonWalker, i, line int, d *powerstate.Descriptor) error {
	const f = powerstate.FormatSmartctlJSON
	what := func() string { return "nvme_power_states[" + strconv.Itoa(i) + "]" }
	*d = powerstate.Descriptor{}
	const (
		hNonOp = 1 << iota
		hRRL
		hRRT
		hRWL
		hRWT
		hEnlat
		hExlat
		hMP
		hAll = 1<<iota - 1
	)
	var have int
	var mpValue uint64
	mpScale := uint64(0)
	w.SetScope("nvme_power_states", i)
	defer w.SetScope("", 0)
	var lines [8]int // the line of each key of the element, by its h bit
	err := w.Object("", func(key string, keyLine int) error {
		k := key
		if b := smartctlPSKeyBit(key); b >= 0 {
			if first := lines[b]; first != 0 {
				return dupKey(f, what()+"."+key, first, keyLine)
			}
			lines[b] = keyLine
		}
		switch key {
		case "non_operational_state":
			v, err := w.Bool(k)
			d.NonOperational = v
			have |= hNonOp
			return err
		case "relative_read_latency", "relative_read_throughput", "relative_write_latency", "relative_write_throughput":
			v, err := w.Uint(k, 8)
			switch key {
			case "relative_read_latency":
				d.RelativeReadLatency, have = uint8(v), have|hRRL
			case "relative_read_throughput":
				d.RelativeReadThroughput, have = uint8(v), have|hRRT
			case "relative_write_latency":
				d.RelativeWriteLatency, have = uint8(v), have|hRWL
			default:
				d.RelativeWriteThroughput, have = uint8(v), have|hRWT
			}
			return err
		case "entry_latency_us":
			v, err := w.Uint(k, 32)
			d.EntryLatency = powerstate.Microseconds(v)
			have |= hEnlat
			return err
		case "exit_latency_us":
			v, err := w.Uint(k, 32)
			d.ExitLatency = powerstate.Microseconds(v)
			have |= hExlat
			return err
		case "max_power":
			var upw uint64
			var upwSet bool
			mpLine := w.Line()
			err := w.Object("max_power", func(mk string, _ int) error {
				var err error
				switch mk {
				case "value":
					mpValue, err = w.Uint("max_power.value", 16)
					have |= hMP
				case "scale":
					mpScale, err = w.Uint("max_power.scale", 8)
				case "units_per_watt":
					upw, err = w.Uint("max_power.units_per_watt", 32)
					upwSet = true
				default:
					err = w.Skip(mk)
				}
				return err
			})
			if err != nil {
				return err
			}
			switch {
			case mpScale == 1 && (!upwSet || upw == 10000):
				d.MaxPower = powerstate.MaxPowerOf(uint16(mpValue), true)
			case mpScale == 2 && (!upwSet || upw == 100):
				d.MaxPower = powerstate.MaxPowerOf(uint16(mpValue), false)
			default:
				return syntaxErr(f, mpLine, `"scale" 1 (units_per_watt 10000) or 2 (units_per_watt 100) in `+k,
					"scale "+strconv.FormatUint(mpScale, 10)+", units_per_watt "+strconv.FormatUint(upw, 10))
			}
			return nil
		}
		return w.Skip(k)
	})
	if err != nil {
		return err
	}
	if have != hAll {
		return syntaxErr(f, line, "the keys non_operational_state, relative_read_latency, relative_read_throughput, "+
			"relative_write_latency, relative_write_throughput, entry_latency_us, exit_latency_us and max_power.value in "+what(),
			"an element without them")
	}
	return nil
}

// smartctlPSKeyBit returns the index of the h bit of a key of an
// nvme_power_states element, -1 for a key not read.
func smartctlPSKeyBit(key string) int {
	switch key {
	case "non_operational_state":
		return 0
	case "relative_read_latency":
		return 1
	case "relative_read_throughput":
		return 2
	case "relative_write_latency":
		return 3
	case "relative_write_throughput":
		return 4
	case "entry_latency_us":
		return 5
	case "exit_latency_us":
		return 6
	case "max_power":
		return 7
	}
	return -1
}
