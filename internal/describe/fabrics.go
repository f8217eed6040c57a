package describe

import (
	"strconv"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// Fabrics is the sentence that says c is an NVMe over Fabrics controller
// (powerstate.Controller.Fabrics), and why its plan is what it is; "" when
// c is not one or the capture does not say.
func Fabrics(c *powerstate.Controller) string {
	if fabrics, known := c.Fabrics(); !fabrics || !known {
		return ""
	}
	by := "IOCCSZ " + strconv.FormatUint(uint64(c.IOCCSZ), 10)
	if !c.Knows(powerstate.FieldIOCCSZ) || c.IOCCSZ == 0 {
		by = "a discovery controller, CNTRLTYPE 2"
	}
	return "the controller is an NVMe over Fabrics controller (" + by + "): its power states are the target's, " +
		"and the table is what the host kernel programs from them (targets usually report APSTA 0: no APST)"
}
