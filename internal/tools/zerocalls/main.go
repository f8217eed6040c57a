// Command zerocalls writes internal/zerocheck/zero_calls_test.go: one call
// with zero values per exported function and method of the library that
// takes an exported struct type (zerocheck.Generate). Run it from the
// module root after adding or changing an exported function:
//
//	go run ./internal/tools/zerocalls
package main

import (
	"fmt"
	"os"

	"github.com/nvmeapst/nvmeapst/internal/zerocheck"
)

func main() {
	src, err := zerocheck.Generate(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "zerocalls:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(zerocheck.File, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "zerocalls:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "zerocalls: wrote %s\n", zerocheck.File)
}
