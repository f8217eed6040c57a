package diagnose

import (
	"github.com/nvmeapst/nvmeapst/apst/persist"
)

// Layer names a layer that can make a drive stop answering.
type Layer string

// The layers. Equally scored layers of different groups are not ordered:
// the diagnosis is then undecided between them (Diagnosis.Undecided).
const (
	// LayerAPST: the drive failed to leave a non-operational state the
	// APST table let it enter.
	LayerAPST Layer = "apst"
	// LayerASPM: an ASPM exit (L0s, L1, L1 substates) lost the link.
	LayerASPM Layer = "aspm"
	// LayerLink: the PCIe link itself (signal integrity, speed margin, a
	// riser, adapter or slot).
	LayerLink Layer = "link"
	// LayerD3cold: the device was powered off (D3cold) and did not return.
	LayerD3cold Layer = "d3cold"
	// LayerRuntimePM: runtime power management of the device or a port
	// above it.
	LayerRuntimePM Layer = "runtime-pm"
	// LayerSuspend: system suspend or resume (s2idle, S3, hibernation).
	LayerSuspend Layer = "suspend"
	// LayerPlatform: the platform or the kernel: firmware tables, device
	// tree, interrupts, the host memory buffer, a kernel regression.
	LayerPlatform Layer = "platform"
	// LayerFirmware: the drive's firmware (an update fixes it).
	LayerFirmware Layer = "firmware"
	// LayerPowerLoss: the drive lost its supply.
	LayerPowerLoss Layer = "power-loss"
	// LayerDrive: the drive is failing: replace it.
	LayerDrive Layer = "drive"
	// LayerUnknown: nothing points at one layer.
	LayerUnknown Layer = "unknown"
)

// Layers lists every layer, grouped (Group).
func Layers() []Layer {
	return []Layer{LayerAPST, LayerASPM, LayerLink, LayerD3cold, LayerRuntimePM, LayerSuspend, LayerPlatform, LayerFirmware, LayerPowerLoss, LayerDrive, LayerUnknown}
}

// Group is the layer that stands for l's group, the layers one fix family
// covers: link with aspm (a link setting or a slower or reseated link),
// d3cold and runtime-pm with suspend (device and system power
// management), power-loss with drive (a part to replace). Every other
// layer is its own group.
//
// It is not inlined (go:noinline), nor are Fact.Known, Fact.Is and
// signals.gone: their string comparisons, copied into each rule that
// calls them, took 15.5 KB of the page's app-log.wasm.
//
//go:noinline
func (l Layer) Group() Layer {
	switch l {
	case LayerLink:
		return LayerASPM
	case LayerD3cold, LayerRuntimePM:
		return LayerSuspend
	case LayerPowerLoss:
		return LayerDrive
	}
	return l
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
// "APST plan"). Evidence from the kernel log quotes the line: Line is its
// number (from 1) and Quote the line as it appears, trimmed; Text then
// says what it means and puts in no value the line does not have.
//
// The zero Line is evidence of nothing: no source or text, and no quoted
// log line (Line 0; log lines count from 1).
type Line struct {
	Source string
	Text   string
	Line   int
	Quote  string
}

// Test is one way to confirm or rule out a cause: what to do, the command
// that does it (empty when it is not a command), and what it costs. A
// setting that lasts (a kernel command line argument, a Raspberry Pi
// config.txt line) is in Setting, and Where says where it goes on the
// machine's platform (persist.KernelArgument, persist.PiConfig).
//
// The zero Test is no test: no action, command, cost, setting or place.
type Test struct {
	Action  string
	Command string
	Cost    string
	Setting string
	Where   []string
}

// Cause is the verdict on one layer.
//
// The zero Cause is no verdict: its Layer and Likelihood are empty, none of
// the named layers and grades, and it has no evidence and no test.
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

// grade turns a score into a likelihood: likely needs a score of 3 and a
// discriminating sign (one that no other group explains as well).
func grade(score int, sure bool) Likelihood {
	switch {
	case score >= 3 && sure:
		return Likely
	case score >= 1:
		return Possible
	}
	return Unlikely
}

// builder collects the evidence of one cause. Its methods that add
// evidence and tests are never inlined (go:noinline): the rules call them
// from about 140 places, and an inlined copy of their appends at each one
// made the page's app-log.wasm 85 KB larger (6,308,813 bytes against
// 6,223,111, built as examples/web builds it); a diagnosis calls them a
// few dozen times, so the calls cost nothing measurable.
type builder struct {
	Cause
	// weights are the weights of Evidence, to put the strongest first.
	weights []int
	// settings says whether configuration (a setting that allows a layer
	// to act) weighs: only with a failure to explain.
	settings bool
	// sure says that a discriminating sign speaks for the layer.
	sure bool
}

func newBuilder(s *signals, l Layer) builder {
	b := builder{Cause: Cause{Layer: l}, settings: s.inc != nil}
	for _, k := range s.known {
		if k.Layer == l && k.Needs == "" {
			what := "a known issue of this kernel release: "
			if len(k.Releases) == 0 && k.First.IsZero() && k.Fixed.IsZero() {
				what = "a known kernel issue that its lines show: " // the lines date it
			}
			b.sign(4, Line{Source: k.Source, Text: what + k.Describe(s.releaseText)})
		}
	}
	return b
}

// sign is pro for a discriminating sign: evidence that no other group
// explains as well, the only kind that can make a layer likely.
//
//go:noinline
func (b *builder) sign(w int, l Line) {
	b.sure = true
	b.proLine(w, l)
}

// proLine is pro with a whole line (a quoted log line).
//
//go:noinline
func (b *builder) proLine(w int, l Line) {
	b.Score += w
	b.Evidence = append(b.Evidence, l)
	b.weights = append(b.weights, w)
}

// contextLine is proLine for a line that sets the scene rather than says
// what failed (the kernel ran in a virtual machine): it weighs w, but
// follows the other evidence, so that what failed leads.
func (b *builder) contextLine(w int, l Line) {
	b.Score += w
	b.Evidence = append(b.Evidence, l)
	b.weights = append(b.weights, 0)
}

// conLine is con with a whole line.
//
//go:noinline
func (b *builder) conLine(w int, l Line) {
	b.Score -= w
	b.Against = append(b.Against, l)
}

// setting is pro for a configuration that lets the layer act.
func (b *builder) setting(w int, source, text string) {
	if !b.settings {
		w = 0
	}
	b.pro(w, source, text)
}

//go:noinline
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
	// An insertion sort of the few evidence lines: stable, and no generic
	// instantiation of slices.SortStableFunc in the page's wasm.
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && w(idx[j]) > w(idx[j-1]); j-- {
			idx[j-1], idx[j] = idx[j], idx[j-1]
		}
	}
	ev := make([]Line, len(idx))
	for i, j := range idx {
		ev[i] = b.Evidence[j]
	}
	c := b.Cause
	c.Evidence = ev
	return c
}

//go:noinline
func (b *builder) con(w int, source, text string) {
	b.Score -= w
	b.Against = append(b.Against, Line{Source: source, Text: text})
}

//go:noinline
func (b *builder) test(action, command, cost string) {
	b.Tests = append(b.Tests, Test{Action: action, Command: command, Cost: cost})
}

// argTest is a test that adds a kernel command line argument, with where
// it goes on the machine's platform; none when the argument was already
// tried without helping.
func (b *builder) argTest(s *signals, action, arg, cost string) {
	switch s.triedBefore(arg) {
	case DidNotHelp:
		return
	case Helped:
		// No test any more, but how to keep it.
		action = "keep " + arg + ", which helped: make it last on the kernel command line"
	}
	b.Tests = append(b.Tests, Test{Action: action, Command: "add " + arg + " to the kernel command line", Cost: cost, Setting: arg, Where: persist.KernelArgument(s.platform, arg).Steps})
}

// configTest is a test that adds a Raspberry Pi config.txt line.
// Like argTest, it is left out when the line was tried and did not help,
// and becomes keeping it when it helped.
func (b *builder) configTest(s *signals, action, line, cost string) {
	switch s.triedBefore(line) {
	case DidNotHelp:
		return
	case Helped:
		action = "keep " + line + " in config.txt, which helped"
	}
	b.Tests = append(b.Tests, Test{Action: action, Command: "add " + line + " to config.txt", Cost: cost, Setting: line, Where: persist.PiConfig(line).Steps})
}
