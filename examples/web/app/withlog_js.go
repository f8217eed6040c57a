//go:build js && wasm && !nolog

package main

// withLog is true in app-log.wasm, the build that diagnoses kernel logs.
const withLog = true
