package apst

import (
	"encoding/hex"
	"strconv"
)

// logTableBytes is how much of the table the kernel's %*phN prints: its hex
// printer stops at 64 bytes, i.e. entries 0 to 7.
const logTableBytes = 64

// KernelLog returns the one APST line the kernel logs for this plan, without
// the "nvme nvmeN: " prefix. The line is "APST enabled: max PS = 4, max
// round-trip latency = 44600us, table = <hex>" (only entries 0-7, the first
// 64 bytes, as lower-case hex in memory order), "APST enabled but no
// non-operational states are available", "APST disabled", the warning "NPSS
// is invalid; not using APST", or "" when nothing is logged (APSTA 0).
//
// All but the NPSS warning are dev_dbg lines, visible only with dynamic
// debug. The wording is that of v4.12 and later; v4.11 logged no debug line
// at all ([Plan.Logs] tells).
func (p *Plan) KernelLog() string {
	switch p.Outcome {
	case OutcomeInvalidNPSS:
		return "NPSS is invalid; not using APST"
	case OutcomeDisabled:
		return "APST disabled"
	case OutcomeNoStates:
		return "APST enabled but no non-operational states are available"
	case OutcomeEnabled:
		var raw [logTableBytes]byte
		for i := 0; i < logTableBytes/8; i++ {
			e := uint64(p.Table[i])
			for j := 0; j < 8; j++ {
				raw[8*i+j] = byte(e >> (8 * j))
			}
		}
		return "APST enabled: max PS = " + strconv.Itoa(p.MaxPS) +
			", max round-trip latency = " + strconv.FormatUint(uint64(p.MaxRoundTrip), 10) +
			"us, table = " + hex.EncodeToString(raw[:])
	}
	return ""
}

// Logs reports whether the plan's generation prints KernelLog at all: the
// NPSS warning always, the debug lines from v4.12 on.
func (p *Plan) Logs() bool {
	if p.Outcome == OutcomeInvalidNPSS {
		return true
	}
	return p.Params.Generation != V4_11 && p.KernelLog() != ""
}
