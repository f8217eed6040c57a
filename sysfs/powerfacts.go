package sysfs

import (
	"path"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
)

// PowerFacts reads the power-management facts of controller name as the
// facts a diagnosis takes (diagnose.Facts). They are its state and diag/
// counters, the ASPM policy in force, and for its PCI function and every
// bridge up to the root port d3cold_allowed, power/control,
// power/runtime_status, power_state, the link/ controls and the slot power
// limit config holds (every function's config read after every function's
// other files: reading config resumes a suspended bridge above the
// function). It is the one model of these facts from this adapter to a
// view, as Params is of the APST parameters.
//
// A file the kernel does not have is a fact NotExposed; one that exists
// but cannot be read is Unreadable, and its error is in errs too (so that a
// caller can tell a permission error from another). Each fact's Source
// names the file as the machine it was read from names it (/sys/...),
// whether the tree is the live one, a bundle or a fixture. PowerFacts fails
// only for a name that is not a controller. KernelRelease and CommandLine
// are not sysfs's: the caller fills them.
func (fs FS) PowerFacts(name string) (f diagnose.Facts, errs []error, err error) {
	f.Controller = name
	fs, done, err := fs.session()
	if err != nil {
		return f, nil, err
	}
	defer done()
	if err := checkName(name); err != nil {
		return f, nil, err
	}
	if err := fs.checkControllerDir(name); err != nil {
		return f, nil, err
	}
	fact := func(a rawAttr) diagnose.Fact {
		if a.Err != nil {
			errs = append(errs, a.Err)
		}
		return factOf(a)
	}
	// Every file of the tables of package diagnose: a new fact is a row
	// there, read here unchanged.
	dir := controllerDir(name)
	for _, r := range diagnose.ControllerFiles() {
		*r.Fact(&f) = fact(fs.attr(join(dir, r.File)))
	}
	f.ASPMPolicy = fact(fs.aspmPolicy())
	dirs, _ := fs.pciPath(name)
	for i, d := range dirs {
		fn := diagnose.Function{Address: strings.ReplaceAll(path.Base(d), "_", ":"), Role: "bridge"}
		switch {
		case i == 0:
			fn.Role = "device"
			f.Address = fn.Address
		case i == len(dirs)-1:
			fn.Role = "root port"
		}
		for _, r := range diagnose.FunctionFiles() {
			if r.Decode == nil {
				*r.Fact(&fn) = fact(fs.attr(join(d, r.File)))
			}
		}
		f.Path = append(f.Path, fn)
	}
	// The binary files (config) last, once every function's power files
	// are read: the kernel resumes a runtime-suspended parent bridge (and
	// a function in D3cold) to read a function's config, so read earlier
	// the root port's runtime_status would say what the read made it.
	for i, d := range dirs {
		for _, r := range diagnose.FunctionFiles() {
			if r.Decode == nil {
				continue
			}
			if why := wouldWake(f.Path, i); why != "" {
				*r.Fact(&f.Path[i]) = diagnose.Fact{Source: "/sys/" + join(d, r.File), Status: diagnose.Unknown, Error: "not read " + why}
				continue
			}
			*r.Fact(&f.Path[i]) = decoded(fact(fs.rawAttr(join(d, r.File))), r.Decode)
		}
	}
	return f, errs, nil
}

// factOf is one attribute as a fact.
func factOf(a rawAttr) diagnose.Fact {
	f := diagnose.Fact{Source: "/sys/" + a.Path, Value: a.Value}
	switch {
	case a.Err != nil:
		f.Status, f.Error, f.Value = diagnose.Unreadable, a.Err.Error(), ""
	case !a.Present:
		f.Status = diagnose.NotExposed
	default:
		f.Status = diagnose.Read
	}
	return f
}
