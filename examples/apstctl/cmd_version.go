package main

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/nvmeapst/nvmeapst/apst"
)

func versionCommand() *command {
	fs := newFlagSet("version")
	format := addOutputFormat(fs)
	c := &command{
		name:      "version",
		usageLine: "version [flags]",
		short:     "the module version and the newest kernel release whose tables it carries",
		long: `
Prints the version of the nvmeapst module apstctl was built from (from the build information:
"(devel)" for a build inside a clone, with the VCS revision when it was recorded), the Go version,
and the newest kernel release whose quirk tables the library carries: a newer kernel is planned
with those tables, and the output says so.`,
		examples: []string{"version", "version -o json"},
		flags:    fs,
		minArgs:  0, maxArgs: 0,
	}
	c.run = func(ctx context.Context, x *invocation, _ []string) error {
		v := buildVersion()
		if format.json {
			return writeJSON(x.out, v)
		}
		rev := ""
		if v.Revision != "" {
			rev = ", revision " + v.Revision
			if v.Modified {
				rev += " (modified)"
			}
		}
		fmt.Fprintf(x.out, "apstctl %s%s, %s\n", v.Version, rev, v.Go)
		fmt.Fprintf(x.out, "kernel quirk tables up to Linux %s\n", v.NewestKernel)
		return nil
	}
	return c
}

type versionJSON struct {
	Module       string `json:"module"`
	Version      string `json:"version"`
	Revision     string `json:"revision"`
	Modified     bool   `json:"modified"`
	Go           string `json:"go"`
	NewestKernel string `json:"newest_kernel_release"`
}

// buildVersion reads the build information.
func buildVersion() versionJSON {
	v := versionJSON{Module: "github.com/nvmeapst/nvmeapst", Version: "unknown", Go: runtime.Version(), NewestKernel: apst.NewestRelease().String()}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	if bi.Main.Path != "" {
		v.Module = bi.Main.Path
	}
	if bi.Main.Version != "" {
		v.Version = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}
