package main

import (
	"errors"
	"io"
	"io/fs"

	"github.com/nvmeapst/nvmeapst/internal/safeio"
)

// writeFileOrFail writes the file of flagName (--output, --svg,
// --persist-rules) atomically (safeio.WriteFile): on any error the file is
// left as it was. A path that exists and is not a regular file (a device,
// a directory) is a usage error naming the flag (exit 2); any other
// failure, creating the file included (a directory that does not exist or
// cannot be written) or a write to it (a full disk), is a failed write, a
// runtime failure (exit 1) naming the flag; write's own error is returned
// as it is.
func writeFileOrFail(flagName, path string, write func(io.Writer) error) error {
	var writeErr error
	var pe *fs.PathError // a write to the file that failed (ENOSPC), which names path
	err := safeio.WriteFile(path, 0o666, func(w io.Writer) error {
		writeErr = write(w)
		return writeErr
	})
	switch {
	case err == nil:
		return nil
	case writeErr != nil && !(errors.As(writeErr, &pe) && pe.Path == path):
		return writeErr
	case errors.Is(err, safeio.ErrNotRegular):
		return usagef("%s: %v", flagName, err)
	}
	return &writeFileError{flag: flagName, err: err}
}

// A writeFileError is a file of a flag that could not be written: exit
// status 1, one line naming the flag.
type writeFileError struct {
	flag string
	err  error
}

func (e *writeFileError) Error() string { return e.flag + ": " + e.err.Error() }
func (e *writeFileError) Unwrap() error { return e.err }
