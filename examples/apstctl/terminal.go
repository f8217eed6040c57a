package main

import "os"

// notTerminals are the character devices that are not a terminal but
// that a shell redirects to or from (</dev/null, </dev/zero): a read of
// them is no person typing, and a write to them no person reading.
var notTerminals = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"}

// isTerminal reports whether f is a terminal: a character device other
// than the devices of notTerminals. It asks no ioctl (the command leaves
// those to package ioctl), so another character device (a serial line)
// counts as a terminal, which it usually is.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	for _, name := range notTerminals {
		if d, err := os.Stat(name); err == nil && os.SameFile(fi, d) {
			return false
		}
	}
	return true
}
