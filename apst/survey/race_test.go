package survey_test

import (
	"fmt"
	"github.com/nvmeapst/nvmeapst/internal/surveytest"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/survey"
)

// Every pair of the Survey's exported methods may run at once (the package
// says a Survey is safe for concurrent use): each pair runs on two
// goroutines over one survey, enough calls that the store's columns grow
// new chunks while the other goroutine reads; "go test -race" reports any
// unsynchronised access, and the counts must add up afterwards.
func TestSurveyConcurrentMethodPairs(t *testing.T) {
	_, cs := surveytest.Captures(t, surveytest.CorpusDir+"/smartctl")
	configs := surveytest.Configs(t, "ps-max-latency-us=100000", "ps-max-latency-us=25000")
	newSurvey := func() *survey.Survey {
		s, err := survey.NewWithOptions(survey.Options{KernelQuirks: true}, configs...)
		require.NoError(t, err)
		return s
	}
	// The shared survey starts with prefill records, so that the calls
	// cross a column chunk (4096 values) and an arena chunk (64 KiB).
	const prefill = 4000
	// rec is a valid record to add; src a small survey to merge in.
	var row survey.Row
	require.NoError(t, newSurvey().Evaluate(&row, "seed", cs[0]))
	rec := row.Record()
	src := newSurvey()
	for range 64 {
		require.NoError(t, src.AddRecord(rec))
	}
	name := func(g, i int) string { return fmt.Sprintf("fleet/host-%d-%05d/nvme0n1.smartctl.txt", g, i) }
	base := newSurvey()
	for i := range prefill {
		r := rec
		r.Name = name(9, i)
		require.NoError(t, base.AddRecord(r))
	}
	// Each operation returns the drives it added to the shared survey.
	type op struct {
		name string
		run  func(t *testing.T, s *survey.Survey, g, i int) int
	}
	ops := []op{
		{"Add", func(t *testing.T, s *survey.Survey, g, i int) int {
			_, err := s.Add(name(g, i), cs[i%len(cs)])
			assert.NoError(t, err)
			return 1
		}},
		{"AddInto", func(t *testing.T, s *survey.Survey, g, i int) int {
			var r survey.Row
			assert.NoError(t, s.AddInto(&r, name(g, i), cs[i%len(cs)]))
			return 1
		}},
		{"AddRecord", func(t *testing.T, s *survey.Survey, g, i int) int {
			r := rec
			r.Name = name(g, i)
			assert.NoError(t, s.AddRecord(r))
			return 1
		}},
		{"Evaluate", func(t *testing.T, s *survey.Survey, g, i int) int {
			var r survey.Row
			assert.NoError(t, s.Evaluate(&r, name(g, i), cs[i%len(cs)]))
			return 0
		}},
		{"Merge(in)", func(t *testing.T, s *survey.Survey, g, i int) int {
			if i%40 != 0 {
				return 0
			}
			assert.NoError(t, s.Merge(src))
			return src.Len()
		}},
		{"Merge(out)", func(t *testing.T, s *survey.Survey, g, i int) int {
			if i%40 == 0 {
				d := newSurvey()
				assert.NoError(t, d.Merge(s))
			}
			return 0
		}},
		{"Summary", func(t *testing.T, s *survey.Survey, g, i int) int {
			if i%40 == 0 {
				sum := s.Summary()
				total := 0
				for _, v := range sum.Comparisons[0].Vendors {
					total += v.Drives
				}
				assert.Equal(t, sum.Drives, total)
			}
			return 0
		}},
		{"StallBudget", func(t *testing.T, s *survey.Survey, g, i int) int {
			if i%40 == 0 {
				s.StallBudget(apst.Microseconds(25000))
			}
			return 0
		}},
		{"Len", func(t *testing.T, s *survey.Survey, g, i int) int { s.Len(); return 0 }},
		{"Configs", func(t *testing.T, s *survey.Survey, g, i int) int { s.Configs(); return 0 }},
		{"Options", func(t *testing.T, s *survey.Survey, g, i int) int { s.Options(); return 0 }},
	}
	const calls = 400
	for a := range ops {
		for b := a; b < len(ops); b++ {
			t.Run(ops[a].name+"/"+ops[b].name, func(t *testing.T) {
				s := newSurvey()
				require.NoError(t, s.Merge(base))
				var wg sync.WaitGroup
				added := make([]int, 2)
				for g, o := range []op{ops[a], ops[b]} {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for i := range calls {
							added[g] += o.run(t, s, g, i)
						}
					}()
				}
				wg.Wait()
				require.Equal(t, prefill+added[0]+added[1], s.Len())
				require.Equal(t, s.Len(), s.Summary().Drives)
			})
		}
	}
}
