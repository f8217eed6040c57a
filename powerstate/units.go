package powerstate

import (
	"strconv"
	"time"
)

// Microseconds is a latency as the Power State Descriptor stores it: ENLAT
// (PSD bytes 7:4) and EXLAT (PSD bytes 11:8) are 32-bit counts of microseconds,
// and RTD3R/RTD3E (Identify bytes 87:84 and 91:88) use the same unit. Zero means
// "not reported" in the NVMe specification, not "instant".
type Microseconds uint32

// Duration returns the latency as a time.Duration.
func (us Microseconds) Duration() time.Duration {
	return time.Duration(us) * time.Microsecond
}

// String formats the latency as the kernel and nvme-cli print it, e.g. "43000us".
func (us Microseconds) String() string {
	return strconv.FormatUint(uint64(us), 10) + "us"
}

// Kelvin is a temperature threshold as Identify Controller stores it
// (WCTEMP bytes 267:266, CCTEMP bytes 269:268).
type Kelvin uint16

// Celsius converts the threshold to whole degrees Celsius (kelvin - 273), as
// smartctl prints it. A zero threshold means "not reported" and converts to -273.
func (k Kelvin) Celsius() int {
	return int(k) - 273
}
