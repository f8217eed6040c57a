package diagnose

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// otherDisksSummary is the answer for a log whose failures are those of
// disks on another transport than NVMe (kernlog.Log.OtherDisks) and of no
// NVMe drive: whose they are, and, for a disk on USB (an NVMe drive in a
// USB enclosure, most often), that the host's NVMe and PCIe power
// settings do not reach it and what is tried instead. The first lines are
// quoted as Consequences. "" when the log has none.
func otherDisksSummary(d *Diagnosis, l *kernlog.Log) string {
	if len(l.OtherDisks) == 0 {
		return ""
	}
	names := otherDiskNames(l)
	usb, port := false, ""
	for i := range l.OtherDisks {
		o := &l.OtherDisks[i]
		usb = usb || o.USB()
		if port == "" && o.USB() {
			port = o.Port
		}
	}
	first := &l.OtherDisks[0]
	for i := range l.OtherDisks {
		if l.OtherDisks[i].Disk != "" {
			// The disk's own line says its transport; a USB device's
			// line before it, the USB device's.
			first = &l.OtherDisks[i]
			break
		}
	}
	// The quotes: the disk's first line and the first others, in the
	// log's order.
	quote := func(o *kernlog.OtherDiskLine) {
		d.Consequences = append(d.Consequences, Line{Source: fmt.Sprintf("kernel log line %d", o.Line), Text: otherDiskMeaning(o), Line: o.Line, Quote: o.Text})
	}
	quote(first)
	for i := range l.OtherDisks {
		if o := &l.OtherDisks[i]; o != first && len(d.Consequences) < 3 {
			quote(o)
		}
	}
	sort.SliceStable(d.Consequences, func(i, j int) bool { return d.Consequences[i].Line < d.Consequences[j].Line })
	whose := "a disk the log does not name"
	switch len(names) {
	case 1:
		whose = names[0]
	case 2, 3:
		whose = strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	}
	it, its, they := "it", "its", "it"
	if len(names) > 1 {
		it, its, they = "them", "their", "they"
	}
	msg := fmt.Sprintf("no failure of an NVMe drive seen in the kernel log: the failures it holds are of %s, %s, in %d line(s) from line %d", whose, transportWords(first, len(names) > 1), l.OtherDiskLines, l.OtherDisks[0].Line)
	if !usb {
		return msg + ": the host's NVMe power settings (APST, nvme_core.default_ps_max_latency_us) do not reach " + it + "; " + its + " own transport's lines say why " + they + " failed (give the whole log of that boot: journalctl -k -b -1 --no-pager)"
	}
	power := "echo on > /sys/bus/usb/devices/<port>/power/control, the port from lsusb -t"
	if port != "" {
		power = "echo on > /sys/bus/usb/devices/" + port + "/power/control"
	}
	return msg + ": a drive in a USB enclosure is run by the enclosure's bridge, and the host's NVMe and PCIe power settings (APST, nvme_core.default_ps_max_latency_us, ASPM) do not reach it; test the bridge without UAS (usb-storage.quirks=VID:PID:u on the kernel command line, the IDs from lsusb), with USB autosuspend off for it (" + power + "; usbcore.autosuspend=-1 for every port), and on a powered hub or the enclosure's own supply"
}

// otherDiskNames names, at most three, the disks (or, for lines that
// name none, the hosts and USB ports) of l.OtherDisks.
func otherDiskNames(l *kernlog.Log) []string {
	var names []string
	for _, only := range []bool{true, false} {
		for i := range l.OtherDisks {
			o := &l.OtherDisks[i]
			name := o.Disk
			if !only && name == "" {
				name = o.Host
			}
			if name != "" && len(names) < 3 && !slices.Contains(names, name) {
				names = append(names, name)
			}
		}
		if len(names) > 0 {
			break
		}
	}
	return names
}

// transportWords says what kind of disk a line's is, for one disk or
// several.
func transportWords(o *kernlog.OtherDiskLine, several bool) string {
	a := "a disk"
	if several {
		a = "disks"
	}
	switch o.Transport {
	case "uas":
		return a + " on USB (the uas driver, USB Attached SCSI)"
	case "usb-storage":
		return a + " on USB (the usb-storage driver)"
	case "ata":
		return a + " on a SATA port (libata)"
	case "usb":
		return a + " on USB (the log does not name the driver, but a USB device failed beside it)"
	}
	return a + " on a SCSI host whose driver the log does not name (SATA, SAS or USB; not an NVMe controller)"
}

// otherDiskMeaning says what one of the lines is.
func otherDiskMeaning(o *kernlog.OtherDiskLine) string {
	switch {
	case o.Port != "" && strings.Contains(o.Text, "USB disconnect"):
		return "the USB device left the bus"
	case o.Port != "" && o.Transport == "usb":
		return "the USB device did not answer after a reset"
	case o.Port != "":
		return "the USB device reset of the disk's error handling"
	case strings.Contains(o.Text, "uas_eh_abort_handler"):
		return "the uas driver aborted a command that timed out"
	case strings.Contains(o.Text, "uas_eh_device_reset_handler"):
		return "the uas driver reset the device"
	case o.Transport == "ata":
		return "libata's error handling of the port"
	case strings.Contains(o.Text, "error, dev sd"), strings.Contains(o.Text, "error on dev sd"):
		return "the block layer's error on the disk"
	}
	return "a command of the disk failed"
}
