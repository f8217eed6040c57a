//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// main says how to build the page: this program runs only in a browser.
func main() {
	fmt.Fprintln(os.Stderr, "examples/web/app runs in a browser: build the page with 'go run ./examples/web -out DIR', or serve it with 'go run ./examples/web'")
	os.Exit(2)
}
