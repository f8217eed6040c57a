package sysfs

import (
	"slices"

	"fmt"
	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	iofs "io/fs"
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

// rawAttr is one attribute read for a diagnosis: its value, whether the file
// exists, and the error when it exists but could not be read. A missing file
// is Present false with a nil Err: the running kernel does not expose it,
// which is not an error.
type rawAttr struct {
	// Path is the slash-separated path relative to the root.
	Path string
	// Value is the content without surrounding white space.
	Value string
	// Present reports whether the file exists.
	Present bool
	// Err is set when the file exists but could not be read.
	Err error
}

// aspmPolicy is the pcie_aspm policy parameter.
const aspmPolicy = "module/pcie_aspm/parameters/policy"

// pciFunctionName matches a PCI function's folder name, with ':' or (in the
// fixture trees of this repository, whose file names cannot hold ':') '_'.
var pciFunctionName = regexp.MustCompile(`^[0-9a-fA-F]{4,8}[:_][0-9a-fA-F]{2}[:_][0-9a-fA-F]{2}\.[0-7]$`)

// ParseASPMPolicy returns the bracketed word of the pcie_aspm policy
// parameter (the file reads "default performance powersave
// powersupersave" with the word in force in brackets: that word is
// returned); a value without brackets is an error wrapping
// ErrInvalidAttribute.
func ParseASPMPolicy(s string) (string, error) {
	for _, w := range strings.Fields(s) {
		if len(w) > 2 && w[0] == '[' && w[len(w)-1] == ']' {
			return w[1 : len(w)-1], nil
		}
	}
	return "", fmt.Errorf("%w: ASPM policy %q has no [word] in force", ErrInvalidAttribute, s)
}

// attr reads one attribute as an rawAttr.
func (fs FS) attr(rel string) rawAttr {
	v, ok, err := fs.readOptional(rel)
	return rawAttr{Path: rel, Value: v, Present: ok || err != nil, Err: err}
}

// aspmPolicy reads the pcie_aspm policy parameter; its Value is the word
// in force, the one the raw file ("default performance powersave
// powersupersave", one word bracketed) brackets.
func (fs FS) aspmPolicy() rawAttr {
	a := fs.attr(aspmPolicy)
	if a.Present && a.Err == nil {
		if w, err := ParseASPMPolicy(a.Value); err != nil {
			a.Err = fmt.Errorf("%w (%s)", err, fs.path(aspmPolicy))
		} else {
			a.Value = w
		}
	}
	return a
}

// PowerFiles returns the paths of the files PowerFacts reads for controller
// name that exist (as Files does), and the resolved folder of its PCI
// function. The folder is "" when it has none; a copy of the tree records
// it in its snapshot (Snapshot.PCIPaths) because a copy keeps links as
// folders.
func (fs FS) PowerFiles(name string) (files []string, pciDir string, err error) {
	fs, done, err := fs.session()
	if err != nil {
		return nil, "", err
	}
	defer done()
	if err := checkName(name); err != nil {
		return nil, "", err
	}
	if err := fs.checkControllerDir(name); err != nil {
		return nil, "", err
	}
	dir := controllerDir(name)
	var cands []string
	for _, r := range diagnose.ControllerFiles() {
		if !slices.Contains(controllerAttrs, r.File) { // Files lists those
			cands = append(cands, path.Join(dir, r.File))
		}
	}
	dirs, _ := fs.pciPath(name)
	// A binary file (config) is copied only where reading it wakes
	// nothing (wouldWake), as PowerFacts reads it.
	fns := make([]diagnose.Function, len(dirs))
	for i, d := range dirs {
		fns[i].Address = strings.ReplaceAll(path.Base(d), "_", ":")
		fns[i].RuntimeStatus = factOf(fs.attr(join(d, "power/runtime_status")))
		fns[i].PowerState = factOf(fs.attr(join(d, "power_state")))
	}
	for i, d := range dirs {
		for _, r := range diagnose.FunctionFiles() {
			if r.Decode != nil && wouldWake(fns, i) != "" {
				continue
			}
			cands = append(cands, path.Join(d, r.File))
		}
	}
	if len(dirs) > 0 {
		pciDir = dirs[0]
	}
	files, err = fs.existing(cands)
	return files, pciDir, err
}

// pciPath returns the folders of the controller's PCI function and of each
// bridge above it, device first.
func (fs FS) pciPath(name string) ([]string, string) {
	dev := ""
	if fs.snap != nil && fs.snap.pciPaths[name] != "" {
		dev = fs.snap.pciPaths[name]
	} else {
		link := join(controllerDir(name), "device")
		resolved, err := fs.resolve(link)
		switch {
		case isNotExist(err):
			return nil, link + " is absent: not a PCI function"
		case err != nil:
			return nil, "the PCI path could not be resolved: " + err.Error()
		}
		dev = resolved
	}
	var dirs []string
	for d := dev; d != "." && d != "/" && pciFunctionName.MatchString(path.Base(d)); d = path.Dir(d) {
		dirs = append(dirs, d)
	}
	if len(dirs) == 0 {
		return nil, "the controller's device folder " + dev + " is not a PCI function's (a bundle without its PCI path, or a fabrics controller)"
	}
	return dirs, ""
}

// maxLinks bounds the symbolic links resolve follows.
const maxLinks = 40

// resolve returns rel with every symbolic link on it resolved, inside the
// tree: a link that leaves it is an error.
func (fs FS) resolve(rel string) (string, error) {
	r, done, err := fs.openRoot()
	if err != nil {
		return "", err
	}
	defer done()
	parts := strings.Split(path.Clean(rel), "/")
	cur := ""
	for hops := 0; len(parts) > 0; {
		next := path.Join(cur, parts[0])
		parts = parts[1:]
		fi, err := r.Lstat(filepath.FromSlash(next))
		if err != nil {
			return "", fmt.Errorf("sysfs: %w", fs.fullPath(next, err))
		}
		if fi.Mode()&iofs.ModeSymlink == 0 {
			cur = next
			continue
		}
		if hops++; hops > maxLinks {
			return "", fmt.Errorf("sysfs: %s: more than %d symbolic links", fs.path(rel), maxLinks)
		}
		target, err := r.Readlink(filepath.FromSlash(next))
		if err != nil {
			return "", fmt.Errorf("sysfs: %w", fs.fullPath(next, err))
		}
		target = filepath.ToSlash(target)
		if path.IsAbs(target) {
			return "", fmt.Errorf("sysfs: %s: link to the absolute path %s", fs.path(next), target)
		}
		joined := path.Clean(path.Join(cur, target))
		if joined == ".." || strings.HasPrefix(joined, "../") {
			return "", fmt.Errorf("sysfs: %s: link %s leaves the tree", fs.path(next), target)
		}
		parts = append(strings.Split(joined, "/"), parts...)
		cur = ""
	}
	return cur, nil
}
