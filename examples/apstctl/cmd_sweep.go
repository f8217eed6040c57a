package main

import (
	"context"
	"fmt"
	"text/tabwriter"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
)

type sweepIntervalJSON struct {
	MinUS              uint64    `json:"min_us"`
	MaxUS              uint64    `json:"max_us"`
	MaxUnlimited       bool      `json:"max_unlimited"`
	MaxPS              int       `json:"max_ps"`
	WorstExitLatencyUS uint64    `json:"worst_exit_latency_us"`
	Entries            tableJSON `json:"entries"`
	Sent               bool      `json:"sent"`
	Enabled            bool      `json:"enabled"`
	MaxRoundTripUS     uint64    `json:"max_round_trip_us"`
	DeepestState       int       `json:"deepest_state"`
	ReachableStates    []int     `json:"reachable_states"`
}

type sweepJSON struct {
	Intervals    []sweepIntervalJSON `json:"intervals"`
	Params       paramsJSON          `json:"params"`
	Capture      captureJSON         `json:"capture"`
	CaptureNotes []string            `json:"capture_notes"`
	Assumptions  assumptionsJSON     `json:"assumptions"`
}

func sweepCommand() *command {
	fs := newFlagSet("sweep")
	pf := addPlanFlags(fs)
	format := addOutputFormat(fs)
	c := &command{
		name:      "sweep",
		usageLine: "sweep [flags] CAPTURE",
		short:     "every bound, partitioned into intervals with the same table",
		long: `
Partitions every bound ps_max_latency_us (0 to 2^64-1) into the maximal intervals that give the
same APST table, with each interval's max PS, deepest reachable state and worst-case exit latency.
The other plan flags apply; the bound flags (--ps-max-latency-us, --pm-qos,
--default-ps-max-latency-us) are refused: the sweep covers every bound.`,
		examples: []string{
			"sweep testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin",
			"sweep --pci-id 8086:f1a5 --kernel v4.12 testdata/identify/intel-ssdpekkw256g7-PSF109C.bin",
			"sweep testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin -o json",
		},
		flags: fs,
		ignores: map[string]string{
			"ps-max-latency-us":         "the sweep covers every bound",
			"pm-qos":                    "the sweep covers every bound",
			"default-ps-max-latency-us": "the sweep covers every bound",
		},
		minArgs: 1, maxArgs: 1,
	}
	c.run = func(ctx context.Context, x *invocation, args []string) error {
		ctl, p, err := pf.loadWithParams(args[0], x.stdin)
		if err != nil {
			return err
		}
		sw, err := analysis.Sweep(ctl, p)
		if err != nil {
			return inputErr(err)
		}
		a := planAssumptions(ctl, p)
		if format.json {
			out := sweepJSON{Intervals: make([]sweepIntervalJSON, len(sw.Intervals)), Params: paramsView(&p), Capture: captureView(ctl), CaptureNotes: captureNotesView(ctl), Assumptions: assumptionsView(&a)}
			for i, iv := range sw.Intervals {
				out.Intervals[i] = sweepIntervalJSON{
					MinUS: uint64(iv.Min), MaxUS: uint64(iv.Max), MaxUnlimited: iv.Max == apst.NoLimit, MaxPS: iv.MaxPS(),
					WorstExitLatencyUS: uint64(iv.Reach.WorstExitLatency), Entries: tableJSON(iv.Plan.Table),
					Sent: iv.Plan.Sent, Enabled: iv.Plan.Enabled, MaxRoundTripUS: uint64(iv.Plan.MaxRoundTrip),
					DeepestState: int(iv.Reach.Deepest), ReachableStates: stateList(iv.Reach.States),
				}
			}
			return writeJSON(x.out, out)
		}
		w := x.out
		fmt.Fprintln(w, describeController(ctl))
		fmt.Fprintln(w, describeParamsBound(&p, false)+"; every bound from 0 to 2^64-1:")
		writeCaptureNotes(w, ctl)
		writeAssumptions(w, &a)
		fmt.Fprintln(w)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "bound us\tmax_ps\tdeepest\tworst exit\ttable")
		for _, iv := range sw.Intervals {
			table := compactTable(&iv.Plan.Table, ctl.StateCount())
			switch {
			case !iv.Plan.Sent:
				table = "nothing sent (" + iv.Plan.Outcome.String() + ")"
			case !iv.Plan.Enabled:
				table = "APST off (APSTE=0)"
			case iv.Plan.Outcome == apst.OutcomeNoStates:
				table = "APSTE=1, no state qualifies"
			}
			fmt.Fprintf(tw, "%s\t%d\tps%d\t%s\t%s\n", analysis.BoundRange{Min: iv.Min, Max: iv.Max},
				iv.MaxPS(), iv.Reach.Deepest, iv.Reach.WorstExitLatency, table)
		}
		return tw.Flush()
	}
	return c
}
