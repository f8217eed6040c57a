package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
	"github.com/nvmeapst/nvmeapst/examples/internal/view"
)

// notAKernelLog refuses, for persist --check or --check-line (flag), text that reads as a kernel
// log: one with a boot's "Linux version" line or an event of a device.
// Its lines name settings too (nvme's advice after a controller-down:
// Try "nvme_core.default_ps_max_latency_us=0 pcie_aspm=off ..."), which
// would be checked as if they were set. A "Kernel command line:" line
// alone is a command line, and is checked.
func notAKernelLog(ctx context.Context, flag, name, text string) error {
	l, err := kernlog.Read(ctx, strings.NewReader(text), kernlog.Options{})
	if err != nil || len(l.Incidents) == 0 && l.Boots == 0 {
		return nil
	}
	what := "its \"Linux version\" line is a boot's"
	if len(l.Incidents) > 0 && len(l.Incidents[0].Events) > 0 {
		what = fmt.Sprintf("line %d is a kernel event", l.Incidents[0].Events[0].Line)
	}
	return inputErr(fmt.Errorf("%s: this looks like a kernel log (%s), not a setting: %s reads udev rules, a modprobe.d options line, a kernel command line (/proc/cmdline, GRUB's or systemd-boot's), sysfs writes, a tmpfiles.d w line or a tuned [sysfs] line; for a kernel log, apstctl diagnose --log FILE", view.Escape(name), what, flag))
}
