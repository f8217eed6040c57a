package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	nvmeapst "github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
	"github.com/nvmeapst/nvmeapst/apst/persist"
	"github.com/nvmeapst/nvmeapst/internal/describe/pastedlog"
	"github.com/nvmeapst/nvmeapst/internal/safeio"
	"github.com/nvmeapst/nvmeapst/internal/sniff"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

func diagnoseCommand() *command {
	fs := newFlagSet("diagnose")
	root := addRootFlag(fs, "read the bundle written by apstctl collect DIR (or a sysfs tree) at DIR instead of the live system")
	logPath := fs.String("log", "FILE", "", "read the kernel log from FILE (- for standard input): dmesg (-T, -H, -d, --json), journalctl -k in any short format or -o cat, json, json-seq or json-pretty, syslog (BusyBox, OpenWrt logread, RFC 5424), Loki logcli, log shippers' JSON records (Elasticsearch, Loki jsonl, Splunk, Fluent Bit, GELF), the clouds' logs (CloudWatch, Google Cloud Logging, Azure Monitor) as their tools print them, Kibana's and Splunk's CSV exports, pasted, quoted or wrapped, gzip- or bzip2-compressed")
	idCtrl := fs.String("id-ctrl", "CAPTURE", "", "with --log alone: the drive's Identify Controller capture, so that the APST table is known")
	host := fs.String("host", "NAME", "", "with --log alone: read only the kernel lines of host NAME in a log of several machines (a syslog server's file, a fleet's collected logs: \"Dec  5 04:55:59 NAME kernel: ...\"), whose drives of the same name are not one drive")
	eachHost := fs.Bool("each-host", false, "with --log alone: diagnose each host's kernel lines on its own, in a log of several machines (a syslog server's file, a fleet's export): a line a host first, then each host's diagnosis; -o json gives an array, a diagnosis a host")
	force := addForceFlag(fs)
	pciID := fs.String("pci-id", "VVVV:DDDD", "", "with --id-ctrl: the drive's PCI vendor:device ID (lspci -nn), for the PCI-ID quirk table (a capture carries none; default: inferred from the model where that is certain)")
	var tried []diagnose.Tried
	fs.Func("tried", "SETTING[=VALUE][:helped|:no]", "a setting already tried, and whether it helped (default: it did not); repeat, or separate with commas or blanks (at most 1000 settings; each value read as the kernel reads it: pcie_aspm=OFF is no value, 0x0 is 0): --tried pcie_aspm=off,nvme_core.default_ps_max_latency_us=0:no; or a line copied whole, the outcome after it: a GRUB_CMDLINE_LINUX_DEFAULT=\"...\" line, /proc/cmdline, cmdline.txt, a systemd-boot or modprobe.d options line, a NixOS boot.kernelParams list, an echo V > /sys/... write", func(v string) error {
		t, form, err := diagnose.ParseTriedForm(v) // a line copied whole
		if !form {
			t, err = diagnose.ParseTriedFlag(v)
		}
		if err != nil {
			return err
		}
		// Read together once all are read (diagnose.MergeTried, in run):
		// checked against each earlier one here, n values took n³ time.
		tried = append(tried, t...)
		return nil
	})
	var platform string
	platforms := []string{"auto"}
	for _, p := range persist.Platforms() {
		platforms = append(platforms, string(p))
	}
	fs.Choice(&platform, "platform", "auto", platforms, "how the machine boots, for where a lasting setting goes (auto: from the log's release and command line)")
	format := addOutputFormat(fs)
	c := &command{
		name:      "diagnose",
		usageLine: "diagnose [flags] [nvmeN | PCI-ADDRESS]",
		short:     "which layer made a drive drop out, reset or stall: APST, ASPM, link, suspend, platform, firmware, the drive",
		long: `
Reads the kernel log (live: /dev/kmsg; a bundle: its kern.log; --log: a pasted one), the PCIe and
device power-management settings of the path above each controller, the SMART / Health log and
the APST plan, and ranks the layers that can make a drive stop answering: apst, aspm, link,
d3cold, runtime-pm, suspend, platform, firmware, power-loss and drive (unknown when nothing fits).
When the evidence does not separate two layers it says "undecided between X and Y" (and Z, when
a third scores as the second does) and gives the one test that tells them apart. Each cause
quotes the log lines that speak for and against it (with their line numbers) and lists the tests
that confirm or rule it out, cheapest first, with their price and, for a kernel parameter, where
it goes on this platform (GRUB, systemd-boot, a Raspberry Pi's cmdline.txt or config.txt, NixOS,
TrueNAS, Proxmox, a Jetson's extlinux.conf). --tried names what was already tried: a setting that did not help counts against its layer and is not suggested again;
the log's own command line counts too. Swaps of hardware count the same way: other-slot:no (the
drive failed in another slot or machine too: the drive), other-drive:helped (another drive works
in this slot: the drive), other-slot:helped and other-drive:no (the slot, its link, the platform).
A log of a kernel older than Linux's APST support (4.11) rules APST out. Without a failure in the
log it says "no failure seen"; a paste of a failure's consequences alone (a file system's I/O
errors on the disk, nvme's "faulty power saving mode" hint, an abort's status) says which lines
are missing. Without a name, the controller of the log's most severe failure is diagnosed; a name
the --log log does not name, when it names others, is refused. With --log, a PCI address
(0000:46:00.0, or lspci's 46:00.0) names the drive instead, for a log that ties it to no
controller (a whole dmesg whose boot lines the ring buffer lost); of a log of corrected errors
alone, the drive that reported the most is diagnosed. Text that is no kernel log (a
blkparse trace, JSON that holds no kernel log's records, a line past 1 MiB) is refused, saying what
it looks like; a --tried setting a letter or two off one the diagnosis knows is refused with the
one meant. A log of several machines (a syslog server's file, a fleet's export) is read as one
machine's, and says so: --host NAME reads one host's lines, --each-host diagnoses each host's on
its own.`,
		examples: []string{
			"diagnose --log apst/diagnose/testdata/aspm.log",
			"diagnose --log apst/diagnose/testdata/apst.log --id-ctrl testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin",
			"diagnose --root sysfs/testdata/laptop-tlp --log apst/diagnose/testdata/aspm.log -o json",
			"diagnose --log apst/diagnose/testdata/aspm.log --tried nvme_core.default_ps_max_latency_us=0",
			"diagnose --log apst/diagnose/testdata/aspm.log --tried other-slot:no",
			"diagnose --log apst/diagnose/testdata/hosts.log --each-host",
		},
		flags:   fs,
		minArgs: 0, maxArgs: 1,
	}
	c.run = func(ctx context.Context, x *invocation, args []string) error {
		// Every --tried together: a setting given again read once, two
		// that contradict each other or more than diagnose.MaxTried
		// refused.
		tried, err := diagnose.MergeTried(tried)
		if err != nil {
			return usagef("--tried: %v", err)
		}
		name, addr := "", ""
		if len(args) == 1 {
			if a, ok := pciArg(args[0]); ok {
				if *logPath == "" || *root != "" {
					return usagef("a PCI address (%s) goes with --log alone: on this machine or in a bundle, name the controller (ls -l /sys/class/nvme shows each one's address)", a)
				}
				addr = a
			} else if name = strings.TrimPrefix(args[0], "/dev/"); !validName(name) {
				return inputErr(fmt.Errorf("%q is not a controller name (want nvmeN)%s", args[0], nameHint(args[0], *logPath != "")))
			}
		}
		if *idCtrl != "" && (*logPath == "" || *root != "") {
			return usagef("--id-ctrl goes with --log alone: a bundle or the live machine has the drive's Identify data")
		}
		if *host != "" && (*logPath == "" || *root != "") {
			return usagef("--host goes with --log alone: a bundle or the live machine is one host")
		}
		if *eachHost {
			switch {
			case *logPath == "" || *root != "":
				return usagef("--each-host goes with --log alone: a bundle or the live machine is one host")
			case *host != "":
				return usagef("--each-host and --host contradict: --host reads one host's lines, --each-host each host's")
			case *idCtrl != "":
				return usagef("--id-ctrl is one drive's capture: give it with one host's lines (--host NAME), not --each-host")
			case name != "" || addr != "":
				return usagef("a controller name or PCI address names one host's drive: give it with --host NAME, not --each-host")
			}
		}
		if *force && *idCtrl == "" {
			return usagef("--force reads the --id-ctrl capture anyway: give --id-ctrl, or drop --force")
		}
		if namesStandardInput(*logPath) && namesStandardInput(*idCtrl) {
			return usagef("--log %s and --id-ctrl %s both name standard input, which holds one file: give one of them as a file", quoteArg(*logPath), quoteArg(*idCtrl))
		}
		if *pciID != "" && *idCtrl == "" {
			return usagef("--pci-id goes with --id-ctrl: a bundle or the live machine has the drive's PCI ID")
		}
		var logR io.Reader
		if *logPath != "" {
			r, closeLog, err := openLog(ctx, *logPath, x.stdin)
			if err != nil {
				return err
			}
			defer closeLog()
			logR = r
		}
		var res diagnoseResult
		plat := persist.PlatformUnknown
		if platform != "auto" {
			plat = persist.Platform(platform)
		}
		if *eachHost {
			return diagnoseEachHost(ctx, x, logR, tried, plat, format.json)
		}
		if *logPath != "" && *root == "" {
			d, err := diagnosePasted(ctx, x, logR, pastedCapture{*idCtrl, *pciID, *force}, kernlog.Options{Host: *host}, name, addr, tried, plat)
			if err != nil {
				return err
			}
			res = d
		} else {
			sys, err := openSystem(*root)
			if err != nil {
				return err
			}
			d, err := sys.Diagnose(ctx, nvmeapst.DiagnoseOptions{Log: logR, Controller: name, Tried: tried, Platform: plat})
			if err != nil {
				return systemError(err)
			}
			if d.LogProblem != nil && logR != nil {
				// The log named with --log was refused (binary, no kernel
				// log, a line past kernlog.MaxLongLine), as it is alone.
				return inputErr(fmt.Errorf("--log: %s", d.LogProblem.Message))
			}
			res = diagnoseResult{Diagnosis: d.Diagnosis, Facts: &d.Facts, Log: d.Log}
			for _, p := range d.Problems {
				res.Problems = append(res.Problems, p.Message)
			}
		}
		if format.json {
			return writeJSON(x.out, diagnoseView(&res))
		}
		writeDiagnosisText(x.out, &res)
		return nil
	}
	return c
}

// validName reports whether s is nvme followed by digits.
func validName(s string) bool {
	rest, ok := strings.CutPrefix(s, "nvme")
	if !ok || rest == "" || len(rest) > 10 {
		return false
	}
	return strings.Trim(rest, "0123456789") == ""
}

// nameHint says what a diagnose argument that is no controller name was
// probably meant as: a saved kernel log (given without --log) or a
// namespace (nvme0n1, whose controller is what diagnose takes).
func nameHint(arg string, logGiven bool) string {
	if isNamespace(strings.TrimPrefix(arg, "/dev/")) {
		return "; that is a namespace: give its controller (ls /sys/class/nvme lists them)"
	}
	if !logGiven && (arg == "-" || strings.ContainsAny(arg, "/.") || isRegular(arg)) {
		if safeio.HasControl(arg) {
			return "; to diagnose a saved kernel log, give it with --log"
		}
		return fmt.Sprintf("; to diagnose a saved kernel log, give it with --log: apstctl diagnose --log %s", shellQuote(arg))
	}
	return ""
}

// isNamespace reports whether s is a namespace's block device name:
// nvmeNnM, or nvmeNcCnM (a path of native multipath).
func isNamespace(s string) bool {
	rest, ok := strings.CutPrefix(s, "nvme")
	ctrl, ns, ok2 := strings.Cut(rest, "n")
	if c, path, multi := strings.Cut(ctrl, "c"); multi {
		ctrl, ok2 = c, ok2 && validName("nvme"+path)
	}
	return ok && ok2 && validName("nvme"+ctrl) && validName("nvme"+ns)
}

// isRegular reports whether name is a regular file (followed through
// links); it opens nothing.
func isRegular(name string) bool {
	fi, err := os.Stat(name)
	return err == nil && fi.Mode().IsRegular()
}

// openLog opens the kernel log named on the command line: standard input,
// a regular file, or a named pipe the user names (`--log <(journalctl -kf)`);
// a read or an open waiting for a writer ends with ^C (ctx), also a read
// of a file that blocks (/proc/kmsg, a pipe whose writer stays idle); a
// device, a socket or a directory is refused without being opened.
func openLog(ctx context.Context, path string, stdin io.Reader) (io.Reader, func(), error) {
	if path == "-" {
		return newContextReader(ctx, stdin), func() {}, nil
	}
	f, _, err := openLogFile(path)
	if errors.Is(err, safeio.ErrNotRegular) && isNamedPipe(path) {
		p, release, perr := openNamedPipe(ctx, path)
		if perr != nil {
			return nil, nil, inputErr(fmt.Errorf("--log: %w", perr))
		}
		cr := newContextReader(ctx, p)
		return cr, func() {
			if !cr.reading() {
				release()
			}
		}, nil
	}
	if err != nil {
		return nil, nil, inputErr(fmt.Errorf("--log: %w", err))
	}
	// A read of /proc/kmsg blocks in the kernel, and closing the file would
	// wait for it: a file with a read still in flight is left to the exit.
	cr := newContextReader(ctx, f)
	return cr, func() {
		if !cr.reading() {
			f.Close()
		}
	}, nil
}

// openLogFile opens a --log file (tests stand in a file whose read blocks,
// as /proc/kmsg's does).
var openLogFile = safeio.Open

// diagnoseResult is what both paths give the views.
type diagnoseResult struct {
	diagnose.Diagnosis
	Facts    *diagnose.Facts
	Log      *kernlog.Log
	Problems []string
	// Assumptions are what the plan of an --id-ctrl capture assumed.
	Assumptions apst.Assumptions
}

// pastedCapture is the Identify capture beside a pasted log: its path
// ("" for none), the PCI ID of --pci-id ("" for none) and --force.
type pastedCapture struct {
	path, pciID string
	force       bool
}

// diagnosePasted diagnoses a pasted log, with an Identify capture or not.
func diagnosePasted(ctx context.Context, x *invocation, r io.Reader, id pastedCapture, opts kernlog.Options, name, addr string, tried []diagnose.Tried, plat persist.Platform) (diagnoseResult, error) {
	head := &headReader{r: r}
	l, err := kernlog.Read(ctx, head, opts)
	if err != nil {
		if ctx.Err() != nil {
			return diagnoseResult{}, err
		}
		err = pastedlog.NotALog(err, head.head, "--id-ctrl", "--log")
		if sniff.Of(head.head) == sniff.BlockTrace {
			err = withLooks(err, head.head)
		}
		return diagnoseResult{}, inputErr(fmt.Errorf("--log: %w", err))
	}
	if err := namedInLog(name, l); err != nil {
		return diagnoseResult{}, err
	}
	if err := addressInLog(addr, l); err != nil {
		return diagnoseResult{}, err
	}
	in := diagnose.Input{Controller: name, Address: addr, Log: l, Tried: tried, Platform: plat}
	var notes []string
	var assumed apst.Assumptions
	if l.Release != "" {
		if rel, err := apst.ParseRelease(l.Release); err == nil {
			in.Release = rel
		}
	}
	if id.path != "" {
		c, err := loadController(id.path, x.stdin, id.force)
		if err != nil {
			return diagnoseResult{}, err
		}
		if err := forceOnText(id.force, c.Format, c.Format == powerstate.FormatBinary); err != nil {
			return diagnoseResult{}, err
		}
		if err := setPCIID(c, id.pciID); err != nil {
			return diagnoseResult{}, err
		}
		// The page (examples/web) builds the same parameters for its capture.
		p, a, note := pastedlog.Params(c, in.Release, l.CommandLine)
		in.Identify, in.Params = c, p
		assumed = a
		for _, n := range c.Notes { // what the capture's reader noted, as plan says it
			notes = append(notes, "capture: "+n)
		}
		notes = append(notes, note)
	}
	d := diagnose.Diagnose(in)
	d.Notes = append(d.Notes, notes...)
	return diagnoseResult{Diagnosis: d, Log: l, Assumptions: assumed}, nil
}

// headReader keeps the first pastedlog.HeadSize bytes read through it, so
// that a text refused as no kernel log can be told (pastedlog.NotALog).
type headReader struct {
	r    io.Reader
	head []byte
}

func (h *headReader) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	if room := pastedlog.HeadSize - len(h.head); room > 0 && n > 0 {
		h.head = append(h.head, p[:min(n, room)]...)
	}
	return n, err
}

// pciArg reads a PCI address given as the device to diagnose, in the
// kernel's form ("0000:46:00.0") or lspci's without the domain
// ("46:00.0", domain 0000), and returns it in the kernel's form.
func pciArg(arg string) (string, bool) {
	if strings.Count(arg, ":") == 1 {
		arg = "0000:" + arg
	}
	loc, ok := nvmeapst.ParsePCILocation(arg)
	if !ok {
		return "", false
	}
	return loc.Segment + ":" + loc.Bus + ":" + loc.Device + "." + loc.Function, true
}

// addressInLog refuses a PCI address the --log log never names: no
// controller's function, NVMe function or incident of it.
func addressInLog(addr string, l *kernlog.Log) error {
	if addr == "" {
		return nil
	}
	var named []string
	add := func(a string) {
		if a != "" && !slices.Contains(named, a) {
			named = append(named, a)
		}
	}
	for _, a := range l.Addresses {
		add(a)
	}
	for a := range l.DeviceIDs {
		add(a)
	}
	for i := range l.Incidents {
		add(l.Incidents[i].PCI)
	}
	if slices.Contains(named, addr) {
		return nil
	}
	if len(named) == 0 {
		return inputErr(fmt.Errorf("--log: the log names no PCI device: give no address (the log's most severe failure is diagnosed), or the log of the boot %s failed in", addr))
	}
	slices.Sort(named)
	for i := range named {
		named[i] = safeio.EscapeTerminal(named[i])
	}
	if len(named) > 8 {
		named = append(named[:8], "...")
	}
	return inputErr(fmt.Errorf("--log: the log does not name %s; it names %s: give one of those or none (the log's most severe failure is diagnosed), or the log of the boot %s failed in", addr, strings.Join(named, ", "), addr))
}

// namedInLog refuses a controller the pasted log does not name when it
// names others: "no failure seen for nvme5" of a log of nvme0 answers a
// question nobody asked. A log that names no controller at all is read
// (it has nothing of any drive, which the answer says).
func namedInLog(name string, l *kernlog.Log) error {
	if name == "" || len(l.Controllers) == 0 || slices.Contains(l.Controllers, name) {
		return nil
	}
	names := make([]string, len(l.Controllers))
	for i, c := range l.Controllers {
		names[i] = safeio.EscapeTerminal(c)
	}
	return inputErr(fmt.Errorf("--log: the log does not name %s; it names %s: name one of those or none (the log's most severe failure is diagnosed), or give the log of the boot %s failed in", name, strings.Join(names, ", "), name))
}
