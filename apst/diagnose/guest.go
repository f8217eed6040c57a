package diagnose

import (
	"strings"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// guest is the line of l that says the kernel ran in a virtual machine,
// or nil: the hypervisor it detected, unless that may be a Xen dom0's
// ("Xen PV" and "Xen PVH" are dom0's too, and dom0 drives the machine's
// own drives), else the machine's name when it is a hypervisor's virtual
// machine.
func guest(l *kernlog.Log) *kernlog.Event {
	if h := l.Hypervisor; h != nil && !strings.HasPrefix(h.Text, "Xen") || h != nil && strings.HasPrefix(h.Text, "Xen HVM") {
		return h
	}
	if m := l.Machine; m != nil && virtualMachine(m.Text) {
		return m
	}
	return nil
}

// virtualMachine reports whether a machine's DMI name is one a hypervisor
// gives its guests ("QEMU Standard PC (Q35 + ICH9, 2009)", "VMware, Inc.
// VMware Virtual Platform", "innotek GmbH VirtualBox", "Microsoft
// Corporation Virtual Machine", "Xen HVM domU", "IBM 3931 A01 782
// (KVM/Linux)", "Google Compute Engine", "Amazon EC2 m5.large" but not
// "Amazon EC2 i3.metal", a bare-metal instance).
func virtualMachine(name string) bool {
	for _, n := range []string{"QEMU", "VMware", "VirtualBox", "Virtual Machine", "Xen HVM domU", "(KVM/Linux)", "KVM Virtual Machine", "Google Compute Engine", "OpenStack", "Bochs", "BHYVE", "Parallels", "Cloud Hypervisor"} {
		if strings.Contains(name, n) {
			return true
		}
	}
	return strings.HasPrefix(name, "Amazon EC2 ") && !strings.Contains(name, ".metal")
}
