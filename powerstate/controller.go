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

// Format names an Identify Controller capture format: where a
// Controller's data came from. Package powerstate/capture reads every one
// of them; the enumeration is declared here because Controller.Format
// records it. The forms of an APST feature capture are not here: they are
// capture.FeatureFormat, so that a new get-feature form touches
// powerstate/capture alone.
type Format uint8

// The capture formats.
const (
	FormatUnknown      Format = iota // not recorded (a Controller built in code) or not recognised
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

// Fields is a set of Controller fields, used by [Controller.Missing] to say
// which fields a capture did not carry. The zero value is the empty set.
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
	// FieldActivePower: ACTP and APS of every state.
	FieldActivePower
	// FieldActiveWorkload: APW of every state (nvme-cli prints it from
	// v2.1 on; the older text prints ACTP and APS only).
	FieldActiveWorkload
	// FieldControllerType: CNTRLTYPE (older nvme-cli versions and
	// smartctl do not print it).
	FieldControllerType
	// FieldIOCCSZ: IOCCSZ (smartctl does not print it).
	FieldIOCCSZ

	// FieldsAll is every field of the set: what a 4096-byte image carries.
	FieldsAll = FieldVendorID | FieldSubsystemVendorID | FieldSerial | FieldModel |
		FieldFirmware | FieldIEEE | FieldControllerID | FieldVersion | FieldRTD3Resume |
		FieldRTD3Entry | FieldOACS | FieldNPSS | FieldAVSCC | FieldAPSTA | FieldWarningTemp |
		FieldCriticalTemp | FieldPowerStates | FieldIdlePower | FieldActivePower | FieldActiveWorkload |
		FieldControllerType | FieldIOCCSZ
)

var fieldNames = [...]string{
	"vid", "ssvid", "sn", "mn", "fr", "ieee", "cntlid", "ver", "rtd3r", "rtd3e",
	"oacs", "npss", "avscc", "apsta", "wctemp", "cctemp", "psd", "idle_power",
	"active_power", "active_power_workload", "cntrltype", "ioccsz",
}

// Has reports whether every field of f2 is in f.
func (f Fields) Has(f2 Fields) bool { return f&f2 == f2 }

// String lists the fields by their nvme-cli names, e.g. "vid,mn,fr,npss",
// and "" for the empty set.
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
// The zero value is a controller built in code with every field known and
// zero: no vendor, NPSS 0 (one power state, PSD0, all zero) and APSTA 0.
// A Controller read from a capture says in Missing what the capture did not
// carry, and in Notes what it kept as unknown and why. Because of Notes a
// Controller is not comparable with ==; compare with reflect.DeepEqual or
// field by field.
type Controller struct {
	// VendorID is VID (bytes 1:0), the PCI vendor ID; the kernel's quirk table
	// matches on it.
	VendorID uint16
	// SubsystemVendorID is SSVID (bytes 3:2).
	SubsystemVendorID uint16
	// PCIDeviceID is the PCI device ID, which is not part of Identify
	// Controller: no capture format carries it, so a parser leaves it 0,
	// which means unknown. Setting it (from a live system, a bundle or a
	// --pci-id flag) is all it takes for the kernel's PCI quirk lookup to use
	// it.
	PCIDeviceID uint16
	// PCIVendorID is the PCI vendor ID of config space, which the kernel's
	// PCI ID table matches, when it differs from VendorID (the Identify
	// VID): some drives report another vendor there (the HP EX920: VID
	// 1dee, PCI 126f:2262). 0 means the same as VendorID. Like
	// PCIDeviceID, no capture carries it.
	PCIVendorID uint16
	// Serial is SN (bytes 23:4) with trailing space and NUL padding trimmed.
	Serial string
	// Model is MN (bytes 63:24) with trailing space and NUL padding trimmed,
	// for display; the kernel matches its quirk table on ModelField.
	Model string
	// Firmware is FR (bytes 71:64), trimmed, for display; the kernel matches
	// on FirmwareField.
	Firmware string
	// ModelField is MN (bytes 63:24) exactly as the field holds it: from an
	// image the 40 bytes, from a text or JSON capture the printed string
	// padded with spaces (the padding the capture implies). The kernel's
	// core_quirks table matches on these bytes. All zero when the model is
	// unknown (FieldModel in Missing) or for a Controller built in code
	// whose caller did not set it; see [Controller.ModelBytes].
	ModelField [ModelFieldSize]byte
	// FirmwareField is FR (bytes 71:64) exactly as the field holds it, as
	// ModelField.
	FirmwareField [FirmwareFieldSize]byte
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
	// ControllerType is CNTRLTYPE (byte 111): 0 not reported (controllers
	// before NVMe 1.4), 1 I/O controller, 2 discovery controller, 3
	// administrative controller. A discovery controller exists only on a
	// fabric; see [Controller.Fabrics].
	ControllerType uint8
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
	// IOCCSZ is I/O Queue Command Capsule Supported Size (bytes
	// 1795:1792), in 16-byte units: an NVMe over Fabrics I/O controller
	// reports at least 4 (the 64-byte command), a PCIe controller 0 (the
	// field is reserved there); see [Controller.Fabrics].
	IOCCSZ uint32
	// PowerStates holds all 32 descriptors PSD0..PSD31 (bytes 2048..3071).
	// Only PowerStates[0..NPSS] are valid; the rest are kept for re-encoding.
	PowerStates [MaxStates]Descriptor

	// Format records where the data came from.
	Format Format
	// Missing is the set of fields the source did not carry; they hold zero
	// values and mean "unknown". The zero value, the empty set, says every
	// field is known: a 4096-byte image, or a Controller built in code.
	Missing Fields
	// Notes says, one sentence each, what a capture held that the parser
	// kept as unknown instead of refusing the capture (a field APST does not
	// use that does not fit its Identify field, for example), naming the
	// line. It is nil for a clean capture.
	Notes []string
}

// ModelBytes returns MN (bytes 63:24) as the kernel compares it: ModelField
// when it is set, else Model padded with spaces to 40 bytes (what a
// Controller built in code with only Model set stands for).
func (c *Controller) ModelBytes() [ModelFieldSize]byte {
	if c.ModelField != ([lenMN]byte{}) {
		return c.ModelField
	}
	var out [lenMN]byte
	putField(out[:], c.Model)
	return out
}

// FirmwareBytes returns FR (bytes 71:64) as the kernel compares it, as
// [Controller.ModelBytes] does for MN.
func (c *Controller) FirmwareBytes() [FirmwareFieldSize]byte {
	if c.FirmwareField != ([lenFR]byte{}) {
		return c.FirmwareField
	}
	var out [lenFR]byte
	putField(out[:], c.Firmware)
	return out
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

// Knows reports whether every field of f came from the source (none is in
// Missing).
func (c *Controller) Knows(f Fields) bool { return c.Missing&f == 0 }

// Known returns the fields the source carried: FieldsAll without Missing.
func (c *Controller) Known() Fields { return FieldsAll &^ c.Missing }

// APSTAKnown reports whether APSTA came from the capture (FieldAPSTA is not
// in Missing).
func (c *Controller) APSTAKnown() bool {
	return !c.Missing.Has(FieldAPSTA)
}

// Fabrics reports whether the controller is an NVMe over Fabrics
// controller (NVMe/TCP, RDMA, FC or loop), and whether the capture says.
// It answers fabrics when IOCCSZ is non-zero or CNTRLTYPE is 2 (a discovery
// controller); not fabrics (PCIe) when IOCCSZ is 0 and CNTRLTYPE is
// neither 2 nor 3; unknown (known false) when the capture lacks IOCCSZ
// (smartctl, nvme-cli text without the line), and for an
// administrative controller (CNTRLTYPE 3) with IOCCSZ 0, which may be on
// either (IOCCSZ is reserved for it on a fabric too).
//
// The kernel plans APST for a fabrics controller as for a PCIe one, from
// the power states and APSTA the target reports; Linux nvmet and SPDK
// targets report APSTA 0.
func (c *Controller) Fabrics() (fabrics, known bool) {
	switch {
	case c.Knows(FieldIOCCSZ) && c.IOCCSZ != 0,
		c.Knows(FieldControllerType) && c.ControllerType == 2:
		return true, true
	case !c.Knows(FieldIOCCSZ),
		c.Knows(FieldControllerType) && c.ControllerType == 3:
		return false, false
	}
	return false, true
}

// PCIVendor returns the PCI vendor ID the kernel's PCI ID table matches:
// PCIVendorID when set, VendorID otherwise.
func (c *Controller) PCIVendor() uint16 {
	if c.PCIVendorID != 0 {
		return c.PCIVendorID
	}
	return c.VendorID
}
