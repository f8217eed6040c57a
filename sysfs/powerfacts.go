package sysfs

import (
	"github.com/nvmeapst/nvmeapst/apst/diagnose"
)

// PowerFacts reads the power-management facts of controller name as the
// facts a diagnosis takes (diagnose.Facts): its state and diag/ counters,
// the ASPM policy in force, and for its PCI function and every bridge up to
// the root port d3cold_allowed, power/control, power/runtime_status,
// power_state and the link/ controls. It is the one model of these facts
// from this adapter to a view, as Params is of the APST parameters.
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
	p, err := fs.readPower(name)
	if err != nil {
		return f, nil, err
	}
	fact := func(a rawAttr) diagnose.Fact {
		if a.Err != nil {
			errs = append(errs, a.Err)
		}
		return factOf(a)
	}
	f.State = fact(p.State)
	f.ResetCount, f.ReconnectCount, f.CommandErrorCount = fact(p.ResetCount), fact(p.ReconnectCount), fact(p.CommandErrorCount)
	f.ASPMPolicy = fact(p.ASPMPolicy)
	for i, fn := range p.Path {
		role := "bridge"
		switch {
		case i == 0:
			role = "device"
			f.Address = fn.Address
		case i == len(p.Path)-1:
			role = "root port"
		}
		df := diagnose.Function{Address: fn.Address, Role: role,
			D3coldAllowed: fact(fn.D3coldAllowed), Control: fact(fn.Control),
			RuntimeStatus: fact(fn.RuntimeStatus), PowerState: fact(fn.PowerState),
		}
		df.Link = diagnose.LinkPM{L0s: fact(fn.Link.L0s), L1: fact(fn.Link.L1), L1_1: fact(fn.Link.L1_1), L1_2: fact(fn.Link.L1_2),
			L1_1PCIPM: fact(fn.Link.L1_1PCIPM), L1_2PCIPM: fact(fn.Link.L1_2PCIPM), ClkPM: fact(fn.Link.ClkPM)}
		f.Path = append(f.Path, df)
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
