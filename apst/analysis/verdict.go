package analysis

import (
	"fmt"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// Verdict is the answer of Check: whether the APST feature a drive holds
// (Get Features FID 0Ch) is what nvme_configure_apst() programs under the
// parameters the kernel is believed to use, and which configurations would
// program it.
//
// The zero Verdict is not an answer (Match false, no plan): only Check
// builds one.
type Verdict struct {
	// Match reports that the drive holds what the kernel programs: no entry
	// differs in what it does (two entries with ITPT 0 never fire and are
	// equivalent; Notes lists them), in ITPS and ITPT only when Drive.Masked; the entries of
	// Drive.Unknown are not compared, and Notes says so) and APSTE does not
	// differ (APSTE is not compared when Drive.APSTE is apst.APSTEUnknown).
	Match bool
	// Expected is the plan Build returns for the parameters given.
	Expected apst.Plan
	// Drive is the feature as given.
	Drive apst.Feature
	// APSTEDiffers reports that the drive's APSTE is known and differs from
	// Expected.Enabled.
	APSTEDiffers bool
	// Differences lists the entries that differ, state 0 first, as they were
	// compared (masked with apst.EntryMask when Drive.Masked).
	Differences []EntryDiff
	// ReproducedBy lists the configurations under which the kernel programs
	// what the drive holds, the fewest changes from the parameters given
	// first; see Check for what is tried. Empty when none does.
	ReproducedBy []Reproduction
	// Notes says, one sentence each, what the verdict assumed or could not
	// compare: an unknown APSTE, a masked capture, an assumed APSTA, a plan
	// the kernel does not send.
	Notes []string
}

// EntryDiff is one APST table entry (state State's, 64 bits) on which the
// kernel's plan and the drive disagree.
//
// The zero EntryDiff is no disagreement: state 0's entries are both 0, with
// the zero apst.Decision and no Reason.
type EntryDiff struct {
	// State is the power state index of the entry (0..31).
	State uint8
	// Expected is the entry of the kernel's plan, Drive the drive's.
	Expected, Drive apst.Entry
	// Decision is the kernel's decision on the state that explains the
	// difference: the drive's target when the kernel passed it over (or
	// it does not exist), else the kernel's target for this entry.
	Decision apst.Decision
	// Reason says in words, with the numbers the kernel compared, why the
	// kernel's entry is what it is ("the kernel does not target ps4:
	// exit latency 43000us > bound 25000us").
	Reason string
}

// explainDiff fills d's Decision and Reason from the plan built for c.
func explainDiff(c *powerstate.Controller, plan *apst.Plan, d *EntryDiff) {
	te, td := d.Expected.TargetState(), d.Drive.TargetState()
	kernelFires, driveFires := d.Expected.Transitions(), d.Drive.Transitions()
	s, prefix := te, fmt.Sprintf("the kernel targets ps%d from ps%d", te, d.State)
	switch {
	case !plan.Sent || !plan.Enabled:
		s, prefix = td, "the kernel programs no transition"
	case driveFires && (!kernelFires || td != te) && !plan.Selected().Has(td):
		s, prefix = td, fmt.Sprintf("the kernel does not target ps%d", td)
	case !kernelFires:
		s, prefix = td, fmt.Sprintf("the kernel programs no transition from ps%d", d.State)
	}
	d.Decision = plan.Decision(s)
	d.Reason = prefix + ": " + plan.Explain(c, s)
}

// Reproduction is one configuration under which the kernel programs exactly
// what the drive holds, for every bound (ps_max_latency_us) in Min..Max.
//
// The zero Reproduction is none that Check finds: its Params are the zero
// apst.Params, which Build rejects, over the range of bound 0 alone
// (Contains(0) is true).
type Reproduction struct {
	// Params are the kernel inputs. Params.Bound is one bound of Min..Max:
	// the bound given to Check when it is in the range, else the
	// generation's default bound when it is, else Min. Params.String is the
	// configuration's key=value text (the "config" key of apstctl check).
	Params apst.Params
	// Min and Max are the smallest and largest bound of the range that
	// reproduces the drive's feature, both included (an Interval's bounds,
	// adjacent intervals that both reproduce it merged).
	Min, Max apst.Microseconds
	// Reason says how the configuration differs from the parameters given,
	// e.g. "the parameters given", "kernel v4.12 instead of current" or
	// "ps_max_latency_us 4600us..42999us instead of 100000us".
	Reason string
}

// Contains reports whether bound b lies in Min..Max.
func (r *Reproduction) Contains(b apst.Microseconds) bool { return r.Min <= b && b <= r.Max }
