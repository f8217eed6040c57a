package zerocheck_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/measure"
	"github.com/nvmeapst/nvmeapst/apst/persist"
	"github.com/nvmeapst/nvmeapst/apst/persist/udev"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// expectedHarms are the zero-value settings known to render a harmful
// setting that another change fixes; each is removed when it lands (the
// test fails while one is no longer harmful).
var expectedHarms = map[string]string{}

// unlike are two controllers that share nothing a setting can select by:
// name, model, serial number, firmware, PCI ID. A setting that reaches both
// reaches every controller.
var unlike = []udev.Drive{
	{Name: "nvme0", Model: "Samsung SSD 990 EVO Plus 1TB", Serial: "S7U1NJ0X000001", Firmware: "2B2QKXG7",
		PCI: apst.PCIID{Vendor: 0x144d, Device: 0xa80d}, HasPCI: true, HasTolerance: true},
	{Name: "nvme1", Model: "WDC WDS500G2B0C-00PXH0", Serial: "20112A800001", Firmware: "211070WD",
		PCI: apst.PCIID{Vendor: 0x15b7, Device: 0x5009}, HasPCI: true, HasTolerance: true},
}

// harms says what is harmful in a rendered setting, read back with the
// package's own parsers and checkers: APST turned off for every controller
// (Check's global-zero), or a tolerance or default that reaches every
// controller.
func harms(t *testing.T, text string) []string {
	t.Helper()
	var out []string
	if rs, err := udev.ParseRules(text); err == nil && len(rs) > 0 {
		for _, f := range persist.CheckRules(rs, text) {
			if f.Mistake == persist.MistakeGlobalZero {
				out = append(out, "udev: "+f.Mistake.String()+": "+f.Text)
			}
		}
		reached := 0
		for _, d := range unlike {
			for _, w := range rs.Apply(d) {
				if w.IsTolerance() {
					reached++
					break
				}
			}
		}
		if reached == len(unlike) {
			out = append(out, "udev: a rule for every controller")
		}
	}
	if ds, err := persist.ParseDefaults(text); err == nil && len(ds) > 0 {
		for _, f := range persist.CheckDefaults(ds) {
			if f.Mistake == persist.MistakeGlobalZero {
				out = append(out, "default: "+f.Mistake.String()+": "+f.Text)
			}
		}
		out = append(out, "default: every controller: "+ds[0].Text)
	}
	if ws, err := persist.ParseSysfsWrites(text); err == nil && len(ws) > 0 {
		for _, f := range persist.CheckSysfsWrites(ws) {
			if f.Mistake == persist.MistakeGlobalZero {
				out = append(out, "sysfs: "+f.Mistake.String()+": "+f.Text)
			}
		}
		for _, w := range ws {
			reached := 0
			for _, d := range unlike {
				if rel, ok := w.Reaches(d); ok && rel == persist.ToleranceAttr {
					reached++
				}
			}
			if reached == len(unlike) {
				out = append(out, "sysfs: every controller: "+w.Text)
			}
		}
	}
	return out
}

// persistSentinels are the errors a refusal of persist wraps.
var persistSentinels = []error{persist.ErrScope, persist.ErrForm, persist.ErrGoal,
	apst.ErrInvalidTolerance, apst.ErrUnknownGeneration, apst.ErrNilController, apst.ErrInvalidConfig}

// TestZeroSettingsHarmless renders every setting persist can make from
// zero values: each is refused with an error that wraps one of persist's
// sentinels and starts with "persist:", or renders nothing that turns APST
// off for every controller or reaches every controller.
func TestZeroSettingsHarmless(t *testing.T) {
	type rendered struct {
		name string
		text string
		err  error
	}
	var cases []rendered
	for _, f := range append(persist.Forms(), 0) {
		o, err := persist.Render(persist.Setting{}, f)
		cases = append(cases, rendered{"persist.Render(persist.Setting{}, " + f.String() + ")", o.Text, err})
	}
	o, err := persist.RenderPowerSupply(persist.Scope{}, "", 0, 0)
	cases = append(cases, rendered{"persist.RenderPowerSupply(persist.Scope{})", o.Text, err})
	rule, err := persist.UdevRule(persist.Scope{}, apst.Tolerance{})
	cases = append(cases, rendered{"persist.UdevRule(persist.Scope{}, apst.Tolerance{})", rule, err})
	// A match alone writes nothing: give it the write of 0 to see whom it
	// selects.
	match, err := persist.UdevMatch(persist.Scope{})
	if err == nil {
		match += `, ATTR{` + persist.ToleranceAttr + `}="0"`
	}
	cases = append(cases, rendered{"persist.UdevMatch(persist.Scope{})", match, err})
	var fleet persist.Fleet
	err = fleet.Add("", 0, nil)
	var rules []string
	for _, r := range fleet.Rules() {
		rules = append(rules, r.Rule)
	}
	cases = append(cases, rendered{"persist.Fleet{}.Add, Rules", strings.Join(rules, "\n"), err})
	_, err = persist.NewFleet(persist.Goal{})
	cases = append(cases, rendered{"persist.NewFleet(persist.Goal{})", "", err})
	ans, err := persist.Resolve(&powerstate.Controller{}, apst.Params{}, persist.Goal{})
	if err == nil {
		o, err = persist.Render(persist.Setting{Bound: ans.Choice.Bound}, persist.FormUdev)
	}
	cases = append(cases, rendered{"persist.Resolve(zero values), Render", o.Text, err})

	for _, c := range cases {
		why, expected := expectedHarms[c.name]
		var found []string
		if c.err != nil {
			assert.True(t, wrapsOneOf(c.err, persistSentinels), "%s: the error wraps none of persist's sentinels: %v", c.name, c.err)
			assert.True(t, strings.HasPrefix(c.err.Error(), "persist: "), "%s: %v", c.name, c.err)
		} else {
			found = harms(t, c.text)
		}
		switch {
		case len(found) > 0 && expected:
			t.Logf("%s: harmful, expected until merged (%s): %s", c.name, why, strings.Join(found, "; "))
		case len(found) > 0:
			t.Errorf("%s renders a harmful setting: %s\n%s", c.name, strings.Join(found, "; "), c.text)
		case expected:
			t.Errorf("%s is no longer harmful: remove it from expectedHarms (%s)", c.name, why)
		}
	}
}

// The checker above finds what it is meant to: an explicit global 0 in
// each form is harmful, one model's rule is not.
func TestHarmsFindsGlobalZero(t *testing.T) {
	for _, f := range persist.Forms() {
		o, err := persist.Render(persist.Setting{Bound: 0, Scope: persist.AllControllers()}, f)
		require.NoError(t, err)
		assert.NotEmpty(t, harms(t, o.Text), f.String())
	}
	o, err := persist.Render(persist.Setting{Bound: 0, Scope: persist.ModelScope("WDC WDS500G2B0C-00PXH0")}, persist.FormUdev)
	require.NoError(t, err)
	assert.Empty(t, harms(t, o.Text))
	o, err = persist.RenderPowerSupply(persist.AllControllers(), "", 5000, 0)
	require.NoError(t, err)
	assert.NotEmpty(t, harms(t, o.Text))
}

func wrapsOneOf(err error, targets []error) bool {
	for _, t := range targets {
		if errors.Is(err, t) {
			return true
		}
	}
	return false
}

// TestZeroTolerancesHarmless: no tolerance derived from a zero value is
// the valid 0, which written to pm_qos_latency_tolerance_us turns APST off:
// it is refused, or unset (which UdevRule, MarshalText and the kernel
// refuse).
func TestZeroTolerancesHarmless(t *testing.T) {
	mt, merr := measure.Config{}.Tolerance()
	for name, c := range map[string]struct {
		tol apst.Tolerance
		err error
	}{
		"persist.Choice{}.Tolerance": {persist.Choice{}.Tolerance(), nil},
		"persist.Answer{}.Choice":    {persist.Answer{}.Choice.Tolerance(), nil},
		"measure.Config{}.Tolerance": {mt, merr},
		"persist.FleetRule{}.Choice": {persist.FleetRule{}.Choice.Tolerance(), nil},
	} {
		if c.err != nil {
			continue
		}
		assert.False(t, c.tol.Valid() && c.tol.Bound() == 0, "%s is %s: APST off", name, c.tol)
	}
}
