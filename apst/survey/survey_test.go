package survey_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/survey"
	"github.com/nvmeapst/nvmeapst/internal/surveytest"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// commandDiffers reports whether Compare found a difference in what is sent
// (sent, APSTE or a table entry) between configuration k and the first.
func commandDiffers(cmp *analysis.Comparison, k int) bool {
	for _, d := range cmp.Differences {
		if d.Config == k && (d.Field == "sent" || d.Field == "enabled" || d.Field == "entry") {
			return true
		}
	}
	return false
}

// The survey of the real smartctl corpus agrees, drive by drive and in its
// counts, with running Compare on every drive.
func TestSurveyCorpusAgreesWithCompare(t *testing.T) {
	names, cs := surveytest.Captures(t, surveytest.CorpusDir+"/smartctl")
	require.Len(t, cs, testfixture.SmartctlReports(t), "one capture per MANIFEST.tsv row")
	// Every form a configuration takes (one configuration, one table): the survey's row of each drive is what Compare gives for the
	// same configurations, quirks given or looked up.
	for _, specs := range [][]string{
		{"ps-max-latency-us=100000", "ps-max-latency-us=25000"},
		{"policy=linux-default", "policy=windows-balanced-dc"},
		{"ps-max-latency-us=100000", "kernel=v4.12", "policy=linux-25ms,quirks=no-deepest-ps", "ps-max-latency-us=0"},
		{"ps-max-latency-us=100000,quirks=none", "ps-max-latency-us=25000,quirks=none"},
		{"ps-max-latency-us=100000", "ps-max-latency-us=100000,quirks=none", "quirks=tables,no-deepest-ps", "quirks=no-apst"},
		{"kernel=6.8", "kernel=4.14", "kernel=5.10.0-28-amd64", "kernel=6.8,force-apst"},
		{"pm-qos=any", "pm-qos=auto", "pm-qos=5000", "default-ps-max-latency-us=2147483647"},
		{"apst-primary-timeout-ms=50,apst-secondary-timeout-ms=500", "apst-primary-latency-tol-us=5000,apst-secondary-latency-tol-us=20000,kernel=current"},
	} {
		t.Run(strings.Join(specs, " vs "), func(t *testing.T) {
			configs := surveytest.Configs(t, specs...)
			s, err := survey.NewWithOptions(survey.Options{KernelQuirks: true}, configs...)
			require.NoError(t, err)
			n := len(configs)
			changed := 0
			perCmp := make([]struct {
				changed, noIdle, some, gains int
				all, none                    []string
				stall, power                 int64
			}, n)
			for k := range perCmp {
				perCmp[k].all, perCmp[k].none = []string{}, []string{}
			}
			for i, c := range cs {
				row, err := s.Add(names[i], c)
				require.NoError(t, err)
				cmp, err := analysis.Compare(c, configs...)
				require.NoError(t, err)
				require.Len(t, row.Results, n)
				for k := range n {
					assert.Equal(t, cmp.Configs[k], row.Results[k], names[i])
				}
				assert.Equal(t, cmp.PowerDelta, row.Changes[0].PowerDelta, names[i])
				anyChanged := false
				for k := 1; k < n; k++ {
					ch := row.Changes[k-1]
					want := commandDiffers(&cmp, k)
					assert.Equal(t, want, ch.Changed, "%s config %d", names[i], k)
					anyChanged = anyChanged || want
					assert.Equal(t, apst.MicroWatts(cmp.Configs[k].DeepestMaxPower.MicroWatts())-apst.MicroWatts(cmp.Configs[0].DeepestMaxPower.MicroWatts()), ch.PowerDelta)
					assert.Equal(t, int64(cmp.Configs[0].Reach.WorstExitLatency)-int64(cmp.Configs[k].Reach.WorstExitLatency), ch.StallReduction)
					p := &perCmp[k]
					if want {
						p.changed++
						p.stall += ch.StallReduction
						p.power += int64(ch.PowerDelta)
					}
					a, b := cmp.Configs[0].Reach.States&^1, cmp.Configs[k].Reach.States&^1
					switch {
					case a == 0:
						p.noIdle++
					case a&^b == 0:
						p.none = append(p.none, names[i])
					case b == 0:
						p.all = append(p.all, names[i])
					default:
						p.some++
					}
					if b&^a != 0 {
						p.gains++
					}
				}
				assert.Equal(t, anyChanged, row.Changed)
				if anyChanged {
					changed++
				}
			}
			sum := s.Summary()
			assert.Equal(t, len(cs), sum.Drives, "the survey covers every drive")
			assert.Equal(t, changed, sum.Changed)
			require.Len(t, sum.Comparisons, n-1)
			for k := 1; k < n; k++ {
				c, p := sum.Comparisons[k-1], perCmp[k]
				assert.Equal(t, k, c.Config)
				assert.Equal(t, specs[k], c.Name)
				assert.Equal(t, p.changed, c.Changed)
				assert.Equal(t, p.changed, c.StallReduction.N)
				assert.Equal(t, p.stall, c.StallReduction.Sum)
				assert.Equal(t, p.power, c.PowerIncrease.Sum)
				assert.Equal(t, p.noIdle, c.NoIdle)
				assert.Equal(t, p.some, c.BarsSome)
				assert.Equal(t, p.gains, c.Gains)
				assert.Equal(t, p.all, c.BarsAll) // names are in lexical order already
				assert.Equal(t, p.none, c.BarsNone)
			}
		})
	}
}

// The 990 EVO Plus of docs/should-the-default-be-25ms.md: 43000 -> 4600 us
// and +73 mW.
func TestSurvey990EVOPlusRow(t *testing.T) {
	names, cs := surveytest.Captures(t, surveytest.CorpusDir+"/smartctl")
	s, err := survey.NewWithOptions(survey.Options{KernelQuirks: true},
		surveytest.Configs(t, "ps-max-latency-us=100000", "ps-max-latency-us=25000")...)
	require.NoError(t, err)
	found := 0
	for i, c := range cs {
		row, err := s.Add(names[i], c)
		require.NoError(t, err)
		if !strings.HasSuffix(names[i], "Samsung_SSD_990_EVO_Plus_1TB_2B2QKXG7.txt") {
			continue
		}
		found++
		assert.Equal(t, "Samsung", row.Vendor)
		assert.Equal(t, "Samsung SSD 990 EVO Plus 1TB", row.Model)
		assert.True(t, row.Changed)
		assert.EqualValues(t, 4, row.Results[0].Reach.Deepest)
		assert.EqualValues(t, 43000, row.Results[0].Reach.WorstExitLatency)
		assert.EqualValues(t, 3, row.Results[1].Reach.Deepest)
		assert.EqualValues(t, 4600, row.Results[1].Reach.WorstExitLatency)
		ch := row.Changes[0]
		assert.EqualValues(t, 43000-4600, ch.StallReduction)
		assert.EqualValues(t, 73000, ch.PowerDelta)
		assert.InDelta(t, 73.0, ch.PowerDelta.MilliWatts(), 1e-12)
		assert.Equal(t, apst.States(1<<4), ch.Barred)
		assert.Equal(t, survey.BarsSome, ch.Bars)
	}
	assert.Equal(t, 1, found)
}

// Every capture of the shipped corpus, in every format, is surveyed, and a
// device gives the same row whatever format it was captured in.
func TestSurveyWholeCorpusAcrossFormats(t *testing.T) {
	names, cs := surveytest.Captures(t, surveytest.CorpusDir)
	require.Greater(t, len(cs), testfixture.SmartctlReports(t), "smartctl, nvme-cli v1/v2/v2.12 text and JSON, binary")
	s, err := survey.NewWithOptions(survey.Options{KernelQuirks: true},
		surveytest.Configs(t, "ps-max-latency-us=100000", "ps-max-latency-us=25000")...)
	require.NoError(t, err)
	type key struct {
		deepest [2]uint8
		stall   [2]apst.Microseconds
		power   [2]uint64
		changed bool
	}
	byDevice := map[string]map[key][]string{}
	for i, c := range cs {
		row, err := s.Add(names[i], c)
		require.NoError(t, err)
		base := filepath.Base(names[i])
		for _, suf := range []string{".id-ctrl.bin", ".v2_12.txt", ".v2.txt", ".v1.txt", ".json", ".txt"} {
			if strings.HasSuffix(base, suf) {
				base = strings.TrimSuffix(base, suf)
				break
			}
		}
		var k key
		for j := range 2 {
			k.deepest[j] = row.Results[j].Reach.Deepest
			k.stall[j] = row.Results[j].Reach.WorstExitLatency
			k.power[j] = row.Results[j].DeepestMaxPower.MicroWatts()
		}
		k.changed = row.Changed
		if byDevice[base] == nil {
			byDevice[base] = map[key][]string{}
		}
		byDevice[base][k] = append(byDevice[base][k], names[i])
	}
	assert.GreaterOrEqual(t, len(byDevice), testfixture.SmartctlReports(t))
	changed := 0
	for dev, ks := range byDevice {
		assert.Len(t, ks, 1, "%s: %v", dev, ks)
		for k, ns := range ks {
			if k.changed {
				changed += len(ns)
			}
		}
	}
	sum := s.Summary()
	assert.Equal(t, len(cs), sum.Drives)
	assert.Equal(t, changed, sum.Changed)
}

func TestSurveyDeterministic(t *testing.T) {
	names, cs := surveytest.Captures(t, surveytest.CorpusDir+"/smartctl")
	configs := surveytest.Configs(t, "ps-max-latency-us=100000", "ps-max-latency-us=25000", "policy=windows-balanced-dc")
	run := func(order []int, workers int) (survey.Summary, survey.BudgetAnswer) {
		s, err := survey.NewWithOptions(survey.Options{KernelQuirks: true}, configs...)
		require.NoError(t, err)
		var wg sync.WaitGroup
		ch := make(chan int)
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var row survey.Row
				for i := range ch {
					assert.NoError(t, s.AddInto(&row, names[i], cs[i]))
				}
			}()
		}
		for _, i := range order {
			ch <- i
		}
		close(ch)
		wg.Wait()
		return s.Summary(), s.StallBudget(25000)
	}
	order := make([]int, len(cs))
	for i := range order {
		order[i] = i
	}
	sum1, b1 := run(order, 1)
	slices.Reverse(order)
	sum2, b2 := run(order, 1)
	sum3, b3 := run(order, 8)
	assert.Equal(t, sum1, sum2)
	assert.Equal(t, sum1, sum3)
	assert.Equal(t, b1, b2)
	assert.Equal(t, b1, b3)
	assert.Equal(t, len(cs), sum1.Drives)
}

// acceptableByRecommend is the fleet's acceptable bounds computed from
// Recommend, drive by drive: the intersection of every drive's ranges.
func acceptableByRecommend(t require.TestingT, cs []*powerstate.Controller, p apst.Params, kernelQuirks bool, budget apst.Microseconds) []analysis.BoundRange {
	acc := []analysis.BoundRange{{Min: 0, Max: apst.NoLimit}}
	for _, c := range cs {
		q := p
		if kernelQuirks {
			q.Quirks |= apst.DriveQuirks(c, apst.Release{}).APST()
		} else {
			q.QuirksGiven = true
		}
		rec, err := analysis.Recommend(c, q, analysis.StallGoal(budget))
		require.NoError(t, err)
		var next []analysis.BoundRange
		for _, a := range acc {
			for _, b := range rec.Acceptable {
				lo, hi := max(a.Min, b.Min), min(a.Max, b.Max)
				if lo <= hi {
					next = append(next, analysis.BoundRange{Min: lo, Max: hi})
				}
			}
		}
		acc = next
	}
	return acc
}

func worstAt(t require.TestingT, c *powerstate.Controller, p apst.Params, bound apst.Microseconds) analysis.Reach {
	p.Bound = bound
	plan, err := apst.Build(c, p)
	require.NoError(t, err)
	return analysis.Reachability(c, &plan.Table)
}

func TestSurveyStallBudgetCorpus(t *testing.T) {
	names, cs := surveytest.Captures(t, surveytest.CorpusDir+"/smartctl")
	configs := surveytest.Configs(t, "ps-max-latency-us=100000", "ps-max-latency-us=25000")
	s, err := survey.NewWithOptions(survey.Options{KernelQuirks: true}, configs...)
	require.NoError(t, err)
	for i, c := range cs {
		_, err := s.Add(names[i], c)
		require.NoError(t, err)
	}
	b := s.StallBudget(25000)
	assert.Equal(t, acceptableByRecommend(t, cs, configs[0].Params, true, 25000), b.Acceptable)
	require.NotEmpty(t, b.Acceptable)
	assert.Equal(t, b.Acceptable[len(b.Acceptable)-1].Max, b.Bound)
	assert.GreaterOrEqual(t, b.Bound, apst.Microseconds(25000))
	if b.Bound != apst.NoLimit {
		assert.NotEmpty(t, b.Binding, "some drive keeps the bound from being higher")
	}
	for i, c := range cs {
		p := configs[0].Params
		p.Quirks |= apst.DriveQuirks(c, apst.Release{}).APST()
		assert.LessOrEqual(t, worstAt(t, c, p, b.Bound).WorstExitLatency, apst.Microseconds(25000), names[i])
		over := worstAt(t, c, p, b.Bound+1).WorstExitLatency > 25000
		assert.Equal(t, over, slices.Contains(b.Binding, names[i]), names[i])
	}
	// The cost at Bound is the one of the second configuration moved to
	// Bound: a survey of 100 ms against Bound says the same.
	at := surveytest.Configs(t, "ps-max-latency-us=100000", fmt.Sprintf("ps-max-latency-us=%d", uint64(b.Bound)))
	s2, err := survey.NewWithOptions(survey.Options{KernelQuirks: true}, at...)
	require.NoError(t, err)
	for i, c := range cs {
		_, err := s2.Add(names[i], c)
		require.NoError(t, err)
	}
	sum := s2.Summary().Comparisons[0]
	assert.Equal(t, sum.Changed, b.Changed)
	assert.Equal(t, sum.PowerIncrease, b.PowerIncrease)
	assert.Equal(t, sum.StallReduction, b.StallReduction)
	assert.Equal(t, sum.BarsAll, b.LosesAll)

	// A budget every drive meets at any bound.
	all := s.StallBudget(apst.NoLimit)
	assert.Equal(t, apst.NoLimit, all.Bound)
	assert.Empty(t, all.Binding)
	assert.Equal(t, []analysis.BoundRange{{Min: 0, Max: apst.NoLimit}}, all.Acceptable)
}

func TestSurveyErrors(t *testing.T) {
	configs := surveytest.Configs(t, "ps-max-latency-us=100000", "ps-max-latency-us=25000")
	_, err := survey.New(configs[0])
	require.ErrorIs(t, err, analysis.ErrTooFewConfigs)
	assert.True(t, strings.HasPrefix(err.Error(), "survey: "), err)
	_, err = survey.New()
	require.ErrorIs(t, err, analysis.ErrTooFewConfigs)

	bad := slices.Clone(configs)
	bad[1].Params.Generation = 9
	_, err = survey.New(bad...)
	require.ErrorIs(t, err, apst.ErrUnknownGeneration)
	assert.True(t, strings.HasPrefix(err.Error(), "survey: "), err)

	s, err := survey.New(configs...)
	require.NoError(t, err)
	_, err = s.Add("x", nil)
	require.ErrorIs(t, err, apst.ErrNilController)
	assert.True(t, strings.HasPrefix(err.Error(), "survey: "), err)
	assert.Equal(t, 0, s.Len())

	// An empty survey: zero figures, every bound acceptable.
	sum := s.Summary()
	assert.Equal(t, 0, sum.Drives)
	require.Len(t, sum.Comparisons, 1)
	assert.Equal(t, analysis.Distribution{}, sum.Comparisons[0].StallReduction)
	assert.Empty(t, sum.Comparisons[0].BarsAll)
	assert.Equal(t, apst.NoLimit, s.StallBudget(25000).Bound)

	// The configurations are copied.
	configs[0].Name = "changed"
	assert.Equal(t, "ps-max-latency-us=100000", s.Configs()[0].Name)
}

func TestSurveyKernelQuirks(t *testing.T) {
	// The Toshiba THNSF5256GPUK carries NO_APST in core_quirks[].
	c := powerstate.Controller{VendorID: 0x1179, Model: "THNSF5256GPUK TOSHIBA", NPSS: 4, APSTA: 1}
	for i := 3; i <= 4; i++ {
		c.PowerStates[i] = powerstate.Descriptor{NonOperational: true, ExitLatency: 10000, EntryLatency: 1000,
			MaxPower: powerstate.MaxPowerOf(50, true)}
	}
	c.PowerStates[0].MaxPower = powerstate.MaxPowerOf(350, false)
	assert.Equal(t, apst.QuirkNoAPST, apst.DriveQuirks(&c, apst.Release{}).APST())

	configs := surveytest.Configs(t, "ps-max-latency-us=100000", "ps-max-latency-us=100000,force-apst")
	for _, kq := range []bool{false, true} {
		s, err := survey.NewWithOptions(survey.Options{KernelQuirks: kq}, configs...)
		require.NoError(t, err)
		row, err := s.Add("toshiba", &c)
		require.NoError(t, err)
		if kq {
			assert.Equal(t, apst.QuirkNoAPST, row.Quirks)
			assert.False(t, row.Results[0].Plan.Enabled, "NO_APST")
			assert.True(t, row.Results[1].Plan.Enabled, "force_apst overrides the quirk")
			assert.True(t, row.Changed)
			assert.Equal(t, survey.BarsNoIdle, row.Changes[0].Bars)
		} else {
			assert.Zero(t, row.Quirks)
			assert.False(t, row.Changed)
		}
	}

	// DriveQuirks is LookupQuirks on what the capture records.
	_, cs := surveytest.Captures(t, surveytest.CorpusDir+"/smartctl")
	intel := powerstate.Controller{VendorID: 0x8086, PCIDeviceID: 0xf1a5}
	for _, c := range append(cs, &c, &intel) {
		id := apst.Identity{VendorID: c.VendorID, Model: c.Model, Firmware: c.Firmware}
		if c.PCIDeviceID != 0 {
			id.PCI = apst.PCIID{Vendor: c.VendorID, Device: c.PCIDeviceID}
		}
		assert.Equal(t, apst.LookupQuirks(id).APST(), apst.DriveQuirks(c, apst.Release{}).APST(), c.Model)
	}
	assert.Equal(t, apst.QuirkNoDeepestPS, apst.DriveQuirks(&intel, apst.Release{}).APST())
}

func TestDriveVendor(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    *powerstate.Controller
		want string
	}{
		{"x", &powerstate.Controller{VendorID: 0x144d, Model: "Samsung SSD 990 EVO Plus 1TB"}, "Samsung"},
		{"x", &powerstate.Controller{VendorID: 0x1987, Model: "Corsair Force MP510"}, "Phison"},
		{"x", &powerstate.Controller{VendorID: 0xabcd, Model: "  Acme  Drive 1TB"}, "Acme"},
		{"dir/Foo_Bar_1.txt", &powerstate.Controller{VendorID: 0xabcd}, "Foo"},
		{`C:\caps\Foo Bar.bin`, &powerstate.Controller{VendorID: 0xabcd}, "Foo"},
		{"dir/", &powerstate.Controller{}, "unknown"},
		{"dir/Bar.txt", nil, "Bar"},
		// A capture that does not record the VID: the model decides.
		{"x", &powerstate.Controller{VendorID: 0x144d, Model: "Other 1", Missing: powerstate.FieldsAll &^ powerstate.FieldModel}, "Other"},
		// One maker, one name, whether the VID or the model tells it.
		{"x", &powerstate.Controller{VendorID: 0x1344, Model: "Micron 2450 MTFDKBA1T0TFK"}, "Micron/Crucial"},
		{"x", &powerstate.Controller{VendorID: 0xc0a9, Model: "CT500P3SSD8"}, "Micron/Crucial"},
		{"x", &powerstate.Controller{Model: "Micron 2450 MTFDKBA1T0TFK", Missing: powerstate.FieldVendorID}, "Micron/Crucial"},
		{"x", &powerstate.Controller{Model: "Crucial P5 Plus", Missing: powerstate.FieldVendorID}, "Micron/Crucial"},
		{"x", &powerstate.Controller{Model: "SAMSUNG MZVL21T0HCLR-00B00", Missing: powerstate.FieldVendorID}, "Samsung"},
	} {
		assert.Equal(t, tc.want, survey.DriveVendor(tc.name, tc.c), "%q", tc.name)
	}
}

func TestDistributionNearestRank(t *testing.T) {
	s, err := survey.New(surveytest.Configs(t, "ps-max-latency-us=100000", "ps-max-latency-us=0")...)
	require.NoError(t, err)
	// Ten drives whose only non-operational state has EXLAT 1000*i: bound 0
	// cuts each worst stall by exactly that.
	for i := 1; i <= 10; i++ {
		c := powerstate.Controller{NPSS: 1, APSTA: 1}
		c.PowerStates[1] = powerstate.Descriptor{NonOperational: true, ExitLatency: powerstate.Microseconds(1000 * i),
			MaxPower: powerstate.MaxPowerOf(uint16(i), true)}
		c.PowerStates[0].MaxPower = powerstate.MaxPowerOf(100, false)
		_, err := s.Add(fmt.Sprintf("d%02d", i), &c)
		require.NoError(t, err)
	}
	d := s.Summary().Comparisons[0].StallReduction
	assert.Equal(t, analysis.Distribution{N: 10, Min: 1000, Median: 5000, P90: 9000, Max: 10000, Sum: 55000}, d)
	assert.InDelta(t, 5500.0, d.Mean(), 1e-9)
	assert.Equal(t, 0.0, analysis.Distribution{}.Mean())
	p := s.Summary().Comparisons[0].PowerIncrease
	assert.Equal(t, int64(1000000-100), p.Max) // 1.00 W - 0.0001 W
	assert.Equal(t, []string{"d01", "d02", "d03", "d04", "d05", "d06", "d07", "d08", "d09", "d10"}, s.Summary().Comparisons[0].BarsAll)
}

// The aggregate counts are the sums of the per-drive flags, and the budget
// answer holds for every drive.
func TestPropertySurveyAggregates(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nc := rapid.IntRange(2, 4).Draw(t, "configs")
		configs := make([]analysis.Config, nc)
		for i := range configs {
			configs[i] = analysis.Config{Name: fmt.Sprint("cfg", i), Params: surveytest.GenParams(t)}
		}
		kq := rapid.Bool().Draw(t, "kernel-quirks")
		s, err := survey.NewWithOptions(survey.Options{KernelQuirks: kq}, configs...)
		if err != nil {
			t.Fatal(err)
		}
		nd := rapid.IntRange(0, 12).Draw(t, "drives")
		rows := make([]survey.Row, nd)
		cs := make([]*powerstate.Controller, nd)
		for i := range nd {
			cs[i] = surveytest.GenController(t)
			name := rapid.SampledFrom([]string{"a", "b/c_d.txt", "z", "m n"}).Draw(t, "name")
			rows[i], err = s.Add(name, cs[i])
			if err != nil {
				t.Fatal(err)
			}
		}
		sum := s.Summary()
		changed := 0
		for _, r := range rows {
			if r.Changed {
				changed++
			}
		}
		if sum.Drives != nd || sum.Changed != changed || s.Len() != nd {
			t.Fatalf("drives %d/%d, changed %d/%d", sum.Drives, nd, sum.Changed, changed)
		}
		for k := 1; k < nc; k++ {
			c := sum.Comparisons[k-1]
			var want struct {
				changed, noIdle, none, some, all, gains int
				stall, power                            int64
			}
			vendors := map[string]int{}
			for _, r := range rows {
				ch := r.Changes[k-1]
				vendors[r.Vendor]++
				if ch.Changed {
					want.changed++
					want.stall += ch.StallReduction
				} else if ch.StallReduction != 0 || ch.PowerDelta != 0 || ch.Barred != 0 || ch.Gained != 0 {
					t.Fatalf("an unchanged table changed the reach: %+v", ch)
				}
				want.power += int64(ch.PowerDelta)
				if ch.Gained != 0 {
					want.gains++
				}
				switch ch.Bars {
				case survey.BarsNoIdle:
					want.noIdle++
				case survey.BarsNone:
					want.none++
				case survey.BarsSome:
					want.some++
				case survey.BarsAll:
					want.all++
				}
			}
			got := want
			got.changed, got.noIdle, got.none, got.some, got.all, got.gains = c.Changed, c.NoIdle, len(c.BarsNone), c.BarsSome, len(c.BarsAll), c.Gains
			got.stall, got.power = c.StallReduction.Sum, c.PowerIncrease.Sum
			if got != want || c.StallReduction.N != want.changed || c.PowerIncrease.N != want.changed {
				t.Fatalf("comparison %d: got %+v, want %+v", k, got, want)
			}
			if want.noIdle+want.none+want.some+want.all != nd {
				t.Fatalf("bar classes do not partition the drives")
			}
			// Per vendor, the figures add up to the comparison's.
			var v struct{ drives, changed, noIdle, none, some, all, gains int }
			var vs, vp int64
			for i, vv := range c.Vendors {
				if i > 0 && c.Vendors[i-1].Vendor >= vv.Vendor {
					t.Fatalf("vendors not sorted: %q, %q", c.Vendors[i-1].Vendor, vv.Vendor)
				}
				if vendors[vv.Vendor] != vv.Drives {
					t.Fatalf("vendor %q: %d drives, want %d", vv.Vendor, vv.Drives, vendors[vv.Vendor])
				}
				v.drives += vv.Drives
				v.changed += vv.Changed
				v.noIdle += vv.NoIdle
				v.none += vv.BarsNone
				v.some += vv.BarsSome
				v.all += vv.BarsAll
				v.gains += vv.Gains
				vs += vv.StallReduction.Sum
				vp += vv.PowerIncrease.Sum
				for _, d := range []analysis.Distribution{vv.StallReduction, vv.PowerIncrease} {
					if d.N > 0 && !(d.Min <= d.Median && d.Median <= d.P90 && d.P90 <= d.Max) {
						t.Fatalf("distribution out of order: %+v", d)
					}
				}
			}
			if v.drives != nd || v.changed != want.changed || v.noIdle != want.noIdle || v.none != want.none ||
				v.some != want.some || v.all != want.all || v.gains != want.gains || vs != want.stall || vp != want.power {
				t.Fatalf("vendor sums %+v %d %d, want %+v", v, vs, vp, want)
			}
		}

		// StallBudget: every drive within budget at Bound, some drive over it
		// one microsecond above, and the same answer as Recommend.
		budget := apst.Microseconds(rapid.SampledFrom([]uint64{0, 1, 4600, 25000, 43000, 100000}).Draw(t, "budget"))
		b := s.StallBudget(budget)
		if b.Bound < budget {
			t.Fatalf("bound %s below the budget %s", b.Bound, budget)
		}
		binding := 0
		for i, c := range cs {
			p := configs[0].Params
			if kq {
				p.Quirks |= apst.DriveQuirks(c, apst.Release{}).APST()
			} else {
				p.QuirksGiven = true
			}
			if w := worstAt(t, c, p, b.Bound).WorstExitLatency; w > budget {
				t.Fatalf("drive %d: worst stall %s at bound %s, budget %s", i, w, b.Bound, budget)
			}
			if b.Bound != apst.NoLimit && worstAt(t, c, p, b.Bound+1).WorstExitLatency > budget {
				binding++
			}
		}
		if len(b.Binding) != binding || (b.Bound != apst.NoLimit && nd > 0 && binding == 0) {
			t.Fatalf("binding %v, want %d drives", b.Binding, binding)
		}
		if want := acceptableByRecommend(t, cs, configs[0].Params, kq, budget); !slices.Equal(want, b.Acceptable) {
			t.Fatalf("acceptable %v, Recommend says %v", b.Acceptable, want)
		}
	})
}

// What a survey keeps per drive does not grow with the drive: a fleet of
// 20000 drives retains less than 200 bytes each, the bytes of their
// 46-byte names included.
func TestSurveyMemoryPerDrive(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates a fleet")
	}
	_, cs := surveytest.Captures(t, surveytest.CorpusDir+"/smartctl")
	retained := func(n int) float64 {
		names := make([]string, n)
		for i := range names {
			names[i] = fmt.Sprintf("fleet/rack-%03d/host-%05d/nvme0n1.smartctl.txt", i/1000, i)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		s, err := survey.NewWithOptions(survey.Options{KernelQuirks: true},
			surveytest.Configs(t, "ps-max-latency-us=100000", "ps-max-latency-us=25000")...)
		require.NoError(t, err)
		var row survey.Row
		for i := range n {
			c := fleetController(cs, i)
			require.NoError(t, s.AddInto(&row, names[i], &c))
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		require.Equal(t, n, s.Len())
		runtime.KeepAlive(s)
		runtime.KeepAlive(names) // the survey's copy of the names is counted, not these
		return float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(n)
	}
	small, large := retained(2000), retained(20000)
	t.Logf("retained per drive, its name included: %.0f B at 2000 drives, %.0f B at 20000 drives", small, large)
	assert.Less(t, large, 200.0)
}

// fleetController is drive i of a synthetic fleet: the corpus repeated,
// each copy with its non-operational latencies scaled by 0.50 to 1.50.
func fleetController(cs []*powerstate.Controller, i int) powerstate.Controller {
	c := *cs[i%len(cs)]
	f := uint64(50 + (i/len(cs)*37)%101)
	for s := range c.States() {
		d := &c.PowerStates[s]
		if d.NonOperational {
			d.ExitLatency = powerstate.Microseconds(uint64(d.ExitLatency) * f / 100)
			d.EntryLatency = powerstate.Microseconds(uint64(d.EntryLatency) * f / 100)
		}
	}
	return c
}

// The zero Survey records nothing and says which constructor to use.
func TestSurveyZeroValue(t *testing.T) {
	var s survey.Survey
	c := powerstate.Controller{NPSS: 1, APSTA: 1}
	_, err := s.Add("x", &c)
	require.ErrorIs(t, err, survey.ErrNotCreated)
	assert.Contains(t, err.Error(), "survey.New")
	assert.True(t, strings.HasPrefix(err.Error(), "survey: "), err)
	require.ErrorIs(t, s.AddRecord(survey.Record{Name: "x"}), survey.ErrNotCreated)
	var row survey.Row
	require.ErrorIs(t, s.Evaluate(&row, "x", &c), survey.ErrNotCreated)
	other, err := survey.New(surveytest.Configs(t, "ps-max-latency-us=100000", "ps-max-latency-us=25000")...)
	require.NoError(t, err)
	require.ErrorIs(t, s.Merge(other), survey.ErrNotCreated)
	require.ErrorIs(t, other.Merge(&s), survey.ErrNotCreated)
	assert.Equal(t, 0, s.Len())
	sum := s.Summary()
	assert.Zero(t, sum.Drives)
	assert.Empty(t, sum.Comparisons)
	b := s.StallBudget(25000)
	assert.Equal(t, apst.NoLimit, b.Bound)
	assert.Zero(t, b.Drives)
}

// shardOf assigns drive i of n to one of k shards: by a hash-like stride, so
// that every shard gets drives of every vendor.
func shardOf(i, k int) int { return (i * 7919) % k }

// Surveys of shards of the corpus, merged, are exactly the survey of the
// whole corpus: by Merge and by AddRecord of the shards' records, in any
// order of the shards.
func TestSurveyMergeShards(t *testing.T) {
	names, cs := surveytest.Captures(t, surveytest.CorpusDir+"/smartctl")
	configs := surveytest.Configs(t, "ps-max-latency-us=100000", "ps-max-latency-us=25000", "policy=windows-balanced-dc")
	opts := survey.Options{KernelQuirks: true}
	whole, err := survey.NewWithOptions(opts, configs...)
	require.NoError(t, err)
	const k = 3
	shards := make([]*survey.Survey, k)
	var records [k][]survey.Record
	for i := range shards {
		shards[i], err = survey.NewWithOptions(opts, configs...)
		require.NoError(t, err)
	}
	for i, c := range cs {
		_, err := whole.Add(names[i], c)
		require.NoError(t, err)
		row, err := shards[shardOf(i, k)].Add(names[i], c)
		require.NoError(t, err)
		records[shardOf(i, k)] = append(records[shardOf(i, k)], row.Record())
	}
	budgets := []apst.Microseconds{0, 4600, 10000, 25000, 43000, apst.NoLimit}
	check := func(got *survey.Survey, how string) {
		t.Helper()
		assert.Equal(t, whole.Len(), got.Len(), how)
		assert.Equal(t, whole.Summary(), got.Summary(), how)
		for _, b := range budgets {
			assert.Equal(t, whole.StallBudget(b), got.StallBudget(b), "%s, budget %s", how, b)
		}
	}
	for _, order := range [][]int{{0, 1, 2}, {2, 0, 1}} {
		merged, err := survey.NewWithOptions(opts, configs...)
		require.NoError(t, err)
		fromRecords, err := survey.NewWithOptions(opts, configs...)
		require.NoError(t, err)
		for _, i := range order {
			require.NoError(t, merged.Merge(shards[i]))
			for _, r := range records[i] {
				require.NoError(t, fromRecords.AddRecord(r))
			}
		}
		check(merged, fmt.Sprint("Merge ", order))
		check(fromRecords, fmt.Sprint("AddRecord ", order))
	}
	// A shard merged into an empty survey is that shard.
	one, err := survey.NewWithOptions(opts, configs...)
	require.NoError(t, err)
	require.NoError(t, one.Merge(shards[1]))
	assert.Equal(t, shards[1].Summary(), one.Summary())
}

func TestSurveyMergeMismatch(t *testing.T) {
	a, err := survey.New(surveytest.Configs(t, "ps-max-latency-us=100000", "ps-max-latency-us=25000")...)
	require.NoError(t, err)
	for _, tc := range []struct {
		opts  survey.Options
		specs []string
	}{
		{survey.Options{}, []string{"ps-max-latency-us=100000", "ps-max-latency-us=30000"}},
		{survey.Options{}, []string{"ps-max-latency-us=100000", "ps-max-latency-us=25000", "kernel=v4.12"}},
		{survey.Options{KernelQuirks: true}, []string{"ps-max-latency-us=100000", "ps-max-latency-us=25000"}},
	} {
		b, err := survey.NewWithOptions(tc.opts, surveytest.Configs(t, tc.specs...)...)
		require.NoError(t, err)
		require.ErrorIs(t, a.Merge(b), survey.ErrMismatch, "%v", tc)
	}
}

func TestSurveyAddRecordErrors(t *testing.T) {
	s, err := survey.New(surveytest.Configs(t, "ps-max-latency-us=100000", "ps-max-latency-us=25000")...)
	require.NoError(t, err)
	c := testController()
	row, err := s.Add("good", &c)
	require.NoError(t, err)
	good := row.Record()
	require.NoError(t, s.AddRecord(good))
	for name, mutate := range map[string]func(r *survey.Record){
		"outcomes":      func(r *survey.Record) { r.Outcomes = r.Outcomes[:1] },
		"first changed": func(r *survey.Record) { r.Outcomes[0].Changed = true },
		"latency":       func(r *survey.Record) { r.Outcomes[1].WorstExitLatency = 1 << 32 },
		"power":         func(r *survey.Record) { r.Outcomes[1].DeepestMaxPower = -1 },
		"no sweep":      func(r *survey.Record) { r.Sweep = nil },
		"sweep start":   func(r *survey.Record) { r.Sweep[0].Min = 5 },
		"sweep order":   func(r *survey.Record) { r.Sweep = append(r.Sweep, r.Sweep[len(r.Sweep)-1]) },
		"sweep power":   func(r *survey.Record) { r.Sweep[0].DeepestMaxPower = 1 << 40 },
		// Above MP's largest, 65535 × 0.01 W, though below what a record
		// stores: no drive reports it.
		"power above MP":       func(r *survey.Record) { r.Outcomes[1].DeepestMaxPower = maxMP + 1 },
		"sweep power above MP": func(r *survey.Record) { r.Sweep[0].DeepestMaxPower = maxMP + 1 },
	} {
		r := good
		r.Outcomes = slices.Clone(good.Outcomes)
		r.Sweep = slices.Clone(good.Sweep)
		mutate(&r)
		err := s.AddRecord(r)
		require.ErrorIs(t, err, survey.ErrBadRecord, name)
		assert.Contains(t, err.Error(), `"good"`, name)
	}
	assert.Equal(t, 2, s.Len())
	largest := good
	largest.Outcomes = slices.Clone(good.Outcomes)
	largest.Outcomes[1].DeepestMaxPower = maxMP
	require.NoError(t, s.AddRecord(largest), "MP 65535 at 0.01 W is a drive's")
}

// maxMP is the largest maximum power a descriptor holds, in µW.
var maxMP = apst.MicroWatts(powerstate.MaxPowerOf(65535, false).MicroWatts())

// testController is a drive with two non-operational states, the deeper
// one out of a 25 ms bound's reach.
func testController() powerstate.Controller {
	c := powerstate.Controller{NPSS: 2, APSTA: 1}
	c.PowerStates[0].MaxPower = powerstate.MaxPowerOf(500, false)
	c.PowerStates[1] = powerstate.Descriptor{NonOperational: true, EntryLatency: 1000, ExitLatency: 5000, MaxPower: powerstate.MaxPowerOf(500, true)}
	c.PowerStates[2] = powerstate.Descriptor{NonOperational: true, EntryLatency: 5000, ExitLatency: 40000, MaxPower: powerstate.MaxPowerOf(50, true)}
	return c
}

// BenchmarkSurvey surveys a fleet of 10000 drives (the smartctl corpus
// repeated with varied latencies), 100 ms against 25 ms with the kernel's
// quirks, then summarises it and answers a 25 ms stall budget. One op is
// the whole fleet.
func BenchmarkSurvey(b *testing.B) {
	const fleet = 10000
	_, cs := surveytest.Captures(b, surveytest.CorpusDir+"/smartctl")
	names := make([]string, fleet)
	for i := range names {
		names[i] = fmt.Sprintf("fleet/host-%05d/nvme0.txt", i)
	}
	configs := surveytest.Configs(b, "ps-max-latency-us=100000", "ps-max-latency-us=25000")
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s, err := survey.NewWithOptions(survey.Options{KernelQuirks: true}, configs...)
		if err != nil {
			b.Fatal(err)
		}
		var row survey.Row
		for i := range fleet {
			c := fleetController(cs, i)
			if err := s.AddInto(&row, names[i], &c); err != nil {
				b.Fatal(err)
			}
		}
		sum := s.Summary()
		budget := s.StallBudget(25000)
		if sum.Drives != fleet || budget.Drives != fleet {
			b.Fatal(sum.Drives)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/fleet, "ns/drive")
}

// BenchmarkSurveyDriveCopy is the survey's cost per drive in a fleet of
// copies of the corpus's models (each drive another's controller but for
// the serial number): the outcome is copied, not derived again.
func BenchmarkSurveyDriveCopy(b *testing.B) {
	_, cs := surveytest.Captures(b, surveytest.CorpusDir+"/smartctl")
	ctls := make([]powerstate.Controller, len(cs))
	for i, c := range cs {
		ctls[i] = *c
	}
	benchSurveyDrives(b, ctls)
}

// BenchmarkSurveyDrive is the survey's cost per drive: one op records one
// drive (the smartctl corpus in turn, with varied latencies, so that each
// outcome is the drive's own) with AddInto into a survey of 100 ms against
// 25 ms with the kernel's quirks, so that ns/op and allocs/op are per
// drive.
func BenchmarkSurveyDrive(b *testing.B) {
	_, cs := surveytest.Captures(b, surveytest.CorpusDir+"/smartctl")
	ctls := make([]powerstate.Controller, 4096)
	for i := range ctls {
		ctls[i] = fleetController(cs, i)
	}
	benchSurveyDrives(b, ctls)
}

// benchSurveyDrives records ctls in turn, one an op, into a survey of
// 100 ms against 25 ms with the kernel's quirks.
func benchSurveyDrives(b *testing.B, ctls []powerstate.Controller) {
	names := make([]string, len(ctls))
	for i := range names {
		names[i] = fmt.Sprintf("fleet/host-%05d/nvme0.txt", i)
	}
	s, err := survey.NewWithOptions(survey.Options{KernelQuirks: true}, surveytest.Configs(b, "ps-max-latency-us=100000", "ps-max-latency-us=25000")...)
	if err != nil {
		b.Fatal(err)
	}
	var row survey.Row
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if err := s.AddInto(&row, names[i%len(ctls)], &ctls[i%len(ctls)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// A row is the caller's: changing its QuirksUncheckedPCI changes neither
// the survey's caches nor the next row of the same drive (from the
// outcome cache) or of its model.
func TestRowOwnsUncheckedPCI(t *testing.T) {
	b, err := os.ReadFile("../../testdata/corpus/smartctl/ADATA_FALCON_V9002s94.txt")
	require.NoError(t, err)
	c, err := capture.ParseBytes(b)
	require.NoError(t, err)
	s, err := survey.NewWithOptions(survey.Options{KernelQuirks: true},
		analysis.Config{Name: "current", Params: apst.DefaultParams(apst.Current)},
		analysis.Config{Name: "v4.12", Params: apst.DefaultParams(apst.V4_12)})
	require.NoError(t, err)
	first, err := s.Add("a", &c)
	require.NoError(t, err)
	require.NotEmpty(t, first.QuirksUncheckedPCI, "the drive's vendor has quirk entries the capture cannot check")
	want := slices.Clone(first.QuirksUncheckedPCI)
	first.QuirksUncheckedPCI[0] = apst.PCIID{Vendor: 0xdead, Device: 0xbeef}
	for _, name := range []string{"b", "c"} {
		next, err := s.Add(name, &c)
		require.NoError(t, err)
		assert.Equal(t, want, next.QuirksUncheckedPCI, name)
	}
}

// nil is refused or answers nothing: Merge of or into no survey, the
// assumption kinds of no Assumptions.
func TestSurveyNilArguments(t *testing.T) {
	s, err := survey.New(analysis.Config{Name: "a", Params: apst.DefaultParams(apst.Current)}, analysis.Config{Name: "b", Params: apst.DefaultParams(apst.V4_12)})
	require.NoError(t, err)
	assert.ErrorIs(t, s.Merge(nil), survey.ErrNotCreated)
	assert.ErrorIs(t, (*survey.Survey)(nil).Merge(s), survey.ErrNotCreated)
	assert.Zero(t, survey.AssumedOf(nil))
}
