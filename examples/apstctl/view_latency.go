package main

import (
	"fmt"
	"io"

	nvmeapst "github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/examples/internal/view"
)

// The views of a set-latency change (nvmeapst.LatencyChange).

type latencyChangeJSON struct {
	Controller     string         `json:"controller"`
	Old            string         `json:"old"`
	New            string         `json:"new"`
	BoundUS        uint64         `json:"bound_us"`
	BoundUnlimited bool           `json:"bound_unlimited"`
	Unlimited      bool           `json:"unlimited"`
	Report         controllerJSON `json:"report"`
	Persist        persistJSON    `json:"persist"`
}

type persistJSON struct {
	UdevFile        string   `json:"udev_file"`
	UdevRule        string   `json:"udev_rule"`
	UdevReload      string   `json:"udev_reload"`
	KernelParameter string   `json:"kernel_parameter"`
	ModprobeOption  string   `json:"modprobe_option"`
	Notes           []string `json:"notes"`
}

// latencyChangeView is the JSON of a change: old and new values, the
// controller report after the write (its plan is the table the kernel now
// builds) and the persistence advice.
func latencyChangeView(l *nvmeapst.LatencyChange) latencyChangeJSON {
	p := l.Persist
	return latencyChangeJSON{
		Controller: l.Controller, Old: l.Old.String(), New: l.New.String(),
		BoundUS: uint64(l.Bound), BoundUnlimited: l.Bound == apst.NoLimit, Unlimited: l.Bound == apst.NoLimit,
		Report: controllerView(&l.Report),
		Persist: persistJSON{
			UdevFile: p.UdevFile, UdevRule: p.UdevRule, UdevReload: p.UdevReload,
			KernelParameter: p.KernelParameter, ModprobeOption: p.ModprobeOption, Notes: nonNil(p.Notes),
		},
	}
}

// writeLatencyChangeText writes the change, the table the kernel now
// builds, and how to make the setting persistent.
func writeLatencyChangeText(w io.Writer, l *nvmeapst.LatencyChange) {
	fmt.Fprintf(w, "%s: pm_qos_latency_tolerance_us %s -> %s (ps_max_latency_us %s)\n", view.Escape(l.Controller), l.Old, l.New, l.Bound)
	if l.Report.Sysfs.State != "" && l.Report.Sysfs.State != "live" {
		fmt.Fprintf(w, "  the controller is %s: the kernel applies the new bound at the end of its next reset\n", view.Escape(l.Report.Sysfs.State))
	}
	fmt.Fprintln(w)
	a := l.Report.Assumptions()
	writeControllerText(w, &l.Report, &a)
	p := l.Persist
	fmt.Fprintln(w)
	fmt.Fprintln(w, "to keep it across reboots for every drive of this model, add to "+p.UdevFile+" (apstctl persist gives the other scopes and forms):")
	fmt.Fprintln(w, "  "+view.Escape(p.UdevRule))
	fmt.Fprintln(w, "and apply it now with: "+p.UdevReload)
	fmt.Fprintln(w, "or, for every controller, on the kernel command line:")
	fmt.Fprintln(w, "  "+p.KernelParameter)
	fmt.Fprintln(w, "(with nvme_core as a module: "+p.ModprobeOption+" in /etc/modprobe.d/nvme-apst.conf, then rebuild the initramfs)")
	for _, n := range p.Notes {
		fmt.Fprintln(w, "note: "+n)
	}
}
