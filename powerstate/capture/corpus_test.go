package capture_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// corpusDevice is one device of the corpus: its real smartctl report and
// the captures generated from it.
type corpusDevice struct {
	name     string
	smartctl string // path of the real report
	others   []corpusCapture
}

type corpusCapture struct {
	path   string
	format powerstate.Format
}

// corpusDevices lists every smartctl report in the corpus with the sibling
// captures of the same device that exist (nvme-cli text of the three
// generations, nvme-cli JSON, the binary image). Adding a report, or any of
// its siblings, needs no code.
func corpusDevices(tb testing.TB) []corpusDevice {
	tb.Helper()
	reports, err := filepath.Glob(filepath.Join(corpusDir, "smartctl", "*.txt"))
	require.NoError(tb, err)
	require.NotEmpty(tb, reports)
	var devs []corpusDevice
	for _, r := range reports {
		name := strings.TrimSuffix(filepath.Base(r), ".txt")
		d := corpusDevice{name: name, smartctl: r}
		for _, sib := range []corpusCapture{
			{filepath.Join(corpusDir, "nvme-cli", "synthetic", name+".v1.txt"), powerstate.FormatNVMeCLIText},
			{filepath.Join(corpusDir, "nvme-cli", "synthetic", name+".v2.txt"), powerstate.FormatNVMeCLIText},
			{filepath.Join(corpusDir, "nvme-cli", "synthetic", name+".v2_12.txt"), powerstate.FormatNVMeCLIText},
			{filepath.Join(corpusDir, "nvme-cli", "synthetic", name+".json"), powerstate.FormatNVMeCLIJSON},
			{filepath.Join(corpusDir, "binary", "synthetic", name+".id-ctrl.bin"), powerstate.FormatBinary},
		} {
			if _, err := os.Stat(sib.path); err == nil {
				d.others = append(d.others, sib)
			}
		}
		devs = append(devs, d)
	}
	return devs
}

// parserFor returns the format-specific parser.
func parserFor(f powerstate.Format) func(b []byte) (powerstate.Controller, error) {
	switch f {
	case powerstate.FormatNVMeCLIText:
		return func(b []byte) (powerstate.Controller, error) { return capture.ParseNVMeCLIText(bytes.NewReader(b)) }
	case powerstate.FormatNVMeCLIJSON:
		return func(b []byte) (powerstate.Controller, error) { return capture.ParseNVMeCLIJSON(bytes.NewReader(b)) }
	case powerstate.FormatSmartctlText:
		return func(b []byte) (powerstate.Controller, error) { return capture.ParseSmartctlText(bytes.NewReader(b)) }
	case powerstate.FormatSmartctlJSON:
		return func(b []byte) (powerstate.Controller, error) { return capture.ParseSmartctlJSON(bytes.NewReader(b)) }
	}
	return powerstate.DecodeIdentify
}

// planTable is what must agree between the captures of one device: the
// table the kernel programs and the states it picks.
type planTable struct {
	Table        apst.Table
	MaxPS        int
	MaxRoundTrip apst.Microseconds
	Selected     apst.States
}

func planOf(t *testing.T, c *powerstate.Controller) planTable {
	t.Helper()
	plan, err := apst.Build(c, apst.DefaultParams(apst.Current))
	require.NoError(t, err)
	return planTable{plan.Table, plan.MaxPS, plan.MaxRoundTrip, plan.Selected()}
}

// TestCorpus parses every capture of every corpus device with Parse and
// with its format's parser, and checks that all captures of a device give
// the same power state table, NPSS, model, firmware and PCI vendor IDs, that
// they re-encode with every writer, and that apst.Build gives the same
// table for all of them.
func TestCorpus(t *testing.T) {
	devs := corpusDevices(t)
	assert.Len(t, devs, testfixture.SmartctlReports(t), "a device per report of the MANIFEST")
	for _, dev := range devs {
		t.Run(dev.name, func(t *testing.T) {
			t.Parallel()
			raw, err := os.ReadFile(dev.smartctl)
			require.NoError(t, err)
			ref, err := capture.Parse(bytes.NewReader(raw))
			require.NoError(t, err, "every real smartctl report parses")
			require.Equal(t, powerstate.FormatSmartctlText, ref.Format)
			direct, err := parserFor(powerstate.FormatSmartctlText)(raw)
			require.NoError(t, err)
			require.Equal(t, ref, direct, "Parse and ParseSmartctlText agree")

			// What smartctl does not print stays unknown.
			assert.False(t, ref.Knows(powerstate.FieldAPSTA), "smartctl has no APSTA")
			assert.False(t, ref.Knows(powerstate.FieldIdlePower), "smartctl's Idle column is not trusted")
			assert.False(t, ref.Knows(powerstate.FieldActivePower), "smartctl's Active column is not trusted")
			assert.True(t, ref.Knows(powerstate.FieldNPSS|powerstate.FieldPowerStates|powerstate.FieldModel|
				powerstate.FieldFirmware|powerstate.FieldVendorID|powerstate.FieldSubsystemVendorID))
			for i := ref.StateCount(); i < powerstate.MaxStates; i++ {
				assert.Zero(t, ref.PowerStates[i], "no state beyond NPSS")
			}
			refPlan := planOf(t, &ref)
			plan, err := apst.Build(&ref, apst.DefaultParams(apst.Current))
			require.NoError(t, err)
			assert.True(t, plan.AssumedAPSTA, "Build says it assumed APSTA for smartctl")

			// The same device through smartctl -j (7.5 shape).
			sj, err := smartctlJSON(&ref)
			require.NoError(t, err)
			captures := []struct {
				label  string
				data   []byte
				format powerstate.Format
			}{{"smartctl-json", sj, powerstate.FormatSmartctlJSON}}
			for _, o := range dev.others {
				b, err := os.ReadFile(o.path)
				require.NoError(t, err)
				captures = append(captures, struct {
					label  string
					data   []byte
					format powerstate.Format
				}{filepath.Base(o.path), b, o.format})
			}
			// A report added to the corpus without its generated siblings is
			// checked in the formats it has; one with siblings has them all.
			if len(dev.others) > 0 {
				require.Len(t, captures, 6, "smartctl JSON, three nvme-cli text generations, nvme-cli JSON and the image")
			}

			all := []powerstate.Controller{ref}
			for _, cp := range captures {
				c, err := capture.Parse(bytes.NewReader(cp.data))
				require.NoError(t, err, cp.label)
				require.Equal(t, cp.format, c.Format, cp.label)
				direct, err := parserFor(cp.format)(cp.data)
				require.NoError(t, err, cp.label)
				require.Equal(t, c, direct, "%s: Parse and the format's parser agree", cp.label)

				// Identical tables and identity, compared on what both carry.
				common := powerstate.FieldPowerStates | powerstate.FieldNPSS | powerstate.FieldModel |
					powerstate.FieldFirmware | powerstate.FieldVendorID | powerstate.FieldSubsystemVendorID
				require.True(t, c.Knows(common), "%s knows %v", cp.label, c.Known())
				assert.Empty(t, diffControllers(&ref, &c, common, powerstate.FormatSmartctlText), cp.label)
				// Other fields both captures carry agree too (IEEE, VER,
				// thresholds; CNTLID and OACS are not in the synthetic files).
				both := ref.Known() & c.Known() & (powerstate.FieldIEEE | powerstate.FieldVersion |
					powerstate.FieldWarningTemp | powerstate.FieldCriticalTemp)
				assert.Empty(t, diffControllers(&ref, &c, both, powerstate.FormatSmartctlText), cp.label)

				assert.Equal(t, refPlan, planOf(t, &c), "%s: apst.Build gives the same table", cp.label)
				all = append(all, c)
			}
			// nvme-cli v2+ text, JSON and the image carry the same idle and
			// active power (the v1 text has no workload, so no active power).
			for _, c := range all[1:] {
				assert.Empty(t, roundTrip(&c), "%s re-encodes", c.Format)
			}
			assert.Empty(t, roundTrip(&ref), "smartctl re-encodes")
		})
	}
}

// TestCorpusParseTime parses the whole corpus (every file, every format)
// and reports how long it takes; it must stay well under a second.
func TestCorpusParseTime(t *testing.T) {
	var files [][]byte
	for _, dev := range corpusDevices(t) {
		b, err := os.ReadFile(dev.smartctl)
		require.NoError(t, err)
		files = append(files, b)
		for _, o := range dev.others {
			b, err := os.ReadFile(o.path)
			require.NoError(t, err)
			files = append(files, b)
		}
	}
	start := time.Now()
	for _, b := range files {
		_, err := capture.Parse(bytes.NewReader(b))
		require.NoError(t, err)
	}
	elapsed := time.Since(start)
	t.Logf("parsed %d corpus files in %v", len(files), elapsed)
	assert.Less(t, elapsed, 5*time.Second, "even under the race detector")
}
