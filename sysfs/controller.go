package sysfs

import (
	"errors"
	"fmt"
	"os"
	"path"
	"regexp"
	"slices"

	"github.com/nvmeapst/nvmeapst/apst"
)

// Controller is what sysfs says about one NVMe controller, class/nvme/NAME.
// String attributes the kernel does not expose are empty; the Has fields and
// nil pointers say which of the others are present.
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

	// CPULatency is the nvme-pci cpu_latency_us knob of the proposed CPU
	// latency QoS patch: a CPU wake-up latency limit in µs held on the CPUs
	// serving the controller's queues while I/O is in flight; a negative
	// value (the default -1) turns it off. Nil when the kernel does not have
	// the patch.
	CPULatency *int64

	// Disks are the controller's namespaces as block devices, sorted by
	// name, with the block-layer CPU latency knobs.
	Disks []Disk
}

// APSTEnabled reports whether the kernel has APST enabled for the controller,
// which it shows by exposing power/pm_qos_latency_tolerance_us.
func (c Controller) APSTEnabled() bool { return c.HasTolerance }

// Disk is one namespace of a controller as a block device, with the knobs of
// the proposed block-layer CPU latency QoS patch, read from block/NAME/.
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
	attrDiskLimit  = "cpu_lat_limit_us"
	attrDiskTime   = "cpu_lat_timeout_ms"
)

var (
	controllerName = regexp.MustCompile(`^nvme[0-9]+$`)
	namespaceEntry = regexp.MustCompile(`^nvme([0-9]+)(?:c[0-9]+)?n([0-9]+)$`)
)

func controllerDir(name string) string { return path.Join("class/nvme", name) }
func diskDir(name string) string       { return path.Join("block", name) }

// Controllers returns every controller under class/nvme (entries named nvmeN),
// sorted by name with numbers in numeric order (nvme2 before nvme10).
//
// A missing class/nvme (no NVMe driver loaded, or a tree without it) is an
// error wrapping os.ErrNotExist. When some controllers cannot be read, it
// returns the others together with an error naming each failure.
func (fs FS) Controllers() ([]Controller, error) {
	entries, err := os.ReadDir(fs.path("class/nvme"))
	if err != nil {
		return nil, fmt.Errorf("sysfs: %w", err)
	}
	var names []string
	for _, e := range entries {
		if controllerName.MatchString(e.Name()) {
			names = append(names, e.Name())
		}
	}
	slices.SortFunc(names, cmpNatural)
	ctrls := make([]Controller, 0, len(names))
	var errs []error
	for _, n := range names {
		c, err := fs.Controller(n)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		ctrls = append(ctrls, c)
	}
	return ctrls, errors.Join(errs...)
}

// Controller reads the controller class/nvme/name. A name that does not exist
// is an error wrapping os.ErrNotExist; an attribute that cannot be read for
// another reason (os.ErrPermission) or does not parse is an error too. See
// the Controller fields for the attributes whose absence is not an error.
func (fs FS) Controller(name string) (Controller, error) {
	if err := checkName(name); err != nil {
		return Controller{}, err
	}
	dir := controllerDir(name)
	if _, err := os.Stat(fs.path(dir)); err != nil {
		return Controller{}, fmt.Errorf("sysfs: controller %s: %w", name, err)
	}
	c := Controller{Name: name}
	strs := []struct {
		attr string
		dst  *string
	}{
		{"model", &c.Model},
		{"serial", &c.Serial},
		{"firmware_rev", &c.FirmwareRev},
		{"transport", &c.Transport},
		{"state", &c.State},
		{"address", &c.Address},
	}
	for _, s := range strs {
		v, _, err := fs.readOptional(path.Join(dir, s.attr))
		if err != nil {
			return Controller{}, err
		}
		*s.dst = v
	}

	rel := path.Join(dir, "cntlid")
	if v, ok, err := fs.readOptional(rel); err != nil {
		return Controller{}, err
	} else if ok {
		id, err := parseUint(fs.path(rel), v, 16)
		if err != nil {
			return Controller{}, err
		}
		c.ControllerID, c.HasControllerID = uint16(id), true
	}

	if err := fs.readPCI(&c, dir); err != nil {
		return Controller{}, err
	}

	rel = path.Join(dir, attrTolerance)
	if v, ok, err := fs.readOptional(rel); err != nil {
		return Controller{}, err
	} else if ok {
		t, err := apst.ParseTolerance(v)
		if err != nil {
			return Controller{}, fmt.Errorf("%w: %s: %w", ErrInvalidAttribute, fs.path(rel), err)
		}
		c.Tolerance, c.HasTolerance = t, true
	}

	var err error
	if c.CPULatency, err = fs.readInt32(path.Join(dir, attrCPULatency)); err != nil {
		return Controller{}, err
	}

	if c.Disks, err = fs.disks(dir); err != nil {
		return Controller{}, err
	}
	return c, nil
}

// readPCI fills the PCI IDs from the attributes of the device link. A
// controller without device/vendor is not a PCI function; one with
// device/vendor must have device/device too.
func (fs FS) readPCI(c *Controller, dir string) error {
	dev := path.Join(dir, "device")
	vendor, ok, err := fs.readOptional(path.Join(dev, "vendor"))
	if err != nil || !ok {
		return err
	}
	if c.PCI.Vendor, err = parseHex16(fs.path(path.Join(dev, "vendor")), vendor); err != nil {
		return err
	}
	rel := path.Join(dev, "device")
	device, err := fs.read(rel)
	if err != nil {
		return err
	}
	if c.PCI.Device, err = parseHex16(fs.path(rel), device); err != nil {
		return err
	}
	for _, s := range []struct {
		attr string
		dst  *uint16
	}{
		{"subsystem_vendor", &c.SubsystemVendor},
		{"subsystem_device", &c.SubsystemDevice},
	} {
		rel := path.Join(dev, s.attr)
		v, ok, err := fs.readOptional(rel)
		if err != nil {
			return err
		}
		if ok {
			if *s.dst, err = parseHex16(fs.path(rel), v); err != nil {
				return err
			}
		}
	}
	c.HasPCI = true
	return nil
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
	entries, err := os.ReadDir(fs.path(dir))
	if err != nil {
		return nil, fmt.Errorf("sysfs: %w", err)
	}
	var disks []Disk
	seen := map[string]bool{}
	for _, e := range entries {
		m := namespaceEntry.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		name := "nvme" + m[1] + "n" + m[2]
		if seen[name] {
			continue
		}
		seen[name] = true
		disks = append(disks, Disk{Name: name, Entry: e.Name()})
	}
	slices.SortFunc(disks, func(a, b Disk) int { return cmpNatural(a.Name, b.Name) })
	return disks, nil
}

// disks lists the controller's disks and reads their CPU latency knobs.
func (fs FS) disks(dir string) ([]Disk, error) {
	disks, err := fs.namespaceEntries(dir)
	if err != nil {
		return nil, err
	}
	for i := range disks {
		d := &disks[i]
		if d.CPULatencyLimit, err = fs.readInt32(path.Join(diskDir(d.Name), attrDiskLimit)); err != nil {
			return nil, err
		}
		if d.CPULatencyTimeout, err = fs.readInt32(path.Join(diskDir(d.Name), attrDiskTime)); err != nil {
			return nil, err
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
func (fs FS) Files(name string) ([]string, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	dir := controllerDir(name)
	if _, err := os.Stat(fs.path(dir)); err != nil {
		return nil, fmt.Errorf("sysfs: controller %s: %w", name, err)
	}
	var attrs []string
	for _, a := range []string{
		"model", "serial", "firmware_rev", "transport", "state", "address", "cntlid",
		"device/vendor", "device/device", "device/subsystem_vendor", "device/subsystem_device",
		attrTolerance, attrCPULatency,
	} {
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

// existing returns the candidates that exist as regular files (following
// symbolic links), in order.
func (fs FS) existing(cands []string) ([]string, error) {
	var out []string
	for _, rel := range cands {
		fi, err := os.Stat(fs.path(rel))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("sysfs: %w", err)
		}
		if fi.Mode().IsRegular() {
			out = append(out, rel)
		}
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
