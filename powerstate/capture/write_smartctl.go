package capture

import (
	"fmt"
	"io"
	"strings"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// oacsNames are smartctl's abbreviations of the OACS bits 0 to 9.
var oacsNames = [...]string{"Security", "Format", "Frmw_DL", "NS_Mngmt", "Self_Test",
	"Directvs", "MI_Snd/Rec", "Vrt_Mngmt", "Drbl_Bf_Cfg", "Get_LBA_Sts"}

// smartctlPower formats a power value as smartctl's table does: "- " when
// the scale is 0, four or two decimals and "W", "?" for scale 3.
func smartctlPower(p powerstate.Power) string {
	switch p.Scale & 3 {
	case powerstate.ScaleNotReported:
		return "- "
	case powerstate.ScaleReserved:
		return "?"
	}
	return p.String()
}

// WriteSmartctlText writes c as the information section and "Supported
// Power States" table of "smartctl -a" (the layout of smartctl 6.5 to 7.5).
// It leaves out the version banner and writes only the lines the model holds:
// Model Number, Serial Number, Firmware Version, the PCI vendor line(s),
// IEEE OUI Identifier, Controller ID, NVMe Version, Optional Admin Commands,
// the temperature thresholds (in Celsius; "-" for a known 0), each written
// only when known, then the table of states 0..NPSS (at most 32) and the
// blank line that ends it.
//
// The Active and Idle columns are written as smartctl would print them for
// this controller, that is with smartctl's decoding of the scale bytes
// (Active scaled by APW bits 1:0, Idle always "-"); nothing reads them back.
// ParseSmartctlText of the output gives back every known field smartctl
// carries (see ParseSmartctlText), with the ranks masked to 5 bits.
func WriteSmartctlText(w io.Writer, c *powerstate.Controller) error {
	if c == nil {
		return ErrNilController
	}
	known := writtenFields(c)
	if err := checkStrings(c, known, powerstate.FormatSmartctlText, false); err != nil {
		return err
	}
	var b []byte
	b = append(b, "=== START OF INFORMATION SECTION ===\n"...)
	line := func(key, format string, args ...any) {
		b = append(b, key...)
		b = append(b, ':')
		for i := len(key) + 1; i < 36; i++ {
			b = append(b, ' ')
		}
		b = fmt.Appendf(b, format, args...)
		b = append(b, '\n')
	}
	if known.Has(powerstate.FieldModel) {
		line("Model Number", "%s", c.Model)
	}
	if known.Has(powerstate.FieldSerial) {
		line("Serial Number", "%s", c.Serial)
	}
	if known.Has(powerstate.FieldFirmware) {
		line("Firmware Version", "%s", c.Firmware)
	}
	if known.Has(powerstate.FieldVendorID|powerstate.FieldSubsystemVendorID) && c.VendorID == c.SubsystemVendorID {
		line("PCI Vendor/Subsystem ID", "0x%04x", c.VendorID)
	} else {
		if known.Has(powerstate.FieldVendorID) {
			line("PCI Vendor ID", "0x%04x", c.VendorID)
		}
		if known.Has(powerstate.FieldSubsystemVendorID) {
			line("PCI Vendor Subsystem ID", "0x%04x", c.SubsystemVendorID)
		}
	}
	if known.Has(powerstate.FieldIEEE) {
		line("IEEE OUI Identifier", "0x%06x", c.IEEE&0xffffff)
	}
	if known.Has(powerstate.FieldControllerID) {
		line("Controller ID", "%d", c.ControllerID)
	}
	if known.Has(powerstate.FieldVersion) {
		v := "<1.2"
		if c.Version != 0 {
			v = fmt.Sprintf("%d.%d", c.Version.Major(), c.Version.Minor())
			if c.Version.Tertiary() != 0 {
				v += fmt.Sprintf(".%d", c.Version.Tertiary())
			}
		}
		line("NVMe Version", "%s", v)
	}
	if known.Has(powerstate.FieldOACS) {
		var names []string
		for i, n := range oacsNames {
			if c.OACS&(1<<i) != 0 {
				names = append(names, n)
			}
		}
		if c.OACS&^0x3ff != 0 {
			names = append(names, "*Other*")
		}
		if c.OACS == 0 {
			names = []string{"-"}
		}
		line(fmt.Sprintf("Optional Admin Commands (0x%04x)", c.OACS), "%s", strings.Join(names, " "))
	}
	temp := func(f powerstate.Fields, key string, k powerstate.Kelvin) {
		if !known.Has(f) {
			return
		}
		if k == 0 {
			line(key, "-")
		} else {
			line(key, "%d Celsius", k.Celsius())
		}
	}
	temp(powerstate.FieldWarningTemp, "Warning  Comp. Temp. Threshold", c.WarningTemp)
	temp(powerstate.FieldCriticalTemp, "Critical Comp. Temp. Threshold", c.CriticalTemp)

	b = append(b, "\nSupported Power States\n"...)
	b = append(b, "St Op     Max   Active     Idle   RL RT WL WT  Ent_Lat  Ex_Lat\n"...)
	for i, d := range c.States() {
		op := '+'
		if d.NonOperational {
			op = '-'
		}
		active := powerstate.Power{}
		if known.Has(powerstate.FieldActivePower | powerstate.FieldActiveWorkload) {
			// smartctl scales ACTP by the raw byte 22 & 3, i.e. APW bits 1:0.
			active = powerstate.Power{Units: d.ActivePower.Units, Scale: powerstate.Scale(d.ActiveWorkload & 3)}
		}
		b = fmt.Appendf(b, "%2d %c %9s %8s %8s %3d %2d %2d %2d %8d %7d\n", i, op,
			normalizeMaxPower(d.MaxPower).String(), smartctlPower(active), smartctlPower(powerstate.Power{}),
			d.RelativeReadLatency&0x1f, d.RelativeReadThroughput&0x1f,
			d.RelativeWriteLatency&0x1f, d.RelativeWriteThroughput&0x1f,
			d.EntryLatency, d.ExitLatency)
	}
	b = append(b, '\n')
	return writeCapture(w, b, powerstate.FormatSmartctlText)
}
