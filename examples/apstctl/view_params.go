package main

import (
	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/examples/internal/view"
)

// paramsJSON is the JSON of the kernel parameters (cli.md): the module
// parameters by their kernel names, the bound with its unlimited marker,
// and config, the key=value text that --with and apst.ParseConfig accept.
type paramsJSON struct {
	Kernel                    string  `json:"kernel"`
	Release                   *string `json:"release"`
	PSMaxLatencyUS            uint64  `json:"ps_max_latency_us"`
	PSMaxLatencyUnlimited     bool    `json:"ps_max_latency_unlimited"`
	APSTPrimaryTimeoutMS      uint64  `json:"apst_primary_timeout_ms"`
	APSTSecondaryTimeoutMS    uint64  `json:"apst_secondary_timeout_ms"`
	APSTPrimaryLatencyTolUS   uint64  `json:"apst_primary_latency_tol_us"`
	APSTSecondaryLatencyTolUS uint64  `json:"apst_secondary_latency_tol_us"`
	Quirks                    string  `json:"quirks"`
	ForceAPST                 bool    `json:"force_apst"`
	Config                    string  `json:"config"`
}

func paramsView(p *apst.Params) paramsJSON {
	v := paramsJSON{
		Kernel:                    p.Generation.String(),
		PSMaxLatencyUS:            uint64(p.Bound),
		PSMaxLatencyUnlimited:     p.Bound == apst.NoLimit,
		APSTPrimaryTimeoutMS:      uint64(p.PrimaryTimeout),
		APSTSecondaryTimeoutMS:    uint64(p.SecondaryTimeout),
		APSTPrimaryLatencyTolUS:   uint64(p.PrimaryTolerance),
		APSTSecondaryLatencyTolUS: uint64(p.SecondaryTolerance),
		Quirks:                    p.Quirks.APST().String(),
		ForceAPST:                 p.ForceAPST,
		Config:                    view.ConfigText(p),
	}
	if !p.Release.IsZero() {
		r := p.Release.String()
		v.Release = &r
	}
	return v
}
