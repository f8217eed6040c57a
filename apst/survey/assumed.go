package survey

import (
	"iter"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// Assumed is a set of the kinds of assumption a drive's answers made
// because its capture or the configuration did not say something the
// answer depends on: the fields of [apst.Assumptions] that a fleet report
// counts per kind. The PCI ID's assumptions are the Row's
// QuirksInferredFrom and QuirksUncheckedPCI. The zero Assumed assumed
// nothing.
type Assumed uint8

// The kinds of Assumed, each an [apst.Assumptions] field.
const (
	// AssumedAPSTA is APSTAUnknown: the capture does not record APSTA.
	AssumedAPSTA Assumed = 1 << iota
	// AssumedRelease is ReleaseUnknown: no kernel release was given and
	// it decides a quirk entry that could apply to the drive.
	AssumedRelease
	// AssumedBase is BaseUnknown: a distribution release whose stable
	// base is unknown.
	AssumedBase
	// AssumedDMI is DMIUnchecked: a DMI rule could apply to the drive and
	// the machine is unknown.
	AssumedDMI
)

// AssumedOf returns the kinds a records; none for a nil a.
func AssumedOf(a *apst.Assumptions) Assumed {
	var k Assumed
	if a == nil {
		return k
	}
	if a.APSTAUnknown {
		k |= AssumedAPSTA
	}
	if a.ReleaseUnknown {
		k |= AssumedRelease
	}
	if a.BaseUnknown {
		k |= AssumedBase
	}
	if a.DMIUnchecked {
		k |= AssumedDMI
	}
	return k
}

// assumedKey is everything of a plan and its controller that the release,
// base and DMI kinds of apst.Plan.Assumptions depend on: the controller's
// VID, MN and FR, the PCI ID the lookup used (known or inferred), the
// tables it used and the release the parameters gave. APSTA is read from
// the plan each time. A lookup that was skipped, or consulted no tables,
// assumed none of the three and is not cached.
type assumedKey struct {
	vid             uint16
	model, firmware string
	pci             apst.PCIID
	tables, release apst.Release
}

// assumedCache remembers the kinds by assumedKey, so that a fleet of many
// drives of few models derives each model's assumptions (which name the
// quirk entries at stake, in sentences) once per configuration.
type assumedCache struct{ c cache[assumedKey, Assumed] }

// assumedCacheMax bounds the cache: beyond it, kinds are derived anew.
const assumedCacheMax = 1 << 14

// of returns the kinds plan p, built for controller c, assumed.
func (ac *assumedCache) of(p *apst.Plan, c *powerstate.Controller) Assumed {
	var apsta Assumed
	if p.AssumedAPSTA {
		apsta = AssumedAPSTA
	}
	l := &p.Quirks
	if l.Skipped || l.Tables.IsZero() {
		return apsta // Assumptions reads nothing else
	}
	if len(c.Model) > maxKeyModel || len(c.Firmware) > maxKeyFirmware {
		// Longer than the fields (a controller built in code): not kept.
		a := p.Assumptions(c)
		return apsta | AssumedOf(&a)&^AssumedAPSTA
	}
	k := assumedKey{vid: c.VendorID, model: c.Model, firmware: c.Firmware, pci: l.PCI, tables: l.Tables, release: p.Params.Release}
	kinds, ok := ac.c.get(&k)
	if !ok {
		a := p.Assumptions(c)
		kinds = AssumedOf(&a) &^ AssumedAPSTA
		ac.c.put(&k, kinds, assumedCacheMax)
	}
	return apsta | kinds
}

// assumedNames are the names of the kinds, in the order Names lists them:
// a shard row's "assumed".
var assumedNames = [...]struct {
	kind Assumed
	name string
}{
	{AssumedAPSTA, "apsta-unknown"},
	{AssumedRelease, "release-unknown"},
	{AssumedBase, "base-unknown"},
	{AssumedDMI, "dmi-unchecked"},
}

// Names returns the names of the kinds a holds ("apsta-unknown",
// "release-unknown", "base-unknown", "dmi-unchecked"), in that order; nil
// when none.
func (a Assumed) Names() []string {
	var out []string
	for _, k := range assumedNames {
		if a&k.kind != 0 {
			out = append(out, k.name)
		}
	}
	return out
}

// All yields the names of the kinds a holds, in Names' order, without
// building a slice.
func (a Assumed) All() iter.Seq[string] {
	return func(yield func(string) bool) {
		for _, k := range assumedNames {
			if a&k.kind != 0 && !yield(k.name) {
				return
			}
		}
	}
}

// AssumedOfNames returns the kinds names lists, as Names writes them;
// names of no kind (a newer writer's) are left out.
func AssumedOfNames(names []string) Assumed {
	var a Assumed
	for _, n := range names {
		for _, k := range assumedNames {
			if n == k.name {
				a |= k.kind
			}
		}
	}
	return a
}
