package nvmeapst

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
	diag "github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/ioctl"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/sysfs"
)

// fastScraper reads a controller once per scrape, the way MetricsReader
// does where the system allows it (sysfs.AttrReader): each file the
// metrics need is read anew on every scrape, relative to its directory,
// into a reused buffer, and what is derived from what was read (a decoded
// Identify image, a parsed release, a quirk lookup) is recomputed only when
// its input differs from the last scrape's. Nothing is cached by file
// identity: a value is never older than the scrape that reports it.
//
// It reads what controllerRead reads for the verdict's status, and no
// more: not the controller's serial, cntlid, CPU latency or namespaces,
// not the power state (Get Features 02h), and it runs no reproduction
// search. TestMetricsFastMatchesInspect holds it to Inspect.
type fastScraper struct {
	sys   *System
	attrs *sysfs.AttrReader

	// The machine, as last read.
	release    string
	releaseSet bool
	rel        apst.Release
	relGen     apst.Generation
	relErr     error
	modVals    [6]uint64
	force      bool
	mp         sysfs.ModuleParams
	dmi        apst.DMI
	override   memoString
	overrideOK bool
	aspm       memoString
	aspmParsed string
	aspmWord   string
	aspmErr    error
	quirksErr  error

	ctrls map[string]*ctrlMemo
	// names are the controllers the last scrape listed, spare the slice
	// the next listing fills.
	names, spare []string

	// bdir is the bundle folder of the admin command files being read
	// (bdirRel), kept open within one scrape.
	bdir    sysfs.AttrDir
	bdirRel string
	bdirOK  bool
}

// memoString is a string re-made only when the bytes it is read from
// change.
type memoString struct {
	s   string
	set bool
}

// from returns b as a string, reusing the last one when b is the same.
func (m *memoString) from(b []byte) string {
	if !m.set || m.s != string(b) {
		m.s, m.set = string(b), true
	}
	return m.s
}

// ctrlMemo is what a fastScraper keeps of one controller between scrapes:
// storage and the results of pure functions of what it read.
type ctrlMemo struct {
	model, firmware, transport, state, address memoString

	tolRaw   []byte
	tolSet   bool
	tol      apst.Tolerance
	tolErr   error
	quirkRaw []byte
	quirkSet bool
	quirks   apst.Quirks

	img      []byte
	imgSet   bool
	ident    powerstate.Controller
	identErr error
	idModel  string // Identify MN and FR as the quirk tables match them
	idFW     string

	id    apst.Identity
	idSet bool
	match apst.QuirkMatch
	plan  apst.Plan
	trial apst.Plan
	drive apst.Feature
}

// newFastScraper returns the fast path for s, or nil where the system has
// none (the MetricsReader then scrapes as System.Metrics does).
func newFastScraper(s *System) *fastScraper {
	a, err := s.FS.NewAttrReader()
	if err != nil {
		return nil
	}
	return &fastScraper{sys: s, attrs: a, ctrls: map[string]*ctrlMemo{}}
}

// moduleParamFiles are the nvme_core parameters, in the order of modVals.
var moduleParamFiles = [...]string{"default_ps_max_latency_us", "force_apst", "apst_primary_timeout_ms", "apst_secondary_timeout_ms", "apst_primary_latency_tol_us", "apst_secondary_latency_tol_us"}

// scrape fills snap.
func (f *fastScraper) scrape(ctx context.Context, snap *MetricsSnapshot) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("nvmeapst: metrics: %w", err)
	}
	root := f.attrs.Root()
	// module/ and class/ are opened once for the directories under them.
	module, modOK, modErr := root.Dir("module")
	if modOK {
		defer module.Close()
	}
	classes, classesOK, classesErr := root.Dir("class")
	if classesOK {
		defer classes.Close()
	}
	defer f.bundleDirDone()
	srcs := snap.Sources[:0]
	srcs = append(srcs, f.readRelease(),
		f.readModule(sub(module, modOK, modErr, "nvme_core/parameters")),
		f.readDMI(sub(classes, classesOK, classesErr, "dmi/id")),
		f.readQuirksParam(sub(module, modOK, modErr, "nvme/parameters")),
		f.readASPM(sub(module, modOK, modErr, "pcie_aspm/parameters")))
	ctrls := snap.Controllers[:0]
	*snap = MetricsSnapshot{KernelRelease: f.release, Generation: f.generation(), ASPMPolicy: f.aspmWord, Sources: srcs}
	nvme := sub(classes, classesOK, classesErr, "nvme")
	class, classOK, classErr := nvme.d, nvme.ok, nvme.err
	if classOK {
		defer class.Close()
	}
	names, err := f.controllerNames(class, classOK)
	if err != nil {
		return err
	}
	for i, name := range names {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("nvmeapst: metrics: %w", err)
		}
		var keep []SourceStatus
		if i < cap(ctrls) {
			keep = ctrls[:i+1][i].Sources[:0]
		}
		cm := ControllerMetrics{Name: name, Sources: keep}
		f.controller(ctx, class, classOK, classErr, &cm)
		ctrls = append(ctrls, cm)
	}
	snap.Controllers = ctrls
	// Forget the controllers that are gone (a hot-unplugged drive).
	for name := range f.ctrls {
		if !slices.Contains(names, name) {
			delete(f.ctrls, name)
		}
	}
	return nil
}

// subDir is a directory opened under another: ok false when absent, err
// when it could not be opened.
type subDir struct {
	d   sysfs.AttrDir
	ok  bool
	err error
}

// sub opens rel under parent, whose own opening gave ok and err.
func sub(parent sysfs.AttrDir, ok bool, err error, rel string) subDir {
	if !ok || err != nil {
		return subDir{err: err}
	}
	d, ok, err := parent.Dir(rel)
	return subDir{d: d, ok: ok, err: err}
}

// controllerNames lists the controllers: through the reader when
// class/nvme could be opened, otherwise as FS.ControllerNames does (which
// says why, or lists the controllers a snapshot holds).
func (f *fastScraper) controllerNames(class sysfs.AttrDir, ok bool) ([]string, error) {
	var names []string
	var err error
	if ok {
		names, err = class.ControllerNames(f.spare, f.names)
	} else {
		names, err = f.sys.FS.ControllerNames()
	}
	if err != nil {
		if isNotExistErr(err) {
			return nil, noControllers("nvmeapst: metrics", err)
		}
		return nil, fmt.Errorf("nvmeapst: metrics: %w", err)
	}
	if ok {
		f.spare, f.names = f.names, names
	}
	return names, nil
}

// generation is generationOf for what was read.
func (f *fastScraper) generation() apst.Generation {
	return generationOf(&f.mp, f.relGen, f.relErr)
}

func (f *fastScraper) readRelease() SourceStatus {
	st := SourceStatus{Source: SourceKernelRelease, OK: true}
	rel, err := f.sys.kernelRelease()
	if err != nil {
		if f.sys.KernelRelease != nil {
			st = failed(SourceKernelRelease, err)
		}
		rel = ""
	}
	if !f.releaseSet || rel != f.release {
		f.release, f.releaseSet = rel, true
		f.rel = apst.Release{}
		if v, err := apst.ParseRelease(rel); err == nil && rel != "" {
			f.rel = v
		}
		f.relGen, f.relErr = f.rel.Generation()
	}
	return st
}

func (f *fastScraper) readModule(sd subDir) SourceStatus {
	st := SourceStatus{Source: SourceModuleParameters, OK: true}
	f.mp = sysfs.ModuleParams{Unreadable: f.mp.Unreadable[:0], Malformed: f.mp.Malformed[:0]}
	d, ok, err := sd.d, sd.ok, sd.err
	if err != nil {
		return failed(SourceModuleParameters, err)
	}
	if !ok {
		return st
	}
	defer d.Close()
	for i, name := range moduleParamFiles {
		v, ok, err := d.Read(name)
		if err == nil && ok {
			if i == 1 {
				switch string(v) {
				case "Y", "y", "1":
					f.force = true
				case "N", "n", "0":
					f.force = false
				default:
					err = fmt.Errorf("%w: %s: %q is not Y or N", sysfs.ErrInvalidAttribute, name, v)
				}
			} else if n, perr := parseDecimal(v); perr {
				f.modVals[i] = n
			} else {
				err = fmt.Errorf("%w: %s: %q is not an unsigned 64-bit decimal integer", sysfs.ErrInvalidAttribute, name, v)
			}
		}
		if err != nil {
			f.mp.Unreadable = append(f.mp.Unreadable, name)
			if errors.Is(err, sysfs.ErrInvalidAttribute) {
				f.mp.Malformed = append(f.mp.Malformed, name)
			}
			if st.OK {
				st = failed(SourceModuleParameters, err)
			}
			continue
		}
		if !ok {
			continue
		}
		switch i {
		case 0:
			f.mp.DefaultPSMaxLatencyUS = &f.modVals[0]
		case 1:
			f.mp.ForceAPST = &f.force
		case 2:
			f.mp.PrimaryTimeoutMS = &f.modVals[2]
		case 3:
			f.mp.SecondaryTimeoutMS = &f.modVals[3]
		case 4:
			f.mp.PrimaryLatencyTolUS = &f.modVals[4]
		case 5:
			f.mp.SecondaryLatencyTolUS = &f.modVals[5]
		}
	}
	return st
}

func (f *fastScraper) readDMI(sd subDir) SourceStatus {
	st := SourceStatus{Source: SourceDMI, OK: true}
	d, ok, err := sd.d, sd.ok, sd.err
	if err != nil {
		f.dmi = apst.DMI{}
		return failed(SourceDMI, err)
	}
	if !ok {
		f.dmi = apst.DMI{}
		return st
	}
	defer d.Close()
	for _, x := range []struct {
		name string
		dst  *string
	}{{"sys_vendor", &f.dmi.SysVendor}, {"product_name", &f.dmi.ProductName}, {"board_vendor", &f.dmi.BoardVendor}, {"board_name", &f.dmi.BoardName}} {
		v, ok, err := d.ReadRaw(x.name, sysfs.MaxAttributeSize-1)
		switch {
		case err != nil:
			*x.dst = ""
			if st.OK {
				st = failed(SourceDMI, err)
			}
		case !ok:
			*x.dst = ""
		default:
			// As FS.DMI: only the trailing newline goes, the kernel
			// compares the strings exactly.
			v = bytes.TrimSuffix(v, []byte("\n"))
			if *x.dst != string(v) {
				*x.dst = string(v)
			}
		}
	}
	return st
}

func (f *fastScraper) readQuirksParam(sd subDir) SourceStatus {
	st := SourceStatus{Source: SourceQuirksParameter, OK: true}
	f.overrideOK = false
	d, ok, err := sd.d, sd.ok, sd.err
	if err != nil {
		return failed(SourceQuirksParameter, err)
	}
	if !ok {
		return st
	}
	defer d.Close()
	v, ok, err := d.Read("quirks")
	switch {
	case err != nil:
		return failed(SourceQuirksParameter, err)
	case !ok:
		return st
	}
	if !f.override.set || f.override.s != string(v) {
		f.override.s, f.override.set = string(v), true
		if _, perr := apst.ParseQuirkOverrides(f.override.s); perr != nil {
			f.quirksErr = fmt.Errorf("%w: module/nvme/parameters/quirks: %w", sysfs.ErrInvalidAttribute, perr)
		} else {
			f.quirksErr = nil
		}
	}
	if f.quirksErr != nil {
		return failed(SourceQuirksParameter, f.quirksErr)
	}
	f.overrideOK = true
	return st
}

func (f *fastScraper) readASPM(sd subDir) SourceStatus {
	st := SourceStatus{Source: SourceASPMPolicy, OK: true}
	f.aspmWord = ""
	d, ok, err := sd.d, sd.ok, sd.err
	if err != nil {
		return failed(SourceASPMPolicy, err)
	}
	if !ok {
		return st
	}
	defer d.Close()
	v, ok, err := d.Read("policy")
	switch {
	case err != nil:
		return failed(SourceASPMPolicy, err)
	case !ok:
		return st
	}
	if !f.aspm.set || f.aspm.s != string(v) {
		f.aspm.s, f.aspm.set = string(v), true
		f.aspmParsed, f.aspmErr = sysfs.ParseASPMPolicy(f.aspm.s)
	}
	if f.aspmErr != nil {
		return failed(SourceASPMPolicy, f.aspmErr)
	}
	f.aspmWord = f.aspmParsed
	return st
}

// memo returns the memo of controller name.
func (f *fastScraper) memo(name string) *ctrlMemo {
	m := f.ctrls[name]
	if m == nil {
		m = &ctrlMemo{}
		f.ctrls[name] = m
	}
	return m
}

// controller scrapes one controller into cm.
func (f *fastScraper) controller(ctx context.Context, class sysfs.AttrDir, classOK bool, classErr error, cm *ControllerMetrics) {
	name := cm.Name
	mo := f.memo(name)
	sysSt := SourceStatus{Source: SourceSysfs, OK: true}
	pciSt := SourceStatus{Source: SourcePCI, OK: true}
	diagSt := SourceStatus{Source: SourceDiag, OK: true}
	fail := func(st *SourceStatus, err error) {
		if st.OK {
			*st = failed(st.Source, err)
		}
	}
	var dir sysfs.AttrDir
	ok := false
	err := classErr
	if classOK {
		dir, ok, err = class.Dir(name)
	}
	if !ok || err != nil {
		if err == nil {
			err = fmt.Errorf("nvmeapst: %s: %w", name, sysfs.ErrMissingController)
		}
		fail(&sysSt, err)
		cm.Holding = HoldsNoSysfs
		cm.Sources = append(cm.Sources, sysSt) // the rest were never tried (unreadableController)
		return
	}
	defer dir.Close()

	for _, a := range []struct {
		name string
		memo *memoString
		dst  *string
	}{{"model", &mo.model, &cm.Model}, {"firmware_rev", &mo.firmware, &cm.Firmware}, {"transport", &mo.transport, &cm.Transport}, {"state", &mo.state, &cm.State}, {"address", &mo.address, &cm.Address}} {
		v, ok, err := dir.Read(a.name)
		switch {
		case err != nil:
			fail(&sysSt, err)
		case ok:
			*a.dst = a.memo.from(v)
		}
	}

	// The bound: power/pm_qos_latency_tolerance_us, present only while the
	// kernel has APST enabled for the controller.
	hasTol, tolBad := false, false
	if pd, ok, err := dir.Dir("power"); err != nil {
		fail(&sysSt, err)
		tolBad = true
	} else if ok {
		v, ok, err := pd.Read("pm_qos_latency_tolerance_us")
		pd.Close()
		switch {
		case err != nil:
			fail(&sysSt, err)
			tolBad = true
		case ok:
			if !mo.tolSet || !bytes.Equal(v, mo.tolRaw) {
				mo.tolRaw, mo.tolSet = append(mo.tolRaw[:0], v...), true
				mo.tol, mo.tolErr = apst.ParseTolerance(string(v))
			}
			if mo.tolErr != nil {
				fail(&sysSt, fmt.Errorf("%w: %s/power/pm_qos_latency_tolerance_us: %w", sysfs.ErrInvalidAttribute, name, mo.tolErr))
				tolBad = true
			} else {
				hasTol = true
			}
		}
	}

	// The kernel's quirks file (Linux 7.0 and later).
	hasQuirkFile := false
	if v, ok, err := dir.ReadRaw("quirks", sysfs.MaxAttributeSize-1); err != nil {
		fail(&sysSt, err)
	} else if ok {
		if !mo.quirkSet || !bytes.Equal(v, mo.quirkRaw) {
			mo.quirkRaw, mo.quirkSet = append(mo.quirkRaw[:0], v...), true
			mo.quirks, _ = apst.ParseQuirksFile(strings.Join(sysfs.ParseQuirkList(string(v)), "\n"))
		}
		hasQuirkFile = true
	}

	// The PCI ID the quirk table matches.
	var pci apst.PCIID
	hasPCI := false
	if dd, ok, err := dir.Dir("device"); err != nil {
		fail(&sysSt, err)
	} else if ok {
		vid, vok, verr := readHex16(dd, "vendor")
		did, dok, derr := readHex16(dd, "device")
		dd.Close()
		switch {
		case verr != nil:
			fail(&sysSt, verr)
		case derr != nil:
			fail(&sysSt, derr)
		case vok && dok:
			pci, hasPCI = apst.PCIID{Vendor: vid, Device: did}, true
		}
	}
	if hasPCI || cm.Transport == "pcie" {
		if _, ok := parsePCIAddress(cm.Address); ok {
			cm.PCIAddress = cm.Address
		}
	}

	// diag/ counters (Linux 7.2).
	if dd, ok, err := dir.Dir("diag"); err != nil {
		fail(&diagSt, err)
	} else if ok {
		readCounter(dd, "reset_count", &cm.Resets, &diagSt)
		readCounter(dd, "reconnect_count", &cm.Reconnects, &diagSt)
		readCounter(dd, "command_error_count", &cm.CommandErrors, &diagSt)
		dd.Close()
	}

	// The PCI function's power files.
	if fn, ok, err := f.attrs.PCIFunction(dir, name); err != nil {
		fail(&pciSt, err)
	} else if ok {
		readFlag(fn, "d3cold_allowed", false, &cm.D3coldAllowed, &pciSt)
		if pd, ok, err := fn.Dir("power"); err != nil {
			fail(&pciSt, err)
		} else if ok {
			readFlag(pd, "control", true, &cm.RuntimePMAuto, &pciSt)
			pd.Close()
		}
		if ld, ok, err := fn.Dir("link"); err != nil {
			fail(&pciSt, err)
		} else if ok {
			readFlag(ld, "l1_aspm", false, &cm.ASPML1, &pciSt)
			ld.Close()
		}
		fn.Close()
	}

	// Identify, the APST feature and the health log.
	dev := f.device(ctx, name, mo)

	// The quirk lookup, as controllerRead.controller makes it.
	var ident *powerstate.Controller
	if dev.identOK {
		ident = &mo.ident
	}
	id := apst.Identity{DMI: f.dmi, Release: f.rel}
	if f.overrideOK {
		id.Override = f.override.s
	}
	if ident != nil {
		id.VendorID, id.Model, id.Firmware = ident.VendorID, mo.idModel, mo.idFW
	} else {
		id.Model, id.Firmware = strings.TrimRight(cm.Model, " "), strings.TrimRight(cm.Firmware, " ")
		if hasPCI {
			id.VendorID = pci.Vendor
		}
	}
	if hasPCI {
		id.PCI = pci
	}
	if !mo.idSet || id != mo.id {
		mo.id, mo.idSet = id, true
		mo.match = apst.LookupQuirks(id)
	}
	quirks := mo.match.Quirks
	if hasQuirkFile {
		quirks = mo.quirks
	}
	// What the kernel programs: the derivation Inspect makes
	// (kernelParams), without its notes.
	in := kernelInputs{
		ident: ident, module: &f.mp, gen: f.generation(), rel: f.rel,
		quirks: quirks, quirksFile: hasQuirkFile,
		tol: mo.tol, hasTol: hasTol, tolBad: tolBad,
	}
	p, _ := kernelParams(&in, &mo.trial)
	apstDisabled := in.apstDisabled()
	var plan *apst.Plan
	if ident != nil {
		if err := apst.BuildTo(&mo.plan, ident, p); err == nil {
			plan = &mo.plan
		} else if dev.identSt.OK {
			dev.identSt = failed(SourceIdentify, err)
		}
	}

	// A bound that could not be read leaves the table unknown, unless the
	// kernel sends none whatever the bound.
	boundKnown := !tolBad || plan != nil && !plan.Sent
	if !tolBad {
		cm.APSTEnabled = read(b2f(!apstDisabled && p.Bound != 0))
		if !apstDisabled {
			cm.ToleranceSeconds = read(seconds(p.Bound))
		}
	}
	if plan != nil && boundKnown {
		e := analysis.Reachability(ident, &plan.Table)
		cm.DeepestState = read(float64(e.Deepest))
		cm.DeepestExitLatencySeconds = read(seconds(e.DeepestExitLatency))
		if e.DeepestMaxPower.Reported() {
			cm.DeepestMaxPowerWatts = read(e.DeepestMaxPower.Watts())
		}
	}
	var drive *apst.Feature
	if dev.driveOK {
		drive = &mo.drive
	}
	switch {
	case plan == nil:
		cm.Holding = HoldsNoPlan
	case !plan.Sent:
		cm.Holding = HoldsNotProgrammed
	case !boundKnown:
		cm.Holding = HoldsNoBound
	case drive == nil:
		cm.Holding = HoldsNoDrive
	case analysis.Holds(plan, drive):
		cm.Holding, cm.HoldsKernelTable = HoldsMatch, read(1)
	default:
		cm.Holding, cm.HoldsKernelTable = HoldsMismatch, read(0)
	}
	cm.Quirks, cm.QuirksKnown = p.Quirks.APST(), plan != nil || hasQuirkFile
	if plan != nil {
		cm.Quirks = plan.Quirks.Applied.APST()
	}
	if dev.healthOK {
		cm.UnsafeShutdowns, cm.ErrorLogEntries = read(float64(dev.health.UnsafeShutdowns)), read(float64(dev.health.ErrorLogEntries))
	}
	cm.Sources = append(cm.Sources, sysSt, dev.identSt, dev.driveSt, pciSt, diagSt, dev.healthSt)
}

// deviceRead is what one scrape read over the admin command path.
type deviceRead struct {
	identOK, driveOK, healthOK bool
	health                     diag.HealthLog
	identSt, driveSt, healthSt SourceStatus
}

// device reads Identify, the APST feature and the health log of
// controller name into mo: from a bundle's files through the reader, or
// through the System's Opener.
func (f *fastScraper) device(ctx context.Context, name string, mo *ctrlMemo) deviceRead {
	r := deviceRead{
		identSt:  SourceStatus{Source: SourceIdentify, OK: true},
		driveSt:  SourceStatus{Source: SourceAPSTFeature, OK: true},
		healthSt: SourceStatus{Source: SourceHealthLog, OK: true},
	}
	deviceFailed := func(p *Problem) deviceRead {
		r.identSt, r.driveSt = problemStatus(SourceIdentify, p), problemStatus(SourceAPSTFeature, p)
		return r
	}
	if f.sys.Opener == nil {
		return deviceFailed(&Problem{Message: "no admin command path", Unsupported: true})
	}
	if bo, ok := f.sys.Opener.(*bundleOpener); ok && bo.dir == f.sys.FS.Root() {
		bc, ok := bo.ctrls[name]
		switch {
		case !ok:
			return deviceFailed(&Problem{Message: "bundle has no admin command data for " + name, NotExist: true})
		case bc.OpenError != nil:
			return deviceFailed(bc.OpenError)
		}
		switch {
		case bc.IdentifyError != nil:
			r.identSt = problemStatus(SourceIdentify, bc.IdentifyError)
		case bc.Identify == "":
			r.identSt = failed(SourceIdentify, fmt.Errorf("%w: no Identify data for %s", ErrBundle, name))
		default:
			b, err := f.bundleFile(bc.Identify, powerstate.IdentifySize)
			if err == nil {
				err = checkBundleIdentify(bc.Identify, b)
			}
			r.identOK, r.identSt = f.decodeIdentify(mo, b, err)
		}
		switch {
		case bc.APSTError != nil:
			r.driveSt = problemStatus(SourceAPSTFeature, bc.APSTError)
		case bc.APST == "":
			r.driveSt = failed(SourceAPSTFeature, fmt.Errorf("%w: no APST data for %s", ErrBundle, name))
		default:
			b, err := f.bundleFile(bc.APST, apst.TableSize)
			if err == nil {
				var t apst.Table
				if t, err = apst.DecodeTable(b); err == nil {
					err = checkBundleTable(bc.APST, &t)
				}
				if err == nil {
					apste := apst.APSTEOf(bc.APSTE)
					if bc.APSTEUnknown {
						apste = apst.APSTEUnknown
					}
					mo.drive, r.driveOK = apst.Feature{APSTE: apste, Table: t}, true
				}
			}
			if err != nil {
				r.driveSt = failed(SourceAPSTFeature, err)
			}
		}
		switch {
		case bc.HealthError != nil:
			r.healthSt = problemStatus(SourceHealthLog, bc.HealthError)
		case bc.Health != "":
			b, err := f.bundleFile(bc.Health, ioctl.HealthLogSize)
			if err == nil {
				r.health, err = diag.DecodeHealthLog(b)
			}
			if err != nil {
				r.healthSt = failed(SourceHealthLog, err)
			} else {
				r.healthOK = true
			}
		}
		return r
	}
	dev, err := openController(ctx, f.sys.Opener, name)
	if err != nil {
		return deviceFailed(NewProblem(err))
	}
	defer dev.Close()
	img, err := dev.IdentifyController(ctx)
	r.identOK, r.identSt = f.decodeIdentify(mo, img, err)
	if feat, err := dev.GetAPST(ctx); err != nil {
		r.driveSt = problemStatus(SourceAPSTFeature, NewProblem(err))
	} else {
		mo.drive, r.driveOK = feat, true
	}
	if hl, ok := dev.(ioctl.HealthLogger); ok {
		b, err := hl.HealthLog(ctx)
		if err == nil {
			r.health, err = diag.DecodeHealthLog(b)
		}
		switch {
		case err == nil:
			r.healthOK = true
		case errors.Is(err, ioctl.ErrUnsupported) || errors.Is(err, errors.ErrUnsupported):
		default:
			r.healthSt = failed(SourceHealthLog, err)
		}
	}
	return r
}

// decodeIdentify decodes img into mo unless it is the image decoded last.
func (f *fastScraper) decodeIdentify(mo *ctrlMemo, img []byte, err error) (bool, SourceStatus) {
	if err != nil {
		return false, problemStatus(SourceIdentify, NewProblem(err))
	}
	if !mo.imgSet || !bytes.Equal(img, mo.img) {
		mo.img, mo.imgSet = append(mo.img[:0], img...), true
		mo.identErr = mo.ident.UnmarshalBinary(img)
		if mo.identErr == nil {
			mn, fr := mo.ident.ModelBytes(), mo.ident.FirmwareBytes()
			mo.idModel, mo.idFW = string(mn[:]), string(fr[:])
		}
	}
	if mo.identErr != nil {
		return false, failed(SourceIdentify, mo.identErr)
	}
	return true, SourceStatus{Source: SourceIdentify, OK: true}
}

// bundleFile reads the bundle file rel (a manifest's path, slash-separated
// inside the bundle) of at most size bytes. It is read inside the bundle
// through the reader: a path with .. or a link out of it is refused.
func (f *fastScraper) bundleFile(rel string, size int) ([]byte, error) {
	dirPart, base := "", rel
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		dirPart, base = rel[:i], rel[i+1:]
	}
	d := f.attrs.Root()
	if dirPart != "" {
		// A controller's files share a folder (ioctl/nvme0/), opened once
		// for them within the scrape.
		if !f.bdirOK || f.bdirRel != dirPart {
			f.bundleDirDone()
			sub, ok, err := d.Dir(dirPart)
			if err != nil {
				return nil, fmt.Errorf("%w: %w", ErrBundle, err)
			}
			if !ok {
				return nil, fmt.Errorf("%w: %s is missing", ErrBundle, rel)
			}
			f.bdir, f.bdirRel, f.bdirOK = sub, dirPart, true
		}
		d = f.bdir
	}
	b, ok, err := d.ReadRaw(base, int64(size))
	switch {
	case err != nil:
		return nil, fmt.Errorf("%w: %w", ErrBundle, err)
	case !ok:
		return nil, fmt.Errorf("%w: %s is missing", ErrBundle, rel)
	}
	return b, nil
}

// bundleDirDone closes the bundle folder bundleFile keeps open, at the end
// of a scrape: no directory stays open from one scrape to the next.
func (f *fastScraper) bundleDirDone() {
	if f.bdirOK {
		f.bdir.Close()
		f.bdirOK = false
	}
}

// readHex16 reads a 0x-prefixed 16-bit hexadecimal attribute.
func readHex16(d sysfs.AttrDir, name string) (uint16, bool, error) {
	v, ok, err := d.Read(name)
	if err != nil || !ok {
		return 0, false, err
	}
	if len(v) < 3 || len(v) > 6 || v[0] != '0' || v[1] != 'x' && v[1] != 'X' {
		return 0, false, fmt.Errorf("%w: %s: %q is not a 16-bit 0x-prefixed hexadecimal ID", sysfs.ErrInvalidAttribute, name, v)
	}
	var n uint16
	for _, c := range v[2:] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false, fmt.Errorf("%w: %s: %q is not a 16-bit 0x-prefixed hexadecimal ID", sysfs.ErrInvalidAttribute, name, v)
		}
		n = n<<4 | uint16(c)
	}
	return n, true, nil
}

// parseDecimal reads an unsigned 64-bit decimal integer.
func parseDecimal(b []byte) (uint64, bool) {
	if len(b) == 0 || len(b) > 20 {
		return 0, false
	}
	var n uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		d := uint64(c - '0')
		if n > (1<<64-1-d)/10 {
			return 0, false
		}
		n = n*10 + d
	}
	return n, true
}

// readCounter reads a diag/ counter.
func readCounter(d sysfs.AttrDir, name string, dst *Reading, st *SourceStatus) {
	v, ok, err := d.Read(name)
	switch {
	case err != nil:
		if st.OK {
			*st = failed(st.Source, err)
		}
	case ok:
		n, good := parseDecimal(v)
		if !good {
			if st.OK {
				*st = failed(st.Source, fmt.Errorf("nvmeapst: diag/%s: %q is not a counter", name, v))
			}
			return
		}
		*dst = read(float64(n))
	}
}

// readFlag reads a 0/1 attribute, or with control power/control (auto
// or on).
func readFlag(d sysfs.AttrDir, name string, control bool, dst *Reading, st *SourceStatus) {
	v, ok, err := d.Read(name)
	switch {
	case err != nil:
		if st.OK {
			*st = failed(st.Source, err)
		}
	case ok:
		var b, good bool
		switch {
		case !control && string(v) == "0", control && string(v) == "on":
			good = true
		case !control && string(v) == "1", control && string(v) == "auto":
			b, good = true, true
		}
		if !good {
			if st.OK {
				*st = failed(st.Source, fmt.Errorf("nvmeapst: %s reads %q", name, v))
			}
			return
		}
		*dst = read(b2f(b))
	}
}

// isNotExistErr reports a missing class/nvme.
func isNotExistErr(err error) bool { return errors.Is(err, fs.ErrNotExist) }
