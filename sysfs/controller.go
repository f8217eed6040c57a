package sysfs

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/internal/errlist"
	"github.com/nvmeapst/nvmeapst/internal/safeio"
)

// Controller is what sysfs says about one NVMe controller, class/nvme/NAME.
// String attributes the kernel does not expose are empty; the Has fields and
// nil pointers say which of the others are present.
//
// The zero Controller is one of which sysfs says nothing: no name, every
// attribute absent and no tolerance file, so APSTEnabled reports false.
type Controller struct {
	// Name is the controller's name, e.g. "nvme0".
	Name string
	// Model, Serial and FirmwareRev are the model, serial and firmware_rev
	// attributes (Identify MN, SN and FR without their padding).
	Model       string
	Serial      string
	FirmwareRev string
	// Transport is "pcie", "tcp", "rdma", "fc" or "loop".
	Transport string
	// State is the controller state, e.g. "live", "resetting".
	State string
	// Address is the transport address; the PCI function ("0000:3d:00.0")
	// for pcie.
	Address string

	// ControllerID is the cntlid attribute; HasControllerID says whether it
	// was present.
	ControllerID    uint16
	HasControllerID bool

	// PCI is the vendor and device ID of the PCI function behind the device
	// link (device/vendor and device/device), the ID the nvme-pci quirk table
	// matches; SubsystemVendor and SubsystemDevice are device/subsystem_vendor
	// and device/subsystem_device (0 when absent). HasPCI is false for a
	// controller that is not a PCI function (fabrics).
	PCI             apst.PCIID
	SubsystemVendor uint16
	SubsystemDevice uint16
	HasPCI          bool

	// Tolerance is power/pm_qos_latency_tolerance_us. The kernel exposes the
	// file only while it has APST enabled for the controller (apst_enabled:
	// APSTA non-zero and no NO_APST quirk, or force_apst), so HasTolerance
	// false means the kernel has APST disabled for it. That is reported, not
	// an error.
	Tolerance    apst.Tolerance
	HasTolerance bool

	// PCIGap is set when the controller should have a PCI ID but sysfs does
	// not give one: a pcie controller (or a device link with PCI
	// attributes) without device/vendor or device/device, or with one of
	// them unreadable. It says which file is missing or unreadable; HasPCI
	// is then false, so the PCI quirk table and the DMI rules could not be
	// checked. That is a gap in what is known, not a controller without PCI
	// quirks.
	PCIGap string

	// Quirks lists class/nvme/NAME/quirks (Linux 7.0 and later, and 6.18.52 and
	// later 6.18.y, kernel-apst.md §14): every
	// quirk the kernel has in force for the controller, one name a line as
	// the kernel prints them ("no_apst", "no_deepest_ps", "simple_suspend"),
	// in the file's order, names this package does not know kept. It is the
	// ground truth where present: it reflects the kernel's own tables, DMI
	// rules, nvme.quirks= and distribution backports. HasQuirks is false
	// when the kernel has no such file (older kernels), which is not an
	// error; HasQuirks with an empty list means no quirk applies.
	Quirks    []string
	HasQuirks bool

	// CPULatency is the nvme-pci cpu_latency_us knob of the proposed CPU
	// latency QoS patch: a CPU wake-up latency limit in µs held on the CPUs
	// serving the controller's queues while I/O is in flight; a negative
	// value (the default -1) turns it off. Nil when the kernel does not have
	// the patch.
	CPULatency *int64

	// Disks are the controller's namespaces as block devices, sorted by
	// name, with the block-layer CPU latency knobs.
	Disks []Disk

	// Unreadable lists the attributes that exist but could not be read or
	// parsed, in the order they were read; the fields they feed are left
	// zero (a zero HasTolerance then does not mean "APST disabled").
	// Controller returns them as its error too.
	Unreadable []AttributeError
}

// AttributeError is one attribute that exists but could not be read (a
// permission error, not a regular file, a file the snapshot could not read)
// or does not parse.
//
// The zero AttributeError records no path and no error: Error says so (the
// zero AttributeError) and Unwrap returns nil.
type AttributeError struct {
	// Path is the attribute's slash-separated path relative to the root.
	Path string
	// Err is the error, which names the full path and wraps the cause
	// (os.ErrPermission, ErrNotRegular, ErrInvalidAttribute,
	// ErrUnreadableInSnapshot...).
	Err error
}

// Error returns the message of Err; without one (the zero AttributeError)
// it names the attribute and says that no error was recorded.
func (e AttributeError) Error() string {
	if e.Err == nil {
		if e.Path == "" {
			return "sysfs: an unreadable attribute (no path, no error recorded: the zero AttributeError)"
		}
		return "sysfs: " + e.Path + ": unreadable attribute (no error recorded)"
	}
	return e.Err.Error()
}

// Unwrap returns Err.
func (e AttributeError) Unwrap() error { return e.Err }

// APSTEnabled reports whether the kernel has APST enabled for the controller,
// which it shows by exposing power/pm_qos_latency_tolerance_us.
func (c Controller) APSTEnabled() bool { return c.HasTolerance }

// Disk is one namespace of a controller as a block device, with the knobs of
// the proposed block-layer CPU latency QoS patch, read from block/NAME/.
//
// The zero Disk names no block device and has neither CPU latency knob
// (both nil, as without the patch).
type Disk struct {
	// Name is the block device, e.g. "nvme0n1".
	Name string
	// Entry is the namespace entry in the controller's folder it was found
	// through: the disk itself ("nvme0n1"), or with native multipath the
	// controller's path to it ("nvme0c0n1", whose head disk is nvme0n1).
	Entry string
	// CPULatencyLimit is block/NAME/cpu_lat_limit_us: the CPU wake-up latency
	// limit in µs held while block I/O runs, negative (the default -1) for
	// none. Nil when the kernel does not have the patch.
	CPULatencyLimit *int64
	// CPULatencyTimeout is block/NAME/cpu_lat_timeout_ms: how long after the
	// last block I/O the limit is dropped, in ms. Nil when the kernel does not
	// have the patch.
	CPULatencyTimeout *int64
}

// Attribute paths relative to a controller's folder.
const (
	attrTolerance  = "power/pm_qos_latency_tolerance_us"
	attrCPULatency = "cpu_latency_us"
	attrQuirks     = "quirks"
	attrDiskLimit  = "cpu_lat_limit_us"
	attrDiskTime   = "cpu_lat_timeout_ms"
)

var (
	controllerName = regexp.MustCompile(`^nvme[0-9]+$`)
)

// controllerAttrs are the files of a controller's folder Controller
// reads, as Files lists them.
var controllerAttrs = []string{
	"model", "serial", "firmware_rev", "transport", "state", "address", "cntlid",
	"device/vendor", "device/device", "device/subsystem_vendor", "device/subsystem_device",
	attrTolerance, attrQuirks, attrCPULatency,
}

func controllerDir(name string) string { return join("class/nvme", name) }
func diskDir(name string) string       { return join("block", name) }

// ControllerNames returns the names of the controllers under class/nvme
// (entries named nvmeN), with those the snapshot lists, sorted by name with
// numbers in numeric order (nvme2 before nvme10), without reading their
// attributes. A missing class/nvme is an error wrapping os.ErrNotExist
// unless the snapshot lists controllers; one that lists none is an error
// wrapping ErrNoControllers (and os.ErrNotExist).
func (fs FS) ControllerNames() ([]string, error) {
	if names, ok := fs.sessionControllerNames(); ok {
		return names, nil
	}
	entries, err := fs.readDir("class/nvme")
	if err != nil && (!isNotExist(err) || fs.snap == nil || len(fs.snap.controllers) == 0) {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if controllerName.MatchString(e.Name()) {
			names = append(names, e.Name())
		}
	}
	if fs.snap != nil {
		for _, n := range fs.snap.controllers {
			if controllerName.MatchString(n) && !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%w (%s)", ErrNoControllers, fs.path("class/nvme"))
	}
	slices.SortFunc(names, cmpNatural)
	return names, nil
}

// Controllers returns every controller under class/nvme (entries named nvmeN),
// sorted by name with numbers in numeric order (nvme2 before nvme10).
//
// A missing class/nvme (no NVMe driver loaded, or a tree without it) is an
// error wrapping os.ErrNotExist. When some controllers cannot be read (an
// attribute unreadable or malformed, or a controller the snapshot lists
// missing from the tree), it returns the others together with an error
// naming each failure; use [FS.Controller] for what could be read of one of
// them.
func (fs FS) Controllers() ([]Controller, error) {
	return fs.ControllersContext(context.Background())
}

// ControllersContext is [FS.Controllers] that stops between controllers
// once ctx is done, returning ctx's error with what it has read. No single
// read blocks (every file is opened non-blocking and must be a regular
// file), so the wait for a cancellation is one controller's attributes.
func (fs FS) ControllersContext(ctx context.Context) ([]Controller, error) {
	fs, done, err := fs.session()
	if err != nil {
		return nil, err
	}
	defer done()
	names, err := fs.ControllerNames()
	if err != nil {
		return nil, err
	}
	ctrls := make([]Controller, 0, len(names))
	var errs []error
	for _, n := range names {
		if err := ctx.Err(); err != nil {
			return ctrls, fmt.Errorf("sysfs: controllers: %w", err)
		}
		c, err := fs.Controller(n)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		ctrls = append(ctrls, c)
	}
	return ctrls, errlist.Join(errs...)
}

// Controller reads the controller class/nvme/name.
//
// A name that does not exist is an error wrapping os.ErrNotExist (and
// ErrMissingController when the snapshot lists it). An attribute that exists
// but cannot be read (os.ErrPermission, ErrNotRegular, ...) or does not
// parse (ErrInvalidAttribute) does not stop the others: Controller returns
// what it could read, with every such attribute in Controller.Unreadable,
// and an error joining them. See the Controller fields for the attributes
// whose absence is not an error.
func (fs FS) Controller(name string) (Controller, error) {
	fs, done, err := fs.session()
	if err != nil {
		return Controller{}, err
	}
	defer done()
	if err := checkName(name); err != nil {
		return Controller{}, err
	}
	dir := controllerDir(name)
	if err := fs.checkControllerDir(name); err != nil {
		return Controller{}, err
	}
	c := Controller{Name: name}
	fail := func(rel string, err error) {
		c.Unreadable = append(c.Unreadable, AttributeError{Path: rel, Err: attrError(err, "")})
	}
	for _, s := range []struct {
		attr string
		dst  *string
	}{
		{"model", &c.Model},
		{"serial", &c.Serial},
		{"firmware_rev", &c.FirmwareRev},
		{"transport", &c.Transport},
		{"state", &c.State},
		{"address", &c.Address},
	} {
		rel := join(dir, s.attr)
		v, _, err := fs.readOptional(rel)
		if err != nil {
			fail(rel, err)
			continue
		}
		*s.dst = v
	}

	rel := join(dir, "cntlid")
	if v, ok, err := fs.readOptional(rel); err != nil {
		fail(rel, err)
	} else if ok {
		if id, err := parseUint(fs.path(rel), v, 16); err != nil {
			fail(rel, err)
		} else {
			c.ControllerID, c.HasControllerID = uint16(id), true
		}
	}

	fs.readPCI(&c, dir, fail)

	rel = join(dir, attrTolerance)
	if v, ok, err := fs.readOptional(rel); err != nil {
		fail(rel, err)
	} else if ok {
		if t, err := apst.ParseTolerance(v); err != nil {
			fail(rel, fmt.Errorf("%w: %s: %w", ErrInvalidAttribute, fs.path(rel), err))
		} else {
			c.Tolerance, c.HasTolerance = t, true
		}
	}

	rel = join(dir, attrQuirks)
	if raw, ok, err := fs.readRawOptional(rel); err != nil {
		fail(rel, err)
	} else if ok {
		c.Quirks, c.HasQuirks = ParseQuirkList(raw), true
	}

	rel = join(dir, attrCPULatency)
	if v, err := fs.readInt32(rel); err != nil {
		fail(rel, err)
	} else {
		c.CPULatency = v
	}

	disks, err := fs.disks(dir, fail)
	if err != nil {
		fail(dir, err)
	}
	c.Disks = disks
	if len(c.Unreadable) > 0 {
		errs := make([]error, len(c.Unreadable))
		for i, u := range c.Unreadable {
			errs[i] = u.Err
		}
		return c, errlist.Join(errs...)
	}
	return c, nil
}

// checkControllerDir makes sure class/nvme/name is a directory: absent is
// an error wrapping os.ErrNotExist (and ErrMissingController when the
// snapshot lists it), anything but a directory one wrapping ErrNotRegular.
func (fs FS) checkControllerDir(name string) error {
	dir := controllerDir(name)
	if fs.sessionIsDir(dir) {
		return nil
	}
	fi, err := fs.stat(dir)
	if err != nil {
		if merr := fs.snap.missingController(fs, name); merr != nil && isNotExist(err) {
			return merr
		}
		return fmt.Errorf("sysfs: controller %s: %w", name, stripPrefix(err))
	}
	if !fi.IsDir() {
		return fmt.Errorf("sysfs: controller %s: %w", name,
			&safeio.NotRegularError{Path: fs.path(dir), Mode: fi.Mode().Type(), WantDir: true})
	}
	return nil
}

// ParseQuirkList splits the content of a controller's quirks file into the
// quirk names it lists: one a line (any run of white space separates two),
// blank lines dropped, names kept as written.
func ParseQuirkList(s string) []string {
	names := strings.Fields(s)
	if names == nil {
		return []string{}
	}
	return names
}

// stripPrefix removes the "sysfs: " of an error this package made, so that
// a message built around it does not repeat it.
func stripPrefix(err error) error {
	return prefixless{err}
}

type prefixless struct{ err error }

func (p prefixless) Error() string { return strings.TrimPrefix(p.err.Error(), "sysfs: ") }
func (p prefixless) Unwrap() error { return p.err }

// readPCI fills the PCI IDs from the attributes of the device link. A
// controller without device/vendor is not a PCI function, unless it is a
// pcie controller or its device link has other PCI attributes: then the
// missing file is a stated gap (PCIGap). So is device/vendor without
// device/device, and either of them unreadable.
func (fs FS) readPCI(c *Controller, dir string, fail func(string, error)) {
	dev := join(dir, "device")
	// An ID file that exists but cannot be read or parsed is a gap too
	// (beside the Unreadable entry): the PCI ID is unknown, not absent.
	failID := func(rel string, err error) {
		fail(rel, err)
		c.PCIGap = rel + " could not be read: the PCI ID is unknown, so the PCI quirk table and the DMI rules were not checked"
	}
	rel := join(dev, "vendor")
	vendor, hasVendor, err := fs.readOptional(rel)
	if err != nil {
		failID(rel, err)
		return
	}
	var vid uint16
	if hasVendor {
		if vid, err = parseHex16(fs.path(rel), vendor); err != nil {
			failID(rel, err)
			return
		}
	}
	rel = join(dev, "device")
	device, hasDevice, err := fs.readOptional(rel)
	if err != nil {
		failID(rel, err)
		return
	}
	var did uint16
	if hasDevice {
		if did, err = parseHex16(fs.path(rel), device); err != nil {
			failID(rel, err)
			return
		}
	}
	var sub [2]uint16
	var hasSub bool
	for i, attr := range []string{"subsystem_vendor", "subsystem_device"} {
		rel := join(dev, attr)
		v, ok, err := fs.readOptional(rel)
		if err != nil {
			fail(rel, err)
			continue
		}
		if ok {
			hasSub = true
			if sub[i], err = parseHex16(fs.path(rel), v); err != nil {
				fail(rel, err)
			}
		}
	}
	switch {
	case hasVendor && hasDevice:
		c.PCI = apst.PCIID{Vendor: vid, Device: did}
		c.SubsystemVendor, c.SubsystemDevice = sub[0], sub[1]
		c.HasPCI = true
	case hasVendor:
		c.PCIGap = dev + "/device is absent though device/vendor is present: the PCI device ID is unknown"
	case hasDevice || hasSub || c.Transport == "pcie":
		c.PCIGap = dev + "/vendor is absent: the PCI ID is unknown, so the PCI quirk table and the DMI rules were not checked"
	}
}

// readInt32 reads an optional attribute the kernel prints with %d: nil when
// the file does not exist.
func (fs FS) readInt32(rel string) (*int64, error) {
	v, ok, err := fs.readOptional(rel)
	if err != nil || !ok {
		return nil, err
	}
	n, err := parseInt(fs.path(rel), v, 32)
	if err != nil {
		return nil, err
	}
	return &n, nil
}

// namespaceEntries lists the namespace entries in a controller's folder with
// the disk each stands for.
func (fs FS) namespaceEntries(dir string) ([]Disk, error) {
	names, ok := fs.sessionNamespaceNames(dir)
	if !ok {
		entries, err := fs.readDir(dir)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			names = append(names, e.Name())
		}
	}
	var disks []Disk
	for _, entry := range names {
		ctrl, ns, ok := parseNamespaceEntry(entry)
		if !ok {
			continue
		}
		name := entry
		if len(entry) != len("nvme")+len(ctrl)+len("n")+len(ns) {
			name = "nvme" + ctrl + "n" + ns // nvme0c1n1 is disk nvme0n1
		}
		if slices.ContainsFunc(disks, func(d Disk) bool { return d.Name == name }) {
			continue
		}
		disks = append(disks, Disk{Name: name, Entry: entry})
	}
	slices.SortFunc(disks, func(a, b Disk) int { return cmpNatural(a.Name, b.Name) })
	return disks, nil
}

// parseNamespaceEntry splits the name of a namespace entry of a
// controller's folder, nvme{ctrl}n{ns} or nvme{ctrl}c{path}n{ns} (the
// pattern ^nvme([0-9]+)(?:c[0-9]+)?n([0-9]+)$, without a regular
// expression).
func parseNamespaceEntry(s string) (ctrl, ns string, ok bool) {
	rest, ok := strings.CutPrefix(s, "nvme")
	if !ok {
		return "", "", false
	}
	i := leadingDigits(rest)
	if i == 0 {
		return "", "", false
	}
	ctrl, rest = rest[:i], rest[i:]
	if after, ok := strings.CutPrefix(rest, "c"); ok {
		j := leadingDigits(after)
		if j == 0 {
			return "", "", false
		}
		rest = after[j:]
	}
	ns, ok = strings.CutPrefix(rest, "n")
	if !ok || ns == "" || leadingDigits(ns) != len(ns) {
		return "", "", false
	}
	return ctrl, ns, true
}

// leadingDigits is the number of ASCII digits s starts with.
func leadingDigits(s string) int {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

func (fs FS) disks(dir string, fail func(string, error)) ([]Disk, error) {
	disks, err := fs.namespaceEntries(dir)
	if err != nil {
		return nil, err
	}
	for i := range disks {
		d := &disks[i]
		rel := join(diskDir(d.Name), attrDiskLimit)
		if d.CPULatencyLimit, err = fs.readInt32(rel); err != nil {
			fail(rel, err)
		}
		rel = join(diskDir(d.Name), attrDiskTime)
		if d.CPULatencyTimeout, err = fs.readInt32(rel); err != nil {
			fail(rel, err)
		}
	}
	return disks, nil
}

// Files returns the slash-separated paths, relative to the root, of the
// attribute files this package reads for controller name that exist, in the
// order Controller reads them, so that a tool can copy them into a bundle
// that reads back the same. A path ending in "/" is a directory whose
// existence matters (a namespace entry of the controller's folder, which
// Controller lists to find the disks) and holds no file this package reads.
// A file that exists but cannot be read (or is not a regular file) is listed
// too: reading it with [FS.ReadFile] says why, which a copy should record
// (see [Snapshot]).
func (fs FS) Files(name string) ([]string, error) {
	fs, done, err := fs.session()
	if err != nil {
		return nil, err
	}
	defer done()
	if err := checkName(name); err != nil {
		return nil, err
	}
	dir := controllerDir(name)
	if err := fs.checkControllerDir(name); err != nil {
		return nil, err
	}
	var attrs []string
	for _, a := range controllerAttrs {
		attrs = append(attrs, path.Join(dir, a))
	}
	files, err := fs.existing(attrs)
	if err != nil {
		return nil, err
	}
	disks, err := fs.namespaceEntries(dir)
	if err != nil {
		return nil, err
	}
	var knobs []string
	for _, d := range disks {
		files = append(files, path.Join(dir, d.Entry)+"/")
		knobs = append(knobs, path.Join(diskDir(d.Name), attrDiskLimit), path.Join(diskDir(d.Name), attrDiskTime))
	}
	knobs, err = fs.existing(knobs)
	if err != nil {
		return nil, err
	}
	return append(files, knobs...), nil
}

// existing returns the candidates that exist, in order: every path for
// which stat (following symbolic links within the tree) gives anything but
// "does not exist", so that a file that is unreadable, not a regular file or
// recorded unreadable by the snapshot is listed, and a copy can record why
// it could not be read instead of leaving it out as if it were absent.
func (fs FS) existing(cands []string) ([]string, error) {
	if err := fs.check(); err != nil {
		return nil, err
	}
	var out []string
	for _, rel := range cands {
		if _, err := fs.stat(rel); isNotExist(err) {
			continue
		}
		out = append(out, rel)
	}
	return out, nil
}

func cmpNatural(a, b string) int {
	switch {
	case lessNatural(a, b):
		return -1
	case lessNatural(b, a):
		return 1
	}
	return 0
}
