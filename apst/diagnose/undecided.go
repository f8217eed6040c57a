package diagnose

// decideMargin is how close (in score) the best layers of two groups are
// when the evidence does not separate them.
const decideMargin = 1

// decide sets Undecided and Separate when the first cause's group does not
// stand out: the best cause of another group scores within decideMargin
// of it and no discriminating sign puts the first ahead by more. A layer
// never wins by list order.
func decide(d *Diagnosis, sure map[Layer]bool) {
	top := d.Causes[0]
	if top.Layer == LayerUnknown || top.Score <= 0 {
		return
	}
	for _, c := range d.Causes[1:] {
		if c.Layer.Group() == top.Layer.Group() || c.Score <= 0 {
			continue
		}
		if top.Score-c.Score > decideMargin || sure[top.Layer] && !sure[c.Layer] && top.Score > c.Score {
			return
		}
		d.Undecided = []Layer{top.Layer, c.Layer}
		d.Separate = separate(d, top.Layer, c.Layer)
		for i := range d.Causes {
			if d.Causes[i].Likelihood == Likely && (d.Causes[i].Layer == top.Layer || d.Causes[i].Layer == c.Layer) {
				d.Causes[i].Likelihood = Possible
			}
		}
		return
	}
}

// separate is the one test that tells a from b: the first test of the
// cheaper-to-test layer that changes only its own layer.
func separate(d *Diagnosis, a, b Layer) *Test {
	for _, l := range []Layer{a, b} {
		if t, ok := separating[l]; ok {
			if c := d.Cause(l); c != nil {
				for _, x := range c.Tests {
					if x.Setting == t || x.Command == t {
						x.Action = "for " + string(l) + ": " + x.Action
						return &x
					}
				}
			}
		}
	}
	for _, l := range []Layer{a, b} {
		if c := d.Cause(l); c != nil && len(c.Tests) > 0 {
			x := c.Tests[0]
			x.Action = "for " + string(l) + ": " + x.Action
			return &x
		}
	}
	return nil
}

// separating is, per layer, the test (by its setting) that moves that
// layer alone: APST off leaves ASPM and runtime PM as they are, and so
// on.
var separating = map[Layer]string{
	LayerAPST:      "nvme_core.default_ps_max_latency_us=0",
	LayerASPM:      "pcie_aspm=off",
	LayerSuspend:   "nvme.noacpi=1",
	LayerRuntimePM: "pcie_port_pm=off",
	LayerPlatform:  "pci=nomsi",
}
