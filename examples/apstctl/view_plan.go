package main

import (
	"github.com/nvmeapst/nvmeapst/apst"
)

type decisionJSON struct {
	State      uint8  `json:"state"`
	Reason     string `json:"reason"`
	Selected   bool   `json:"selected"`
	IdleTimeMS uint64 `json:"idle_time_ms,omitempty"`
}

// planJSON is the JSON of a plan; the first five keys are the stable
// contract of apstctl plan (cli.md).
type planJSON struct {
	Sent           bool           `json:"sent"`
	Enabled        bool           `json:"enabled"`
	MaxPS          int            `json:"max_ps"`
	MaxRoundTripUS uint64         `json:"max_round_trip_us"`
	Entries        tableJSON      `json:"entries"`
	Outcome        string         `json:"outcome"`
	Mode           string         `json:"mode"`
	AssumedAPSTA   bool           `json:"assumed_apsta"`
	Params         paramsJSON     `json:"params"`
	Decisions      []decisionJSON `json:"decisions"`
	KernelLog      string         `json:"kernel_log"`
	Warnings       []string       `json:"warnings"`
}

func planView(p *apst.Plan) planJSON {
	ds := p.Decisions()
	dj := make([]decisionJSON, len(ds))
	for i, d := range ds {
		dj[i] = decisionJSON{State: d.State, Reason: d.Reason.String(), Selected: d.Reason.Selected()}
		if d.Reason.Selected() {
			dj[i].IdleTimeMS = uint64(d.Idle)
		}
	}
	w := p.Warnings()
	if w == nil {
		w = []string{}
	}
	return planJSON{
		Sent:           p.Sent,
		Enabled:        p.Enabled,
		MaxPS:          p.MaxPS,
		MaxRoundTripUS: uint64(p.MaxRoundTrip),
		Entries:        tableJSON(p.Table),
		Outcome:        p.Outcome.String(),
		Mode:           p.Mode.String(),
		AssumedAPSTA:   p.AssumedAPSTA,
		Params:         paramsView(&p.Params),
		Decisions:      dj,
		KernelLog:      p.KernelLog(),
		Warnings:       w,
	}
}

// quirkJSON is what plan adds about quirks the capture could not settle
// (cli.md): the PCI ID inferred from the model, the quirked PCI IDs of the
// vendor that went unchecked, and every assumption of the lookup as a
// sentence.
type quirkJSON struct {
	PCIIDInferred      *pciInferredJSON `json:"pci_id_inferred"`
	PCIQuirksUnchecked []string         `json:"pci_quirks_unchecked"`
	QuirkNotes         []string         `json:"quirk_notes"`
}

type pciInferredJSON struct {
	ID   string `json:"id"`
	From string `json:"from"`
}

func quirkView(m *apst.QuirkMatch) quirkJSON {
	v := quirkJSON{PCIQuirksUnchecked: []string{}, QuirkNotes: []string{}}
	if m == nil {
		return v
	}
	v.QuirkNotes = append(v.QuirkNotes, m.Notes...)
	if !m.InferredPCI.IsZero() {
		v.PCIIDInferred = &pciInferredJSON{ID: m.InferredPCI.String(), From: m.InferredFrom}
	}
	for _, id := range m.UncheckedPCI {
		v.PCIQuirksUnchecked = append(v.PCIQuirksUnchecked, id.String())
	}
	return v
}
