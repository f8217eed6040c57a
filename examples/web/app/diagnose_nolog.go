//go:build nolog

package main

import (
	"errors"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// diagnoseLog refuses: this build (app.wasm, with the nolog tag) has no
// diagnosis; the page loads app-log.wasm, which has, for a kernel log.
func diagnoseLog(*Request, *powerstate.Controller) (*DiagnosisView, string, error) {
	return nil, "log", errors.New("the kernel log's diagnosis is still loading: it is fetched the first time a log is pasted")
}
