package persist_test

import (
	"fmt"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/persist"
	"github.com/nvmeapst/nvmeapst/apst/persist/udev"
)

// Every bound in 4600..42999 programs the same table on a Samsung 990 EVO
// Plus; with a 25 ms stall goal, the goal's limit is the value to keep.
func ExampleChoose() {
	ch, err := persist.Choose([]analysis.BoundRange{{Min: 4600, Max: 42999}}, 100000, 25000)
	if err != nil {
		panic(err)
	}
	fmt.Println(ch.Bound, ch.Rule)
	// Output: 25000us goal-limit
}

// A udev rule for every capacity of a model, written only where the
// kernel has APST enabled.
func ExampleRender() {
	glob, _ := persist.ModelFamily("Samsung SSD 990 EVO Plus 1TB")
	o, err := persist.Render(persist.Setting{Bound: 25000, Scope: persist.ModelScope(glob)}, persist.FormUdev)
	if err != nil {
		panic(err)
	}
	fmt.Print(o.Text)
	// Output:
	// # apstctl persist: bound 25000us for every controller whose model matches "Samsung SSD 990 EVO Plus *".
	// # Writes /sys/class/nvme/nvmeN/power/pm_qos_latency_tolerance_us; undo: remove this file.
	// ACTION=="add|change", SUBSYSTEM=="nvme", KERNEL=="nvme[0-9]*", ATTR{model}=="Samsung SSD 990 EVO Plus *", TEST=="power/pm_qos_latency_tolerance_us", ATTR{power/pm_qos_latency_tolerance_us}="25000"
}

// Which drives a rule reaches, and what it writes there: the PCI
// function's device/power/ has no such file.
func ExampleCheckRules() {
	rs, err := udev.ParseRules(`ACTION=="add", SUBSYSTEM=="nvme", ATTR{device/power/pm_qos_latency_tolerance_us}="0"`)
	if err != nil {
		panic(err)
	}
	for _, w := range rs.Apply(udev.Drive{Model: "Samsung SSD 990 EVO Plus 4TB", HasTolerance: true}) {
		fmt.Println(w.Attr, w.Value, "exists:", w.Exists)
	}
	for _, f := range persist.CheckRules(rs, "") {
		fmt.Println(f.Mistake)
	}
	// Output:
	// device/power/pm_qos_latency_tolerance_us 0 exists: false
	// device-power-path
	// no-guard
	// add-only
}

// A default lowered "for deeper states" removes them.
func ExampleCheckDefaults() {
	ds, err := persist.ParseDefaults("quiet splash nvme_core.default_ps_max_latency_us=5500")
	if err != nil {
		panic(err)
	}
	for _, f := range persist.CheckDefaults(ds) {
		fmt.Println(f.Mistake, ds[0].Bound < apst.Microseconds(persist.DefaultBound))
	}
	// Output: deeper-states true
}

// The parameters of a copied boot loader line, named as the kernel names
// them.
func ExampleParseArguments() {
	args, err := persist.ParseArguments(`GRUB_CMDLINE_LINUX_DEFAULT="quiet nvme_core.default_ps_max_latency_us=0"` + "\n" +
		"options nvme noacpi=1")
	if err != nil {
		panic(err)
	}
	for _, a := range args {
		if a.NoValue {
			fmt.Printf("line %d, %s: %s\n", a.Line, a.Source, a.Name)
			continue
		}
		fmt.Printf("line %d, %s: %s=%s\n", a.Line, a.Source, a.Name, a.Value)
	}
	// Output:
	// line 1, kernel command line: quiet
	// line 1, kernel command line: nvme_core.default_ps_max_latency_us=0
	// line 2, modprobe.d: nvme.noacpi=1
}
