package sysfs

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/internal/errlist"
)

// moduleDir holds the nvme_core module parameters.
const moduleDir = "module/nvme_core/parameters"

// dmiDir holds the DMI (SMBIOS) strings.
const dmiDir = "class/dmi/id"

// ModuleParams are the nvme_core module parameters that shape APST, from
// module/nvme_core/parameters. A nil field is a parameter the running kernel
// does not have (or the tree does not hold).
//
// The zero ModuleParams has every parameter absent (nil) and none
// unreadable; its Generation is V4_12.
type ModuleParams struct {
	// DefaultPSMaxLatencyUS is default_ps_max_latency_us: the latency bound a
	// controller starts with at probe time, before any PM QoS write.
	DefaultPSMaxLatencyUS *uint64
	// ForceAPST is force_apst (Y/N), absent before v4.12.
	ForceAPST *bool
	// PrimaryTimeoutMS, SecondaryTimeoutMS, PrimaryLatencyTolUS and
	// SecondaryLatencyTolUS are apst_primary_timeout_ms,
	// apst_secondary_timeout_ms, apst_primary_latency_tol_us and
	// apst_secondary_latency_tol_us, added in v5.14: their absence marks an
	// older kernel.
	PrimaryTimeoutMS      *uint64
	SecondaryTimeoutMS    *uint64
	PrimaryLatencyTolUS   *uint64
	SecondaryLatencyTolUS *uint64

	// Unreadable names the parameters (e.g. "force_apst") that exist but
	// could not be read or parsed, in the order they were read; their fields
	// are nil as if absent, so check here before taking a nil field for a
	// parameter the kernel lacks. ModuleParams returns them as its error too.
	Unreadable []string
	// Malformed names those of Unreadable that were read but do not parse
	// (ErrInvalidAttribute); the others could not be read at all.
	Malformed []string
}

// moduleParamNames are the nvme_core parameters ModuleParams reads, in the
// order it reads them.
var moduleParamNames = []string{
	"default_ps_max_latency_us", "force_apst",
	"apst_primary_timeout_ms", "apst_secondary_timeout_ms",
	"apst_primary_latency_tol_us", "apst_secondary_latency_tol_us",
}

// ModuleParams reads the nvme_core module parameters. A missing parameter
// leaves its field nil; a missing parameters directory (nvme_core not loaded)
// is an error wrapping os.ErrNotExist. A parameter that exists but cannot be
// read (os.ErrPermission, ErrNotRegular) or does not parse
// (ErrInvalidAttribute) is one unreadable parameter: the others are still
// read and returned, the bad one is listed in ModuleParams.Unreadable, and
// the error joins one error per bad parameter.
func (fs FS) ModuleParams() (ModuleParams, error) {
	fs, done, err := fs.session()
	if err != nil {
		return ModuleParams{}, err
	}
	defer done()
	if _, err := fs.stat(moduleDir); err != nil {
		return ModuleParams{}, fmt.Errorf("sysfs: nvme_core parameters: %w", stripPrefix(err))
	}
	var m ModuleParams
	var errs []error
	fail := func(name string, err error) {
		m.Unreadable = append(m.Unreadable, name)
		if errors.Is(err, ErrInvalidAttribute) {
			m.Malformed = append(m.Malformed, name)
		}
		errs = append(errs, err)
	}
	for _, name := range moduleParamNames {
		rel := join(moduleDir, name)
		v, ok, err := fs.readOptional(rel)
		if err != nil {
			fail(name, err)
			continue
		}
		if !ok {
			continue
		}
		if name == "force_apst" {
			b, err := parseParamBool(fs.path(rel), v)
			if err != nil {
				fail(name, err)
				continue
			}
			m.ForceAPST = &b
			continue
		}
		n, err := parseUint(fs.path(rel), v, 64)
		if err != nil {
			fail(name, err)
			continue
		}
		switch name {
		case "default_ps_max_latency_us":
			m.DefaultPSMaxLatencyUS = &n
		case "apst_primary_timeout_ms":
			m.PrimaryTimeoutMS = &n
		case "apst_secondary_timeout_ms":
			m.SecondaryTimeoutMS = &n
		case "apst_primary_latency_tol_us":
			m.PrimaryLatencyTolUS = &n
		case "apst_secondary_latency_tol_us":
			m.SecondaryLatencyTolUS = &n
		}
	}
	return m, errlist.Join(errs...)
}

// parseParamBool parses a bool module parameter as the kernel prints it (Y or
// N), also accepting 1 and 0.
func parseParamBool(p, s string) (bool, error) {
	switch s {
	case "Y", "y", "1":
		return true, nil
	case "N", "n", "0":
		return false, nil
	}
	return false, fmt.Errorf("%w: %s: %q is not Y or N", ErrInvalidAttribute, p, s)
}

// Generation returns the kernel algorithm the parameters point to: Current
// (v5.14 and later) when any apst_* parameter is present (read, or listed in
// Unreadable: the file exists), V4_12 otherwise.
// The parameters cannot tell v4.11, which had no force_apst, from a tree that
// merely lacks the file, so V4_11 is never returned.
func (m ModuleParams) Generation() apst.Generation {
	if m.PrimaryTimeoutMS != nil || m.SecondaryTimeoutMS != nil ||
		m.PrimaryLatencyTolUS != nil || m.SecondaryLatencyTolUS != nil {
		return apst.Current
	}
	for _, n := range m.Unreadable {
		if strings.HasPrefix(n, "apst_") {
			return apst.Current
		}
	}
	return apst.V4_12
}

// DMI reads the SMBIOS strings the kernel's vendor-combination quirk rules
// match: class/dmi/id/{sys_vendor,product_name,board_vendor,board_name}. A
// missing file (or a machine without DMI) gives an empty string; only the
// trailing newline is removed, since the kernel compares the strings exactly.
// A file that exists but cannot be read leaves its string empty and is an
// error; the others are still read and returned with it.
func (fs FS) DMI() (apst.DMI, error) {
	fs, done, err := fs.session()
	if err != nil {
		return apst.DMI{}, err
	}
	defer done()
	var d apst.DMI
	var errs []error
	for _, f := range []struct {
		name string
		dst  *string
	}{
		{"sys_vendor", &d.SysVendor},
		{"product_name", &d.ProductName},
		{"board_vendor", &d.BoardVendor},
		{"board_name", &d.BoardName},
	} {
		raw, ok, err := fs.readRawOptional(join(dmiDir, f.name))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !ok {
			continue
		}
		*f.dst = strings.TrimSuffix(raw, "\n")
	}
	return d, errlist.Join(errs...)
}

// SystemFiles returns the slash-separated paths, relative to the root, of
// the machine-wide files this package reads that exist: the nvme_core
// parameters, the nvme (nvme-pci) quirks parameter and the DMI strings. With
// FS.Files of every controller it is what a bundle needs. Files that exist
// but cannot be read are listed too, so that a copy records why.
func (fs FS) SystemFiles() ([]string, error) {
	fs, done, err := fs.session()
	if err != nil {
		return nil, err
	}
	defer done()
	var cands []string
	for _, p := range moduleParamNames {
		cands = append(cands, path.Join(moduleDir, p))
	}
	cands = append(cands, quirksParam)
	for _, f := range []string{"sys_vendor", "product_name", "board_vendor", "board_name"} {
		cands = append(cands, path.Join(dmiDir, f))
	}
	return fs.existing(cands)
}

// Params turns module parameters and a controller into the apst.Params the
// kernel uses for that controller. It sets:
//
//   - Generation from m.Generation();
//   - Bound from the controller's latency tolerance when it has one
//     (apst.Tolerance.Bound: auto and any are unlimited), otherwise from
//     default_ps_max_latency_us as the driver applies it at probe time
//     (apst.ModuleDefaultBound), otherwise the generation's default;
//   - the four apst_* values and force_apst from m where present, the
//     kernel defaults otherwise.
//
// Quirks are left empty: they depend on Identify data (apst.LookupQuirks).
// A controller without a tolerance file is one the kernel has APST disabled
// for; Params still returns the bound it would use, and the caller decides
// from the quirks and APSTA why it is disabled.
func Params(m ModuleParams, c Controller) apst.Params {
	p := apst.DefaultParams(m.Generation())
	if m.DefaultPSMaxLatencyUS != nil {
		p.Bound = apst.ModuleDefaultBound(*m.DefaultPSMaxLatencyUS)
	}
	if c.HasTolerance {
		p.Bound = c.Tolerance.Bound()
	}
	if m.PrimaryTimeoutMS != nil {
		p.PrimaryTimeout = apst.Milliseconds(*m.PrimaryTimeoutMS)
	}
	if m.SecondaryTimeoutMS != nil {
		p.SecondaryTimeout = apst.Milliseconds(*m.SecondaryTimeoutMS)
	}
	if m.PrimaryLatencyTolUS != nil {
		p.PrimaryTolerance = apst.Microseconds(*m.PrimaryLatencyTolUS)
	}
	if m.SecondaryLatencyTolUS != nil {
		p.SecondaryTolerance = apst.Microseconds(*m.SecondaryLatencyTolUS)
	}
	if m.ForceAPST != nil {
		p.ForceAPST = *m.ForceAPST
	}
	return p
}
