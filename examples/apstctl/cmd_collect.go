package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	nvmeapst "github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/examples/internal/view"
)

func collectCommand() *command {
	fs := newFlagSet("collect")
	root := addRootFlag(fs, "collect from the sysfs tree or bundle at DIR instead of the live system")
	format := addOutputFormat(fs)
	c := &command{
		name:      "collect",
		usageLine: "collect [flags] BUNDLE-DIR",
		short:     "write a bundle of this machine's APST state for another machine",
		long: `
Writes a bundle to BUNDLE-DIR (which must not exist, or be empty): the sysfs files inspect reads,
under their paths below /sys, each controller's Identify Controller data and APST feature, and a
manifest with the time and the kernel release. "apstctl inspect --root BUNDLE-DIR" then shows the
report of this machine anywhere. Run it as root to include the APST tables (Get Features needs
CAP_SYS_ADMIN); failures are recorded in the bundle. ^C leaves nothing behind. With -o json the
manifest is printed; --output writes that report to a file outside BUNDLE-DIR.`,
		examples: []string{
			"collect /tmp/apst-bundle",
			"collect --root testdata/bundle /tmp/apst-copy -o json",
		},
		flags:   fs,
		minArgs: 1, maxArgs: 1,
	}
	c.check = func(args []string) error {
		if out := reportFile(c); out != "" && args[0] != "" && inside(out, args[0]) {
			return usagef("--output %s is inside the bundle directory %s: the bundle holds only what collect writes; write the report elsewhere", quoteArg(out), quoteArg(args[0]))
		}
		return nil
	}
	c.run = func(ctx context.Context, x *invocation, args []string) error {
		dir := args[0]
		if dir == "" {
			return usagef("the bundle directory is empty: give a path")
		}
		sys, err := openSystem(*root)
		if err != nil {
			return err
		}
		_, statErr := os.Lstat(dir)
		existed := statErr == nil // an empty directory collect fills
		man, err := sys.Collect(ctx, dir)
		if err != nil {
			if errors.Is(err, os.ErrExist) {
				return inputErr(err)
			}
			return systemError(err)
		}
		liveChangeHook("collect report")
		err = collectReport(x, dir, man, format.json)
		if ctx.Err() != nil && !isBrokenPipe(ctx) {
			// A signal while the report was printed (its reader slow or
			// stopped): ^C leaves nothing behind, the bundle included.
			// SIGPIPE is a reader that has read enough (| head -1): the
			// bundle stands.
			removeBundle(dir, existed)
		}
		return err
	}
	return c
}

// collectReport prints what collect wrote to dir: its warnings on standard
// error, then the manifest (JSON) or a summary.
func collectReport(x *invocation, dir string, man *nvmeapst.Manifest, asJSON bool) error {
	for _, c := range man.Controllers {
		for _, p := range []struct {
			what string
			p    *nvmeapst.Problem
		}{{"open", c.OpenError}, {"identify", c.IdentifyError}, {"get features APST", c.APSTError}, {"get features power management", c.PowerManagementError}} {
			if p.p != nil {
				fmt.Fprintf(x.errw, "apstctl collect: warning: %s: %s: %s (recorded in the bundle)\n", view.Escape(c.Name), p.what, problemText(p.p))
			}
		}
	}
	for _, s := range man.Skipped {
		fmt.Fprintf(x.errw, "apstctl collect: warning: %s not collected: %s\n", view.Escape(s.Path), view.EscapeMessage(s.Error))
	}
	if asJSON {
		return writeJSON(x.out, man)
	}
	release := man.KernelRelease
	if release == "" {
		release = "unknown"
	}
	w := x.out
	fmt.Fprintf(w, "wrote %s: %d controller(s), %d sysfs file(s), kernel %s, %s\n",
		view.Escape(dir), len(man.Controllers), len(man.Files), view.Escape(release), man.Created.Format("2006-01-02 15:04:05 MST"))
	for _, c := range man.Controllers {
		status := "identify and APST table"
		switch {
		case c.OpenError != nil:
			status = "no admin command data"
		case c.Identify == "":
			status = "no identify data"
		case c.APST == "" && (c.APSTError == nil || c.APSTError.Permission):
			status = "identify only (the APST table needs root)"
		case c.APST == "":
			// Another reason (a source bundle's file that is no
			// regular file, a command the drive failed): its warning
			// above says which.
			status = "identify only (the APST table could not be read)"
		}
		fmt.Fprintf(w, "  %s: %s\n", view.Escape(c.Name), status)
	}
	fmt.Fprintf(w, "inspect it with: apstctl inspect --root %s\n", view.Escape(dir))
	return nil
}

// removeBundle removes the bundle collect wrote to dir: dir itself when
// collect made it, else what collect put in it (dir was empty).
func removeBundle(dir string, existed bool) {
	if !existed {
		os.RemoveAll(dir)
		return
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		os.RemoveAll(filepath.Join(dir, e.Name()))
	}
}

// inside reports whether path is dir or lies below it, once both are made
// absolute and the symbolic links of what exists of them resolved.
func inside(path, dir string) bool {
	p, d := resolvedPath(path), resolvedPath(dir)
	rel, err := filepath.Rel(d, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// resolvedPath is path made absolute, with the symbolic links of its
// longest existing prefix resolved.
func resolvedPath(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	var rest []string
	for p := abs; ; p = filepath.Dir(p) {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(append([]string{r}, rest...)...)
		}
		if filepath.Dir(p) == p {
			return abs
		}
		rest = append([]string{filepath.Base(p)}, rest...)
	}
}
