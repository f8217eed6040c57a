package powerstate

import (
	"io"
	"strconv"
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
func ParseSmartctlJSON(r io.Reader) (Controller, error) {
	b, err := readCapture(r, FormatSmartctlJSON)
	if err != nil {
		return Controller{}, err
	}
	return parseSmartctlJSON(decodeText(b))
}

func parseSmartctlJSON(s string) (Controller, error) {
	const f = FormatSmartctlJSON
	w, err := newJSONWalker(f, s)
	if err != nil {
		return Controller{}, err
	}
	c := Controller{Format: f}
	var known Fields
	rows := -1
	statesLine := 0
	str := func(key string, field Fields, width int, dst *string) error {
		line := w.line(w.here())
		v, err := w.string(key)
		if err != nil {
			return err
		}
		cv, ok := cleanString(v, width)
		if !ok {
			return syntaxErr(f, line, "at most "+strconv.Itoa(width)+" characters for "+key, v)
		}
		*dst = cv
		known |= field
		return nil
	}
	err = w.object("the smartctl object", func(key string) error {
		switch key {
		case "model_name":
			return str(key, FieldModel, maxModel, &c.Model)
		case "serial_number":
			return str(key, FieldSerial, maxSerial, &c.Serial)
		case "firmware_version":
			return str(key, FieldFirmware, maxFirmware, &c.Firmware)
		case "nvme_pci_vendor":
			return w.object(key, func(k string) error {
				switch k {
				case "id":
					v, err := w.uint(key+".id", 16)
					c.VendorID = uint16(v)
					known |= FieldVendorID
					return err
				case "subsystem_id":
					v, err := w.uint(key+".subsystem_id", 16)
					c.SubsystemVendorID = uint16(v)
					known |= FieldSubsystemVendorID
					return err
				}
				return w.skip(key + "." + k)
			})
		case "nvme_ieee_oui_identifier":
			v, err := w.uint(key, 24)
			c.IEEE = uint32(v)
			known |= FieldIEEE
			return err
		case "nvme_controller_id":
			v, err := w.uint(key, 16)
			c.ControllerID = uint16(v)
			known |= FieldControllerID
			return err
		case "nvme_version":
			return w.object(key, func(k string) error {
				if k == "value" {
					v, err := w.uint(key+".value", 32)
					c.Version = Version(v)
					known |= FieldVersion
					return err
				}
				return w.skip(key + "." + k)
			})
		case "nvme_optional_admin_commands":
			return w.object(key, func(k string) error {
				if k == "value" {
					v, err := w.uint(key+".value", 16)
					c.OACS = uint16(v)
					known |= FieldOACS
					return err
				}
				return w.skip(key + "." + k)
			})
		case "nvme_composite_temperature_threshold":
			return w.object(key, func(k string) error {
				var dst *Kelvin
				var field Fields
				switch k {
				case "warning":
					dst, field = &c.WarningTemp, FieldWarningTemp
				case "critical":
					dst, field = &c.CriticalTemp, FieldCriticalTemp
				default:
					return w.skip(key + "." + k)
				}
				line := w.line(w.here())
				v, err := w.int(key + "." + k)
				if err != nil {
					return err
				}
				if v+273 < 0 || v+273 > 0xffff {
					return syntaxErr(f, line, "a temperature in Celsius from -273 to 65262 for "+key+"."+k, strconv.FormatInt(v, 10))
				}
				*dst = Kelvin(v + 273)
				known |= field
				return nil
			})
		case "nvme_power_states":
			statesLine = w.line(w.here())
			rows = 0
			c.PowerStates = [MaxStates]Descriptor{} // a repeated key replaces the array
			return w.array(key, func(i, line int) error {
				if i >= MaxStates {
					return syntaxErr(f, line, "at most 32 nvme_power_states elements", "element "+strconv.Itoa(i))
				}
				if err := parseSmartctlPSJSON(w, i, line, &c.PowerStates[i]); err != nil {
					return err
				}
				rows++
				return nil
			})
		}
		return w.skip("the value of " + key)
	})
	if err != nil {
		return Controller{}, err
	}
	switch {
	case rows < 0:
		return Controller{}, &ParseError{Format: f, Line: lastLine(s),
			Expected: `the "nvme_power_states" array (smartctl 7.5 or later; older versions print the table only as text)`,
			Err:      ErrNoPowerStates}
	case rows == 0:
		return Controller{}, &ParseError{Format: f, Line: statesLine, Expected: "at least one nvme_power_states element", Err: ErrNoPowerStates}
	}
	c.NPSS = uint8(rows - 1)
	if rows < MaxStates {
		known |= FieldNPSS
	}
	c.Known = known | FieldPowerStates
	return c, nil
}

// parseSmartctlPSJSON reads one nvme_power_states element into d.
func parseSmartctlPSJSON(w *jsonWalker, i, line int, d *Descriptor) error {
	const f = FormatSmartctlJSON
	what := "nvme_power_states[" + strconv.Itoa(i) + "]"
	*d = Descriptor{}
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
	err := w.object(what, func(key string) error {
		k := what + "." + key
		switch key {
		case "non_operational_state":
			v, err := w.bool(k)
			d.NonOperational = v
			have |= hNonOp
			return err
		case "relative_read_latency", "relative_read_throughput", "relative_write_latency", "relative_write_throughput":
			v, err := w.uint(k, 8)
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
			v, err := w.uint(k, 32)
			d.EntryLatency = Microseconds(v)
			have |= hEnlat
			return err
		case "exit_latency_us":
			v, err := w.uint(k, 32)
			d.ExitLatency = Microseconds(v)
			have |= hExlat
			return err
		case "max_power":
			var upw uint64
			var upwSet bool
			mpLine := w.line(w.here())
			err := w.object(k, func(mk string) error {
				var err error
				switch mk {
				case "value":
					mpValue, err = w.uint(k+".value", 16)
					have |= hMP
				case "scale":
					mpScale, err = w.uint(k+".scale", 8)
				case "units_per_watt":
					upw, err = w.uint(k+".units_per_watt", 32)
					upwSet = true
				default:
					err = w.skip(k + "." + mk)
				}
				return err
			})
			if err != nil {
				return err
			}
			switch {
			case mpScale == 1 && (!upwSet || upw == 10000):
				d.MaxPower = MaxPowerOf(uint16(mpValue), true)
			case mpScale == 2 && (!upwSet || upw == 100):
				d.MaxPower = MaxPowerOf(uint16(mpValue), false)
			default:
				return syntaxErr(f, mpLine, `"scale" 1 (units_per_watt 10000) or 2 (units_per_watt 100) in `+k,
					"scale "+strconv.FormatUint(mpScale, 10)+", units_per_watt "+strconv.FormatUint(upw, 10))
			}
			return nil
		}
		return w.skip(k)
	})
	if err != nil {
		return err
	}
	if have != hAll {
		return syntaxErr(f, line, "the keys non_operational_state, relative_read_latency, relative_read_throughput, "+
			"relative_write_latency, relative_write_throughput, entry_latency_us, exit_latency_us and max_power.value in "+what,
			"an element without them")
	}
	return nil
}
