package main

import (
	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
)

// entryDiffJSON is the JSON of a table difference (cli.md): one APST entry
// on which the table the kernel programs (expected) and the table the drive
// holds (drive) disagree, each side the entry object of plan, with the
// kernel's decision that explains it. check's differences and the
// differences of inspect's (and set-latency's) verdicts are this object.
type entryDiffJSON struct {
	State    uint8     `json:"state"`
	Expected entryJSON `json:"expected"`
	Drive    entryJSON `json:"drive"`
	// Reason explains the kernel's entry by the decision on ReasonState:
	// the drive's target when the kernel passed it over, else the
	// kernel's target.
	Reason      string      `json:"reason"`
	ReasonState uint8       `json:"reason_state"`
	Decision    apst.Reason `json:"decision"`
	// Kernel is Expected.Value as a string: the key inspect's verdict
	// used before this shape, kept for one release (deprecated; check
	// never wrote it).
	Kernel string `json:"kernel,omitempty"`
}

// entryDiffView is the JSON of one table difference.
func entryDiffView(d *analysis.EntryDiff) entryDiffJSON {
	return entryDiffJSON{
		State:    d.State,
		Expected: entryView(int(d.State), d.Expected), Drive: entryView(int(d.State), d.Drive),
		Reason: d.Reason, ReasonState: d.Decision.State, Decision: d.Decision.Reason,
	}
}

// entryDiffsView is the JSON of a list of table differences, [] when
// there are none.
func entryDiffsView(ds []analysis.EntryDiff) []entryDiffJSON {
	out := make([]entryDiffJSON, 0, len(ds))
	for i := range ds {
		out = append(out, entryDiffView(&ds[i]))
	}
	return out
}
