package main

import (
	"encoding/json"
	"fmt"

	"github.com/nvmeapst/nvmeapst/apst"
)

// entryJSON is the JSON of one APST entry (cli.md): value is the full
// 64-bit entry as "0x" and 16 hex digits, target_state bits 7:3 and
// idle_time_ms bits 31:8.
type entryJSON struct {
	State       int    `json:"state"`
	Value       string `json:"value"`
	TargetState uint8  `json:"target_state"`
	IdleTimeMS  uint64 `json:"idle_time_ms"`
}

func entryView(state int, e apst.Entry) entryJSON {
	return entryJSON{State: state, Value: hexEntry(e), TargetState: e.TargetState(), IdleTimeMS: uint64(e.IdleTime())}
}

// hexEntry is an entry as "0x" and 16 lower-case hex digits.
func hexEntry(e apst.Entry) string { return fmt.Sprintf("0x%016x", uint64(e)) }

// tableJSON is an APST table in JSON: always the 32 entries, entry 0 first.
type tableJSON apst.Table

// MarshalJSON writes the 32 entry objects.
func (t tableJSON) MarshalJSON() ([]byte, error) {
	out := make([]entryJSON, apst.Entries)
	for i, e := range t {
		out[i] = entryView(i, e)
	}
	return json.Marshal(out)
}
