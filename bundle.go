package nvmeapst

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/internal/safeio"
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
// APSTE, the power state and every failed command are in the manifest, and
// so is every sysfs file that existed but could not be read (Skipped, with
// why). The manifest is written last: a directory without one is not a
// bundle, and one still holding [sysfs.IncompleteMarker] is an unfinished
// collect that neither [OpenBundle] nor package sysfs reads. The admin
// command files are read as files, which may have been damaged or
// replaced since: Identify data that does not look like an Identify
// Controller image ([powerstate.CheckIdentify]) and an APST table with an
// entry's reserved bits 2:0 set are the controller's problem (ErrBundle),
// never decoded into a drive.

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
//
// The zero Manifest describes no bundle: its Format is not BundleFormat
// and its Version is 0, so OpenBundle refuses a manifest that reads as it
// with an error wrapping ErrBundle.
type Manifest struct {
	Format  string    `json:"format"`
	Version int       `json:"version"`
	Created time.Time `json:"created"`
	// KernelRelease is uname -r of the machine; empty when it could not be
	// read (then KernelReleaseError says why) or when the System collected
	// has none (a sysfs tree: both are empty).
	KernelRelease      string `json:"kernel_release"`
	KernelReleaseError string `json:"kernel_release_error,omitempty"`
	// Files lists the sysfs files copied, relative to the sysfs root.
	Files []string `json:"files"`
	// Skipped lists sysfs files that exist but could not be read, with why
	// ("permission denied", "not a regular file: a named pipe (FIFO)"); a
	// path "class/nvme/NAME" is a controller whose file list could not be
	// made. OpenBundle reads them as unreadable, never as absent.
	Skipped []SkippedFile `json:"skipped,omitempty"`
	// Controllers holds the admin command results per controller.
	Controllers []BundleController `json:"controllers"`
	// PCIPaths maps each controller to the folder of its PCI function
	// (sysfs.Snapshot.PCIPaths), whose link the bundle keeps as a folder.
	PCIPaths map[string]string `json:"pci_paths,omitempty"`
	// CommandLine is /proc/cmdline; CommandLineError says why it is
	// missing.
	CommandLine      string `json:"command_line,omitempty"`
	CommandLineError string `json:"command_line_error,omitempty"`
	// KernelLog is the bundle path of the NVMe and PCIe lines of the kernel
	// log (KernelLogName); KernelLogError says why it is missing.
	KernelLog      string `json:"kernel_log,omitempty"`
	KernelLogError string `json:"kernel_log_error,omitempty"`
}

// SkippedFile is a sysfs file a bundle lacks, and why.
//
// The zero SkippedFile names no file and gives no reason.
type SkippedFile struct {
	Path  string `json:"path"`
	Error string `json:"error"`
}

// BundleController records the admin commands sent to one controller.
//
// The zero BundleController records no command, not even a name: OpenBundle
// serves its Identify data, APST feature and power management as errors
// wrapping ErrBundle, and its health log as unsupported
// (ioctl.ErrUnsupported).
type BundleController struct {
	Name string `json:"name"`
	// OpenError is set when the device could not be opened; nothing else
	// is then recorded.
	OpenError *Problem `json:"open_error,omitempty"`
	// Identify is the bundle path of the 4096-byte Identify image.
	Identify      string   `json:"identify,omitempty"`
	IdentifyError *Problem `json:"identify_error,omitempty"`
	// APST is the bundle path of the 256-byte Get Features 0Ch data and
	// APSTE bit 0 of its completion dword 0; APSTEUnknown is set instead
	// when the source did not say (APSTE is then false and means nothing).
	APST         string   `json:"apst,omitempty"`
	APSTE        bool     `json:"apste"`
	APSTEUnknown bool     `json:"apste_unknown,omitempty"`
	APSTError    *Problem `json:"apst_error,omitempty"`
	// PowerManagement is the Get Features 02h result.
	PowerManagement      *BundlePowerManagement `json:"power_management,omitempty"`
	PowerManagementError *Problem               `json:"power_management_error,omitempty"`
	// Health is the bundle path of the 512-byte SMART / Health log page
	// (Get Log Page 02h); HealthError says why it failed. Neither is set
	// when the source could not send the command at all.
	Health      string   `json:"health,omitempty"`
	HealthError *Problem `json:"health_error,omitempty"`
}

// BundlePowerManagement is Get Features 02h: the power state and workload
// hint.
//
// The zero BundlePowerManagement is a reading of PS0 with no workload hint,
// as the zero apst.PowerManagement is.
type BundlePowerManagement struct {
	State        uint8 `json:"state"`
	WorkloadHint uint8 `json:"workload_hint"`
}

// Collect writes a bundle of the machine to dir and returns its manifest.
// dir must not exist, or be an empty directory (or a symbolic link to one,
// which is filled and stays a link). A new dir is written as a temporary
// directory next to it (".DIR.tmp-NNN") and renamed at the end; an empty
// one is filled in place. Either way a marker file ([sysfs.IncompleteMarker])
// is written first and removed last, after the manifest, so that an
// unfinished bundle is never read as one: [OpenBundle] requires the
// manifest and package sysfs refuses the marker and the temporary name. On
// any error, and when ctx is cancelled (checked between files), everything
// Collect wrote is removed; a machine of more controllers than a manifest
// may list (MaxManifestSize, some 20,000) is refused with
// ErrManifestTooLarge, nothing written.
//
// Sysfs files that do not exist are left out; files that exist but cannot be
// read (permission, not a regular file, ...) are listed in the manifest's
// Skipped with why, and [OpenBundle] reads them back as unreadable, never
// as absent. A controller that cannot be opened, or a command that fails
// (Get Features needs CAP_SYS_ADMIN), is recorded in the manifest, and
// inspecting the bundle reports it as the live machine did.
func (s *System) Collect(ctx context.Context, dir string) (man *Manifest, err error) {
	if s == nil {
		return nil, nilSystem("collect")
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("nvmeapst: collect: %w", context.Cause(ctx))
	}
	if dir == "" {
		return nil, errors.New("nvmeapst: collect: empty bundle directory name")
	}
	dest, fill, err := collectDest(dir)
	if err != nil {
		return nil, err
	}
	names, err := s.FS.ControllerNames()
	if err != nil {
		return nil, fmt.Errorf("nvmeapst: collect: %w", err)
	}
	w, err := newBundleWriter(dir, dest, fill)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			w.abort()
		}
	}()

	man = &Manifest{Format: BundleFormat, Version: BundleVersion, Created: s.now().UTC().Round(0)}
	// A System without KernelRelease (a sysfs tree) has no release to
	// read: recorded as neither, so the bundle does not turn "not exposed"
	// into a failed read.
	if s.KernelRelease != nil {
		if rel, err := s.KernelRelease(); err != nil {
			man.KernelReleaseError = err.Error()
		} else {
			man.KernelRelease = rel
		}
	}
	files, err := s.FS.SystemFiles()
	if err != nil {
		return nil, fmt.Errorf("nvmeapst: collect: %w", err)
	}
	for _, name := range names {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("nvmeapst: collect: %w", err)
		}
		cf, err := s.FS.Files(name)
		if err != nil {
			man.Skipped = append(man.Skipped, SkippedFile{Path: "class/nvme/" + name, Error: skipReason(err)})
			continue
		}
		files = append(files, cf...)
	}
	if files, err = s.collectPower(ctx, man, names, files); err != nil {
		return nil, err
	}
	for _, rel := range files {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("nvmeapst: collect: %w", err)
		}
		if dir, ok := strings.CutSuffix(rel, "/"); ok {
			// A directory whose existence matters (a namespace entry). An
			// empty marker file keeps it when the bundle is archived or
			// committed; package sysfs reads nothing inside.
			if err := w.write(path.Join(dir, keepName), nil); err != nil {
				return nil, err
			}
			man.Files = append(man.Files, rel)
			continue
		}
		b, err := s.FS.ReadFile(rel)
		switch {
		case errors.Is(err, os.ErrNotExist):
			continue
		case err != nil:
			man.Skipped = append(man.Skipped, SkippedFile{Path: rel, Error: skipReason(err)})
			continue
		}
		if err := w.write(rel, b); err != nil {
			return nil, err
		}
		man.Files = append(man.Files, rel)
	}
	for _, name := range names {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("nvmeapst: collect: %w", err)
		}
		bc, err := s.collectDevice(ctx, w, name)
		if err != nil {
			return nil, err
		}
		man.Controllers = append(man.Controllers, bc)
	}
	if err := s.collectLog(ctx, w, man); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("nvmeapst: collect: %w", err)
	}
	mj, err := json.MarshalIndent(man, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("nvmeapst: collect: %w", err)
	}
	mj = append(mj, '\n')
	if err := checkManifestSize(len(mj), len(man.Controllers)); err != nil {
		return nil, err
	}
	if err := w.commit(mj); err != nil {
		return nil, err
	}
	return man, nil
}

// skipReason is what the manifest records for a file that could not be
// read: the system's error text ("permission denied"), "not a regular file:
// a named pipe (FIFO)", or the message without its package prefix.
func skipReason(err error) string {
	var nr *safeio.NotRegularError
	var pe *fs.PathError
	if errors.As(err, &nr) || errors.As(err, &pe) && !errors.Is(err, sysfs.ErrInvalidAttribute) {
		return safeio.Reason(err)
	}
	return strings.TrimPrefix(err.Error(), "sysfs: ")
}

// collectDest checks the destination of a collect: a path that does not
// exist (fill false), or an empty directory, through a symbolic link or
// not, which is filled in place (fill true, dest the directory itself).
func collectDest(dir string) (dest string, fill bool, err error) {
	st, err := os.Stat(dir) // follows a symbolic link to the directory
	if errors.Is(err, os.ErrNotExist) {
		if lst, lerr := os.Lstat(dir); lerr == nil && lst.Mode()&fs.ModeSymlink != 0 {
			return "", false, fmt.Errorf("nvmeapst: collect: %s is a symbolic link to a directory that does not exist: %w", dir, os.ErrNotExist)
		}
		return dir, false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("nvmeapst: collect: %w", err)
	}
	if !st.IsDir() {
		return "", false, fmt.Errorf("nvmeapst: collect: %s exists and is not a directory: %w", dir, os.ErrExist)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return "", false, fmt.Errorf("nvmeapst: collect: %w", err)
	}
	if len(ents) > 0 {
		return "", false, fmt.Errorf("nvmeapst: collect: %s is not empty: %w", dir, os.ErrExist)
	}
	return dir, true, nil
}

// bundleWriter writes a bundle into its working directory: a temporary
// directory next to the destination, or the empty destination itself.
type bundleWriter struct {
	dir  string // the destination as given
	work string // where files are written
	fill bool   // work is the destination, filled in place
	// created lists the top-level names written into an empty destination,
	// which abort removes.
	created map[string]bool
}

func newBundleWriter(dir, dest string, fill bool) (*bundleWriter, error) {
	w := &bundleWriter{dir: filepath.Clean(dir), work: dest, fill: fill, created: map[string]bool{}}
	if !fill {
		parent, base := filepath.Split(filepath.Clean(dest))
		if parent == "" {
			parent = "."
		}
		// Created with the mode the umask leaves (0777 &^ umask), as
		// mkdir(1) would make the destination.
		tmp, err := safeio.MkdirTemp(parent, "."+base+".tmp-", 0o777)
		if err != nil {
			// Said of the directory the caller named, not of the
			// temporary one beside it that could not be made.
			var pe *os.PathError
			if errors.As(err, &pe) {
				err = &os.PathError{Op: "create " + dir + " in", Path: filepath.Clean(parent), Err: pe.Err}
			}
			return nil, fmt.Errorf("nvmeapst: collect: %w", err)
		}
		w.work = tmp
	}
	if err := w.write(sysfs.IncompleteMarker, []byte("a collect is writing this directory; it is not a bundle until this file is gone\n")); err != nil {
		w.abort()
		return nil, err
	}
	return w, nil
}

// write writes b at the slash-separated path rel of the bundle.
func (w *bundleWriter) write(rel string, b []byte) error {
	w.created[strings.SplitN(rel, "/", 2)[0]] = true
	p := filepath.Join(w.work, filepath.FromSlash(rel))
	// Modes as the umask leaves them: under umask 077 the files that carry
	// the drive's serial number are private to their owner.
	if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
		return w.failed(err)
	}
	if err := os.WriteFile(p, b, 0o666); err != nil {
		return w.failed(err)
	}
	return nil
}

// failed is the error of a file of the bundle, said of the destination
// the caller named ("write b/manifest.json: no space left on device"),
// not of the temporary directory beside it that is removed.
func (w *bundleWriter) failed(err error) error {
	var pe *os.PathError
	if !w.fill && errors.As(err, &pe) {
		if rel, e := filepath.Rel(w.work, pe.Path); e == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			err = &os.PathError{Op: pe.Op, Path: filepath.Join(w.dir, rel), Err: pe.Err}
		}
	}
	return fmt.Errorf("nvmeapst: collect: %w", err)
}

// commit writes the manifest (atomically, and last), removes the marker and
// moves a temporary directory to the destination.
func (w *bundleWriter) commit(manifest []byte) error {
	w.created[ManifestName] = true
	err := safeio.WriteFile(filepath.Join(w.work, ManifestName), 0o666, func(out io.Writer) error {
		_, err := out.Write(manifest)
		return err
	})
	if err != nil {
		return w.failed(err)
	}
	if err := os.Remove(filepath.Join(w.work, sysfs.IncompleteMarker)); err != nil {
		return w.failed(err)
	}
	if w.fill {
		return nil
	}
	if err := os.Rename(w.work, w.dir); err != nil {
		return fmt.Errorf("nvmeapst: collect: %w", err)
	}
	return nil
}

// abort removes what the writer wrote: the temporary directory, or every
// top-level entry it created in the destination.
func (w *bundleWriter) abort() {
	if !w.fill {
		os.RemoveAll(w.work)
		return
	}
	for name := range w.created {
		os.RemoveAll(filepath.Join(w.work, name))
	}
}

// collectDevice sends the three admin commands and writes their data.
func (s *System) collectDevice(ctx context.Context, w *bundleWriter, name string) (BundleController, error) {
	bc := BundleController{Name: name}
	if s.Opener == nil {
		bc.OpenError = &Problem{Message: "no admin command path: the data source has no device access (a sysfs tree without a bundle's ioctl data)", Unsupported: true}
		return bc, nil
	}
	dev, err := openController(ctx, s.Opener, name)
	if err != nil {
		bc.OpenError = NewProblem(err)
		return bc, nil
	}
	defer dev.Close()
	if img, err := dev.IdentifyController(ctx); err != nil {
		bc.IdentifyError = NewProblem(err)
	} else {
		bc.Identify = path.Join("ioctl", name, "identify.bin")
		if err := w.write(bc.Identify, img); err != nil {
			return bc, err
		}
	}
	if f, err := dev.GetAPST(ctx); err != nil {
		bc.APSTError = NewProblem(err)
	} else {
		b, _ := f.Table.MarshalBinary()
		bc.APST, bc.APSTE = path.Join("ioctl", name, "apst.bin"), f.APSTE == apst.APSTEEnabled
		bc.APSTEUnknown = f.APSTE == apst.APSTEUnknown
		if err := w.write(bc.APST, b); err != nil {
			return bc, err
		}
	}
	if pm, err := dev.GetPowerManagement(ctx); err != nil {
		bc.PowerManagementError = NewProblem(err)
	} else {
		bc.PowerManagement = &BundlePowerManagement{State: pm.State, WorkloadHint: pm.WorkloadHint}
	}
	if hl, ok := dev.(ioctl.HealthLogger); ok {
		page, err := hl.HealthLog(ctx)
		switch {
		case errors.Is(err, ioctl.ErrUnsupported):
		case err != nil:
			bc.HealthError = NewProblem(err)
		default:
			bc.Health = path.Join("ioctl", name, "health.bin")
			if err := w.write(bc.Health, page); err != nil {
				return bc, err
			}
		}
	}
	return bc, nil
}

// HealthLog serves the SMART / Health log page the bundle recorded.
func (d *bundleDevice) HealthLog(ctx context.Context) ([]byte, error) {
	switch {
	case d.c.HealthError != nil:
		return nil, d.c.HealthError
	case d.c.Health == "":
		return nil, fmt.Errorf("the bundle has no SMART / Health log for %s: %w", d.c.Name, ioctl.ErrUnsupported)
	}
	return d.file(d.c.Health, ioctl.HealthLogSize)
}

// OpenBundle opens a bundle written by [System.Collect]: its sysfs files
// through package sysfs, its admin command data through the returned
// System's Opener, and the kernel release from its manifest.
//
// Nothing in a bundle is trusted: every path is resolved inside dir
// (symbolic links included: one pointing outside is an error, not a way to
// show another file's bytes), every file must be a regular one, and reads
// are bounded. A directory without a manifest, or one a collect had not
// finished (sysfs.ErrIncomplete), is not a bundle (ErrBundle). The files the
// manifest lists as skipped, and those it lists as collected that the
// bundle lacks, read as unreadable, never as absent; a controller the
// manifest lists that the bundle lacks is an error of System.FS.Controllers
// (wrapping sysfs.ErrMissingController), which Inspect reports as a problem.
func OpenBundle(dir string) (*System, *Manifest, error) {
	fsys, err := sysfs.NewFS(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrBundle, err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrBundle, err)
	}
	defer root.Close()
	b, err := safeio.ReadFileInRoot(root, ManifestName, MaxManifestSize)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, fmt.Errorf("%w: %s has no %s (not a bundle, or a collect that did not finish): %w", ErrBundle, dir, ManifestName, err)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrBundle, err)
	}
	var man Manifest
	if err := json.Unmarshal(b, &man); err != nil {
		return nil, nil, fmt.Errorf("%w: %s: %w", ErrBundle, filepath.Join(dir, ManifestName), err)
	}
	if man.Format != BundleFormat || man.Version < 1 || man.Version > BundleVersion {
		return nil, nil, fmt.Errorf("%w: %s: format %q version %d, want %q version %d", ErrBundle, filepath.Join(dir, ManifestName), man.Format, man.Version, BundleFormat, BundleVersion)
	}
	snap := sysfs.Snapshot{Unreadable: map[string]string{}}
	for _, sk := range man.Skipped {
		snap.Unreadable[path.Clean(sk.Path)] = "not collected: " + sk.Error
	}
	for _, rel := range man.Files {
		if _, err := root.Stat(filepath.FromSlash(strings.TrimSuffix(rel, "/"))); errors.Is(err, fs.ErrNotExist) {
			snap.Unreadable[path.Clean(rel)] = "listed in " + ManifestName + " but missing from the bundle"
		} else if err != nil {
			// A link out of the bundle (never followed), a permission.
			snap.Unreadable[path.Clean(rel)] = "listed in " + ManifestName + " but unreadable in the bundle: " + safeio.Reason(err)
		}
	}
	ctrls := make(map[string]BundleController, len(man.Controllers))
	for _, c := range man.Controllers {
		ctrls[c.Name] = c
		snap.Controllers = append(snap.Controllers, c.Name)
	}
	snap.PCIPaths = man.PCIPaths
	created := man.Created
	release, releaseErr := man.KernelRelease, man.KernelReleaseError
	s := &System{
		FS:     fsys.WithSnapshot(snap),
		Opener: &bundleOpener{dir: dir, ctrls: ctrls},
		KernelRelease: func() (string, error) {
			if releaseErr != "" {
				return "", errors.New(releaseErr)
			}
			return release, nil
		},
		Now: func() time.Time { return created },
	}
	bundleLogs(s, dir, &man)
	return s, &man, nil
}

// bundleOpener serves the admin command data a bundle recorded. A
// MetricsReader recognises it and reads the files itself, relative to the
// bundle's root it holds open.
type bundleOpener struct {
	dir   string
	ctrls map[string]BundleController
	// files is what a session (openSession) keeps open; nil otherwise.
	files *bundleFiles
}

// OpenController returns the recorded controller name.
func (o *bundleOpener) OpenController(_ context.Context, name string) (ioctl.Controller, error) {
	c, ok := o.ctrls[name]
	if !ok {
		return nil, &Problem{Message: "bundle has no admin command data for " + name, NotExist: true}
	}
	if c.OpenError != nil {
		return nil, c.OpenError
	}
	return &bundleDevice{dir: o.dir, c: c, files: o.files}, nil
}

// MaxManifestSize is the largest manifest.json a bundle may hold:
// OpenBundle (and a survey that meets a bundle) reads no more, and Collect
// refuses to write a bundle whose manifest would be larger
// (ErrManifestTooLarge), so that what collect writes is read back. A
// controller takes about 750 bytes of it, so it holds some 20,000.
const MaxManifestSize = 16 << 20

// ErrManifestTooLarge: Collect found more than a bundle's manifest can
// list (MaxManifestSize); nothing is written.
var ErrManifestTooLarge = errors.New("nvmeapst: collect: the manifest would be larger than a bundle may hold")

// checkManifestSize refuses a manifest of n bytes for ctls controllers
// beyond MaxManifestSize.
func checkManifestSize(n, ctls int) error {
	if n > MaxManifestSize {
		return fmt.Errorf("%w: %d bytes for %d controllers, at most %d (MaxManifestSize)", ErrManifestTooLarge, n, ctls, MaxManifestSize)
	}
	return nil
}

// bundleDevice serves a controller's recorded admin command results.
type bundleDevice struct {
	dir   string
	c     BundleController
	files *bundleFiles // the opener's session, nil without one
}

var _ ioctl.Controller = (*bundleDevice)(nil)

func (d *bundleDevice) file(rel string, size int) ([]byte, error) {
	clean := path.Clean(rel)
	if path.IsAbs(clean) || strings.HasPrefix(clean, "../") || clean == ".." {
		return nil, fmt.Errorf("%w: path %q leaves the bundle", ErrBundle, rel)
	}
	if d.files != nil {
		if b, ok := d.files.read(clean, size); ok {
			return b, nil
		}
	}
	root, err := os.OpenRoot(d.dir)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBundle, err)
	}
	defer root.Close()
	b, err := safeio.ReadFileInRoot(root, filepath.FromSlash(clean), int64(size))
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
	b, err := d.file(d.c.Identify, powerstate.IdentifySize)
	if err != nil {
		return nil, err
	}
	if err := checkBundleIdentify(d.c.Identify, b); err != nil {
		return nil, err
	}
	return b, nil
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
	if err := checkBundleTable(d.c.APST, &t); err != nil {
		return apst.Feature{}, err
	}
	apste := apst.APSTEOf(d.c.APSTE)
	if d.c.APSTEUnknown {
		apste = apst.APSTEUnknown
	}
	return apst.Feature{APSTE: apste, Table: t}, nil
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
