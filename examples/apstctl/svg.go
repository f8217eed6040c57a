package main

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/nvmeapst/nvmeapst/apst/survey"
)

// The survey plot: worst wake stall (x, log scale, 10 µs to 1 s) against
// the deepest reachable state's max power (y, log scale, 0.1 mW to 100 W),
// one mark per drive and configuration. A stall of 0 (the table reaches no
// idle state) is drawn in a "none" column left of the axis and a power of
// 0 W in a "0 W" row below it; values beyond the axes sit on their edge.
// The plot is written as the drives come: nothing is kept per drive.
const (
	svgWidth, svgHeight = 980, 690
	svgLeft, svgRight   = 150, 950 // the log x axis
	svgTop, svgBottom   = 100, 580 // the log y axis
	svgNoneX            = 70       // x of a zero stall
	svgZeroY            = 625      // y of a zero power
	svgXMin, svgXMax    = 1, 6     // decades of µs
	svgYMin, svgYMax    = -4, 2    // decades of W
)

var svgColours = []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"}

// svgPlot writes the survey plot to w.
type svgPlot struct {
	w       *bufio.Writer
	configs int
	points  int
}

// newSVGPlot writes the head of the plot: axes, grid and legend (one mark
// per configuration, named by configs).
func newSVGPlot(w io.Writer, title string, configs []string) *svgPlot {
	p := &svgPlot{w: bufio.NewWriter(w), configs: len(configs)}
	b := p.w
	fmt.Fprintf(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
	fmt.Fprintf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n",
		svgWidth, svgHeight, svgWidth, svgHeight)
	b.WriteString("<style>\n")
	b.WriteString("text{font-family:sans-serif;font-size:12px;fill:#222}\n")
	b.WriteString(".grid{stroke:#ddd;stroke-width:1}\n.axis{stroke:#444;stroke-width:1}\n")
	b.WriteString(".move{stroke:#888;stroke-width:0.6;stroke-opacity:0.5}\n")
	for i := range configs {
		c := svgColours[i%len(svgColours)]
		fmt.Fprintf(b, ".c%d{stroke:%s;fill:%s;fill-opacity:0.2;stroke-width:1.3}\n", i, c, c)
	}
	b.WriteString("</style>\n")
	b.WriteString("<rect x=\"0\" y=\"0\" width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n")
	p.text(20, 28, "start", "font-size:15px;font-weight:bold", title)

	// Grid and labels of the x axis.
	xLabels := []string{"10us", "100us", "1ms", "10ms", "100ms", "1s"}
	for e := svgXMin; e <= svgXMax; e++ {
		x := svgX(uint64(math.Pow10(e)))
		fmt.Fprintf(b, "<line class=\"grid\" x1=\"%s\" y1=\"%d\" x2=\"%s\" y2=\"%d\"/>\n", f1(x), svgTop, f1(x), svgBottom)
		p.text(x, svgBottom+18, "middle", "", xLabels[e-svgXMin])
	}
	p.text(svgNoneX, svgBottom+18, "middle", "", "none")
	fmt.Fprintf(b, "<line class=\"grid\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", svgNoneX, svgTop, svgNoneX, svgZeroY)
	p.text((svgLeft+svgRight)/2, svgBottom+70, "middle", "", "worst wake stall (largest exit latency the table can reach; log scale)")
	// Grid and labels of the y axis.
	yLabels := []string{"0.1mW", "1mW", "10mW", "100mW", "1W", "10W", "100W"}
	for e := svgYMin; e <= svgYMax; e++ {
		y := svgYExp(float64(e))
		fmt.Fprintf(b, "<line class=\"grid\" x1=\"%d\" y1=\"%s\" x2=\"%d\" y2=\"%s\"/>\n", svgLeft, f1(y), svgRight, f1(y))
		p.text(svgLeft-8, y+4, "end", "", yLabels[e-svgYMin])
	}
	p.text(svgLeft-8, svgZeroY+4, "end", "", "0 W")
	fmt.Fprintf(b, "<line class=\"grid\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", svgNoneX, svgZeroY, svgRight, svgZeroY)
	fmt.Fprintf(b, "<text x=\"22\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 22 %d)\">max power of the deepest reachable state (log scale)</text>\n",
		(svgTop+svgBottom)/2, (svgTop+svgBottom)/2)
	fmt.Fprintf(b, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", svgLeft, svgBottom, svgRight, svgBottom)
	fmt.Fprintf(b, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", svgLeft, svgTop, svgLeft, svgBottom)

	// Legend.
	b.WriteString("<g class=\"legend\">\n")
	x := 20.0
	for i, name := range configs {
		p.mark(i, x+5, 55, "legend", "")
		label := "[" + strconv.Itoa(i+1) + "] " + name
		p.text(x+16, 59, "start", "", label)
		x += 40 + 7*float64(len(label))
	}
	b.WriteString("</g>\n")
	p.text(20, 80, "start", "fill:#666", "one mark per drive and configuration; a grey line joins a drive's marks when a configuration moves it. "+
		"\"none\": the table reaches no idle state")
	b.WriteString("<g class=\"points\">\n")
	return p
}

// drive draws one drive: a mark per configuration and, for each
// configuration whose mark lies elsewhere than the first's, a faint line
// from the first's.
func (p *svgPlot) drive(row *survey.Row) {
	n := min(len(row.Results), p.configs)
	if n == 0 {
		return
	}
	xs := make([]float64, n)
	ys := make([]float64, n)
	for i := range n {
		r := &row.Results[i]
		xs[i] = svgX(uint64(r.Reach.WorstExitLatency))
		ys[i] = svgY(r.DeepestMaxPower.MicroWatts())
	}
	for i := 1; i < n; i++ {
		if xs[i] != xs[0] || ys[i] != ys[0] {
			fmt.Fprintf(p.w, "<line class=\"move\" x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\"/>\n", f1(xs[0]), f1(ys[0]), f1(xs[i]), f1(ys[i]))
		}
	}
	for i := range n {
		r := &row.Results[i]
		title := fmt.Sprintf("%s [%d]: ps%d, worst stall %s, %s", row.Name, i+1, r.Reach.Deepest, r.Reach.WorstExitLatency, r.DeepestMaxPower)
		p.mark(i, xs[i], ys[i], "point", title)
		p.points++
	}
}

// close writes the end of the plot and flushes it.
func (p *svgPlot) close() error {
	p.w.WriteString("</g>\n</svg>\n")
	return p.w.Flush()
}

// mark draws configuration i's mark centred on (x, y), with class cls and,
// when title is not empty, a tooltip.
func (p *svgPlot) mark(i int, x, y float64, cls, title string) {
	b := p.w
	attrs := fmt.Sprintf("class=\"%s c%d\" data-config=\"%d\"", cls, i, i)
	var open, end string
	switch i % 5 {
	case 0:
		open = fmt.Sprintf("<circle %s cx=\"%s\" cy=\"%s\" r=\"4\"", attrs, f1(x), f1(y))
		end = "</circle>"
	case 1: // triangle up
		open = fmt.Sprintf("<path %s d=\"M%s %sL%s %sL%s %sZ\"", attrs, f1(x), f1(y-5), f1(x+4.5), f1(y+3.5), f1(x-4.5), f1(y+3.5))
		end = "</path>"
	case 2: // square
		open = fmt.Sprintf("<rect %s x=\"%s\" y=\"%s\" width=\"7\" height=\"7\"", attrs, f1(x-3.5), f1(y-3.5))
		end = "</rect>"
	case 3: // diamond
		open = fmt.Sprintf("<path %s d=\"M%s %sL%s %sL%s %sL%s %sZ\"", attrs, f1(x), f1(y-5), f1(x+5), f1(y), f1(x), f1(y+5), f1(x-5), f1(y))
		end = "</path>"
	default: // triangle down
		open = fmt.Sprintf("<path %s d=\"M%s %sL%s %sL%s %sZ\"", attrs, f1(x), f1(y+5), f1(x+4.5), f1(y-3.5), f1(x-4.5), f1(y-3.5))
		end = "</path>"
	}
	b.WriteString(open)
	if title == "" {
		b.WriteString("/>\n")
		return
	}
	b.WriteString("><title>")
	xml.EscapeText(b, []byte(title))
	b.WriteString("</title>")
	b.WriteString(end)
	b.WriteString("\n")
}

// text writes an escaped text element.
func (p *svgPlot) text(x, y float64, anchor, style, s string) {
	fmt.Fprintf(p.w, "<text x=\"%s\" y=\"%s\" text-anchor=\"%s\"", f1(x), f1(y), anchor)
	if style != "" {
		fmt.Fprintf(p.w, " style=\"%s\"", style)
	}
	p.w.WriteString(">")
	xml.EscapeText(p.w, []byte(s))
	p.w.WriteString("</text>\n")
}

// svgX maps a stall in µs to x: log scale, 0 in the "none" column.
func svgX(us uint64) float64 {
	if us == 0 {
		return svgNoneX
	}
	e := min(max(math.Log10(float64(us)), svgXMin), svgXMax)
	return svgLeft + (e-svgXMin)/(svgXMax-svgXMin)*(svgRight-svgLeft)
}

// svgY maps a power in µW to y: log scale of watts, 0 in the "0 W" row.
func svgY(uw uint64) float64 {
	if uw == 0 {
		return svgZeroY
	}
	return svgYExp(math.Log10(float64(uw) / 1e6))
}

// svgYExp maps a decade of watts to y.
func svgYExp(e float64) float64 {
	e = min(max(e, svgYMin), svgYMax)
	return svgBottom - (e-svgYMin)/(svgYMax-svgYMin)*(svgBottom-svgTop)
}

// f1 formats a coordinate with one decimal.
func f1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
