package apsttest

import (
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// Latency edge values: 0 and 1, the Samsung 990 EVO Plus's exit latencies,
// the band edges of the default tolerances, the totals at which the 2%
// heuristic's ceil(total/20) reaches its cap of 2^24-1 ms, and the 32-bit
// maximum.
var edgeLatencies = []powerstate.Microseconds{
	0, 1, 4600, 15000, 15001, 43000, 100000, 100001,
	335544280, 335544300, 335544301, 1<<31 - 1, 1 << 31, 1<<32 - 1,
}

// edgeNPSS are NPSS values at and around the kernel's limit of 31.
var edgeNPSS = []uint8{0, 1, 2, 3, 4, 5, 7, 15, 30, 31, 32, 33, 127, 255}

// edgeAPSTA are APSTA bytes: the kernel tests the whole byte for non-zero.
var edgeAPSTA = []uint8{0, 1, 2, 3, 0x80, 0xfe, 0xff}

// edgeVendors are VIDs: none, vendors with quirked drives (Samsung,
// Intel, Toshiba, Phison, SK hynix, Kingston) and 0xffff.
var edgeVendors = []uint16{0, 0x144d, 0x8086, 0x1179, 0x1987, 0x1c5c, 0x2646, 0xffff}

// edgeModels are model strings: none, models the kernel's quirk tables
// name (by core_quirks or by the PCI ID they imply) and unquirked ones.
var edgeModels = []string{
	"", "THNSF5256GPUK TOSHIBA", "INTEL SSDPEKKW256G7", "Samsung SSD 990 EVO Plus 1TB",
	"Samsung SSD 970 EVO Plus 1TB", "KINGSTON SA2000M8500G", "Acme One",
}

// Latency returns a generator of ENLAT/EXLAT values (µs, 32 bits): edge
// values (0, 1, the default band edges, the heuristic cap, 2^32-1), small
// values up to 200000 and any 32-bit value.
func Latency() *rapid.Generator[powerstate.Microseconds] {
	return rapid.Custom(func(t *rapid.T) powerstate.Microseconds {
		switch rapid.IntRange(0, 3).Draw(t, "latency-kind") {
		case 0:
			return rapid.SampledFrom(edgeLatencies).Draw(t, "edge")
		case 1:
			return powerstate.Microseconds(rapid.Uint32Range(0, 200000).Draw(t, "small"))
		case 2:
			return powerstate.Microseconds(rapid.Uint32Range(0, 2000).Draw(t, "tiny"))
		}
		return powerstate.Microseconds(rapid.Uint32().Draw(t, "any"))
	})
}

// Controller returns a generator of Identify Controller models as Build
// reads them. It draws NPSS 0..31 and above 31 (14 values and every value
// up to 31), APSTA 0, 1 and other bytes, and in about one draw in five an
// unknown APSTA (powerstate.FieldAPSTA in Missing, as a smartctl capture
// gives), a VID and a model (MN) from short lists that include drives the
// kernel's quirk tables name, for quirk lookups (DriveQuirks). All 32
// descriptors are drawn, operational and non-operational, with latencies
// from Latency and any MP and MXPS; about one controller in four has only
// operational states and one in four only non-operational states beyond
// PSD0, so that both extremes are common.
//
// The controllers are valid models (every field within its Identify
// width) but not necessarily plausible drives.
func Controller() *rapid.Generator[powerstate.Controller] {
	return rapid.Custom(func(t *rapid.T) powerstate.Controller {
		var c powerstate.Controller
		if rapid.Bool().Draw(t, "npss-edge") {
			c.NPSS = rapid.SampledFrom(edgeNPSS).Draw(t, "npss")
		} else {
			c.NPSS = uint8(rapid.IntRange(0, 31).Draw(t, "npss"))
		}
		c.APSTA = rapid.SampledFrom(edgeAPSTA).Draw(t, "apsta")
		if rapid.IntRange(0, 4).Draw(t, "apsta-unknown") == 0 {
			c.Missing |= powerstate.FieldAPSTA
			c.APSTA = 0
		}
		c.VendorID = rapid.SampledFrom(edgeVendors).Draw(t, "vid")
		c.Model = rapid.SampledFrom(edgeModels).Draw(t, "model")
		ops := rapid.IntRange(0, 3).Draw(t, "op-layout") // 0 all op, 1 all non-op beyond PSD0, else mixed
		for i := range c.PowerStates {
			d := &c.PowerStates[i]
			switch ops {
			case 0:
				d.NonOperational = false
			case 1:
				d.NonOperational = i > 0
			default:
				d.NonOperational = rapid.Bool().Draw(t, "nops")
			}
			d.EntryLatency = Latency().Draw(t, "enlat")
			d.ExitLatency = Latency().Draw(t, "exlat")
			d.MaxPower = powerstate.MaxPowerOf(rapid.Uint16().Draw(t, "mp"), rapid.Bool().Draw(t, "mxps"))
		}
		return c
	})
}
