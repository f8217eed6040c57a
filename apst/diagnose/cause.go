package diagnose

import "slices"

// Layer names a layer that can make a drive stop answering.
type Layer string

// The layers, in the order Diagnose lists equally likely ones.
const (
	LayerAPST      Layer = "apst"
	LayerASPM      Layer = "aspm"
	LayerD3cold    Layer = "d3cold"
	LayerRuntimePM Layer = "runtime-pm"
	LayerLink      Layer = "link"
	LayerPowerLoss Layer = "power-loss"
	LayerFirmware  Layer = "firmware"
	LayerUnknown   Layer = "unknown"
)

// Layers lists every layer in that order.
func Layers() []Layer {
	return []Layer{LayerAPST, LayerASPM, LayerD3cold, LayerRuntimePM, LayerLink, LayerPowerLoss, LayerFirmware, LayerUnknown}
}

// Likelihood grades a cause.
type Likelihood string

// The grades.
const (
	Likely   Likelihood = "likely"
	Possible Likelihood = "possible"
	Unlikely Likelihood = "unlikely"
)

// Line is one piece of evidence: what it says and where it comes from
// ("kernel log line 15", "/sys/bus/pci/devices/0000:04:00.0/d3cold_allowed",
// "APST plan").
type Line struct {
	Source string
	Text   string
}

// Test is one way to confirm or rule out a cause: what to do, the command
// that does it (empty when it is not a command), and what it costs.
type Test struct {
	Action  string
	Command string
	Cost    string
}

// Cause is the verdict on one layer.
type Cause struct {
	Layer      Layer
	Likelihood Likelihood
	// Score is the weight of the evidence (for minus against) the
	// likelihood is graded from: 3 or more is likely, 1 or 2 possible.
	Score int
	// Evidence and Against are the lines that speak for and against it.
	Evidence []Line
	Against  []Line
	// Tests are the ways to confirm or rule it out, cheapest first.
	Tests []Test
}

// grade turns a score into a likelihood.
func grade(score int) Likelihood {
	switch {
	case score >= 3:
		return Likely
	case score >= 1:
		return Possible
	}
	return Unlikely
}

// builder collects the evidence of one cause.
type builder struct {
	Cause
	// weights are the weights of Evidence, to put the strongest first.
	weights []int
	// settings says whether configuration (a setting that allows a layer
	// to act) weighs: only with a failure to explain, or with no log at
	// all. A log without a failure makes no layer likely.
	settings bool
}

func newBuilder(s *signals, l Layer) builder {
	return builder{Cause: Cause{Layer: l}, settings: s.inc != nil || s.in.Log == nil}
}

// setting is pro for a configuration that lets the layer act.
func (b *builder) setting(w int, source, text string) {
	if !b.settings {
		w = 0
	}
	b.pro(w, source, text)
}

func (b *builder) pro(w int, source, text string) {
	b.Score += w
	b.Evidence = append(b.Evidence, Line{Source: source, Text: text})
	b.weights = append(b.weights, w)
}

// done returns the cause with its evidence strongest first.
func (b *builder) done() Cause {
	idx := make([]int, len(b.Evidence))
	for i := range idx {
		idx[i] = i
	}
	w := func(i int) int {
		if i < len(b.weights) {
			return b.weights[i]
		}
		return 0
	}
	slices.SortStableFunc(idx, func(x, y int) int { return w(y) - w(x) })
	ev := make([]Line, len(idx))
	for i, j := range idx {
		ev[i] = b.Evidence[j]
	}
	c := b.Cause
	c.Evidence = ev
	return c
}

func (b *builder) con(w int, source, text string) {
	b.Score -= w
	b.Against = append(b.Against, Line{Source: source, Text: text})
}

func (b *builder) test(action, command, cost string) {
	b.Tests = append(b.Tests, Test{Action: action, Command: command, Cost: cost})
}
