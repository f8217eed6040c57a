package kernlog

import "strings"

// The PM core reports a device's callback that failed in a system sleep
// transition on a line of its own, without the device, and the device's
// line follows (drivers/base/power/main.c; a Dell laptop's s2idle resume,
// posted t-08):
//
//	PM: dpm_run_callback(): pci_pm_resume+0x0/0xf0 returns -16
//	nvme 0000:02:00.0: PM: pci_pm_resume+0x0/0xf0 returned -16 after 61645374 usecs
//	nvme 0000:02:00.0: PM: failed to resume: error -16
//
// Read holds the first until the next event: when that is the device's PM
// failure with the same error, within two lines, the first is the
// device's too, and joins its incident rather than making one of the
// kernel's.

// heldCallback holds e when it is a device-less PM callback failure, and
// adds the one held before it, given e's device when e is that device's
// line. It reports whether e was held.
func (st *state) heldCallback(e *Event) bool {
	if h := &st.callback; h.Line > 0 {
		if e.Kind == PMError && e.Line <= h.EndLine+2 && e.Errno == h.Errno && (e.PCI != "" || e.Controller != "") {
			h.Driver, h.Device, h.PCI, h.Controller = e.Driver, e.Device, e.PCI, e.Controller
		}
		st.endCallback()
	}
	if e.Kind == PMError && e.PCI == "" && e.Controller == "" && e.Disk == "" && e.Errno != 0 && callbackLine(e.Text) {
		st.callback = *e
		return true
	}
	return false
}

// endCallback adds the held callback failure, if any.
func (st *state) endCallback() {
	if st.callback.Line == 0 {
		return
	}
	h := st.callback
	st.callback = Event{}
	st.addUnheld(h)
}

// callbackLine reports whether a PM failure's text is the PM core's line
// of a callback that returned an error: "dpm_run_callback():
// pci_pm_resume+0x0/0xf0 returns -16", "pci_pm_suspend():
// nvme_suspend+0x0/0x150 returns -16".
func callbackLine(text string) bool {
	return strings.Contains(text, "(): ") && strings.Contains(text, " returns -")
}
