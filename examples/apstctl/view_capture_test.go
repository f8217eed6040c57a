package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// The capture's identity in JSON: what the capture carried, null for what
// it did not (never a zero that reads as a value), and never the serial.
func TestCaptureView(t *testing.T) {
	c := &powerstate.Controller{Model: "M", Firmware: "F1", Serial: "SECRET", VendorID: 0x1e0f, NPSS: 4, APSTA: 1, Format: powerstate.FormatSmartctlText}
	b, err := json.Marshal(captureView(c))
	require.NoError(t, err)
	assert.JSONEq(t, `{"model":"M","firmware":"F1","vendor_id":"0x1e0f","npss":4,"apsta":1,"format":"`+powerstate.FormatSmartctlText.String()+`","fabrics":false}`, string(b))
	assert.NotContains(t, string(b), "SECRET")

	c.Missing = powerstate.FieldModel | powerstate.FieldFirmware | powerstate.FieldVendorID | powerstate.FieldAPSTA | powerstate.FieldIOCCSZ
	c.Model, c.Firmware, c.VendorID, c.APSTA = "", "", 0, 0
	b, err = json.Marshal(captureView(c))
	require.NoError(t, err)
	assert.JSONEq(t, `{"model":null,"firmware":null,"vendor_id":null,"npss":4,"apsta":null,"format":"`+powerstate.FormatSmartctlText.String()+`","fabrics":null}`, string(b))

	// A fabrics controller, and its note before the capture's notes.
	c.Missing, c.IOCCSZ, c.Notes = 0, 4, []string{"line 3: a note"}
	b, err = json.Marshal(captureView(c))
	require.NoError(t, err)
	assert.Contains(t, string(b), `"fabrics":true`)
	lines := captureNoteLines(c)
	require.Len(t, lines, 2)
	assert.Equal(t, "note: the controller is an NVMe over Fabrics controller (IOCCSZ 4): its power states are the target's, "+
		"and the table is what the host kernel programs from them (targets usually report APSTA 0: no APST)", lines[0])
	assert.Equal(t, "note: capture: line 3: a note", lines[1])

	// Every command that reads a capture says it (persist without one: null).
	for _, args := range [][]string{
		{"plan", evoImage}, {"plan", evoImage, "--kernel", "4.10"}, {"sweep", evoImage}, {"recommend", evoImage, "--max-stall", "25ms"},
		{"simulate", evoImage, "--gaps", "1s"}, {"compare", evoImage, "--with", "ps-max-latency-us=25000"},
		{"persist", evoImage, "--bound", "25000"},
	} {
		code, out, errOut := apstctl(t, nil, append(args, "-o", "json")...)
		require.Equal(t, exitOK, code, "%q: %s", args, errOut)
		var v map[string]any
		require.NoError(t, json.Unmarshal([]byte(out), &v), args)
		require.IsType(t, map[string]any{}, v["capture"], args)
		assert.Equal(t, "Samsung SSD 990 EVO Plus 1TB", v["capture"].(map[string]any)["model"], args)
	}
	code, out, errOut := apstctl(t, nil, "persist", "--bound", "25000", "-o", "json")
	require.Equal(t, exitOK, code, errOut)
	var v map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	require.Contains(t, v, "capture")
	assert.Nil(t, v["capture"])
}
