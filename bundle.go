package nvmeapst

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/ioctl"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/sysfs"
)

// A bundle is a directory that holds what [System.Inspect] reads of a
// machine, so that the machine can be inspected elsewhere:
//
//	manifest.json                          the Manifest
//	class/nvme/nvme0/model ...             sysfs files, at their paths under /sys
//	class/nvme/nvme0/device/vendor ...     (links are stored as directories)
//	module/nvme_core/parameters/...
//	class/dmi/id/...
//	ioctl/nvme0/identify.bin               Identify Controller, 4096 bytes
//	ioctl/nvme0/apst.bin                   Get Features 0Ch data, 256 bytes
//
// APSTE, the power state and every failed command are in the manifest.

// keepName marks a directory of a bundle that holds no file.
const keepName = ".keep"

// ManifestName is the name of a bundle's manifest.
const ManifestName = "manifest.json"

// BundleFormat identifies a bundle's manifest.
const BundleFormat = "nvmeapst-bundle"

// BundleVersion is the version of the bundle layout this package writes.
const BundleVersion = 1

// ErrBundle is returned for a directory that is not a readable bundle.
var ErrBundle = errors.New("nvmeapst: invalid bundle")

// Manifest describes a bundle.
type Manifest struct {
	Format  string    `json:"format"`
	Version int       `json:"version"`
	Created time.Time `json:"created"`
	// KernelRelease is uname -r of the machine; empty when it could not be
	// read (then KernelReleaseError says why).
	KernelRelease      string `json:"kernel_release"`
	KernelReleaseError string `json:"kernel_release_error,omitempty"`
	// Files lists the sysfs files copied, relative to the sysfs root.
	Files []string `json:"files"`
	// Skipped lists sysfs files that exist but could not be read.
	Skipped []SkippedFile `json:"skipped,omitempty"`
	// Controllers holds the admin command results per controller.
	Controllers []BundleController `json:"controllers"`
}

// SkippedFile is a sysfs file a bundle lacks, and why.
type SkippedFile struct {
	Path  string `json:"path"`
	Error string `json:"error"`
}

// BundleController records the admin commands sent to one controller.
type BundleController struct {
	Name string `json:"name"`
	// OpenError is set when the device could not be opened; nothing else
	// is then recorded.
	OpenError *Problem `json:"open_error,omitempty"`
	// Identify is the bundle path of the 4096-byte Identify image.
	Identify      string   `json:"identify,omitempty"`
	IdentifyError *Problem `json:"identify_error,omitempty"`
	// APST is the bundle path of the 256-byte Get Features 0Ch data and
	// APSTE bit 0 of its completion dword 0.
	APST      string   `json:"apst,omitempty"`
	APSTE     bool     `json:"apste"`
	APSTError *Problem `json:"apst_error,omitempty"`
	// PowerManagement is the Get Features 02h result.
	PowerManagement      *BundlePowerManagement `json:"power_management,omitempty"`
	PowerManagementError *Problem               `json:"power_management_error,omitempty"`
}

// BundlePowerManagement is Get Features 02h: the power state and workload
// hint.
type BundlePowerManagement struct {
	State        uint8 `json:"state"`
	WorkloadHint uint8 `json:"workload_hint"`
}

// Collect writes a bundle of the machine to dir, which must not exist or be
// an empty directory, and returns its manifest. The bundle is written into a
// temporary directory next to dir and renamed at the end, so an error leaves
// no partial bundle behind.
//
// Sysfs files that do not exist are left out; files that exist but cannot be
// read are listed as skipped. A controller that cannot be opened, or a
// command that fails (Get Features needs CAP_SYS_ADMIN), is recorded in the
// manifest, and inspecting the bundle reports it as the live machine did.
func (s *System) Collect(ctx context.Context, dir string) (*Manifest, error) {
	if err := checkDest(dir); err != nil {
		return nil, err
	}
	names, err := s.controllerNames()
	if err != nil {
		return nil, err
	}
	parent, base := filepath.Split(filepath.Clean(dir))
	if parent == "" {
		parent = "."
	}
	tmp, err := os.MkdirTemp(parent, "."+base+".tmp-")
	if err != nil {
		return nil, fmt.Errorf("nvmeapst: collect: %w", err)
	}
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(tmp)
		}
	}()

	man := &Manifest{Format: BundleFormat, Version: BundleVersion, Created: s.now().UTC().Round(0)}
	if rel, err := s.kernelRelease(); err != nil {
		man.KernelReleaseError = err.Error()
	} else {
		man.KernelRelease = rel
	}
	root := s.FS.Root()
	files, err := s.FS.SystemFiles()
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		cf, err := s.FS.Files(name)
		if err != nil {
			man.Skipped = append(man.Skipped, SkippedFile{Path: "class/nvme/" + name, Error: err.Error()})
			continue
		}
		files = append(files, cf...)
	}
	for _, rel := range files {
		if dir, ok := strings.CutSuffix(rel, "/"); ok {
			// A directory whose existence matters (a namespace entry). An
			// empty marker file keeps it when the bundle is archived or
			// committed; package sysfs reads nothing inside.
			if err := writeFile(tmp, path.Join(dir, keepName), nil); err != nil {
				return nil, err
			}
			man.Files = append(man.Files, rel)
			continue
		}
		b, err := readBounded(filepath.Join(root, filepath.FromSlash(rel)), maxAttrSize)
		switch {
		case errors.Is(err, os.ErrNotExist):
			continue
		case err != nil:
			man.Skipped = append(man.Skipped, SkippedFile{Path: rel, Error: err.Error()})
			continue
		}
		if err := writeFile(tmp, rel, b); err != nil {
			return nil, err
		}
		man.Files = append(man.Files, rel)
	}
	for _, name := range names {
		bc, err := s.collectDevice(ctx, tmp, name)
		if err != nil {
			return nil, err
		}
		man.Controllers = append(man.Controllers, bc)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	mj, err := json.MarshalIndent(man, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := writeFile(tmp, ManifestName, append(mj, '\n')); err != nil {
		return nil, err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return nil, err
	}
	if err := renameInto(tmp, dir); err != nil {
		return nil, err
	}
	ok = true
	return man, nil
}

// collectDevice sends the three admin commands and writes their data.
func (s *System) collectDevice(ctx context.Context, tmp, name string) (BundleController, error) {
	bc := BundleController{Name: name}
	if s.Opener == nil {
		bc.OpenError = &Problem{Message: "no admin command path: the data source has no device access (a sysfs tree without a bundle's ioctl data)", Unsupported: true}
		return bc, nil
	}
	dev, err := s.Opener.OpenController(ctx, name)
	if err != nil {
		bc.OpenError = NewProblem(err)
		return bc, nil
	}
	defer dev.Close()
	if img, err := dev.IdentifyController(ctx); err != nil {
		bc.IdentifyError = NewProblem(err)
	} else {
		bc.Identify = path.Join("ioctl", name, "identify.bin")
		if err := writeFile(tmp, bc.Identify, img); err != nil {
			return bc, err
		}
	}
	if f, err := dev.GetAPST(ctx); err != nil {
		bc.APSTError = NewProblem(err)
	} else {
		b, _ := f.Table.MarshalBinary()
		bc.APST, bc.APSTE = path.Join("ioctl", name, "apst.bin"), f.Enabled
		if err := writeFile(tmp, bc.APST, b); err != nil {
			return bc, err
		}
	}
	if pm, err := dev.GetPowerManagement(ctx); err != nil {
		bc.PowerManagementError = NewProblem(err)
	} else {
		bc.PowerManagement = &BundlePowerManagement{State: pm.State, WorkloadHint: pm.WorkloadHint}
	}
	return bc, nil
}

// checkDest refuses a destination that exists and is not an empty directory.
func checkDest(dir string) error {
	st, err := os.Stat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("nvmeapst: collect: %w", err)
	}
	if !st.IsDir() {
		return fmt.Errorf("nvmeapst: collect: %s exists and is not a directory: %w", dir, os.ErrExist)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("nvmeapst: collect: %w", err)
	}
	if len(ents) > 0 {
		return fmt.Errorf("nvmeapst: collect: %s is not empty: %w", dir, os.ErrExist)
	}
	return nil
}

// renameInto moves the finished bundle to dir, replacing an empty dir.
func renameInto(tmp, dir string) error {
	if st, err := os.Stat(dir); err == nil && st.IsDir() {
		if err := os.Remove(dir); err != nil { // fails unless empty
			return fmt.Errorf("nvmeapst: collect: %w", err)
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		return fmt.Errorf("nvmeapst: collect: %w", err)
	}
	return nil
}

// writeFile writes b at the slash-separated path rel under dir.
func writeFile(dir, rel string, b []byte) error {
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("nvmeapst: collect: %w", err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		return fmt.Errorf("nvmeapst: collect: %w", err)
	}
	return nil
}

// controllerNames lists the controllers under class/nvme, in the order
// Controllers returns them, without reading their attributes (so that a
// controller whose attributes cannot be read is still collected).
func (s *System) controllerNames() ([]string, error) {
	ents, err := os.ReadDir(filepath.Join(s.FS.Root(), "class", "nvme"))
	if err != nil {
		return nil, fmt.Errorf("nvmeapst: collect: %w", err)
	}
	var names []string
	for _, e := range ents {
		if validControllerName(e.Name()) {
			names = append(names, e.Name())
		}
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := names[i], names[j]
		if len(a) != len(b) {
			return len(a) < len(b) // nvme2 before nvme10
		}
		return a < b
	})
	return names, nil
}

// OpenBundle opens a bundle written by [System.Collect]: its sysfs files
// through package sysfs, its admin command data through the returned
// System's Opener, and the kernel release from its manifest.
func OpenBundle(dir string) (*System, *Manifest, error) {
	b, err := readBounded(filepath.Join(dir, ManifestName), 1<<20)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrBundle, err)
	}
	var man Manifest
	if err := json.Unmarshal(b, &man); err != nil {
		return nil, nil, fmt.Errorf("%w: %s: %w", ErrBundle, ManifestName, err)
	}
	if man.Format != BundleFormat || man.Version < 1 || man.Version > BundleVersion {
		return nil, nil, fmt.Errorf("%w: %s: format %q version %d, want %q version %d", ErrBundle, ManifestName, man.Format, man.Version, BundleFormat, BundleVersion)
	}
	fs, err := sysfs.NewFS(dir)
	if err != nil {
		return nil, nil, err
	}
	ctrls := make(map[string]BundleController, len(man.Controllers))
	for _, c := range man.Controllers {
		ctrls[c.Name] = c
	}
	created := man.Created
	release, releaseErr := man.KernelRelease, man.KernelReleaseError
	s := &System{
		FS: fs,
		Opener: OpenerFunc(func(_ context.Context, name string) (ioctl.Controller, error) {
			c, ok := ctrls[name]
			if !ok {
				return nil, &Problem{Message: "bundle has no admin command data for " + name, NotExist: true}
			}
			if c.OpenError != nil {
				return nil, c.OpenError
			}
			return &bundleDevice{dir: dir, c: c}, nil
		}),
		KernelRelease: func() (string, error) {
			if releaseErr != "" {
				return "", errors.New(releaseErr)
			}
			return release, nil
		},
		Now: func() time.Time { return created },
	}
	return s, &man, nil
}

// bundleDevice serves a controller's recorded admin command results.
type bundleDevice struct {
	dir string
	c   BundleController
}

var _ ioctl.Controller = (*bundleDevice)(nil)

func (d *bundleDevice) file(rel string, size int) ([]byte, error) {
	clean := path.Clean(rel)
	if path.IsAbs(clean) || strings.HasPrefix(clean, "../") || clean == ".." {
		return nil, fmt.Errorf("%w: path %q leaves the bundle", ErrBundle, rel)
	}
	b, err := readBounded(filepath.Join(d.dir, filepath.FromSlash(clean)), int64(size))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBundle, err)
	}
	return b, nil
}

func (d *bundleDevice) IdentifyController(ctx context.Context) ([]byte, error) {
	if d.c.IdentifyError != nil {
		return nil, d.c.IdentifyError
	}
	if d.c.Identify == "" {
		return nil, fmt.Errorf("%w: no Identify data for %s", ErrBundle, d.c.Name)
	}
	return d.file(d.c.Identify, powerstate.IdentifySize)
}

func (d *bundleDevice) GetAPST(ctx context.Context) (apst.Feature, error) {
	if d.c.APSTError != nil {
		return apst.Feature{}, d.c.APSTError
	}
	if d.c.APST == "" {
		return apst.Feature{}, fmt.Errorf("%w: no APST data for %s", ErrBundle, d.c.Name)
	}
	b, err := d.file(d.c.APST, apst.TableSize)
	if err != nil {
		return apst.Feature{}, err
	}
	t, err := apst.DecodeTable(b)
	if err != nil {
		return apst.Feature{}, fmt.Errorf("%w: %s: %w", ErrBundle, d.c.APST, err)
	}
	return apst.Feature{Enabled: d.c.APSTE, Table: t}, nil
}

func (d *bundleDevice) GetPowerManagement(ctx context.Context) (ioctl.PowerManagement, error) {
	if d.c.PowerManagementError != nil {
		return ioctl.PowerManagement{}, d.c.PowerManagementError
	}
	if d.c.PowerManagement == nil {
		return ioctl.PowerManagement{}, fmt.Errorf("%w: no power management data for %s", ErrBundle, d.c.Name)
	}
	return ioctl.PowerManagement{State: d.c.PowerManagement.State, WorkloadHint: d.c.PowerManagement.WorkloadHint}, nil
}

func (d *bundleDevice) Close() error { return nil }
