package main

import (
	"encoding/csv"
	"fmt"
	"strconv"

	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/survey"
	"github.com/nvmeapst/nvmeapst/internal/safeio"
)

// surveyCSV writes one row per drive.
type surveyCSV struct {
	w *csv.Writer
}

func (s *surveyCSV) begin(configs []analysis.Config, _ bool) error {
	h := []string{"path", "vendor", "vendor_id", "model", "firmware", "format", "quirks", "changed"}
	for i := range configs {
		p := "c" + strconv.Itoa(i+1) + "_"
		h = append(h, p+"enabled", p+"max_ps", p+"deepest_state", p+"worst_exit_latency_us", p+"deepest_state_max_power_w")
	}
	for k := 1; k < len(configs); k++ {
		p := "c" + strconv.Itoa(k+1) + "_"
		h = append(h, p+"stall_reduction_us", p+"idle_power_delta_mw", p+"bars", p+"barred_states")
	}
	return s.w.Write(h)
}

// drive writes the drive's row; the cells of text from the capture (path,
// vendor, model, firmware) have their control characters escaped
// (safeio.EscapeTerminal, as the text report: a cell holds no line break,
// ESC or byte that is not UTF-8) and are neutralised against spreadsheet
// formulas (safeio.CSVCell).
func (s *surveyCSV) drive(row *survey.Row, src *surveySource) error {
	cell := func(v string) string { return safeio.CSVCell(safeio.EscapeTerminal(v)) }
	rec := []string{cell(row.Name), cell(row.Vendor), fmt.Sprintf("0x%04x", row.VendorID), cell(row.Model), cell(row.Firmware),
		src.format, row.Quirks.String(), strconv.FormatBool(row.Changed)}
	for i := range row.Results {
		r := &row.Results[i]
		rec = append(rec, strconv.FormatBool(r.Plan.Enabled), strconv.Itoa(r.Plan.MaxPS), strconv.Itoa(int(r.Reach.Deepest)),
			strconv.FormatUint(uint64(r.Reach.WorstExitLatency), 10),
			strconv.FormatFloat(float64(r.DeepestMaxPower.MicroWatts())/1e6, 'f', -1, 64))
	}
	for _, ch := range row.Changes {
		rec = append(rec, strconv.FormatInt(ch.StallReduction, 10), strconv.FormatFloat(ch.PowerDelta.MilliWatts(), 'f', -1, 64),
			ch.Bars.String(), ch.Barred.String())
	}
	return s.w.Write(rec)
}

func (s *surveyCSV) unreadable(surveyUnreadable) error { return nil } // on stderr, at the end

func (s *surveyCSV) end(*surveyRun) error {
	s.w.Flush()
	return s.w.Error()
}
