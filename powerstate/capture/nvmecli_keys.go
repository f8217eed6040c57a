package capture

import (
	"strconv"
	"strings"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// nvmeKeyKind says how an id-ctrl key's value is printed.
type nvmeKeyKind uint8

const (
	keyHex    nvmeKeyKind = iota // %#x or %x: hexadecimal, 0x optional
	keyDecHex                    // %d in some versions, %#x in others: hex with 0x, else decimal
	keyString                    // %-.*s: space-padded string
)

// nvmeTextForm says how WriteNVMeCLIText prints an id-ctrl key's value (the
// current generation's format).
type nvmeTextForm uint8

const (
	textHashX  nvmeTextForm = iota // %#x: "0" for zero, "0x..." otherwise
	textDec                        // %d
	textHex6                       // %06x (ieee)
	textPadded                     // the space-padded string
)

// nvmeKey describes one id-ctrl key the model holds: its name in the text
// and the JSON, the Controller field, how it is read and written, and where
// its value is.
type nvmeKey struct {
	name  string
	field powerstate.Fields
	kind  nvmeKeyKind
	text  nvmeTextForm
	bits  int // width of the field (or the string width)
	// p points to the field in a Controller: a *string for keyString,
	// else a pointer to an unsigned integer type (see uintAt, setUintAt).
	p any
}

// nvmeKeyCount is the number of id-ctrl keys the model holds.
const nvmeKeyCount = 18

// nvmeKeysOf lists the nvme-cli id-ctrl keys the model holds, in nvme-cli's
// order, pointing into c: the keys of the text and of the JSON (the JSON has
// numbers where the text has keyHex or keyDecHex), read by the parsers
// and written by WriteNVMeCLIText and WriteNVMeCLIJSON.
func nvmeKeysOf(c *powerstate.Controller) [nvmeKeyCount]nvmeKey {
	return [...]nvmeKey{
		{"vid", powerstate.FieldVendorID, keyHex, textHashX, 16, &c.VendorID},
		{"ssvid", powerstate.FieldSubsystemVendorID, keyHex, textHashX, 16, &c.SubsystemVendorID},
		{"sn", powerstate.FieldSerial, keyString, textPadded, maxSerial, &c.Serial},
		{"mn", powerstate.FieldModel, keyString, textPadded, maxModel, &c.Model},
		{"fr", powerstate.FieldFirmware, keyString, textPadded, maxFirmware, &c.Firmware},
		{"ieee", powerstate.FieldIEEE, keyHex, textHex6, 24, &c.IEEE},
		{"cntlid", powerstate.FieldControllerID, keyHex, textHashX, 16, &c.ControllerID},
		{"ver", powerstate.FieldVersion, keyHex, textHashX, 32, &c.Version},
		{"rtd3r", powerstate.FieldRTD3Resume, keyHex, textHashX, 32, &c.RTD3Resume},
		{"rtd3e", powerstate.FieldRTD3Entry, keyHex, textHashX, 32, &c.RTD3Entry},
		{"cntrltype", powerstate.FieldControllerType, keyDecHex, textDec, 8, &c.ControllerType},
		{"oacs", powerstate.FieldOACS, keyHex, textHashX, 16, &c.OACS},
		{"npss", powerstate.FieldNPSS, keyDecHex, textDec, 8, &c.NPSS},
		{"avscc", powerstate.FieldAVSCC, keyDecHex, textHashX, 8, &c.AVSCC},
		{"apsta", powerstate.FieldAPSTA, keyDecHex, textHashX, 8, &c.APSTA},
		{"wctemp", powerstate.FieldWarningTemp, keyDecHex, textDec, 16, &c.WarningTemp},
		{"cctemp", powerstate.FieldCriticalTemp, keyDecHex, textDec, 16, &c.CriticalTemp},
		{"ioccsz", powerstate.FieldIOCCSZ, keyDecHex, textDec, 32, &c.IOCCSZ},
	}
}

// nvmeKeyIndex maps the names of nvmeKeysOf to their index.
var nvmeKeyIndex = func() map[string]int {
	keys := nvmeKeysOf(new(powerstate.Controller))
	m := make(map[string]int, len(keys))
	for i, k := range keys {
		m[k.name] = i
	}
	return m
}()

// uintAt returns the value of the numeric field p points to, cut to bits.
func uintAt(p any, bits int) uint64 {
	var v uint64
	switch p := p.(type) {
	case *uint8:
		v = uint64(*p)
	case *uint16:
		v = uint64(*p)
	case *uint32:
		v = uint64(*p)
	case *powerstate.Version:
		v = uint64(*p)
	case *powerstate.Microseconds:
		v = uint64(*p)
	case *powerstate.Kelvin:
		v = uint64(*p)
	}
	return v & (1<<bits - 1)
}

// setUintAt stores v in the numeric field p points to.
func setUintAt(p any, v uint64) {
	switch p := p.(type) {
	case *uint8:
		*p = uint8(v)
	case *uint16:
		*p = uint16(v)
	case *uint32:
		*p = uint32(v)
	case *powerstate.Version:
		*p = powerstate.Version(v)
	case *powerstate.Microseconds:
		*p = powerstate.Microseconds(v)
	case *powerstate.Kelvin:
		*p = powerstate.Kelvin(v)
	}
}

// setNVMeKey stores the value of an id-ctrl key where k points; the error
// text says what was expected.
func setNVMeKey(key string, k *nvmeKey, val string) error {
	if k.kind == keyString {
		v, ok := cleanString(val, k.bits)
		if !ok {
			return errorString("at most " + strconv.Itoa(k.bits) + " characters for " + key)
		}
		*k.p.(*string) = v
		return nil
	}
	tok, _, _ := strings.Cut(strings.TrimSpace(val), " ")
	var v uint64
	var ok bool
	if k.kind == keyHex || strings.HasPrefix(tok, "0x") || strings.HasPrefix(tok, "0X") {
		v, ok = parseHex(tok, k.bits)
	} else {
		v, ok = parseDec(tok, k.bits)
	}
	if !ok {
		what := "a decimal or 0x-prefixed hexadecimal"
		if k.kind == keyHex {
			what = "a hexadecimal"
		}
		return errorString(what + " " + strconv.Itoa(k.bits) + "-bit value for " + key)
	}
	setUintAt(k.p, v)
	return nil
}

// errorString is a plain error whose text is what was expected.
type errorString string

func (e errorString) Error() string { return string(e) }
