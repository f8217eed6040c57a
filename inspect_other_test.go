//go:build !unix

package nvmeapst_test

import "errors"

// mkfifo fails: no named pipes in the file system.
func mkfifo(string) error { return errors.New("no named pipes") }
