package powerstate

import (
	"strconv"
	"strings"
)

// nvmeKeyKind says how an id-ctrl key's value is printed.
type nvmeKeyKind uint8

const (
	kindHex    nvmeKeyKind = iota // %#x or %x: hexadecimal, 0x optional
	kindDecHex                    // %d in some versions, %#x in others: hex with 0x, else decimal
	kindString                    // %-.*s: space-padded string
)

// nvmeKey describes one id-ctrl key the model holds.
type nvmeKey struct {
	field Fields
	kind  nvmeKeyKind
	bits  int // width of the field (or the string width)
}

// nvmeKeys maps the nvme-cli id-ctrl keys, of the text and of the JSON, to
// the Controller fields (the JSON has numbers where the text has kindHex or
// kindDecHex).
var nvmeKeys = map[string]nvmeKey{
	"vid":    {FieldVendorID, kindHex, 16},
	"ssvid":  {FieldSubsystemVendorID, kindHex, 16},
	"sn":     {FieldSerial, kindString, maxSerial},
	"mn":     {FieldModel, kindString, maxModel},
	"fr":     {FieldFirmware, kindString, maxFirmware},
	"ieee":   {FieldIEEE, kindHex, 24},
	"cntlid": {FieldControllerID, kindHex, 16},
	"ver":    {FieldVersion, kindHex, 32},
	"rtd3r":  {FieldRTD3Resume, kindHex, 32},
	"rtd3e":  {FieldRTD3Entry, kindHex, 32},
	"oacs":   {FieldOACS, kindHex, 16},
	"npss":   {FieldNPSS, kindDecHex, 8},
	"avscc":  {FieldAVSCC, kindDecHex, 8},
	"apsta":  {FieldAPSTA, kindDecHex, 8},
	"wctemp": {FieldWarningTemp, kindDecHex, 16},
	"cctemp": {FieldCriticalTemp, kindDecHex, 16},
}

// setNVMeKey stores the value of an id-ctrl key; the error text says what
// was expected.
func setNVMeKey(c *Controller, key string, k nvmeKey, val string) error {
	if k.kind == kindString {
		v, ok := cleanString(val, k.bits)
		if !ok {
			return errorString("at most " + strconv.Itoa(k.bits) + " characters for " + key)
		}
		switch k.field {
		case FieldSerial:
			c.Serial = v
		case FieldModel:
			c.Model = v
		case FieldFirmware:
			c.Firmware = v
		}
		return nil
	}
	tok, _, _ := strings.Cut(strings.TrimSpace(val), " ")
	var v uint64
	var ok bool
	if k.kind == kindHex || strings.HasPrefix(tok, "0x") || strings.HasPrefix(tok, "0X") {
		v, ok = parseHex(tok, k.bits)
	} else {
		v, ok = parseDec(tok, k.bits)
	}
	if !ok {
		what := "a decimal or 0x-prefixed hexadecimal"
		if k.kind == kindHex {
			what = "a hexadecimal"
		}
		return errorString(what + " " + strconv.Itoa(k.bits) + "-bit value for " + key)
	}
	setNVMeValue(c, k.field, v)
	return nil
}

// setNVMeValue stores the value of a numeric id-ctrl field.
func setNVMeValue(c *Controller, field Fields, v uint64) {
	switch field {
	case FieldVendorID:
		c.VendorID = uint16(v)
	case FieldSubsystemVendorID:
		c.SubsystemVendorID = uint16(v)
	case FieldIEEE:
		c.IEEE = uint32(v)
	case FieldControllerID:
		c.ControllerID = uint16(v)
	case FieldVersion:
		c.Version = Version(v)
	case FieldRTD3Resume:
		c.RTD3Resume = Microseconds(v)
	case FieldRTD3Entry:
		c.RTD3Entry = Microseconds(v)
	case FieldOACS:
		c.OACS = uint16(v)
	case FieldNPSS:
		c.NPSS = uint8(v)
	case FieldAVSCC:
		c.AVSCC = uint8(v)
	case FieldAPSTA:
		c.APSTA = uint8(v)
	case FieldWarningTemp:
		c.WarningTemp = Kelvin(v)
	case FieldCriticalTemp:
		c.CriticalTemp = Kelvin(v)
	}
}

// errorString is a plain error whose text is what was expected.
type errorString string

func (e errorString) Error() string { return string(e) }
