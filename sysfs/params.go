package sysfs

import (
	"fmt"
	"os"
	"path"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
)

// moduleDir holds the nvme_core module parameters.
const moduleDir = "module/nvme_core/parameters"

// dmiDir holds the DMI (SMBIOS) strings.
const dmiDir = "class/dmi/id"

// ModuleParams are the nvme_core module parameters that shape APST, from
// module/nvme_core/parameters. A nil field is a parameter the running kernel
// does not have (or the tree does not hold).
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
}

// ModuleParams reads the nvme_core module parameters. A missing parameter
// leaves its field nil; a missing parameters directory (nvme_core not loaded)
// is an error wrapping os.ErrNotExist, as is an unreadable or malformed
// parameter (os.ErrPermission, ErrInvalidAttribute).
func (fs FS) ModuleParams() (ModuleParams, error) {
	if _, err := os.Stat(fs.path(moduleDir)); err != nil {
		return ModuleParams{}, fmt.Errorf("sysfs: nvme_core parameters: %w", err)
	}
	var m ModuleParams
	for _, p := range []struct {
		name string
		dst  **uint64
	}{
		{"default_ps_max_latency_us", &m.DefaultPSMaxLatencyUS},
		{"apst_primary_timeout_ms", &m.PrimaryTimeoutMS},
		{"apst_secondary_timeout_ms", &m.SecondaryTimeoutMS},
		{"apst_primary_latency_tol_us", &m.PrimaryLatencyTolUS},
		{"apst_secondary_latency_tol_us", &m.SecondaryLatencyTolUS},
	} {
		rel := path.Join(moduleDir, p.name)
		v, ok, err := fs.readOptional(rel)
		if err != nil {
			return ModuleParams{}, err
		}
		if !ok {
			continue
		}
		n, err := parseUint(fs.path(rel), v, 64)
		if err != nil {
			return ModuleParams{}, err
		}
		*p.dst = &n
	}
	rel := path.Join(moduleDir, "force_apst")
	v, ok, err := fs.readOptional(rel)
	if err != nil {
		return ModuleParams{}, err
	}
	if ok {
		b, err := parseParamBool(fs.path(rel), v)
		if err != nil {
			return ModuleParams{}, err
		}
		m.ForceAPST = &b
	}
	return m, nil
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
// (v5.14 and later) when any apst_* parameter is present, V4_12 otherwise.
// The parameters cannot tell v4.11, which had no force_apst, from a tree that
// merely lacks the file, so V4_11 is never returned.
func (m ModuleParams) Generation() apst.Generation {
	if m.PrimaryTimeoutMS != nil || m.SecondaryTimeoutMS != nil ||
		m.PrimaryLatencyTolUS != nil || m.SecondaryLatencyTolUS != nil {
		return apst.Current
	}
	return apst.V4_12
}

// DMI reads the SMBIOS strings the kernel's vendor-combination quirk rules
// match: class/dmi/id/{sys_vendor,product_name,board_vendor,board_name}. A
// missing file (or a machine without DMI) gives an empty string; only the
// trailing newline is removed, since the kernel compares the strings exactly.
func (fs FS) DMI() (apst.DMI, error) {
	var d apst.DMI
	for _, f := range []struct {
		name string
		dst  *string
	}{
		{"sys_vendor", &d.SysVendor},
		{"product_name", &d.ProductName},
		{"board_vendor", &d.BoardVendor},
		{"board_name", &d.BoardName},
	} {
		raw, err := fs.readRaw(path.Join(dmiDir, f.name))
		if err != nil {
			if isNotExist(err) {
				continue
			}
			return apst.DMI{}, err
		}
		*f.dst = strings.TrimSuffix(raw, "\n")
	}
	return d, nil
}

// SystemFiles returns the slash-separated paths, relative to the root, of
// the machine-wide files this package reads that exist: the nvme_core
// parameters and the DMI strings. With FS.Files of every controller it is
// what a bundle needs.
func (fs FS) SystemFiles() ([]string, error) {
	var cands []string
	for _, p := range []string{
		"default_ps_max_latency_us", "force_apst",
		"apst_primary_timeout_ms", "apst_secondary_timeout_ms",
		"apst_primary_latency_tol_us", "apst_secondary_latency_tol_us",
	} {
		cands = append(cands, path.Join(moduleDir, p))
	}
	for _, f := range []string{"sys_vendor", "product_name", "board_vendor", "board_name"} {
		cands = append(cands, path.Join(dmiDir, f))
	}
	return fs.existing(cands)
}

// Params turns module parameters and a controller into the apst.Params the
// kernel uses for that controller:
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
