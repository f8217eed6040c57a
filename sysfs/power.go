package sysfs

import (
	"fmt"
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

// rawLink holds the ASPM and clock PM controls of a PCIe link, the files of a
// function's link/ folder (only those the link supports; about v5.5).
type rawLink struct {
	L0s, L1, L1_1, L1_2, L1_1PCIPM, L1_2PCIPM, ClkPM rawAttr
}

// rawFunction is one PCI function on the path from a controller to its root
// port, with its power-management attributes.
type rawFunction struct {
	// Address is the PCI address ("0000:04:00.0").
	Address string
	// Dir is the function's folder relative to the root (under devices/).
	Dir string
	// D3coldAllowed, Control, RuntimeStatus and PowerState are
	// d3cold_allowed, power/control, power/runtime_status and power_state.
	D3coldAllowed, Control, RuntimeStatus, PowerState rawAttr
	// Link holds the link/ controls.
	Link rawLink
}

// rawPower is what sysfs says about the power management of one controller
// and the PCIe path above it.
type rawPower struct {
	// Controller is the controller's name.
	Controller string
	// State is the controller's state attribute.
	State rawAttr
	// ResetCount, ReconnectCount and CommandErrorCount are the diag/
	// counters of Linux 7.2.
	ResetCount, ReconnectCount, CommandErrorCount rawAttr
	// ASPMPolicy is module/pcie_aspm/parameters/policy; its Value is the
	// word in force, the one the raw file ("default performance powersave
	// powersupersave", one word bracketed) brackets.
	ASPMPolicy rawAttr
	// Path is the controller's PCI function followed by each bridge up to
	// the root port; empty for a controller that is not a PCI function.
	// PathGap says why it is empty or may be short.
	Path    []rawFunction
	PathGap string
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

// readPower reads the power-management facts of controller name: its state and
// diag/ counters, the ASPM policy, and for its PCI function and every
// bridge up to the root port d3cold_allowed, power/control,
// power/runtime_status, power_state and the link/ controls. The path is
// found by resolving class/nvme/NAME/device inside the tree (or from the
// snapshot, for a bundle whose links are folders). Files the kernel does not
// have are Present false; files that cannot be read carry their error.
// It fails only for a name that is not a controller; PowerFacts gives
// what it reads as the facts a diagnosis takes.
func (fs FS) readPower(name string) (rawPower, error) {
	fs, done, err := fs.session()
	if err != nil {
		return rawPower{}, err
	}
	defer done()
	if err := checkName(name); err != nil {
		return rawPower{}, err
	}
	if err := fs.checkControllerDir(name); err != nil {
		return rawPower{}, err
	}
	dir := controllerDir(name)
	p := rawPower{
		Controller:        name,
		State:             fs.attr(join(dir, "state")),
		ResetCount:        fs.attr(join(dir, "diag/reset_count")),
		ReconnectCount:    fs.attr(join(dir, "diag/reconnect_count")),
		CommandErrorCount: fs.attr(join(dir, "diag/command_error_count")),
		ASPMPolicy:        fs.attr(aspmPolicy),
	}
	if p.ASPMPolicy.Present && p.ASPMPolicy.Err == nil {
		if w, err := ParseASPMPolicy(p.ASPMPolicy.Value); err != nil {
			p.ASPMPolicy.Err = fmt.Errorf("%w (%s)", err, fs.path(aspmPolicy))
		} else {
			p.ASPMPolicy.Value = w
		}
	}
	dirs, gap := fs.pciPath(name)
	p.PathGap = gap
	for _, d := range dirs {
		p.Path = append(p.Path, fs.function(d))
	}
	return p, nil
}

// function reads the attributes of the PCI function in folder d.
func (fs FS) function(d string) rawFunction {
	f := rawFunction{
		Address:       strings.ReplaceAll(path.Base(d), "_", ":"),
		Dir:           d,
		D3coldAllowed: fs.attr(join(d, "d3cold_allowed")),
		Control:       fs.attr(join(d, "power/control")),
		RuntimeStatus: fs.attr(join(d, "power/runtime_status")),
		PowerState:    fs.attr(join(d, "power_state")),
	}
	for _, l := range f.Link.all() {
		*l.attr = fs.attr(join(d, "link", l.name))
	}
	return f
}

// all returns the link controls with their file names.
func (l *rawLink) all() []struct {
	name string
	attr *rawAttr
} {
	return []struct {
		name string
		attr *rawAttr
	}{
		{"l0s_aspm", &l.L0s}, {"l1_aspm", &l.L1}, {"l1_1_aspm", &l.L1_1}, {"l1_2_aspm", &l.L1_2},
		{"l1_1_pcipm", &l.L1_1PCIPM}, {"l1_2_pcipm", &l.L1_2PCIPM}, {"clkpm", &l.ClkPM},
	}
}

// powerFileNames are the files of a function PowerFacts reads.
var powerFileNames = []string{"d3cold_allowed", "power/control", "power/runtime_status", "power_state",
	"link/l0s_aspm", "link/l1_aspm", "link/l1_1_aspm", "link/l1_2_aspm", "link/l1_1_pcipm", "link/l1_2_pcipm", "link/clkpm"}

// PowerFiles returns the paths of the files PowerFacts reads for controller name
// that exist (as Files does), and the resolved folder of its PCI function
// ("" when it has none), which a copy of the tree records in its snapshot
// (Snapshot.PCIPaths) because a copy keeps links as folders.
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
	cands := []string{path.Join(dir, "diag/reset_count"), path.Join(dir, "diag/reconnect_count"), path.Join(dir, "diag/command_error_count")}
	dirs, _ := fs.pciPath(name)
	for _, d := range dirs {
		for _, f := range powerFileNames {
			cands = append(cands, path.Join(d, f))
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
