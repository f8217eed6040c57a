package sysfs

import (
	"path"
	"strings"
	"sync"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
)

// binaryFiles are the binary files of a PCI function's folder that
// diagnose.FunctionFiles declares (config), by name, with the most bytes
// each may hold: every read of such a file (PowerFacts, ReadFile, a
// session, a bundle's copy) reads it whole, up to that bound, instead of
// refusing what a text attribute would not hold.
var binaryFiles = sync.OnceValue(func() map[string]int64 {
	m := map[string]int64{}
	for _, r := range diagnose.FunctionFiles() {
		if r.Decode != nil && r.Size > 0 && !strings.Contains(r.File, "/") {
			m[r.File] = int64(r.Size)
		}
	}
	return m
})

// attrLimit returns the most bytes the file rel may hold: a binary file
// of a PCI function's folder its bound, any other MaxAttributeSize-1.
func attrLimit(rel string) int64 {
	dir, name := path.Split(rel)
	if n, ok := binaryFiles()[name]; ok && dir != "" && pciFunctionName.MatchString(path.Base(dir[:len(dir)-1])) {
		return n
	}
	return MaxAttributeSize - 1
}

// rawAttr is attr for a binary file: its bytes untrimmed.
func (fs FS) rawAttr(rel string) rawAttr {
	v, ok, err := fs.readRawOptional(rel)
	return rawAttr{Path: rel, Value: v, Present: ok || err != nil, Err: err}
}

// decoded is the fact of a binary file read (f, its bytes in Value) as
// decode makes it; a file absent or unreadable stays as f says.
func decoded(f diagnose.Fact, decode func([]byte) diagnose.Fact) diagnose.Fact {
	if f.Status != diagnose.Read {
		return f
	}
	d := decode([]byte(f.Value))
	d.Source = f.Source
	return d
}

// wouldWake says why reading the config file of function i of path (the
// drive's function first, then each bridge up to the root port) would
// change the power state it is read to report, or "" when it would not:
// the kernel resumes the function's parent bridge to read its config
// space, and the function itself when it is in D3cold (pci-sysfs.c's
// pci_config_pm_runtime_get). A function or bridge that is runtime
// suspended (or on its way in or out) is left as it is: a drive woken by a
// diagnosis is not the drive that was diagnosed, and a scrape that woke it
// every 15 s would keep it from sleeping.
func wouldWake(path []diagnose.Function, i int) string {
	asleep := func(fn *diagnose.Function) string {
		if fn.RuntimeStatus.Status == diagnose.Read {
			switch fn.RuntimeStatus.Value {
			case "active", "unsupported":
			default:
				return "runtime " + fn.RuntimeStatus.Value
			}
		}
		if fn.PowerState.Status == diagnose.Read && fn.PowerState.Value == "D3cold" {
			return "in D3cold"
		}
		return ""
	}
	if why := asleep(&path[i]); why != "" {
		return "while " + why + ": reading config space would wake it (" + path[i].Address + ")"
	}
	if i+1 < len(path) {
		if why := asleep(&path[i+1]); why != "" {
			return "while its bridge is " + why + ": reading config space below it would wake it (" + path[i+1].Address + ")"
		}
	}
	return ""
}
