//go:build nolog

package main

import (
	"errors"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// withLog is false in app.wasm (built with the nolog tag): the page loads
// app-log.wasm, which diagnoses kernel logs, the first time one is pasted.
const withLog = false

// diagnoseLog refuses: this build has no diagnosis.
func diagnoseLog(*Request, *powerstate.Controller) (*DiagnosisView, string, error) {
	return nil, "log", errors.New("the kernel log's diagnosis is still loading: it is fetched the first time a log is pasted")
}
