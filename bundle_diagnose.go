package nvmeapst

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/nvmeapst/nvmeapst/internal/safeio"
)

// KernelLogName is the bundle file holding the NVMe and PCIe lines of the
// kernel log.
const KernelLogName = "kern.log"

// MaxBundleLog bounds the kernel log a bundle keeps (its newest lines).
const MaxBundleLog = 4 << 20

// collectPower adds the power-management files of the controllers (the
// diag/ counters, the PCI path's power and link files, the ASPM policy) to
// files, once each, and records each controller's PCI folder. It stops
// between controllers once ctx is done.
func (s *System) collectPower(ctx context.Context, man *Manifest, names, files []string) ([]string, error) {
	seen := map[string]bool{}
	for _, f := range files {
		seen[f] = true
	}
	add := func(f string) {
		if !seen[f] {
			seen[f] = true
			files = append(files, f)
		}
	}
	if _, err := s.FS.ReadFile("module/pcie_aspm/parameters/policy"); !errors.Is(err, os.ErrNotExist) {
		add("module/pcie_aspm/parameters/policy")
	}
	for _, n := range names {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("nvmeapst: collect: %w", err)
		}
		pf, dir, err := s.FS.PowerFiles(n)
		if err != nil {
			continue // Files already recorded why the controller is missing
		}
		for _, f := range pf {
			add(f)
		}
		if dir != "" {
			if man.PCIPaths == nil {
				man.PCIPaths = map[string]string{}
			}
			man.PCIPaths[n] = dir
		}
	}
	return files, nil
}

// collectLog records the command line and the NVMe and PCIe lines of the
// kernel log.
func (s *System) collectLog(ctx context.Context, w *bundleWriter, man *Manifest) error {
	if s.CommandLine != nil {
		v, err := s.CommandLine()
		switch {
		case errors.Is(err, errNotRecorded): // a bundle of a bundle that had none
		case err != nil:
			man.CommandLineError = err.Error()
		default:
			man.CommandLine = v
		}
	}
	if s.KernelLog == nil {
		return nil
	}
	rc, err := s.KernelLog(ctx)
	if err != nil {
		man.KernelLogError = err.Error()
		return nil
	}
	defer rc.Close()
	b, err := relevantLog(ctx, rc, MaxBundleLog)
	if err != nil {
		if ctx.Err() != nil {
			return err
		}
		man.KernelLogError = err.Error()
	}
	if err := w.write(KernelLogName, b); err != nil {
		return err
	}
	man.KernelLog = KernelLogName
	return nil
}

// bundleLogs makes a bundle's System serve its command line and kernel
// log.
func bundleLogs(s *System, dir string, man *Manifest) {
	cmdline, cmdErr := man.CommandLine, man.CommandLineError
	s.CommandLine = func() (string, error) {
		switch {
		case cmdErr != "":
			return "", errors.New(cmdErr)
		case cmdline == "":
			return "", errNotRecorded
		}
		return cmdline, nil
	}
	logPath, logErr := man.KernelLog, man.KernelLogError
	s.KernelLog = func(context.Context) (io.ReadCloser, error) {
		if logPath == "" {
			if logErr != "" {
				return nil, errors.New("the bundle has no kernel log: " + logErr)
			}
			return nil, &Problem{Message: "the bundle has no kernel log", NotExist: true}
		}
		root, err := os.OpenRoot(dir)
		if err != nil {
			return nil, err
		}
		defer root.Close()
		b, err := safeio.ReadFileInRoot(root, filepath.FromSlash(logPath), MaxBundleLog+1)
		if err != nil {
			return nil, err
		}
		return io.NopCloser(strings.NewReader(string(b))), nil
	}
}
