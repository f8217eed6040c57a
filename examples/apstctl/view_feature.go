package main

import (
	"github.com/nvmeapst/nvmeapst/apst"
)

// featureJSON is the JSON of what a drive holds (decode, check, inspect):
// apste is "enabled", "disabled" or "unknown" (a raw 256-byte buffer does
// not record it), enabled the same as a boolean, null when unknown, and
// masked true when only ITPS and ITPT were recorded (the other bits of
// each value are then unknown and shown as 0), and unknown_entries the
// states whose entries a partial capture does not show ([] when every entry
// is known). Each of the 32 entries says whether it is known; an unknown
// one has null value, target_state and idle_time_ms, never a zero that
// reads as "no transition".
type featureJSON struct {
	APSTE   string             `json:"apste"`
	Enabled *bool              `json:"enabled"`
	Masked  bool               `json:"masked"`
	Entries []featureEntryJSON `json:"entries"`
	Unknown []int              `json:"unknown_entries"`
}

// featureEntryJSON is one entry a drive holds: known false, and the rest
// null, for an entry its capture does not show.
type featureEntryJSON struct {
	State       int     `json:"state"`
	Known       bool    `json:"known"`
	Value       *string `json:"value"`
	TargetState *uint8  `json:"target_state"`
	IdleTimeMS  *uint64 `json:"idle_time_ms"`
}

func featureEntries(f *apst.Feature) []featureEntryJSON {
	out := make([]featureEntryJSON, apst.Entries)
	for i, e := range f.Table {
		out[i] = featureEntryJSON{State: i}
		if f.Unknown&(1<<i) != 0 {
			continue
		}
		v, ts, it := hexEntry(e), e.TargetState(), uint64(e.IdleTime())
		out[i].Known, out[i].Value, out[i].TargetState, out[i].IdleTimeMS = true, &v, &ts, &it
	}
	return out
}

func featureView(f *apst.Feature) featureJSON {
	v := featureJSON{APSTE: f.APSTE.String(), Masked: f.Masked, Entries: featureEntries(f), Unknown: stateList(f.Unknown)}
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
