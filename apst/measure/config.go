package measure

import (
	"fmt"
	"reflect"

	"github.com/nvmeapst/nvmeapst/apst"
)

// ParseConfig reads a configuration (apst.ParseConfig's text, such as
// "ps-max-latency-us=25000") for a drive that runs with base: the
// parameters of its kernel, or of a Simulation. Writing
// pm_qos_latency_tolerance_us sets the bound and nothing else, so a
// configuration that changes a module parameter, the generation or the
// quirks is refused with ErrSetup: it would be labelled with a plan the
// drive does not follow. A quirks= naming base's own set changes nothing
// and is accepted. Errors of the text itself are apst.ParseConfig's.
func ParseConfig(text string, base apst.Params) (Config, error) {
	p, err := apst.ParseConfig(text, base)
	if err != nil {
		return Config{}, err
	}
	a, b := p, base
	a.Bound, b.Bound = 0, 0
	a.QuirksGiven, b.QuirksGiven = false, false
	if !reflect.DeepEqual(a, b) {
		return Config{}, fmt.Errorf("%w: configuration %q changes more than the bound: the drive keeps its module parameters, generation and quirks (the running kernel's, or the simulation's), and pm_qos_latency_tolerance_us sets only the bound", ErrSetup, text)
	}
	p.QuirksGiven = base.QuirksGiven
	return Config{Text: text, Params: p}, nil
}
