//go:build js && wasm && nolog

package main

// withLog is false in app.wasm (built with the nolog tag): the page loads
// app-log.wasm, which diagnoses kernel logs, the first time the log box is
// used.
const withLog = false
