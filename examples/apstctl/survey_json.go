package main

import (
	"bufio"
	"encoding/json"
	"fmt"

	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/survey"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// surveyConfigJSON is a configuration's result for one drive: the object
// compare prints for each configuration.
func surveyConfigJSON(r *analysis.ConfigResult) compareConfigJSON {
	return compareConfigJSON{
		Name: r.Config.Name, Sent: r.Plan.Sent, Enabled: r.Plan.Enabled, MaxPS: r.Plan.MaxPS,
		MaxRoundTripUS: uint64(r.Plan.MaxRoundTrip), Entries: r.Plan.Table,
		DeepestState: int(r.Reach.Deepest), WorstExitLatencyUS: uint64(r.Reach.WorstExitLatency),
		DeepestStateMaxPowerW: float64(r.DeepestMaxPower.MicroWatts()) / 1e6,
		Outcome:               r.Plan.Outcome.String(), Mode: r.Plan.Mode.String(), Params: r.Config.Params,
	}
}

type surveyChangeJSON struct {
	Config           int     `json:"config"`
	Changed          bool    `json:"changed"`
	StallReductionUS int64   `json:"stall_reduction_us"`
	IdlePowerDeltaMW float64 `json:"idle_power_delta_mw"`
	Bars             string  `json:"bars"`
	BarredStates     []int   `json:"barred_states"`
	GainedStates     []int   `json:"gained_states"`
}

type surveyDriveJSON struct {
	Path             string              `json:"path"`
	Model            string              `json:"model"`
	Firmware         string              `json:"firmware"`
	Vendor           string              `json:"vendor"`
	VendorID         string              `json:"vendor_id"`
	Format           string              `json:"format"`
	Quirks           string              `json:"quirks"`
	Changed          bool                `json:"changed"`
	Configs          []compareConfigJSON `json:"configs"`
	IdlePowerDeltaMW float64             `json:"idle_power_delta_mw"`
	Changes          []surveyChangeJSON  `json:"changes"`
}

func newSurveyDriveJSON(row *survey.Row, c *powerstate.Controller) surveyDriveJSON {
	d := surveyDriveJSON{
		Path: row.Name, Model: row.Model, Firmware: row.Firmware, Vendor: row.Vendor,
		VendorID: fmt.Sprintf("0x%04x", row.VendorID), Format: c.Format.String(),
		Quirks: row.Quirks.String(), Changed: row.Changed,
		Configs: make([]compareConfigJSON, len(row.Results)),
		Changes: make([]surveyChangeJSON, len(row.Changes)),
	}
	for i := range row.Results {
		d.Configs[i] = surveyConfigJSON(&row.Results[i])
	}
	for i, ch := range row.Changes {
		d.Changes[i] = surveyChangeJSON{
			Config: ch.Config, Changed: ch.Changed, StallReductionUS: ch.StallReduction,
			IdlePowerDeltaMW: ch.PowerDelta.MilliWatts(), Bars: ch.Bars.String(),
			BarredStates: stateList(ch.Barred), GainedStates: stateList(ch.Gained),
		}
	}
	d.IdlePowerDeltaMW = d.Changes[0].IdlePowerDeltaMW
	return d
}

// surveyJSON streams {"drives":[...],"summary":{...},"unreadable":[...]},
// one drive per line.
type surveyJSON struct {
	w   *bufio.Writer
	n   int
	buf []byte
}

func (j *surveyJSON) begin([]analysis.Config) error {
	_, err := j.w.WriteString("{\"drives\":[")
	return err
}

func (j *surveyJSON) drive(row *survey.Row, c *powerstate.Controller) error {
	d := newSurveyDriveJSON(row, c)
	var err error
	j.buf, err = appendSurveyDriveJSON(j.buf[:0], &d)
	if err != nil {
		return err
	}
	if j.n > 0 {
		j.w.WriteByte(',')
	}
	j.n++
	j.w.WriteString("\n")
	_, err = j.w.Write(j.buf)
	return err
}

func (j *surveyJSON) end(r *surveyRun) error {
	sum, err := json.MarshalIndent(newSurveySummaryJSON(r), "", "  ")
	if err != nil {
		return err
	}
	un := r.unreadable
	if un == nil {
		un = []surveyUnreadable{}
	}
	unb, err := json.MarshalIndent(un, "", "  ")
	if err != nil {
		return err
	}
	if j.n > 0 {
		j.w.WriteString("\n")
	}
	j.w.WriteString("],\n\"summary\":")
	j.w.Write(sum)
	j.w.WriteString(",\n\"unreadable\":")
	j.w.Write(unb)
	_, err = j.w.WriteString("}\n")
	return err
}
