package powerstate

import (
	"fmt"
	"strings"
)

// Version is the NVMe version a controller reports (VER, Identify bytes 83:80),
// encoded as in the VS register: major in bits 31:16, minor in 15:8 and
// tertiary in 7:0. Pre-1.2 controllers may report 0.
type Version uint32

// NewVersion encodes major.minor.tertiary.
func NewVersion(major uint16, minor, tertiary uint8) Version {
	return Version(uint32(major)<<16 | uint32(minor)<<8 | uint32(tertiary))
}

// Major returns the major version (bits 31:16).
func (v Version) Major() uint16 { return uint16(v >> 16) }

// Minor returns the minor version (bits 15:8).
func (v Version) Minor() uint8 { return uint8(v >> 8) }

// Tertiary returns the tertiary version (bits 7:0).
func (v Version) Tertiary() uint8 { return uint8(v) }

// String formats the version as "2.0" or "1.3.1" (the tertiary part only when
// non-zero), and "0" when the controller reports none.
func (v Version) String() string {
	if v == 0 {
		return "0"
	}
	if v.Tertiary() != 0 {
		return fmt.Sprintf("%d.%d.%d", v.Major(), v.Minor(), v.Tertiary())
	}
	return fmt.Sprintf("%d.%d", v.Major(), v.Minor())
}

// Format names where a Controller's data came from.
type Format uint8

// The capture formats a Controller can be read from.
const (
	FormatUnknown      Format = iota // not recorded (a Controller built in code)
	FormatBinary                     // a 4096-byte Identify Controller image
	FormatNVMeCLIText                // nvme id-ctrl text output
	FormatNVMeCLIJSON                // nvme id-ctrl -o json
	FormatSmartctlText               // smartctl -a/-x/-c text
	FormatSmartctlJSON               // smartctl -j (7.5 and later)
)

var formatNames = [...]string{
	FormatUnknown:      "unknown",
	FormatBinary:       "binary",
	FormatNVMeCLIText:  "nvme-cli-text",
	FormatNVMeCLIJSON:  "nvme-cli-json",
	FormatSmartctlText: "smartctl-text",
	FormatSmartctlJSON: "smartctl-json",
}

// String returns the format's stable name, e.g. "nvme-cli-json".
func (f Format) String() string {
	if int(f) < len(formatNames) {
		return formatNames[f]
	}
	return fmt.Sprintf("Format(%d)", uint8(f))
}

// Fields is a set of Controller fields, used to say which ones a capture
// carried. A field outside the set holds its zero value and means "unknown".
type Fields uint32

// The fields of a Controller whose presence depends on the capture.
const (
	FieldVendorID Fields = 1 << iota
	FieldSubsystemVendorID
	FieldSerial
	FieldModel
	FieldFirmware
	FieldIEEE
	FieldControllerID
	FieldVersion
	FieldRTD3Resume
	FieldRTD3Entry
	FieldOACS
	FieldNPSS
	FieldAVSCC
	FieldAPSTA
	FieldWarningTemp
	FieldCriticalTemp
	// FieldPowerStates: MP, MXPS, NOPS, ENLAT, EXLAT and the relative
	// throughput/latency ranks of states 0..NPSS.
	FieldPowerStates
	// FieldIdlePower: IDLP and IPS of every state.
	FieldIdlePower
	// FieldActivePower: ACTP, APS and APW of every state.
	FieldActivePower
	// FieldPCIDeviceID: the PCI device ID, which Identify Controller does not
	// hold but some captures and live systems do.
	FieldPCIDeviceID

	// FieldsIdentify is every field a 4096-byte image carries.
	FieldsIdentify = FieldVendorID | FieldSubsystemVendorID | FieldSerial | FieldModel |
		FieldFirmware | FieldIEEE | FieldControllerID | FieldVersion | FieldRTD3Resume |
		FieldRTD3Entry | FieldOACS | FieldNPSS | FieldAVSCC | FieldAPSTA | FieldWarningTemp |
		FieldCriticalTemp | FieldPowerStates | FieldIdlePower | FieldActivePower
)

var fieldNames = [...]string{
	"vid", "ssvid", "sn", "mn", "fr", "ieee", "cntlid", "ver", "rtd3r", "rtd3e",
	"oacs", "npss", "avscc", "apsta", "wctemp", "cctemp", "psd", "idle_power",
	"active_power", "pci_device_id",
}

// Has reports whether every field of f2 is in f.
func (f Fields) Has(f2 Fields) bool { return f&f2 == f2 }

// String lists the fields by their nvme-cli names, e.g. "vid,mn,fr,npss".
func (f Fields) String() string {
	var names []string
	for i, n := range fieldNames {
		if f&(1<<i) != 0 {
			names = append(names, n)
		}
	}
	return strings.Join(names, ",")
}

// Controller is the APST-relevant part of an NVMe Identify Controller data
// structure (CNS 01h), together with the provenance of each field.
//
// The zero value is a controller with no power states and nothing known.
type Controller struct {
	// VendorID is VID (bytes 1:0), the PCI vendor ID; the kernel's quirk table
	// matches on it.
	VendorID uint16
	// SubsystemVendorID is SSVID (bytes 3:2).
	SubsystemVendorID uint16
	// PCIDeviceID is the PCI device ID. It is not part of Identify Controller;
	// it is set from captures or systems that record it (FieldPCIDeviceID).
	PCIDeviceID uint16
	// Serial is SN (bytes 23:4) with trailing space and NUL padding trimmed.
	Serial string
	// Model is MN (bytes 63:24), trimmed; the kernel's quirk table matches on it.
	Model string
	// Firmware is FR (bytes 71:64), trimmed; the kernel's quirk table matches on it.
	Firmware string
	// IEEE is the IEEE OUI (bytes 75:73) as printers show it: byte 75 is the
	// most significant (0x002538 for Samsung).
	IEEE uint32
	// ControllerID is CNTLID (bytes 79:78).
	ControllerID uint16
	// Version is VER (bytes 83:80).
	Version Version
	// RTD3Resume is RTD3R (bytes 87:84).
	RTD3Resume Microseconds
	// RTD3Entry is RTD3E (bytes 91:88).
	RTD3Entry Microseconds
	// OACS is Optional Admin Command Support (bytes 257:256).
	OACS uint16
	// NPSS is Number of Power States Support (byte 263), 0-based: the index of
	// the last valid descriptor. It is kept as is even above 31, because the
	// kernel refuses APST on such a value; [Controller.States] stops at 31.
	NPSS uint8
	// AVSCC is Admin Vendor Specific Command Configuration (byte 264).
	AVSCC uint8
	// APSTA is Autonomous Power State Transition Attributes (byte 265) as a raw
	// byte: bit 0 says APST is supported, and the kernel tests the whole byte
	// for non-zero.
	APSTA uint8
	// WarningTemp is WCTEMP (bytes 267:266).
	WarningTemp Kelvin
	// CriticalTemp is CCTEMP (bytes 269:268).
	CriticalTemp Kelvin
	// PowerStates holds all 32 descriptors PSD0..PSD31 (bytes 2048..3071).
	// Only PowerStates[0..NPSS] are valid; the rest are kept for re-encoding.
	PowerStates [MaxStates]Descriptor

	// Format records where the data came from.
	Format Format
	// Known is the set of fields the source carried; the others are unknown
	// and hold zero values.
	Known Fields
}

// StateCount returns the number of valid power states, NPSS+1, capped at
// MaxStates.
func (c *Controller) StateCount() int {
	n := int(c.NPSS) + 1
	if n > MaxStates {
		n = MaxStates
	}
	return n
}

// States returns the valid descriptors PSD0..PSD(NPSS), at most 32. The slice
// aliases c.PowerStates.
func (c *Controller) States() []Descriptor {
	return c.PowerStates[:c.StateCount()]
}

// NPSSValid reports whether NPSS is at most 31, the kernel's condition for
// using APST at all.
func (c *Controller) NPSSValid() bool { return c.NPSS < MaxStates }

// APSTSupported reports whether APSTA is non-zero, which is all the kernel
// tests. It reports true for a controller whose APSTA is unknown; use
// [Controller.APSTAKnown] to tell the two apart.
func (c *Controller) APSTSupported() bool {
	return c.APSTA != 0 || !c.APSTAKnown()
}

// APSTAKnown reports whether APSTA came from the capture. A zero Known set
// (a Controller built in code) counts as fully known.
func (c *Controller) APSTAKnown() bool {
	return c.Known == 0 || c.Known.Has(FieldAPSTA)
}
