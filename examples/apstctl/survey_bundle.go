package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/survey"
	"github.com/nvmeapst/nvmeapst/internal/safeio"
	"github.com/nvmeapst/nvmeapst/sysfs"
)

// A bundle of "apstctl collect" met in a survey's walk (a directory holding
// a manifest.json of format nvmeapst-bundle, at any depth, or given as
// DIR) is one machine: the walk does not enter it, and a worker reads it
// as "inspect --root" does (nvmeapst.OpenBundle, System.Inspect), giving a
// row per controller whose Identify data it holds. Each configuration is
// applied on top of the controller's own parameters
// (ControllerReport.ConfigParams): the module parameters, the per-device
// bound, the release and the quirk set of its real PCI ID, DMI strings,
// nvme.quirks= and sysfs quirks file, so that the row agrees with inspect.

// surveySource is where a drive's row comes from: a capture of a format,
// or a controller of a bundle.
type surveySource struct {
	format string            // the capture's format; "bundle" for a bundle
	bundle *surveyBundleJSON // nil for a capture
}

// surveyBundleFormat is the format a bundle's rows report.
const surveyBundleFormat = "bundle"

// surveyBundleJSON is what a bundle's row says of its machine: that PCI ID
// and DMI strings are real (read from the bundle's sysfs files), not
// inferred, and where the quirks and the bound come from.
type surveyBundleJSON struct {
	Path       string `json:"path"`
	Controller string `json:"controller"`
	// PCIID is the PCI vendor:device ID of class/nvme/NAME/device, ""
	// when the bundle lacks it (PCIIDGap says why).
	PCIID    string `json:"pci_id"`
	PCIIDGap string `json:"pci_id_gap,omitempty"`
	// DMI holds the bundle's DMI strings; DMIError says why they could
	// not be read (a DMI rule could then be missed: Assumptions).
	DMI      dmiJSON `json:"dmi"`
	DMIError string  `json:"dmi_error,omitempty"`
	// Assumptions is what inspect's report on the controller assumed
	// (ControllerReport.Assumptions, the "assumptions" object of cli.md):
	// null when the bundle said everything the answer depends on; a PCI
	// ID inferred from the model only where the bundle lacks it.
	Assumptions   *assumptionsJSON `json:"assumptions"`
	KernelRelease string           `json:"kernel_release"`
	Quirks        string           `json:"quirks"`
	QuirkSources  []string         `json:"quirk_sources"`
	APSTDisabled  bool             `json:"apst_disabled_by_kernel"`
	BoundUS       uint64           `json:"bound_us"`
	BoundSource   string           `json:"bound_source"`
	// Notes say what a configuration changed of the machine's quirk
	// lookup, and what the bundle could not tell (unreadable files).
	Notes []string `json:"notes"`
}

// surveyBundleItem is one controller of a bundle: a row, or why it has none.
type surveyBundleItem struct {
	row  survey.Row
	info surveyBundleJSON
	err  string
}

// bundleRowName is the name of a bundle controller's row: the bundle's
// path and the controller, "DIR (bundle, nvme1)".
func bundleRowName(dir, ctrl string) string {
	return dir + " (bundle, " + ctrl + ")"
}

// surveyBundleDir says whether the walk's directory dir is a bundle, at
// the cost of one Lstat of dir/manifest.json (two for a directory without
// one): bundle is true for a regular manifest.json whose format is
// nvmeapst-bundle; reason is set, with bundle false, for a collect that
// did not finish (sysfs.IncompleteMarker), which is listed as one
// unreadable entry and not entered.
func surveyBundleDir(dir string) (bundle bool, reason string) {
	man := filepath.Join(dir, nvmeapst.ManifestName)
	fi, err := os.Lstat(man)
	if err != nil {
		if _, err := os.Lstat(filepath.Join(dir, sysfs.IncompleteMarker)); err == nil {
			return false, "an unfinished apstctl collect (it holds " + sysfs.IncompleteMarker + "): not a bundle yet, not read"
		}
		return false, ""
	}
	if !fi.Mode().IsRegular() {
		return false, "" // the walk refuses it as what it is
	}
	rd := safeio.Reader{Limit: surveyManifestMax}
	b, err := rd.ReadFile(man)
	if errors.Is(err, safeio.ErrTooLarge) {
		return false, fmt.Sprintf("a manifest.json larger than %d bytes: a bundle of more controllers than a survey reads of one (%d), or not a bundle; not read", surveyManifestMax, surveyBundleControllersMax)
	}
	if err != nil {
		return false, ""
	}
	var head struct {
		Format string `json:"format"`
	}
	if json.Unmarshal(b, &head) != nil || head.Format != nvmeapst.BundleFormat {
		return false, "" // another tool's manifest.json: a directory of captures
	}
	return true, ""
}

// surveyBundleControllersMax bounds the controllers of one bundle a survey
// reads (a machine has a few; NVMe over Fabrics hosts some hundreds): their
// rows are held until the bundle is reported.
const surveyBundleControllersMax = 4096

// surveyManifestMax bounds the read of a manifest.json met in a walk, and
// so the manifest of a bundle a worker opens: 4 MiB holds the manifest of
// surveyBundleControllersMax controllers (about 750 bytes each) with room
// to spare, where nvmeapst.MaxManifestSize (16 MiB) would let a walk of
// crafted bundles hold that much on every worker.
const surveyManifestMax = 4 << 20

// surveyBundle reads the bundle of slot s (on a worker) and evaluates a row
// per controller, recording each; it leaves the items in s, or the reason
// the bundle is unreadable in s.err.
func (r *surveyRun) surveyBundle(ctx context.Context, s *surveySlot) {
	s.items = s.items[:0]
	dir := filepath.Clean(s.path)
	sys, man, err := nvmeapst.OpenBundle(s.path)
	if err != nil {
		s.err = bundleReason(err)
		return
	}
	if n := len(man.Controllers); n > surveyBundleControllersMax {
		s.err = fmt.Sprintf("bundle: its manifest lists %d controllers: the limit is %d", n, surveyBundleControllersMax)
		return
	}
	rep, err := sys.Inspect(ctx)
	if err != nil {
		s.err = bundleReason(err)
		return
	}
	// The problems of reported controllers (their sysfs attributes, their
	// damaged bundle files) are said with the controller's row.
	ownProblems := map[*nvmeapst.Problem]bool{}
	for i := range rep.Controllers {
		cr := &rep.Controllers[i]
		for _, p := range append([]*nvmeapst.Problem{cr.IdentifyProblem, cr.DriveProblem, cr.PowerProblem}, cr.SysfsProblems...) {
			ownProblems[p] = true
		}
	}
	for _, p := range rep.Problems {
		if !ownProblems[p] { // a controller the bundle lists but cannot give
			s.items = append(s.items, surveyBundleItem{info: surveyBundleJSON{Path: dir}, err: p.Message})
		}
	}
	configs := r.survey.Configs()
	kernelQuirks := r.survey.Options().KernelQuirks
	for i := range rep.Controllers {
		cr := &rep.Controllers[i]
		it := surveyBundleItem{info: newSurveyBundleJSON(dir, man, rep, cr)}
		switch {
		case cr.Identify == nil:
			it.err = "no Identify data in the bundle"
			switch {
			case cr.IdentifyProblem != nil:
				it.err += ": " + cr.IdentifyProblem.Message
			case cr.DeviceProblem != nil:
				it.err += ": " + cr.DeviceProblem.Message
			}
			s.items = append(s.items, it)
			continue
		}
		params := make([]apst.Params, len(configs))
		for k, cfg := range configs {
			p, note, err := cr.ConfigParams(cfg.Name)
			if !kernelQuirks && err == nil {
				// --kernel-quirks=false: the configuration's quirks only,
				// as for a capture.
				base := cr.Params
				base.Quirks, base.QuirksGiven = 0, false
				p, err = apst.ParseConfig(cfg.Name, base)
				p.QuirksGiven, note = true, ""
			}
			if err != nil {
				it.err = err.Error()
				break
			}
			params[k] = p
			if note != "" {
				it.info.Notes = append(it.info.Notes, fmt.Sprintf("[%d] %s", k+1, note))
			}
		}
		if it.err == "" {
			name := bundleRowName(dir, cr.Name)
			if err := r.survey.EvaluateWith(&it.row, name, cr.Identify, params); err != nil {
				it.err = err.Error()
			} else if err := r.survey.AddRecord(it.row.Record()); err != nil {
				it.err = err.Error()
			} else if kernelQuirks {
				// What the machine's lookup had to infer or leave unchecked
				// (a bundle without the PCI ID), as a capture's row says.
				if !cr.Quirks.InferredPCI.IsZero() {
					it.row.QuirksInferredFrom = "PCI ID " + cr.Quirks.InferredPCI.String() + " inferred from the " + cr.Quirks.InferredFrom
				}
				it.row.QuirksUncheckedPCI = cr.Quirks.UncheckedPCI
			}
		}
		s.items = append(s.items, it)
	}
}

// bundleReason is why a bundle could not be read, without the package
// prefix a walk's list does not need.
func bundleReason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) && !errors.Is(err, nvmeapst.ErrBundle) {
		return "bundle: " + safeio.Reason(err)
	}
	return err.Error()
}

// newSurveyBundleJSON describes controller cr of the bundle at dir.
func newSurveyBundleJSON(dir string, man *nvmeapst.Manifest, rep *nvmeapst.Report, cr *nvmeapst.ControllerReport) surveyBundleJSON {
	b := surveyBundleJSON{
		Path: dir, Controller: cr.Name,
		DMI:           dmiJSON{rep.DMI.SysVendor, rep.DMI.ProductName, rep.DMI.BoardVendor, rep.DMI.BoardName},
		KernelRelease: man.KernelRelease,
		Quirks:        cr.Params.Quirks.String(),
		QuirkSources:  []string{},
		APSTDisabled:  cr.APSTDisabled,
		BoundUS:       uint64(cr.Bound),
		BoundSource:   string(cr.BoundSource),
		Notes:         []string{},
	}
	if cr.Sysfs.HasPCI {
		b.PCIID = cr.Sysfs.PCI.String()
	} else {
		b.PCIIDGap = cr.Sysfs.PCIGap
		if b.PCIIDGap == "" {
			b.PCIIDGap = "the bundle records no PCI ID for " + cr.Name + " (not a PCI function)"
		}
	}
	a := cr.Assumptions()
	b.Assumptions = ownAssumptionsView(&a)
	if rep.DMIProblem != nil {
		b.DMIError = rep.DMIProblem.Message
	}
	for _, src := range cr.Quirks.Sources {
		b.QuirkSources = append(b.QuirkSources, src.Table+": "+src.Rule+" ["+src.Quirks.String()+"]")
	}
	for _, p := range cr.SysfsProblems {
		b.Notes = append(b.Notes, "unreadable in the bundle: "+p.Message)
	}
	if rep.ModuleProblem != nil {
		b.Notes = append(b.Notes, "nvme_core parameters: "+rep.ModuleProblem.Message)
	}
	return b
}

// reportBundle writes the rows and unreadable controllers of a bundle's
// slot, in controller name order.
func (r *surveyRun) reportBundle(s *surveySlot) error {
	for i := range s.items {
		it := &s.items[i]
		if it.err != "" {
			path := it.info.Path
			if it.info.Controller != "" {
				path = bundleRowName(path, it.info.Controller)
			}
			if err := r.reportUnreadable(surveyUnreadable{Path: path, Error: it.err, Reason: reasonBundle}); err != nil {
				return err
			}
			continue
		}
		if err := r.reportDrive(&it.row, &surveySource{format: surveyBundleFormat, bundle: &it.info}); err != nil {
			return err
		}
		r.bundleDrives++
	}
	s.items = nil // the rows are reported: do not keep them with the slot
	return nil
}
