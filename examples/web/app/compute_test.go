//go:build !nolog

// The tests of the engine run on the build with the diagnosis (the
// default); app.wasm's build (nolog) differs only by diagnoseLog's stub.

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
	"github.com/nvmeapst/nvmeapst/apst/persist"
	"github.com/nvmeapst/nvmeapst/examples/internal/view"
	"github.com/nvmeapst/nvmeapst/internal/describe"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestComputeEVOPlus(t *testing.T) {
	for _, tc := range []struct {
		bound    string
		maxPS    int
		kernelLg string // as apstctl plan prints it
	}{
		{"", 4, "APST enabled: max PS = 4, max round-trip latency = 44600us, table = 18640000000000001864000000000000186400000000000020d00700000000000000000000000000000000000000000000000000000000000000000000000000"},
		{"100000", 4, ""},
		{"25000", 3, "APST enabled: max PS = 3, max round-trip latency = 6200us, table = 18640000000000001864000000000000186400000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"},
	} {
		t.Run("bound "+tc.bound, func(t *testing.T) {
			r := Compute(&Request{Capture: repoFile(t, evoImage), Bound: tc.bound, CompareA: "ps-max-latency-us=100000", CompareB: "ps-max-latency-us=25000"})
			require.Empty(t, r.Errors)
			assert.Equal(t, tc.maxPS, r.Plan.MaxPS)
			assert.Equal(t, tc.maxPS, r.Plan.Deepest)
			if tc.kernelLg != "" {
				assert.Equal(t, tc.kernelLg, r.Plan.KernelLog)
			}
			c, err := powerstate.DecodeIdentify(repoFile(t, evoImage))
			require.NoError(t, err)
			p := apst.DefaultParams(apst.Current)
			sw, err := analysis.Sweep(&c, p)
			require.NoError(t, err)
			require.Len(t, r.Sweep.Intervals, len(sw.Intervals))
			current := 0
			for i, iv := range r.Sweep.Intervals {
				assert.Equal(t, formatBound(sw.Intervals[i].Min), iv.MinText)
				assert.Equal(t, formatBound(sw.Intervals[i].Max), iv.MaxText)
				assert.Equal(t, uint64(sw.Intervals[i].Min), iv.MinUS)
				if iv.Current {
					current++
				}
			}
			assert.Equal(t, 1, current, "one interval holds the bound")
			assert.Equal(t, "+73.0 mW", r.Compare.PowerDelta)
			require.Len(t, r.Simulate, 3)
			assert.Contains(t, r.Simulate[0].Source, "10000 gaps, exp:10s, seed 0")
			assert.Empty(t, r.Assumptions, "apstctl plan says nothing of the capture: the Lenovo N60z rule is no caveat of a drive")
			assert.False(t, r.Controller.HadSerial && strings.Contains(r.Drive, r.Controller.Model), "the link holds no plain strings")
		})
	}
}

// The 600p gets NO_DEEPEST_PS from its inferred PCI ID, and says so in the
// lines apstctl plan prints (with the page's PCI ID field where apstctl
// names --pci-id); a PCI ID given replaces the inference, a release given
// settles the release.
func TestComputeIntel600p(t *testing.T) {
	r := Compute(&Request{Capture: repoFile(t, intelImage)})
	require.Empty(t, r.Errors)
	assert.Equal(t, 3, r.Plan.MaxPS)
	assert.Equal(t, []string{
		"note: kernel release unknown: assumed the newest quirk tables (Linux " + apst.NewestRelease().String() + "); the release decides 8086:f1a5 Intel 600P/P3100 (no-deepest-ps; since 4.12)",
		`warning: the capture carries no PCI ID; 8086:f1a5 was inferred from model "INTEL SSDPEKKW256G7" (Intel 600p, VID 0x8086, model "INTEL SSDPEKKW*" ending in G7 or T7; high confidence) (give a PCI ID to override)`,
	}, r.Assumptions)

	r = Compute(&Request{Capture: repoFile(t, intelImage), Kernel: "6.8"})
	require.Empty(t, r.Errors)
	assert.NotContains(t, strings.Join(r.Assumptions, "\n"), "release unknown")
	assert.Contains(t, r.Params, "quirks no-deepest-ps")

	r = Compute(&Request{Capture: repoFile(t, intelImage), PCIID: "8086:f1a6"})
	require.Empty(t, r.Errors)
	assert.Equal(t, 4, r.Plan.MaxPS)
	assert.NotContains(t, strings.Join(r.Assumptions, "\n"), "inferred")

	r = Compute(&Request{Capture: repoFile(t, intelImage), PCIID: "144d:f1a5"})
	assert.Contains(t, r.Errors["pci_id"], "the vendor 144d is not the capture's VID 8086")
}

// Every error is the library's message, at the input it belongs to.
// A fabrics controller's page says so, in apstctl plan's words, and its
// shared link, which does not carry IOCCSZ, does not say it is PCIe.
func TestComputeFabrics(t *testing.T) {
	for _, path := range []string{"testdata/fabrics/nvmet-loop.nvme-cli.txt", "testdata/fabrics/nvmet-loop.bin"} {
		r := Compute(&Request{Capture: repoFile(t, path)})
		require.Empty(t, r.Errors, path)
		c, err := capture.ParseBytes(repoFile(t, path))
		require.NoError(t, err)
		assert.Contains(t, r.Assumptions, "note: "+describe.Fabrics(&c), path)
		assert.Contains(t, describe.Fabrics(&c), "NVMe over Fabrics controller (IOCCSZ 4)")
		assert.Equal(t, "nothing is sent: the controller does not support APST (APSTA 0)", r.Plan.Outcome, path)
	}
	r := Compute(&Request{Capture: repoFile(t, evoImage)})
	assert.NotContains(t, strings.Join(r.Assumptions, "\n"), "Fabrics", "PCIe")
}

func TestComputeErrors(t *testing.T) {
	evo := repoFile(t, evoImage)
	trunc := repoFile(t, "examples/apstctl/testdata/truncated.txt")
	_, truncErr := capture.ParseBytes(trunc)
	require.Error(t, truncErr)
	var p apst.Params
	for _, tc := range []struct {
		name  string
		req   Request
		field string
		want  string
	}{
		{"truncated", Request{Capture: trunc}, "capture", userMessage(truncErr)},
		{"no capture", Request{}, "capture", "no capture"},
		{"wrong size", Request{Capture: evo[:4000]}, "capture", "4000 bytes"},
		{"feature as capture", Request{Capture: repoFile(t, "examples/apstctl/testdata/feature/samsung-990-evo-plus-100ms.txt")}, "capture", "give it as the get-feature capture below"},
		{"capture as feature", Request{Capture: evo, Feature: evo}, "feature", "give it as the capture above"},
		{"kernel log as capture", Request{Capture: threadLog(t, "gh-openwrt-14557-rpi5-aspm-powersave.log")}, "capture", "this is a kernel log, not an identify controller capture: paste it in the kernel log box below"},
		{"dmesg --notime as capture", Request{Capture: []byte("nvme nvme0: controller is down; will reset: CSTS=0x3, PCI_STATUS=0x10\nnvme nvme0: Removing after probe failure status: -19\n")}, "capture", "paste it in the kernel log box below"},
		{"bound", Request{Capture: evo, Bound: "-5"}, "bound", `latency bound "-5": want microseconds`},
		{"bound too large", Request{Capture: evo, Bound: "99999999999999999999"}, "bound", "at most 18446744073709551615 µs"},
		{"kernel", Request{Capture: evo, Kernel: "3.19"}, "kernel", userMessage(p.Set("kernel", "3.19"))},
		{"pci id", Request{Capture: evo, PCIID: "zz"}, "pci_id", "zz"},
		{"compare", Request{Capture: evo, CompareA: "nonsense=1"}, "compare_a", "unknown key \"nonsense\""},
		{"gaps", Request{Capture: evo, Gaps: "exp:-1"}, "gaps", "exp:-1"},
		{"gaps all 0", Request{Capture: evo, Gaps: "exp:0s"}, "gaps", "every gap is 0"},
		{"listed gaps all 0", Request{Capture: evo, Gaps: "0s,0ms"}, "gaps", "every gap is 0"},
		{"gap without unit", Request{Capture: evo, Gaps: "5,10ms"}, "gaps", "has no unit"},
		{"count", Request{Capture: evo, Count: maxGaps + 1}, "gaps", "at most"},
		{"shared", Request{Drive: "1.x"}, "capture", "shared link"},
		{"too large", Request{Capture: make([]byte, maxCapture+1)}, "capture", "capture is larger than 1048576 bytes (1 MiB): no Identify capture is"},
		{"too large, a kernel log", Request{Capture: bytes.Repeat([]byte("[    1.234567] nvme nvme0: pci function 0000:01:00.0\n"), maxCapture/50)}, "capture", "capture is larger than 1048576 bytes (1 MiB): no Identify capture is; it looks like a kernel log (dmesg or journalctl -k) instead"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Compute(&tc.req)
			require.Contains(t, r.Errors, tc.field, "errors: %v", r.Errors)
			assert.Contains(t, r.Errors[tc.field], tc.want)
			_, err := json.Marshal(r)
			require.NoError(t, err)
		})
	}
}

// A get-feature capture gets the check verdict and what reproduces it.
func TestComputeCheck(t *testing.T) {
	evo := repoFile(t, evoImage)
	r := Compute(&Request{Capture: evo, Feature: repoFile(t, "examples/apstctl/testdata/feature/samsung-990-evo-plus-100ms.txt")})
	require.Empty(t, r.Errors)
	assert.True(t, r.Check.Match)
	r = Compute(&Request{Capture: evo, Feature: repoFile(t, "examples/apstctl/testdata/feature/samsung-990-evo-plus-25ms.txt")})
	require.Empty(t, r.Errors)
	assert.False(t, r.Check.Match)
	require.NotEmpty(t, r.Check.ReproducedBy)
	assert.Equal(t, "4600us", r.Check.ReproducedBy[0].Min)
	assert.Equal(t, "42999us", r.Check.ReproducedBy[0].Max)
	// The feature as read, which the page's link carries: the -H text
	// gives ITPS and ITPT alone.
	assert.Equal(t, apst.APSTEEnabled, r.Check.Feature.APSTE)
	assert.True(t, r.Check.Feature.Masked)
	assert.Equal(t, apst.NewEntry(3, 100), r.Check.Feature.Table[0])
	assert.Equal(t, apst.Entry(0), r.Check.Feature.Table[3])
}

// The shared drive gives the answer the capture gives.
func TestComputeShared(t *testing.T) {
	for _, path := range []string{evoImage, intelImage, "testdata/corpus/smartctl/Samsung_SSD_990_EVO_Plus_1TB_2B2QKXG7.txt"} {
		for _, bound := range []string{"0", "25000", "100000", "unlimited"} {
			a := Compute(&Request{Capture: repoFile(t, path), Bound: bound})
			require.Empty(t, a.Errors)
			b := Compute(&Request{Drive: a.Drive, Bound: bound})
			require.Empty(t, b.Errors)
			assert.Equal(t, a.Plan, b.Plan, "%s at %s", path, bound)
			assert.Equal(t, a.Sweep, b.Sweep)
			assert.Equal(t, a.Params, b.Params)
			require.NotEmpty(t, b.Assumptions)
			assert.Equal(t, len(a.Assumptions), len(b.Assumptions)-1, "the shared-link note, then the same assumptions")
			for i := range a.Assumptions {
				assert.Equal(t, a.Assumptions[i], b.Assumptions[i+1])
			}
		}
	}
}

// threadLog is the log of a real thread copied into testdata (its source
// header kept): the part after the header's "---" line, as a user pastes it.
func threadLog(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	_, body, ok := strings.Cut(string(b), "\n---\n")
	require.True(t, ok, "%s: no --- line after the header", name)
	return []byte(body)
}

// wantDiagnosis is the oracle: the diagnosis apstctl diagnose --log gives
// (diagnosePasted), its steps written out here: kernlog.Read, the log's
// release, and with a drive the module defaults of the release's
// generation, the model's quirks and the command line's bound.
func wantDiagnosis(t *testing.T, log []byte, id *powerstate.Controller, tried string, plat persist.Platform) (diagnose.Diagnosis, *kernlog.Log, apst.Assumptions) {
	t.Helper()
	l, err := kernlog.Read(context.Background(), bytes.NewReader(log), kernlog.Options{})
	require.NoError(t, err)
	in := diagnose.Input{Log: l, Platform: plat}
	if tried != "" {
		in.Tried, err = diagnose.ParseTriedFlag(tried)
		require.NoError(t, err)
	}
	if rel, err := apst.ParseRelease(l.Release); err == nil {
		in.Release = rel
	}
	var assumed apst.Assumptions
	var notes []string
	if id != nil {
		gen := apst.Current
		if g, err := in.Release.Generation(); err == nil {
			gen = g
		}
		p := apst.DefaultParams(gen)
		mn, fr := id.ModelBytes(), id.FirmwareBytes()
		m := apst.LookupQuirks(apst.Identity{VendorID: id.VendorID, Model: string(mn[:]), Firmware: string(fr[:]), Release: in.Release})
		p.Quirks = m.APST()
		if v, ok := diagnose.Param(l.CommandLine, "nvme_core.default_ps_max_latency_us"); ok {
			b, err := apst.ParseMicroseconds(v)
			require.NoError(t, err)
			p.Bound = apst.ModuleDefaultBound(uint64(b))
		}
		in.Identify, in.Params = id, p
		assumed = m.Assumptions()
		assumed.APSTAUnknown = !id.APSTAKnown()
		notes = append(notes, fmt.Sprintf("a pasted log: the plan assumes the module defaults of %s (bound %s) and the quirks the model's tables give (%s); the machine's own settings were not read", gen, p.Bound, m.APST()))
	}
	d := diagnose.Diagnose(in)
	d.Notes = append(d.Notes, notes...)
	return d, l, assumed
}

// The page diagnoses a pasted kernel log with the call apstctl diagnose
// --log makes, and gives its answer: the same summary, first cause,
// undecided layers, separating test and lines not read; with a capture (or a
// shared drive) the drive is the diagnosis's Identify, with the parameters
// the command builds for --id-ctrl.
func TestComputeDiagnosis(t *testing.T) {
	evo := repoFile(t, evoImage)
	evoCtrl, err := capture.ParseBytes(evo)
	require.NoError(t, err)
	shared := Compute(&Request{Capture: evo}).Drive
	sharedCtrl, err := DecodeDrive(shared)
	require.NoError(t, err)
	aspmLog := repoFile(t, "apst/diagnose/testdata/aspm.log")
	apstLog := repoFile(t, "apst/diagnose/testdata/apst.log")
	// The apst log with a bound on its command line: the plan's bound is
	// the command line's.
	bounded := bytes.Replace(apstLog, []byte("rw loglevel=3\n"), []byte("rw loglevel=3 nvme_core.default_ps_max_latency_us=5500\n"), 2)
	require.NotEqual(t, apstLog, bounded)
	openwrt := threadLog(t, "gh-openwrt-14557-rpi5-aspm-powersave.log")
	wrapped := threadLog(t, "ml-debian-6-1-i9-14900k-cpu-failure.log")
	// A log cut mid-line: the block layer's line lost its end, so it looks
	// like a failure and cannot be read.
	cut := []byte("[   73.131781] I/O error, dev nvme0n1, sector\n[   73.141054] pcieport 0000:00:1c.0: link training failed\n")

	// What the cases saw, so that the table is known to cover an
	// undecided layers and lines not read.
	var undecidedSeen, unreadSeen, relayedSeen int
	relayed := repoFile(t, "apst/diagnose/testdata/relayed-only.log")
	for _, tc := range []struct {
		name      string
		req       Request
		id        *powerstate.Controller
		plat      persist.Platform
		plan      bool   // the capture's sections are there too
		wantNote  string // a note of the page's own
		wantTried string // a line of the tried list
	}{
		{name: "aspm.log alone", req: Request{Log: aspmLog}},
		{name: "aspm.log with a capture", req: Request{Log: aspmLog, Capture: evo}, id: &evoCtrl, plan: true},
		{name: "aspm.log with a shared drive", req: Request{Log: aspmLog, Drive: shared}, id: &sharedCtrl, plan: true},
		{name: "apst.log with a capture", req: Request{Log: apstLog, Capture: evo}, id: &evoCtrl, plan: true},
		{name: "apst.log bounded on its command line", req: Request{Log: bounded, Capture: evo}, id: &evoCtrl, plan: true, wantNote: "bound 5500us",
			wantTried: "nvme_core.default_ps_max_latency_us=5500 (did not help) [the log's command line]"},
		{name: "a real thread: rpi5, tried", req: Request{Log: openwrt, Tried: "pcie_aspm=off:no"}, wantTried: "pcie_aspm=off (did not help)"},
		{name: "apst.log, the PCI ID field is the plan's only", req: Request{Log: apstLog, Capture: evo, PCIID: "144d:a80d"}, id: &evoCtrl, plan: true},
		{name: "a real thread: rpi5, tried and platform", req: Request{Log: openwrt, Tried: "pcie_aspm=off:no, nvme_core.default_ps_max_latency_us=0", Platform: "raspberry-pi"}, plat: persist.PlatformRaspberryPi},
		{name: "a real thread: rpi5, auto platform", req: Request{Log: openwrt, Platform: "auto"}},
		{name: "a real thread, mail-wrapped", req: Request{Log: wrapped}},
		{name: "a log cut mid-line: lines not read", req: Request{Log: cut}},
		{name: "other programs' copies alone", req: Request{Log: relayed}},
		{name: "a bad capture: diagnosed without it", req: Request{Log: aspmLog, Capture: evo[:4000]}, wantNote: "the capture above could not be read"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Compute(&tc.req)
			if tc.wantNote == "the capture above could not be read" {
				require.Contains(t, r.Errors, "capture")
				delete(r.Errors, "capture")
			}
			require.Empty(t, r.Errors)
			require.NotNil(t, r.Diagnosis)
			assert.Equal(t, tc.plan, r.Plan != nil, "the capture's sections")
			d, l, assumed := wantDiagnosis(t, tc.req.Log, tc.id, tc.req.Tried, tc.plat)
			if tc.wantNote == "the capture above could not be read" {
				d.Notes = append(d.Notes, "the capture above could not be read: the diagnosis was made without the drive's power state table")
			}
			g := r.Diagnosis
			if len(g.Undecided) > 0 {
				undecidedSeen++
			}
			if len(g.Unread) > 0 {
				unreadSeen++
			}
			if len(g.Relayed) > 0 {
				relayedSeen++
			}

			// The answer first: the same summary, first cause, undecided
			// pair and separating test as the library's.
			assert.Equal(t, view.Escape(d.Summary), g.Summary)
			assert.Equal(t, d.Failure, g.Failure)
			assert.Equal(t, d.Controller, g.Controller)
			undecided := []string{}
			for _, u := range d.Undecided {
				undecided = append(undecided, string(u))
			}
			assert.Equal(t, undecided, g.Undecided)
			if d.Separate == nil {
				assert.Nil(t, g.Separate)
			} else if assert.NotNil(t, g.Separate) {
				assert.Equal(t, d.Separate.Action, g.Separate.Action)
				assert.Equal(t, d.Separate.Command, g.Separate.Command)
				assert.Equal(t, escAll(d.Separate.Where), g.Separate.Where)
			}
			require.Len(t, g.Causes, len(d.Causes))
			if len(d.Causes) > 0 {
				c, gc := d.Causes[0], g.Causes[0]
				assert.Equal(t, string(c.Layer), gc.Layer)
				assert.Equal(t, string(c.Likelihood), gc.Likelihood)
				assert.Equal(t, c.Score, gc.Score)
				require.Len(t, gc.Evidence, len(c.Evidence))
				for i, e := range c.Evidence {
					assert.Equal(t, e.Line, gc.Evidence[i].Line)
					assert.Equal(t, view.Escape(e.Quote), gc.Evidence[i].Quote)
					assert.Equal(t, view.Escape(e.Text), gc.Evidence[i].Text)
				}
				require.Len(t, gc.Tests, len(c.Tests))
				for i, x := range c.Tests {
					assert.Equal(t, x.Command, gc.Tests[i].Command)
					assert.Equal(t, x.Cost, gc.Tests[i].Cost)
					require.Len(t, gc.Tests[i].Where, len(x.Where))
					for j, w := range x.Where {
						assert.Equal(t, view.Escape(w), gc.Tests[i].Where[j])
					}
				}
			}
			require.Len(t, g.Unread, len(d.Unread))
			for i, u := range d.Unread {
				assert.Equal(t, u.Line, g.Unread[i].Line)
				assert.Equal(t, view.Escape(u.Text), g.Unread[i].Text)
			}
			require.Len(t, g.Relayed, len(d.Relayed))
			for i, u := range d.Relayed {
				assert.Equal(t, u.Line, g.Relayed[i].Line)
				assert.Equal(t, view.Escape(u.Program), g.Relayed[i].Program)
				assert.Equal(t, view.Escape(u.Text), g.Relayed[i].Text)
			}
			assert.Equal(t, string(d.Platform), g.Platform)
			assert.Equal(t, escAll(d.Notes), g.Notes)
			if tc.wantNote != "" {
				assert.Contains(t, strings.Join(g.Notes, "\n"), tc.wantNote)
			}
			if tc.wantTried != "" {
				var tried []string
				for _, x := range g.Tried {
					tried = append(tried, x.Text)
				}
				assert.Contains(t, tried, tc.wantTried)
			}
			// And the whole of it, field by field (the view of the same
			// diagnosis: any difference in what the page passed shows).
			assert.Equal(t, diagnosisView(&d, l, describe.Assumptions(&assumed, "", "a PCI ID")), g)
			_, err := json.Marshal(r)
			require.NoError(t, err)
		})
	}
	// If the library's rules change so that no case is undecided or has
	// lines it cannot read, give the table a log of apst/diagnose's
	// testdata/threads that is.
	assert.Positive(t, undecidedSeen, "no case of the table is undecided between two layers")
	assert.Positive(t, unreadSeen, "no case of the table has lines not read")
	assert.Positive(t, relayedSeen, "no case of the table has other programs' copies")
}

// The real thread's log is a failure, read line by line: its first cause
// quotes a line of the log as pasted, at its number.
func TestComputeDiagnosisQuotes(t *testing.T) {
	log := threadLog(t, "gh-openwrt-14557-rpi5-aspm-powersave.log")
	r := Compute(&Request{Log: log})
	require.Empty(t, r.Errors)
	require.True(t, r.Diagnosis.Failure)
	lines := strings.Split(string(log), "\n")
	quoted := 0
	for _, c := range r.Diagnosis.Causes {
		for _, e := range append(c.Evidence, c.Against...) {
			if e.Line > 0 {
				quoted++
				require.LessOrEqual(t, e.Line, len(lines))
				assert.Equal(t, strings.TrimSpace(lines[e.Line-1]), e.Quote, "line %d", e.Line)
			}
		}
	}
	assert.Positive(t, quoted, "the causes quote the log")
	assert.Nil(t, r.Plan, "no capture, no plan")
	assert.NotContains(t, r.Errors, "capture", "a log alone needs no capture")
}

// A log that is not a kernel log, and bad settings, are refused at their
// field; the capture's sections are unaffected.
func TestComputeDiagnosisErrors(t *testing.T) {
	evo := repoFile(t, evoImage)
	aspmLog := repoFile(t, "apst/diagnose/testdata/aspm.log")
	_, binErr := kernlog.Read(context.Background(), bytes.NewReader(evo), kernlog.Options{})
	require.ErrorIs(t, binErr, kernlog.ErrBinary)
	_, triedErr := diagnose.ParseTriedFlag("pcie_aspm=off:maybe")
	require.Error(t, triedErr)
	for _, tc := range []struct {
		name  string
		req   Request
		field string
		want  []string
	}{
		{"binary", Request{Log: evo}, "log", []string{"this is not a kernel log", binErr.Error()}},
		{"binary, with a capture", Request{Log: evo, Capture: evo}, "log", []string{"this is not a kernel log"}},
		{"a journal file's bytes", Request{Log: append([]byte("LPKSHHRH\x00\x00\x00\x00"), make([]byte, 4096)...)}, "log", []string{"this is not a kernel log"}},
		{"too large", Request{Log: make([]byte, maxLog+1)}, "log", []string{"larger than"}},
		// A capture pasted in the log's field is refused and sent to the
		// capture's (pastedlog.NotALog).
		{"a capture in the log's field", Request{Log: []byte("NVME Identify Controller:\nvid       : 0x1cc1\nssvid     : 0x1cc1\nmn        : ADATA SX8200PNP\n")}, "log",
			[]string{"not a kernel log", "Identify Controller capture (nvme-cli-text)", "the capture (above)"}},
		{"prose", Request{Log: []byte("my drive drops out every day\n")}, "log", []string{"not a kernel log", "paste the kernel log as the system wrote it"}},
		{"tried", Request{Log: aspmLog, Tried: "pcie_aspm=off:maybe"}, "tried", []string{userMessage(triedErr)}},
		{"platform", Request{Log: aspmLog, Platform: "windows"}, "platform", []string{`platform "windows"`, "raspberry-pi"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Compute(&tc.req)
			require.Contains(t, r.Errors, tc.field, "errors: %v", r.Errors)
			for _, w := range tc.want {
				assert.Contains(t, r.Errors[tc.field], w)
			}
			assert.Nil(t, r.Diagnosis)
			assert.Len(t, r.Errors, 1, "only the log's field: %v", r.Errors)
			assert.Equal(t, len(tc.req.Capture) > 0, r.Plan != nil, "the capture's sections do not depend on the log")
			_, err := json.Marshal(r)
			require.NoError(t, err)
		})
	}
	// Without a capture and without a log, the capture is asked for.
	assert.Contains(t, Compute(&Request{Tried: "pcie_aspm=off"}).Errors["capture"], "no capture")
}

// The page's platform choices are the library's, with auto first.
func TestPlatformChoices(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "static", "index.html"))
	require.NoError(t, err)
	html := string(b)
	start := strings.Index(html, `<select id="platform"`)
	require.GreaterOrEqual(t, start, 0)
	end := strings.Index(html[start:], "</select>")
	require.Positive(t, end)
	var got []string
	for _, part := range strings.Split(html[start:start+end], `<option value="`)[1:] {
		v, _, _ := strings.Cut(part, `"`)
		got = append(got, v)
		_, err := platform(v)
		assert.NoError(t, err, v)
	}
	want := []string{"auto"}
	for _, p := range persist.Platforms() {
		want = append(want, string(p))
	}
	assert.Equal(t, want, got)
}

// The page's messages drop the library's package prefixes, and only them.
func TestUserMessage(t *testing.T) {
	for in, want := range map[string]string{
		"powerstate: nvme-cli-text capture, line 3: bad": "nvme-cli-text capture, line 3: bad",
		"apst: invalid configuration: x":                 "invalid configuration: x",
		"apst: analysis: nested":                         "nested",
		"latency bound \"x\": want":                      "latency bound \"x\": want",
		"a powerstate: in the middle":                    "a powerstate: in the middle",
	} {
		assert.Equal(t, want, userMessage(errors.New(in)), in)
	}
}
