// Package pastedlog gives the kernel's inputs that a diagnosis of a pasted
// kernel log assumes for the drive of an Identify capture, so that apstctl
// diagnose --log --id-ctrl and the web page diagnose alike. It is a package
// of its own, apart from describe, so that what imports describe does not
// link the diagnosis (the page's capture engine, app.wasm, does not).
package pastedlog

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// Params are the kernel's inputs that a diagnosis of a pasted
// kernel log gives the drive of an Identify capture c, where the machine's
// own settings are unknown (apstctl diagnose --log --id-ctrl, and the web
// page's kernel log with a capture): the module defaults of the log's
// release rel (of the current kernel when rel is zero), the APST quirks the
// release's tables give the model (and c's PCI ID, when set), and the bound
// of the log's command line (nvme_core.default_ps_max_latency_us) when it
// sets one. It also returns what the quirk lookup assumed (APSTA unknown
// included) and the note that says what the plan assumed, for the
// diagnosis's notes.
func Params(c *powerstate.Controller, rel apst.Release, commandLine string) (apst.Params, apst.Assumptions, string) {
	gen := apst.Current
	if g, err := rel.Generation(); err == nil {
		gen = g
	}
	p := apst.DefaultParams(gen)
	mn, fr := c.ModelBytes(), c.FirmwareBytes()
	id := apst.Identity{VendorID: c.VendorID, Model: string(mn[:]), Firmware: string(fr[:]), Release: rel}
	if c.PCIDeviceID != 0 { // given beside the capture (apstctl diagnose --pci-id)
		id.PCI = apst.PCIID{Vendor: c.PCIVendor(), Device: c.PCIDeviceID}
	}
	m := apst.LookupQuirks(id)
	p.Quirks = m.APST()
	if v, ok := diagnose.Param(commandLine, "nvme_core.default_ps_max_latency_us"); ok {
		if b, err := apst.ParseMicroseconds(v); err == nil {
			p.Bound = apst.ModuleDefaultBound(uint64(b))
		}
	}
	assumed := m.Assumptions()
	assumed.APSTAUnknown = !c.APSTAKnown()
	note := fmt.Sprintf("a pasted log: the plan assumes the module defaults of %s (bound %s) and the quirks the model's tables give (%s); the machine's own settings were not read", gen, p.Bound, m.APST())
	return p, assumed, note
}

// HeadSize is how much of a pasted log NotALog needs to tell what it is.
const HeadSize = 64 << 10

// NotALog says, for an error of kernlog.Read, what the text is instead of
// a kernel log, from its first HeadSize bytes head: an Identify Controller
// capture (to give as captureAs: "--id-ctrl", or the page's capture
// field, and the log as logAs), an APST feature capture, another output
// users paste in its place (nvme smart-log, id-ns or list, lspci, a SATA
// drive's smartctl report), JSON that is not journalctl -o json's, or none
// of them (an I/O trace is the command's to name: internal/sniff tells it,
// and its parsers would double what the page's log engine weighs); for
// binary input
// (kernlog.ErrBinary), a binary Identify or APST feature capture. Other
// errors come back as they are.
func NotALog(err error, head []byte, captureAs, logAs string) error {
	if errors.Is(err, kernlog.ErrBinary) {
		// The two binary captures, given in the log's place: the 4096
		// bytes of nvme id-ctrl -b and the 256 of get-feature -b.
		switch {
		case capture.DetectFormat(head) == powerstate.FormatBinary:
			return fmt.Errorf("%w; it looks like a binary Identify Controller capture (nvme id-ctrl -b): give it as %s, and the kernel log of the boot that failed as %s (journalctl -k -b -1 --no-pager > kern.log)", err, captureAs, logAs)
		case capture.DetectFeatureFormat(head) == capture.FeatureBinary:
			return fmt.Errorf("%w; it looks like a binary APST feature capture (nvme get-feature -f 0x0c -b): the log wanted is the kernel's (journalctl -k -b -1 --no-pager > kern.log)", err)
		}
		return err
	}
	if !errors.Is(err, kernlog.ErrNotKernelLog) || errors.Is(err, kernlog.ErrNotLinux) {
		return err // another kernel's log says what it is already
	}
	var pe *capture.ParseError
	_, perr := capture.ParseBytes(head)
	// A kernel log refused for a line too long is what was asked for: it
	// is not said to look like one, nor like JSON for its "[" stamps.
	logLike := errors.As(perr, &pe) && strings.HasPrefix(pe.Looks, "a kernel log")
	if errors.As(perr, &pe) && pe.Looks != "" && !logLike {
		// nvme smart-log, id-ns or list, lspci, a SATA drive's smartctl
		// report: what users paste in the log's place too.
		return fmt.Errorf("%w; it looks like %s instead: paste the kernel log as the system wrote it (journalctl -k -b -1 --no-pager, or dmesg)", err, pe.Looks)
	}
	if f := capture.DetectFormat(head); f != powerstate.FormatUnknown {
		return fmt.Errorf("%w; it looks like an Identify Controller capture (%s): give it as %s, and the kernel log of the boot that failed as %s (journalctl -k -b -1 --no-pager > kern.log)", err, f, captureAs, logAs)
	}
	if f := capture.DetectFeatureFormat(head); f != capture.FeatureUnknown {
		return fmt.Errorf("%w; it looks like an APST feature capture (nvme get-feature -f 0x0c): the log wanted is the kernel's (journalctl -k -b -1 --no-pager > kern.log)", err)
	}
	if t := bytes.TrimLeft(head, "\ufeff \t\r\n"); !logLike && len(t) > 0 && (t[0] == '{' || t[0] == '[') {
		return fmt.Errorf("%w; it looks like JSON, but holds no kernel log's records (one a line: journalctl -o json's, each with its MESSAGE, or a log shipper's, each with a kernel message in its message, line or _raw): give journalctl -k -b -1 -o json, or the log as text (journalctl -k -b -1 --no-pager > kern.log)", err)
	}
	return fmt.Errorf("%w; paste the kernel log as the system wrote it (journalctl -k -b -1 --no-pager, or dmesg)", err)
}
