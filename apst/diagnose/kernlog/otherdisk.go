package kernlog

import (
	"bytes"
	"sort"
	"strings"
)

// A disk the kernel drives through another transport than NVMe reports
// its failures in the words of the SCSI midlayer, the USB Attached SCSI
// driver and libata, naming a SCSI host, a SCSI device and its disk:
//
//	sd 0:0:0:0: [sda] tag#19 uas_eh_abort_handler 0 uas-tag 1 inflight: CMD IN
//	scsi host0: uas_eh_device_reset_handler start
//	usb 2-1: reset SuperSpeed Gen 1 USB device number 2 using xhci_hcd
//	sd 6:0:0:1: [sdc] tag#1 FAILED Result: hostbyte=DID_OK driverbyte=DRIVER_OK cmd_age=0s
//	blk_update_request: I/O error, dev sdc, sector 337245504 op 0x1:(WRITE) flags 0x4700 phys_seg 128 prio class 0
//	ata3.00: failed command: READ FPDMA QUEUED
//
// (drivers/usb/storage/uas.c, drivers/scsi/scsi_logging.c, block/blk-mq.c
// and drivers/ata/libata-eh.c print them; a SCSI host's driver is named
// when the host is added: "scsi host0: uas", "scsi host2: usb-storage
// 2-1:1.0".) An NVMe drive in a USB enclosure is such a disk: the bridge
// runs it, and the host's APST and PCIe settings do not reach it. Read
// keeps these lines in Log.OtherDisks, so that a log of such a disk's
// failures is not "no failure seen".

// OtherDiskLine is a failure line of a disk the kernel drives through
// another transport than NVMe (a USB-attached, SATA or SAS disk).
//
// The zero OtherDiskLine is no line of a log (Line 0; lines count from 1):
// it names no disk, host or transport, and USB reports false.
type OtherDiskLine struct {
	// Line is the line's number (of its first physical line).
	Line int
	// Disk is the disk the line names or the log ties its SCSI device to
	// ("sdc"); empty when the log does not say.
	Disk string
	// Host is the host adapter the line names or the log ties it to:
	// "scsi host0", "ata3".
	Host string
	// Transport is the host's driver as the log names it: "uas",
	// "usb-storage", "ata" for a libata port; "usb" when the log does not
	// name the driver but a USB device failed near the line (the line
	// itself may be that USB device's: Port is set); "scsi" when the log
	// does not say.
	Transport string
	// Port is the USB port of a USB reset within the disk's error
	// handling ("2-1"), whose power/control a test sets; empty otherwise.
	Port string
	// Text is the line as the log has it, without quoting, at most
	// MaxTextLength bytes.
	Text string
}

// USB reports whether the disk is attached over USB (UAS or the
// usb-storage driver).
func (d *OtherDiskLine) USB() bool {
	return d.Transport == "uas" || d.Transport == "usb-storage" || d.Transport == "usb"
}

// otherDiskColon reports, at the colon at i of a raw line after a digit,
// whether the line is one a SCSI device, a SCSI host, a libata port or a
// USB reset prints: Read's filter lets it through to otherDisk.
func otherDiskColon(b []byte, i int) bool {
	if i+2 >= len(b) || b[i+1] != ' ' {
		return false // a time's or an address's inner colon: most of them
	}
	if b[i+2] == '[' {
		return at(b, i+1, " [sd") // "sd 0:0:0:0: [sda] ..."
	}
	j := i
	for j > 0 && (b[j-1] >= '0' && b[j-1] <= '9' || b[j-1] == '.' || b[j-1] == '-') {
		j--
	}
	return before(b, j, "scsi host") || before(b, j, "ata") ||
		before(b, j, "usb ") && usbFailureAt(b, i+1) ||
		at(b, i+1, " Device offlined")
}

// usbResetLine reports whether a raw line is a USB device's reset ("usb
// 2-1: reset SuperSpeed Gen 1 USB device number 2 using xhci_hcd"): Read
// lets it through only while a UAS device reset waits for it, since
// every enumeration's retry prints one too.
func usbResetLine(b []byte) bool {
	i := bytes.Index(b, []byte("usb "))
	if i < 0 {
		return false
	}
	_, rest, ok := bytes.Cut(b[i+len("usb "):], []byte(": "))
	return ok && bytes.HasPrefix(rest, []byte("reset ")) && bytes.Contains(rest, []byte("USB device number"))
}

// usbFailures are what a USB device's line says after its port when the
// device failed or left (drivers/usb/core/hub.c): it did not answer its
// enumeration, or was disconnected.
var usbFailures = [...]string{" device descriptor read/", " device not accepting address ", " Device not responding to setup address", " USB disconnect, device number "}

// usbFailure reports whether s, what a USB device's line says after its
// port, is one of usbFailures.
func usbFailure(s string) bool {
	for _, f := range usbFailures {
		if strings.HasPrefix(s, f) {
			return true
		}
	}
	return false
}

// usbFailureAt is usbFailure of a raw line from i.
func usbFailureAt(b []byte, i int) bool {
	for _, f := range usbFailures {
		if at(b, i, f) {
			return true
		}
	}
	return false
}

// otherDiskDev reports, at a 'v' of a raw line, whether it is the block
// layer's or the buffer cache's I/O error of an sd disk ("I/O error, dev
// sdc, sector", "Buffer I/O error on dev sdc1, logical block").
func otherDiskDev(b []byte, i int) bool {
	return at(b, i+1, " sd") && (before(b, i, "error, de") || before(b, i, "error on de"))
}

// scsiHosts is what the log says of its SCSI hosts and disks: the driver
// of each host as last added ("0" → "uas"), the host of each disk ("sda"
// → "0"), the hosts of uas's error handling, the USB devices that failed,
// and the last line a USB reset would belong to.
type scsiHosts struct {
	driver map[string]string
	host   map[string]string
	// uas are the hosts the uas driver's error handling named.
	uas map[string]bool
	// usb are the first MaxUnread lines of USB devices that failed or
	// left (usbFailure), which Log.OtherDisks takes when a disk's
	// failure is near them.
	usb []OtherDiskLine
	// resetting is 1 + the index in Log.OtherDisks of the last UAS
	// device reset started ("scsi host0: uas_eh_device_reset_handler
	// start"), 0 when none waits for its USB reset.
	resetting int
}

// otherDisk reads a message the filter let through for otherDiskColon or
// otherDiskDev: a host's driver is noted, a failure kept. It reports
// whether the message was such a line.
func (st *state) otherDisk(msg, raw string, line int) bool {
	h := &st.hosts
	switch {
	case strings.HasPrefix(msg, "sd "):
		dev, rest, ok := strings.Cut(msg[3:], ": [")
		disk, rest2, ok2 := strings.Cut(rest, "] ")
		host, _, ok3 := strings.Cut(dev, ":")
		if !ok || !ok2 || !ok3 || !diskWord(disk) {
			host, rest, ok = strings.Cut(msg[3:], ":")
			if ok && strings.Contains(rest, ": Device offlined") && host != "" && allDigits(host) {
				// "sd 0:0:0:0: Device offlined - not ready after error
				// recovery": the SCSI device, without its disk's name.
				st.keepOtherDisk(OtherDiskLine{Line: line, Host: "scsi host" + host, Transport: h.driver[host], Text: raw})
				return true
			}
			return false
		}
		st.noteHost(disk, host)
		if strings.Contains(rest2, "uas_eh_") {
			h.noteUAS(host)
		}
		if sdFailure(rest2) {
			st.keepOtherDisk(OtherDiskLine{Line: line, Disk: disk, Host: "scsi host" + host, Transport: h.driver[host], Text: raw})
		}
		return true
	case strings.HasPrefix(msg, "scsi host"):
		host, rest, ok := strings.Cut(msg[len("scsi host"):], ": ")
		if !ok || host == "" || !allDigits(host) {
			return false
		}
		if !strings.HasPrefix(rest, "uas_") {
			// The host's driver, named when the host is added ("scsi
			// host2: usb-storage 2-1:1.0"); any other line of a host.
			if d, _, _ := strings.Cut(rest, " "); plainDriver(d) {
				if h.driver == nil {
					h.driver = map[string]string{}
				}
				if len(h.driver) < MaxAddresses {
					h.driver[host] = d
				}
			}
			return true
		}
		if strings.HasPrefix(rest, "uas_eh_") && !strings.HasSuffix(rest, " success") {
			h.noteUAS(host)
			kept := len(st.log.OtherDisks)
			st.keepOtherDisk(OtherDiskLine{Line: line, Host: "scsi host" + host, Transport: "uas", Text: raw})
			if strings.HasSuffix(rest, " start") && len(st.log.OtherDisks) > kept {
				h.resetting = len(st.log.OtherDisks) // 1 + its index
			}
		}
		return true
	case strings.HasPrefix(msg, "usb "):
		port, rest, ok := strings.Cut(msg[4:], ": ")
		if !ok || strings.ContainsAny(port, " :") {
			return false
		}
		if usbFailure(" " + rest) {
			if len(h.usb) < MaxUnread {
				h.usb = append(h.usb, OtherDiskLine{Line: line, Transport: "usb", Port: port, Text: clip(cleanLine(raw))})
			}
			return true
		}
		if !strings.HasPrefix(rest, "reset ") || !strings.Contains(rest, "USB device number") {
			return false
		}
		if h.resetting > 0 && h.resetting <= len(st.log.OtherDisks) {
			r := st.log.OtherDisks[h.resetting-1]
			h.resetting = 0
			st.keepOtherDisk(OtherDiskLine{Line: line, Host: r.Host, Transport: "uas", Port: port, Text: raw})
		}
		return true
	case strings.HasPrefix(msg, "ata"):
		port, rest, ok := strings.Cut(msg[3:], ": ")
		if !ok || port == "" || strings.Trim(port, "0123456789.") != "" {
			return false
		}
		if strings.HasPrefix(rest, "failed command: ") || strings.HasPrefix(rest, "exception Emask ") ||
			strings.HasPrefix(rest, "COMRESET failed") || strings.HasPrefix(rest, "hard resetting link") {
			p, _, _ := strings.Cut(port, ".")
			st.keepOtherDisk(OtherDiskLine{Line: line, Host: "ata" + p, Transport: "ata", Text: raw})
		}
		return true
	}
	i := strings.Index(msg, " dev sd")
	if i < 0 || !strings.HasSuffix(msg[:i], "error,") && !strings.HasSuffix(msg[:i], "error on") {
		return false
	}
	disk, _, _ := strings.Cut(msg[i+len(" dev "):], ",")
	disk = strings.TrimRight(disk, "0123456789")
	if !diskWord(disk) {
		return false
	}
	d := OtherDiskLine{Line: line, Disk: disk, Text: raw}
	if n, ok := h.host[disk]; ok {
		d.Host, d.Transport = "scsi host"+n, h.driver[n]
	}
	st.keepOtherDisk(d)
	return true
}

// sdFailure reports whether what an sd line says after its disk's name
// is a failure: a command that failed or timed out, the UAS driver's
// abort of one, I/O refused to a device taken offline.
func sdFailure(s string) bool {
	return strings.Contains(s, " FAILED Result: ") || strings.Contains(s, " failed: Result: ") ||
		strings.Contains(s, "uas_eh_abort_handler") || strings.Contains(s, "timing out command") ||
		strings.HasPrefix(s, "rejecting I/O to offline device")
}

// diskWord reports whether s is an sd disk's name: "sd" and letters.
func diskWord(s string) bool {
	if len(s) < 3 || len(s) > 8 || !strings.HasPrefix(s, "sd") {
		return false
	}
	for i := 2; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

// plainDriver reports whether a SCSI host line's first word is a driver's
// name ("uas", "usb-storage", "ahci", "megaraid_sas"): lower-case
// letters, digits, '-' and '_'.
func plainDriver(s string) bool {
	if s == "" || len(s) > 24 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// noteHost ties a disk to its SCSI host.
func (st *state) noteHost(disk, host string) {
	h := &st.hosts
	if h.host == nil {
		h.host = map[string]string{}
	}
	if _, known := h.host[disk]; !known && len(h.host) < MaxAddresses {
		h.host[disk] = host
	}
}

// noteUAS marks a host the uas driver's error handling named.
func (h *scsiHosts) noteUAS(host string) {
	if h.uas == nil {
		h.uas = map[string]bool{}
	}
	if len(h.uas) < MaxAddresses {
		h.uas[host] = true
	}
}

// keepOtherDisk counts an other disk's failure line and keeps the first
// MaxUnread.
func (st *state) keepOtherDisk(d OtherDiskLine) {
	st.log.OtherDiskLines++
	if len(st.log.OtherDisks) < MaxUnread {
		d.Text = clip(cleanLine(d.Text))
		st.log.OtherDisks = append(st.log.OtherDisks, d)
	}
}

// finishOtherDisks fills in, at the log's end, the disks the log tied to
// their hosts later than the lines, takes the USB devices' failures near a
// disk's, and sets the transport of the lines whose host's driver was not
// known when they came: the uas driver's when its error handling named
// the host, USB when a USB device failed near them (a host's driver named
// only later is another device's: the number is used again after a
// disconnect).
func (st *state) finishOtherDisks() {
	h := &st.hosts
	l := st.log
	usb := false
	if len(h.usb) > 0 && len(l.OtherDisks) > 0 {
		var near []OtherDiskLine
		for _, u := range h.usb {
			for _, d := range l.OtherDisks {
				if u.Line-d.Line <= usbNear && d.Line-u.Line <= usbNear {
					near = append(near, u)
					break
				}
			}
		}
		if len(near) > 0 {
			usb = true
			l.OtherDiskLines += int64(len(near))
			l.OtherDisks = append(l.OtherDisks, near...)
			sort.SliceStable(l.OtherDisks, func(i, j int) bool { return l.OtherDisks[i].Line < l.OtherDisks[j].Line })
			if len(l.OtherDisks) > MaxUnread {
				clear(l.OtherDisks[MaxUnread:])
				l.OtherDisks = l.OtherDisks[:MaxUnread]
			}
		}
	}
	for i := range l.OtherDisks {
		d := &l.OtherDisks[i]
		if d.Host == "" && d.Disk != "" {
			if n, ok := h.host[d.Disk]; ok {
				d.Host = "scsi host" + n
			}
		}
		n, scsi := strings.CutPrefix(d.Host, "scsi host")
		if d.Disk == "" && scsi {
			for disk, hn := range h.host {
				if hn == n && (d.Disk == "" || disk < d.Disk) {
					d.Disk = disk
				}
			}
		}
		switch {
		case d.Transport == "ahci":
			d.Transport = "ata"
		case d.Transport == "uas", d.Transport == "usb-storage", d.Transport == "ata", d.Transport == "usb":
		case scsi && h.uas[n]:
			d.Transport = "uas"
		case usb:
			d.Transport = "usb"
		default:
			d.Transport = "scsi"
		}
	}
}

// usbNear is how many lines apart a USB device's failure and a disk's are
// for the one to be taken as the other's.
const usbNear = 20
