package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/internal/promtext/promtexttest"
)

// The alerting rules of examples/metrics/alerts.yml fire on the fixtures
// that should fire them, and on no other: each rule's expression is
// evaluated (promql below, the subset the rules and the dashboard use) on
// the metrics apstctl prints for each fixture tree. Resets rising needs two
// scrapes: the laptop tree is scraped, its reset counter raised, and
// scraped again.
func TestAlertRules(t *testing.T) {
	inRepoRoot(t)
	rules := readAlertRules(t, "examples/metrics/alerts.yml")
	require.Len(t, rules, 5)

	laptop := filepath.Join(t.TempDir(), "laptop")
	require.NoError(t, os.CopyFS(laptop, os.DirFS("sysfs/testdata/laptop-tlp")))
	scrape := func(tree string) []promtexttest.Family {
		code, out, errOut := apstctl(t, nil, "metrics", "--root", tree)
		require.Equal(t, 0, code, errOut)
		fams, err := promtexttest.Parse(out)
		require.NoError(t, err)
		return fams
	}
	laptop1 := scrape(laptop)
	require.NoError(t, os.WriteFile(filepath.Join(laptop, "class/nvme/nvme0/diag/reset_count"), []byte("5\n"), 0o644))
	laptop2 := scrape(laptop)
	unreadable := filepath.Join(t.TempDir(), "v7")
	require.NoError(t, os.CopyFS(unreadable, os.DirFS("sysfs/testdata/v7")))
	require.NoError(t, os.WriteFile(filepath.Join(unreadable, "module/nvme_core/parameters/force_apst"), []byte("maybe\n"), 0o644))

	fixtures := []struct {
		name    string
		scrapes [][]promtexttest.Family
		// fires maps each alert to the devices (or sources) it fires
		// for; an alert not listed fires for none.
		fires map[string][]string
	}{
		{"bundle", [][]promtexttest.Family{scrape("testdata/bundle")}, map[string][]string{
			"NvmeapstDriveNotHoldingKernelTable": {"nvme2"},
			"NvmeapstToleranceDiffersFromFleet":  {"nvme0"},
			"NvmeapstAPSTDisabledOnPersistModel": {"nvme1"},
		}},
		{"laptop, one scrape", [][]promtexttest.Family{laptop1}, map[string][]string{
			"NvmeapstToleranceDiffersFromFleet": {"nvme0"},
		}},
		{"laptop, resets 3 then 5", [][]promtexttest.Family{laptop1, laptop2}, map[string][]string{
			"NvmeapstToleranceDiffersFromFleet": {"nvme0"},
			"NvmeapstControllerResetsRising":    {"nvme0"},
		}},
		{"laptop, resets unchanged", [][]promtexttest.Family{laptop2, laptop2}, map[string][]string{
			"NvmeapstToleranceDiffersFromFleet": {"nvme0"},
		}},
		{"v7", [][]promtexttest.Family{scrape("sysfs/testdata/v7")}, map[string][]string{
			"NvmeapstToleranceDiffersFromFleet": {"nvme0", "nvme1"},
		}},
		{"v5.10", [][]promtexttest.Family{scrape("sysfs/testdata/v5.10")}, map[string][]string{
			"NvmeapstToleranceDiffersFromFleet": {"nvme0"},
		}},
		{"v7 with a malformed force_apst", [][]promtexttest.Family{scrape(unreadable)}, map[string][]string{
			"NvmeapstToleranceDiffersFromFleet": {"nvme0", "nvme1"},
			"NvmeapstScrapeSourceFailed":        {"module_parameters"},
		}},
	}
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			for _, r := range rules {
				res, err := evalPromQL(r.expr, fx.scrapes)
				require.NoError(t, err, r.name)
				var got []string
				for _, s := range res {
					who := s.labels["device"]
					if who == "" {
						who = s.labels["source"]
					}
					got = append(got, who)
				}
				slices.Sort(got)
				want := fx.fires[r.name]
				if want == nil {
					want = []string{}
				}
				if got == nil {
					got = []string{}
				}
				assert.Equal(t, want, got, "%s: %s", r.name, r.expr)
			}
		})
	}
}

// The dashboard is JSON whose every panel query the evaluator reads and
// that selects series of apstctl's metrics on the bundle.
func TestDashboard(t *testing.T) {
	inRepoRoot(t)
	b, err := os.ReadFile("examples/metrics/dashboard.json")
	require.NoError(t, err)
	var d struct {
		Title  string `json:"title"`
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	require.NoError(t, json.Unmarshal(b, &d))
	require.NotEmpty(t, d.Panels)
	code, out, _ := apstctl(t, nil, "metrics", "--root", "testdata/bundle")
	require.Equal(t, 0, code)
	fams, err := promtexttest.Parse(out)
	require.NoError(t, err)
	names := map[string]bool{}
	for _, f := range fams {
		names[f.Name] = true
	}
	for _, p := range d.Panels {
		require.NotEmpty(t, p.Targets, p.Title)
		for _, tg := range p.Targets {
			_, err := evalPromQL(tg.Expr, [][]promtexttest.Family{fams})
			assert.NoError(t, err, "%s: %s", p.Title, tg.Expr)
			for _, m := range regexp.MustCompile(`nvmeapst_[a-z_]+`).FindAllString(tg.Expr, -1) {
				assert.True(t, names[m], "%s: %s is not a metric of apstctl metrics", p.Title, m)
			}
		}
	}
}

// alertRule is one rule of a rules file.
type alertRule struct{ name, expr string }

// readAlertRules reads the alert names and their one-line expressions from
// a Prometheus rules file (the YAML of examples/metrics: "- alert: NAME"
// followed by "expr: EXPR").
func readAlertRules(t *testing.T, path string) []alertRule {
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var rules []alertRule
	for _, line := range strings.Split(string(b), "\n") {
		l := strings.TrimSpace(line)
		if name, ok := strings.CutPrefix(l, "- alert: "); ok {
			rules = append(rules, alertRule{name: name})
		} else if expr, ok := strings.CutPrefix(l, "expr: "); ok {
			require.NotEmpty(t, rules, "expr before its alert")
			require.False(t, strings.HasPrefix(expr, "|") || strings.HasPrefix(expr, ">"), "one-line expressions only")
			rules[len(rules)-1].expr = expr
		}
	}
	for _, r := range rules {
		require.NotEmpty(t, r.expr, r.name)
	}
	return rules
}

// promSample is one series of an instant vector.
type promSample struct {
	labels map[string]string
	value  float64
}

// evalPromQL evaluates expr at the last of scrapes (in time order) for the
// subset of PromQL the rules and the dashboard use: a selector with
// =, !=, =~ and !~ matchers; increase(SELECTOR[RANGE]) over all the scrapes
// (counter resets counted as Prometheus does); a comparison of a vector
// with a number (==, !=, >, <, >=, <=), which filters; and VECTOR and
// on(LABELS) VECTOR.
func evalPromQL(expr string, scrapes [][]promtexttest.Family) ([]promSample, error) {
	p := &promParser{s: expr}
	v, err := p.binary(scrapes)
	if err != nil {
		return nil, err
	}
	if p.skip(); p.i != len(p.s) {
		return nil, fmt.Errorf("promql: %q: unexpected %q", expr, p.s[p.i:])
	}
	return v, nil
}

type promParser struct {
	s string
	i int
}

func (p *promParser) skip() {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
}

func (p *promParser) eat(tok string) bool {
	p.skip()
	if strings.HasPrefix(p.s[p.i:], tok) {
		p.i += len(tok)
		return true
	}
	return false
}

func (p *promParser) ident() string {
	p.skip()
	j := p.i
	for j < len(p.s) && (p.s[j] == '_' || p.s[j] == ':' || p.s[j] >= 'a' && p.s[j] <= 'z' || p.s[j] >= 'A' && p.s[j] <= 'Z' || j > p.i && p.s[j] >= '0' && p.s[j] <= '9') {
		j++
	}
	id := p.s[p.i:j]
	p.i = j
	return id
}

func (p *promParser) binary(scrapes [][]promtexttest.Family) ([]promSample, error) {
	left, err := p.operand(scrapes)
	if err != nil {
		return nil, err
	}
	p.skip()
	for _, op := range []string{"==", "!=", ">=", "<=", ">", "<"} {
		if p.eat(op) {
			p.skip()
			j := p.i
			for j < len(p.s) && p.s[j] != ' ' {
				j++
			}
			n, err := strconv.ParseFloat(p.s[p.i:j], 64)
			if err != nil {
				return nil, fmt.Errorf("promql: %s wants a number, got %q", op, p.s[p.i:j])
			}
			p.i = j
			var out []promSample
			for _, s := range left {
				if compare(s.value, op, n) {
					out = append(out, s)
				}
			}
			left = out
			break
		}
	}
	if p.eat("and") {
		var on []string
		if p.eat("on(") {
			for !p.eat(")") {
				on = append(on, p.ident())
				if p.eat(")") {
					break
				}
				if !p.eat(",") {
					return nil, fmt.Errorf("promql: on(...): want , or )")
				}
			}
		}
		right, err := p.operand(scrapes)
		if err != nil {
			return nil, err
		}
		var out []promSample
		for _, l := range left {
			for _, r := range right {
				if sameOn(l.labels, r.labels, on) {
					out = append(out, l)
					break
				}
			}
		}
		left = out
	}
	return left, nil
}

func compare(a float64, op string, b float64) bool {
	switch op {
	case "==":
		return a == b
	case "!=":
		return a != b
	case ">":
		return a > b
	case "<":
		return a < b
	case ">=":
		return a >= b
	}
	return a <= b
}

// sameOn compares the labels on (all of them, but __name__, when on is
// nil).
func sameOn(a, b map[string]string, on []string) bool {
	if on == nil {
		for k, v := range a {
			if b[k] != v {
				return false
			}
		}
		return len(a) == len(b)
	}
	for _, k := range on {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

func (p *promParser) operand(scrapes [][]promtexttest.Family) ([]promSample, error) {
	if p.eat("increase(") {
		name, ms, err := p.selector()
		if err != nil {
			return nil, err
		}
		if !p.eat("[") {
			return nil, fmt.Errorf("promql: increase wants a range")
		}
		j := strings.IndexByte(p.s[p.i:], ']')
		if j < 0 {
			return nil, fmt.Errorf("promql: unterminated range")
		}
		p.i += j + 1
		if !p.eat(")") {
			return nil, fmt.Errorf("promql: increase(...: want )")
		}
		// The series of the last scrape, each with its increase over all
		// the scrapes (a fall is a counter reset: the new value counts).
		last := selectSamples(scrapes[len(scrapes)-1], name, ms)
		out := make([]promSample, 0, len(last))
		for _, s := range last {
			var inc, prev float64
			seen := false
			for _, sc := range scrapes {
				for _, x := range selectSamples(sc, name, ms) {
					if !sameOn(x.labels, s.labels, nil) {
						continue
					}
					if seen {
						if x.value >= prev {
							inc += x.value - prev
						} else {
							inc += x.value
						}
					}
					prev, seen = x.value, true
				}
			}
			out = append(out, promSample{labels: s.labels, value: inc})
		}
		return out, nil
	}
	name, ms, err := p.selector()
	if err != nil {
		return nil, err
	}
	return selectSamples(scrapes[len(scrapes)-1], name, ms), nil
}

// matcher is one label matcher of a selector.
type matcher struct{ label, op, value string }

func (p *promParser) selector() (string, []matcher, error) {
	name := p.ident()
	if name == "" {
		return "", nil, fmt.Errorf("promql: want a metric name at %q", p.s[p.i:])
	}
	var ms []matcher
	if p.eat("{") {
		for !p.eat("}") {
			l := p.ident()
			var op string
			for _, o := range []string{"=~", "!~", "!=", "="} {
				if p.eat(o) {
					op = o
					break
				}
			}
			if l == "" || op == "" || !p.eat(`"`) {
				return "", nil, fmt.Errorf("promql: bad matcher at %q", p.s[p.i:])
			}
			j := strings.IndexByte(p.s[p.i:], '"')
			if j < 0 {
				return "", nil, fmt.Errorf("promql: unterminated string")
			}
			ms = append(ms, matcher{l, op, p.s[p.i : p.i+j]})
			p.i += j + 1
			p.eat(",")
		}
	}
	return name, ms, nil
}

func selectSamples(fams []promtexttest.Family, name string, ms []matcher) []promSample {
	var out []promSample
	for _, f := range fams {
		for _, s := range f.Samples {
			if s.Name != name || !matches(s.Labels, ms) {
				continue
			}
			out = append(out, promSample{labels: s.Labels, value: s.Value})
		}
	}
	return out
}

func matches(labels map[string]string, ms []matcher) bool {
	for _, m := range ms {
		v := labels[m.label]
		switch m.op {
		case "=":
			if v != m.value {
				return false
			}
		case "!=":
			if v == m.value {
				return false
			}
		case "=~", "!~":
			ok := regexp.MustCompile("^(?:" + m.value + ")$").MatchString(v)
			if ok != (m.op == "=~") {
				return false
			}
		}
	}
	return true
}
