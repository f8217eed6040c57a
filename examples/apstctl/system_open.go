package main

import (
	"errors"
	"fmt"
	"os"

	nvmeapst "github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/apst"
)

// liveSystem opens the running machine; tests replace it.
var liveSystem = nvmeapst.Live

// openSystem returns the live machine, or the bundle or sysfs tree at root
// when root is set (a root that cannot be opened is an input error).
func openSystem(root string) (*nvmeapst.System, error) {
	if root == "" {
		return liveSystem()
	}
	if _, err := os.Stat(root); err != nil {
		return nil, inputErr(fmt.Errorf("--root: %w", err))
	}
	s, err := nvmeapst.OpenRoot(root)
	if err != nil {
		return nil, inputErr(err)
	}
	return s, nil
}

// systemError classifies an error of the library: a controller or value
// named wrongly, or a bundle that is not one, is bad input (exit 2),
// anything else a runtime failure (exit 1).
func systemError(err error) error {
	if errors.Is(err, nvmeapst.ErrNoController) || errors.Is(err, nvmeapst.ErrBundle) || errors.Is(err, apst.ErrInvalidTolerance) {
		return inputErr(err)
	}
	return err
}

// addRootFlag defines --root DIR.
func addRootFlag(fs *flagSet, what string) *string {
	return fs.String("root", "DIR", "", what)
}
