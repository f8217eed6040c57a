package main

import (
	"github.com/nvmeapst/nvmeapst/apst"
)

// featureJSON is the JSON of what a drive holds (decode, check, inspect):
// apste is "enabled", "disabled" or "unknown" (a raw 256-byte buffer does
// not record it), enabled the same as a boolean, null when unknown, and
// masked true when only ITPS and ITPT were recorded (the other bits of
// each value are then unknown and shown as 0), and unknown_entries the
// states whose entries a partial capture does not show (shown as 0; []
// when every entry is known).
type featureJSON struct {
	APSTE   string    `json:"apste"`
	Enabled *bool     `json:"enabled"`
	Masked  bool      `json:"masked"`
	Entries tableJSON `json:"entries"`
	Unknown []int     `json:"unknown_entries"`
}

func featureView(f *apst.Feature) featureJSON {
	v := featureJSON{APSTE: f.APSTE.String(), Masked: f.Masked, Entries: tableJSON(f.Table), Unknown: stateList(f.Unknown)}
	if f.APSTE.Known() {
		e := f.APSTE == apst.APSTEEnabled
		v.Enabled = &e
	}
	return v
}

// apsteText is APSTE as text output shows it.
func apsteText(a apst.APSTE) string {
	switch a {
	case apst.APSTEEnabled:
		return "enabled (APSTE=1)"
	case apst.APSTEDisabled:
		return "disabled (APSTE=0)"
	}
	return "unknown (the capture does not record APSTE)"
}
