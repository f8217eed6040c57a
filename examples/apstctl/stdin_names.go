package main

import "os"

// namesStandardInput reports whether path names standard input: "-", or a
// path that is the same file as standard input (/dev/stdin, /dev/fd/0,
// /proc/self/fd/0 opened on a pipe or a file). Two inputs that both name
// it hold one file between them, which the first read would take.
func namesStandardInput(path string) bool {
	if path == "-" {
		return true
	}
	if path == "" {
		return false
	}
	in, err := os.Stdin.Stat()
	if err != nil {
		return false
	}
	st, err := os.Stat(path)
	return err == nil && os.SameFile(in, st)
}
