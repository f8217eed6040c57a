package diagnose

import (
	"slices"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst/persist"
)

// decideMargin is how close (in score) the best layers of two groups are
// when the evidence does not separate them.
const decideMargin = 1

// likelyMargin is how far the first group must lead every other for its
// layer to be called likely (with a discriminating sign): a lead of one or
// two points is "possible", however strong the sign.
const likelyMargin = 3

// calibrate grades likely only the first cause, and only when its group
// leads every other group by likelyMargin.
func calibrate(d *Diagnosis) {
	top := d.Causes[0]
	lead := top.Score
	for _, c := range d.Causes[1:] {
		if c.Layer.Group() != top.Layer.Group() {
			lead = top.Score - max(c.Score, 0)
			break
		}
	}
	for i := range d.Causes {
		c := &d.Causes[i]
		if c.Likelihood != Likely {
			continue
		}
		if c.Layer.Group() != top.Layer.Group() || lead < likelyMargin {
			c.Likelihood = Possible
		}
	}
}

// decide sets Undecided and Separate when the first cause's group does not
// stand out: the best cause of another group scores within decideMargin
// of it and no discriminating sign puts the first ahead by more. A layer
// never wins by list order: the best causes of further groups that score
// the same as the second are undecided too.
func decide(s *signals, d *Diagnosis, sure map[Layer]bool) {
	top := d.Causes[0]
	if top.Layer == LayerUnknown || top.Score <= 0 {
		return
	}
	for i, c := range d.Causes[1:] {
		if c.Layer.Group() == top.Layer.Group() || c.Score <= 0 {
			continue
		}
		if top.Score-c.Score > decideMargin || sure[top.Layer] && !sure[c.Layer] && top.Score > c.Score {
			return
		}
		d.Undecided = []Layer{top.Layer, c.Layer}
		for _, o := range d.Causes[i+2:] {
			if o.Score == c.Score && !slices.ContainsFunc(d.Undecided, func(l Layer) bool { return l.Group() == o.Layer.Group() }) &&
				!(sure[top.Layer] && !sure[o.Layer] && top.Score > o.Score) {
				d.Undecided = append(d.Undecided, o.Layer)
			}
		}
		d.Separate = separate(s, d.Undecided...)
		for i := range d.Causes {
			if d.Causes[i].Likelihood == Likely && slices.Contains(d.Undecided, d.Causes[i].Layer) {
				d.Causes[i].Likelihood = Possible
			}
		}
		return
	}
}

// separate is the one test that tells the undecided layers apart: the
// test that moves one of them alone, for the layer whose test is cheapest
// (in the order of separators), and never one already tried.
func separate(s *signals, us ...Layer) *Test {
	has := func(l Layer) bool { return slices.Contains(us, l) }
	if has(LayerLink) && s.piGen3 != nil && len(s.triedOf([]string{"dtparam"}, "pciex1_gen=2", "pciex1_gen=1")) == 0 {
		// A Raspberry Pi's link at Gen 3: one line of config.txt moves
		// the link alone, cheaper than any other layer's test.
		return &Test{Action: "run the Raspberry Pi's external link at Gen 2 (APST and ASPM as they are) for as long as the errors took to appear: if they stop, the link's speed was the cause",
			Command: "add dtparam=pciex1_gen=2 to config.txt", Setting: "dtparam=pciex1_gen=2", Where: persist.PiConfig("dtparam=pciex1_gen=2").Steps,
			Cost: "the link's bandwidth halves while the test runs"}
	}
	// The layers themselves first, then their groups: a link that went
	// down is told from D3cold by D3cold's own test, not by ASPM's.
	order := make([]Layer, 0, 2*len(separatorOrder))
	for _, l := range separatorOrder {
		if has(l) {
			order = append(order, l)
		}
	}
	for _, l := range separatorOrder {
		if !has(l) && slices.ContainsFunc(us, func(u Layer) bool { return u.Group() == l }) {
			order = append(order, l)
		}
	}
	for _, l := range order {
		t := separators[l]
		if t.Setting != "" {
			name, value, _ := strings.Cut(t.Setting, "=")
			if tried := s.triedOf([]string{name}, value); len(tried) > 0 {
				continue
			}
			if strings.Contains(t.Setting, "=") && !strings.HasPrefix(t.Setting, "dtparam") {
				t.Where = persist.KernelArgument(s.platform, t.Setting).Steps
			}
		}
		t.Command = strings.NewReplacer("{addr}", s.addr(), "{name}", s.name()).Replace(t.Command)
		return &t
	}
	return nil
}

// separatorOrder is the order in which separating tests are preferred:
// the cheapest to run and undo first.
var separatorOrder = []Layer{LayerAPST, LayerASPM, LayerSuspend, LayerD3cold, LayerRuntimePM, LayerPlatform, LayerFirmware, LayerLink, LayerDrive, LayerPowerLoss}

// separators are, per layer, the test that moves that layer alone.
var separators = map[Layer]Test{
	LayerAPST: {Action: "boot with nvme_core.default_ps_max_latency_us=0 alone (ASPM and runtime PM as they are) for as long as the drive used to last: another failure rules APST out, none points at it",
		Command: "add nvme_core.default_ps_max_latency_us=0 to the kernel command line", Setting: "nvme_core.default_ps_max_latency_us=0",
		Cost: "every NVMe drive idles in an operational state while the test runs"},
	LayerASPM: {Action: "boot with pcie_aspm=off alone (APST as it is) for as long as the drive used to last: another failure rules out the ASPM the kernel enables, none points at it (ASPM the firmware enabled stays on: lspci -vv shows it in LnkCtl)",
		Command: "add pcie_aspm=off to the kernel command line", Setting: "pcie_aspm=off",
		Cost: "every link's ASPM idle savings while the test runs"},
	LayerSuspend: {Action: "boot with nvme.noacpi=1 (or do not suspend) for as long as the drive used to last: no failure then points at suspend and resume",
		Command: "add nvme.noacpi=1 to the kernel command line", Setting: "nvme.noacpi=1",
		Cost: "more battery drain while asleep during the test"},
	LayerD3cold: {Action: "forbid D3cold for the drive until reboot: no failure then points at D3cold",
		Command: "echo 0 | sudo tee /sys/bus/pci/devices/{addr}/d3cold_allowed", Cost: "the drive is never powered off by runtime PM"},
	LayerRuntimePM: {Action: "boot with pcie_port_pm=off: no failure then points at runtime PM",
		Command: "add pcie_port_pm=off to the kernel command line", Setting: "pcie_port_pm=off", Cost: "every PCIe port stays in D0 during the test"},
	LayerPlatform: {Action: "boot the last kernel that worked, or the newest stable one, with the same settings: a change of behaviour points at the kernel",
		Command: "uname -r (then boot another kernel from the boot menu)", Cost: "a reboot"},
	LayerFirmware: {Action: "update the drive's firmware if its vendor has a newer release (its notes may name the failure)",
		Command: "sudo nvme fw-log /dev/{name}; sudo nvme id-ctrl /dev/{name} | grep '^fr '", Cost: "a backup and a reboot"},
	LayerLink: {Action: "reseat the drive, or move it to another slot or adapter: a failure that stays with the slot points at the link",
		Cost: "downtime"},
	LayerDrive: {Action: "move the drive to another machine or slot, or another drive into this one: a failure that follows the drive convicts it",
		Cost: "downtime and a spare"},
	LayerPowerLoss: {Action: "read unsafe_shutdowns before and after the next failure: a rise means the drive lost power",
		Command: "sudo nvme smart-log /dev/{name} | grep unsafe_shutdowns", Cost: "free"},
}
