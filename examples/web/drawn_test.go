//go:build browser

package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
	"github.com/stretchr/testify/require"
)

// The checks of what the page draws. Each returns its problems rather than
// failing the test, so that the mutation tests can require them to find
// problems in a page broken on purpose.

// minBandPx is the least width of a band whose bounds meet 1 µs to 10 s.
const minBandPx = 24

// expected is the library's answer for one capture at one bound, computed
// natively.
type expected struct {
	c     powerstate.Controller
	plan  apst.Plan
	sweep analysis.BoundSweep
	bound apst.Microseconds
	def   apst.Microseconds
}

func expectFor(t *testing.T, raw []byte, bound string) expected {
	t.Helper()
	c, err := capture.ParseBytes(raw)
	require.NoError(t, err)
	p := apst.DefaultParams(apst.Current)
	def := p.Bound
	require.NoError(t, p.Set("ps-max-latency-us", bound))
	p.Quirks = apst.DriveQuirks(&c, p.Release).Quirks
	plan, err := apst.Build(&c, p)
	require.NoError(t, err)
	sw, err := analysis.Sweep(&c, p)
	require.NoError(t, err)
	return expected{c: c, plan: plan, sweep: sw, bound: p.Bound, def: def}
}

// usText is the page's unit style (µs below 1 ms, ms below 1 s, s above,
// three decimals at most), written here again to check it.
func usText(us uint64) string {
	trim := func(f float64) string {
		return strings.TrimSuffix(strings.TrimRight(strconv.FormatFloat(f, 'f', 3, 64), "0"), ".")
	}
	switch {
	case us < 1000:
		return fmt.Sprintf("%d µs", us)
	case us < 1_000_000:
		return trim(float64(us)/1e3) + " ms"
	}
	return trim(float64(us)/1e6) + " s"
}

// boundText is a bound as the page writes it: 0, unlimited, or usText.
func boundText(b apst.Microseconds) string {
	switch b {
	case 0:
		return "0"
	case apst.NoLimit:
		return "unlimited"
	}
	return usText(uint64(b))
}

type problems []string

func (ps *problems) add(format string, args ...any) { *ps = append(*ps, fmt.Sprintf(format, args...)) }

// drawnBox is an element's box in the viewport and whether it shows.
type drawnBox struct {
	Top, Bottom, Left, Right, Width, Height float64
	Visible                                 bool
	Text                                    string
}

const boxJS = `(e => { if (!e) return null; const r = e.getBoundingClientRect(); let v = r.width > 0 && r.height > 0;
	for (let n = e; n && n.nodeType === 1; n = n.parentElement) { const s = getComputedStyle(n);
	  if (s.display === 'none' || s.visibility === 'hidden' || +s.opacity === 0) { v = false; break; } }
	return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width, height: r.height, visible: v, text: e.textContent}; })`

func (p *page) box(selector string) *drawnBox {
	p.t.Helper()
	var b *drawnBox
	p.eval(fmt.Sprintf("%s(document.querySelector(%q))", boxJS, selector), &b)
	return b
}

// checkAnswerFirst: at the top of the page, the headline is inside the
// viewport and shows the deepest state, and the status line says it.
func checkAnswerFirst(p *page, want expected) problems {
	var ps problems
	p.eval("window.scrollTo(0, 0)", nil)
	vh := p.num("window.innerHeight")
	h := p.box("#headline")
	reach := analysis.Reachability(&want.c, &want.plan.Table)
	switch {
	case h == nil:
		ps.add("no headline")
	case !h.Visible:
		ps.add("the headline is not shown")
	case h.Top < 0 || h.Bottom > vh:
		ps.add("the headline is at y=%.0f..%.0f, outside the first viewport (height %.0f)", h.Top, h.Bottom, vh)
	case reach.Deepest > 0 && !strings.Contains(h.Text, fmt.Sprintf("deepest state ps%d", reach.Deepest)):
		ps.add("the headline %q does not name the deepest state ps%d", h.Text, reach.Deepest)
	}
	if h != nil && !strings.Contains(p.str("document.getElementById('status').textContent"), h.Text) {
		ps.add("the status line does not say the headline")
	}
	return ps
}

// checkPlanTable: every state's row shows, with its entry and exit
// latencies in their columns, and the reachable states (only they) are
// marked by a word, weight and a bar.
func checkPlanTable(p *page, want expected) problems {
	var ps problems
	var heads []string
	p.eval("Array.from(document.querySelectorAll('#plan-table thead th')).map((h) => h.textContent)", &heads)
	col := func(name string) int {
		for i, h := range heads {
			if h == name {
				return i
			}
		}
		ps.add("no column %q in %v", name, heads)
		return -1
	}
	en, ex := col("entry latency"), col("exit latency")
	reach := analysis.Reachability(&want.c, &want.plan.Table)
	for i, d := range want.c.States() {
		row := fmt.Sprintf("#plan-table tbody tr[data-state=\"%d\"]", i)
		b := p.box(row)
		if b == nil || !b.Visible {
			ps.add("ps%d: the row is not shown", i)
			continue
		}
		for _, c := range []struct {
			col  int
			name string
			us   uint64
		}{{en, "entry latency", uint64(d.EntryLatency)}, {ex, "exit latency", uint64(d.ExitLatency)}} {
			if c.col < 0 {
				continue
			}
			var cell struct {
				Text string `json:"text"`
				US   string `json:"us"`
			}
			p.eval(fmt.Sprintf("(c => ({text: c.textContent, us: c.dataset.us}))(document.querySelector('%s').children[%d])", row, c.col), &cell)
			if cell.Text != usText(c.us) || cell.US != strconv.FormatUint(c.us, 10) {
				ps.add("ps%d: %s shows %q (%s µs), want %q", i, c.name, cell.Text, cell.US, usText(c.us))
			}
		}
		isReach := i > 0 && reach.States&(1<<i) != 0
		var st struct {
			Weight float64 `json:"weight"`
			Bar    float64 `json:"bar"`
			Word   string  `json:"word"`
		}
		p.eval(fmt.Sprintf(`(r => ({weight: +getComputedStyle(r.cells[2]).fontWeight, bar: parseFloat(getComputedStyle(r.cells[0]).borderLeftWidth),
			word: r.cells[1].textContent}))(document.querySelector('%s'))`, row), &st)
		marked := st.Weight >= 700 && st.Bar >= 4 && strings.Contains(st.Word, "reachable")
		unmarked := st.Weight < 700 && !strings.Contains(st.Word, "reachable")
		if isReach && !marked {
			ps.add("ps%d is reachable but not marked (weight %.0f, bar %.0f px, %q)", i, st.Weight, st.Bar, st.Word)
		}
		if !isReach && !unmarked {
			ps.add("ps%d is not reachable but looks marked (weight %.0f, %q)", i, st.Weight, st.Word)
		}
	}
	return ps
}

type svgBand struct {
	X, W, LabelX float64
	Label, Aria  string
}

// checkSweep: one band per interval, in order, side by side, each wide
// enough to hit (the ones between 1 µs and 10 s) and labelled with its
// deepest state; the x ticks, the bound set and the default each fall in
// the band of their interval; the stall line is the worst exit latency of
// each band, against the stall axis's own ticks.
func checkSweep(p *page, want expected) problems {
	var ps problems
	var bands []svgBand
	p.eval(`Array.from(document.querySelectorAll('#sweep-svg .band')).map((g) => { const r = g.querySelector('rect'), t = g.querySelector('text');
		return {x: +r.getAttribute('x'), w: r.getBoundingClientRect().width, labelx: t ? +t.getAttribute('x') : NaN, label: t ? t.textContent : '',
		aria: g.getAttribute('aria-label')}; })`, &bands)
	ivs := want.sweep.Intervals
	if len(bands) != len(ivs) {
		ps.add("%d bands for %d intervals", len(bands), len(ivs))
		return ps
	}
	for i, iv := range ivs {
		b := bands[i]
		label := "off"
		if iv.Min > 0 {
			label = "none"
		}
		if iv.Plan.MaxPS >= 0 {
			label = fmt.Sprintf("ps%d", iv.Reach.Deepest)
		}
		if b.Label != label {
			ps.add("band %d (bounds %s..%s) is labelled %q, want %q", i, iv.Min, iv.Max, b.Label, label)
		}
		if !(b.LabelX >= b.X && b.LabelX <= b.X+b.W) {
			ps.add("band %d: its label at x=%.1f is outside it (%.1f..%.1f)", i, b.LabelX, b.X, b.X+b.W)
		}
		if iv.Max >= 1 && iv.Min <= 10_000_000 && b.W < minBandPx {
			ps.add("band %d (bounds %s..%s) is %.1f px wide, under %d", i, iv.Min, iv.Max, b.W, minBandPx)
		}
		if i > 0 && math.Abs(bands[i-1].X+bands[i-1].W-b.X) > 1 {
			ps.add("band %d starts at x=%.1f, not where band %d ends (%.1f)", i, b.X, i-1, bands[i-1].X+bands[i-1].W)
		}
		if !strings.Contains(b.Aria, "worst wake stall "+usText(uint64(iv.Reach.WorstExitLatency))) {
			ps.add("band %d: its label %q does not say its worst wake stall %s", i, b.Aria, usText(uint64(iv.Reach.WorstExitLatency)))
		}
	}
	bandOf := func(v float64) int {
		for i, iv := range ivs {
			if v >= float64(iv.Min) && v <= float64(iv.Max) {
				return i
			}
		}
		return len(ivs) - 1
	}
	inBand := func(what string, v, x float64) {
		i := bandOf(v)
		if x < bands[i].X-0.5 || x > bands[i].X+bands[i].W+0.5 {
			ps.add("%s (%g µs) is drawn at x=%.1f, outside the band of its interval %s..%s (%.1f..%.1f)", what, v, x, ivs[i].Min, ivs[i].Max, bands[i].X, bands[i].X+bands[i].W)
		}
	}
	var ticks []struct {
		US float64 `json:"us"`
		X  float64 `json:"x"`
	}
	p.eval(`Array.from(document.querySelectorAll('#sweep-svg .tick-bound')).map((t) => ({us: +t.dataset.us, x: +t.getAttribute('x')}))`, &ticks)
	if len(ticks) < 2 {
		ps.add("%d ticks on the bound axis", len(ticks))
	}
	for _, tk := range ticks {
		inBand("the tick "+usText(uint64(tk.US)), tk.US, tk.X)
	}
	for _, m := range []struct {
		sel string
		v   apst.Microseconds
	}{{".bound", want.bound}, {".default", want.def}} {
		if m.sel == ".default" && want.def == want.bound {
			continue
		}
		x := p.num(fmt.Sprintf("(l => l ? +l.getAttribute('x1') : NaN)(document.querySelector('#sweep-svg line%s'))", m.sel))
		if math.IsNaN(x) {
			ps.add("no %s mark", m.sel)
			continue
		}
		inBand("the mark "+m.sel, float64(m.v), x)
	}
	// The stall line: one level per band, at its worst exit latency.
	var d string
	p.eval("(e => e ? e.getAttribute('d') : '')(document.querySelector('#sweep-svg path.stall'))", &d)
	pts := pathPoints(d)
	if len(pts) != 2*len(ivs) {
		ps.add("the stall line has %d points for %d bands", len(pts), len(ivs))
		return ps
	}
	var stallTicks []struct {
		US float64 `json:"us"`
		Y  float64 `json:"y"`
	}
	p.eval(`Array.from(document.querySelectorAll('#sweep-svg .tick-stall')).map((t) => ({us: +t.dataset.us, y: +t.getAttribute('y') - 4}))`, &stallTicks)
	for i, iv := range ivs {
		a, b := pts[2*i], pts[2*i+1]
		if math.Abs(a[1]-b[1]) > 0.5 || math.Abs(a[0]-bands[i].X) > 1 || math.Abs(b[0]-bands[i].X-bands[i].W) > 1 {
			ps.add("band %d: the stall segment %v..%v is not level across the band", i, a, b)
		}
		us := float64(iv.Reach.WorstExitLatency)
		if us < 1 {
			continue
		}
		// Between the ticks that bracket it (a log axis: y falls as the
		// stall grows).
		for j := 0; j+1 < len(stallTicks); j++ {
			lo, hi := stallTicks[j], stallTicks[j+1]
			if us >= lo.US && us <= hi.US && (a[1] > lo.Y+1 || a[1] < hi.Y-1) {
				ps.add("band %d: the stall %s is drawn at y=%.1f, outside its ticks %s (y=%.1f) and %s (y=%.1f)", i, usText(uint64(us)), a[1], usText(uint64(lo.US)), lo.Y, usText(uint64(hi.US)), hi.Y)
			}
		}
	}
	return ps
}

// pathPoints reads the points of an SVG path of M and L commands.
func pathPoints(d string) [][2]float64 {
	var out [][2]float64
	for _, f := range strings.FieldsFunc(d, func(r rune) bool { return r == 'M' || r == 'L' }) {
		xs, ys, ok := strings.Cut(f, ",")
		x, err1 := strconv.ParseFloat(strings.TrimSpace(xs), 64)
		y, err2 := strconv.ParseFloat(strings.TrimSpace(ys), 64)
		if ok && err1 == nil && err2 == nil {
			out = append(out, [2]float64{x, y})
		}
	}
	return out
}

// checkDrawn is every check of what is drawn.
func checkDrawn(p *page, want expected) problems {
	var ps problems
	ps = append(ps, checkAnswerFirst(p, want)...)
	ps = append(ps, checkPlanTable(p, want)...)
	ps = append(ps, checkSweep(p, want)...)
	return ps
}

// pasteAndWait gives the page a capture (pasted, or picked when file is
// set) and waits for its answer to be drawn.
func pasteAndWait(p *page, capture, file string) {
	p.t.Helper()
	p.eval("window.apstweb_metrics.last = null", nil)
	if file != "" {
		p.pickFile("capture-file", file)
	} else {
		p.typeInto("capture", capture)
	}
	p.waitFor(`window.apstweb_metrics.last && window.apstweb_metrics.last.response.headline &&
		document.getElementById('headline').textContent === window.apstweb_metrics.last.response.headline.text &&
		!document.getElementById('answer').hidden`, 20*time.Second)
	p.do("Runtime.evaluate", map[string]any{"expression": "new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))", "awaitPromise": true}, nil)
}

// mutation is a breakage of the page, made in a copy of the built site,
// that the checks of what is drawn must catch.
type mutation struct {
	name, file, old, new string
	// finds is in a problem the checks must report.
	finds string
}

var mutations = []mutation{
	{"swapped latency columns", "app.js",
		"el('td', { class: 'num enlat', 'data-us': s.enlat_us, text: fmtUS(s.enlat_us) }),\n        el('td', { class: 'num exlat', 'data-us': s.exlat_us, text: fmtUS(s.exlat_us) }),",
		"el('td', { class: 'num exlat', 'data-us': s.exlat_us, text: fmtUS(s.exlat_us) }),\n        el('td', { class: 'num enlat', 'data-us': s.enlat_us, text: fmtUS(s.enlat_us) }),",
		"entry latency shows"},
	{"the stall line drawn from power values", "app.js",
		"const ys = yStall(iv.worst_exit_us)", "const ys = yStall(iv.deepest_power_w * 1e6)", "outside its ticks"},
	{"CSS hiding the plan rows and the headlines", "style.css",
		"/* The sweep picture. */", "#plan-table tbody tr, .headline { display: none; }\n/* The sweep picture. */", "not shown"},
	{"every band drawn at one spot", "app.js",
		"const x1 = L.x0[i], x2 = L.x1[i];\n      const label", "const x1 = L.x0[0], x2 = L.x1[0];\n      const label", "outside the band"},
}

// mutate copies site to a new directory with m applied (and the mutated
// file's .gz removed, so that it is served as changed).
func mutate(t *testing.T, site string, m mutation) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.CopyFS(dir, os.DirFS(site)))
	path := filepath.Join(dir, m.file)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, 1, strings.Count(string(b), m.old), "%s: the text to break is not in %s once: the mutation needs updating", m.name, m.file)
	require.NoError(t, os.WriteFile(path, []byte(strings.Replace(string(b), m.old, m.new, 1)), 0o644))
	require.NoError(t, os.Remove(path+".gz"))
	return dir
}
