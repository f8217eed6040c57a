package survey

import (
	"fmt"

	"github.com/nvmeapst/nvmeapst/apst"
)

// BarClass says what a change does to the non-operational states a drive
// reaches under the survey's first configuration (state 0, where every idle
// period starts, is left out).
type BarClass uint8

const (
	// BarsNoIdle: the first configuration reaches no non-operational
	// state, so there is nothing to bar.
	BarsNoIdle BarClass = iota
	// BarsNone: every state the first configuration reaches stays
	// reachable.
	BarsNone
	// BarsSome: some of them, not all, become unreachable.
	BarsSome
	// BarsAll: the first configuration reaches some non-operational state
	// and this one reaches none.
	BarsAll
)

var barNames = [...]string{BarsNoIdle: "no-idle", BarsNone: "none", BarsSome: "some", BarsAll: "all"}

// String returns the class's stable name: "no-idle", "none", "some" or
// "all".
func (b BarClass) String() string {
	if int(b) < len(barNames) {
		return barNames[b]
	}
	return fmt.Sprintf("BarClass(%d)", uint8(b))
}

// barClass classifies a change from reach set a to reach set b.
func barClass(a, b apst.States) BarClass {
	a, b = a&^1, b&^1
	switch {
	case a == 0:
		return BarsNoIdle
	case a&^b == 0:
		return BarsNone
	case b == 0:
		return BarsAll
	}
	return BarsSome
}
