package main

import (
	"fmt"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// captureJSON is the identity of the capture an answer is about (never its
// serial, as the text's first line): model, firmware and VID as Identify
// Controller holds them (null where the capture did not carry them), NPSS,
// APSTA (null when unknown), the capture's format, and whether the
// controller is an NVMe over Fabrics one (CNTRLTYPE, IOCCSZ; null when the
// capture does not say, as smartctl's). A fleet tool that runs a command
// on many captures tells the answers apart by it.
type captureJSON struct {
	Model    *string `json:"model"`
	Firmware *string `json:"firmware"`
	VendorID *string `json:"vendor_id"`
	NPSS     int     `json:"npss"`
	APSTA    *int    `json:"apsta"`
	Format   string  `json:"format"`
	Fabrics  *bool   `json:"fabrics"`
}

func captureView(c *powerstate.Controller) captureJSON {
	v := captureJSON{NPSS: int(c.NPSS), Format: c.Format.String()}
	if c.Knows(powerstate.FieldModel) {
		v.Model = &c.Model
	}
	if c.Knows(powerstate.FieldFirmware) {
		v.Firmware = &c.Firmware
	}
	if c.Knows(powerstate.FieldVendorID) {
		id := fmt.Sprintf("%#04x", c.VendorID)
		v.VendorID = &id
	}
	if c.APSTAKnown() {
		a := int(c.APSTA)
		v.APSTA = &a
	}
	if fabrics, known := c.Fabrics(); known {
		v.Fabrics = &fabrics
	}
	return v
}
