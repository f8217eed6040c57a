package main

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"

	"github.com/nvmeapst/nvmeapst/internal/safeio"
	"github.com/nvmeapst/nvmeapst/internal/sniff"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// defaultCapture is the Identify Controller image of a Samsung SSD 990 EVO
// Plus 1TB (firmware 2B2QKXG7), built from its smartctl power state table.
//
//go:embed default-capture.bin
var defaultCapture []byte

// maxCapture bounds what is read from a capture file.
const maxCapture = capture.MaxSize

// captureName is what messages call the capture at path.
func captureName(path string) string {
	if path == "-" {
		return "standard input"
	}
	return safeio.EscapeTerminal(path)
}

// readCapture reads the capture at path ("-" = stdin) without reading more
// than maxCapture+1 bytes. A regular file is read as such; a pipe or FIFO
// named on the command line (/dev/fd/N, <(...), mkfifo) is read too, its
// open and read interruptible by ^C; anything else (a socket, a device) is
// refused before it is opened. Its errors are *inputError values naming
// the path.
func readCapture(path string, stdin io.Reader) ([]byte, error) {
	return readInputFile(path, stdin, "", "capture")
}

// readInputFile is readCapture for any input file of at most maxCapture
// bytes: the error of a larger one names the flag that gave it (none for a
// positional), the file, what it is ("capture", "rules file") and the limit.
func readInputFile(path string, stdin io.Reader, flag, what string) ([]byte, error) {
	var b []byte
	var err error
	if path == "-" {
		b, err = readStdin(stdin, maxCapture)
		var ue *usageError
		if errors.As(err, &ue) {
			return nil, err // no argument, and nothing on standard input
		}
	} else {
		b, err = safeio.ReadFile(path, maxCapture)
		if errors.Is(err, safeio.ErrNotRegular) && isNamedPipe(path) {
			b, err = readNamedPipe(stdin, path, maxCapture)
		}
	}
	if c := inputContext(stdin); c.Err() != nil && err != nil {
		return nil, err // interrupted: runCommand says so
	}
	switch {
	case errors.Is(err, safeio.ErrTooLarge):
		if flag == "" {
			return nil, inputErr(fmt.Errorf("%s: %s is larger than %d bytes", captureName(path), what, maxCapture))
		}
		return nil, inputErr(fmt.Errorf("%s %s: %s is larger than the limit of %d bytes (%d MiB)", flag, captureName(path), what, maxCapture, maxCapture>>20))
	case err != nil && path == "-":
		return nil, inputErr(fmt.Errorf("standard input: %w", err))
	case err != nil:
		return nil, inputErr(err)
	}
	return b, nil
}

// addForceFlag declares --force, which plans 4096 bytes that do not look
// like an Identify Controller image anyway.
func addForceFlag(fs *flagSet) *bool {
	return fs.Bool("force", false, "read a 4096-byte file that does not look like an Identify Controller image (all zero, random, a namespace image, an impossible field) as one anyway, with a note")
}

// loadController reads and parses the Identify Controller capture at path.
// A get-feature capture is refused with the command that reads it, a binary
// file of the wrong size with the image size message, and 4096 bytes that
// are not an Identify Controller image with what they look like (read
// anyway with force, and a note saying so).
func loadController(path string, stdin io.Reader, force bool) (*powerstate.Controller, error) {
	b, err := readCapture(path, stdin)
	if err != nil {
		return nil, err
	}
	c, err := parseCapture(b, force)
	if err != nil {
		return nil, inputErr(fmt.Errorf("%s: %w", captureName(path), err))
	}
	return &c, nil
}

// parseCapture detects the capture format (binary image, nvme-cli text or
// JSON, smartctl text or JSON) and parses it, and names the command that
// reads a get-feature capture given where an id-ctrl capture is expected.
// (A binary file that is not 4096 bytes gets the library's size message.)
func parseCapture(b []byte, force bool) (powerstate.Controller, error) {
	c, err := capture.ParseBytes(b)
	var ne *powerstate.NotIdentifyError
	switch {
	case err == nil:
		return c, nil
	case errors.As(err, &ne) && ne.Controller.Format == powerstate.FormatBinary && force:
		c = ne.Controller
		c.Notes = append(c.Notes, "read with --force although it does not look like an Identify Controller image: it looks like "+ne.Looks+" ("+ne.Reason+")")
		return c, nil
	case errors.As(err, &ne) && ne.Controller.Format == powerstate.FormatBinary:
		return c, &hintError{err.Error() + "; if it is the image of a drive, give --force to read it anyway", err}
	}
	return c, captureHint(err, b)
}

// captureHint rewrites the library's refusal of b as an Identify
// Controller capture for a CLI user: a get-feature capture is refused with
// the command that reads it (the library's message names the library
// function), and an input of no capture format with what it looks like
// and the command that reads that.
func captureHint(err error, b []byte) error {
	switch {
	case errors.Is(err, capture.ErrFeatureCapture):
		return featureCaptureHint(err)
	case errors.Is(err, capture.ErrUnknownFormat):
		return withLooks(err, b, captureKinds...)
	}
	return err
}

// featureCaptureHint is the CLI's refusal of a get-feature capture given
// for an Identify Controller capture: the library's message names the
// library function that reads it; this one names the command.
func featureCaptureHint(err error) error {
	return &hintError{"this is a get-feature (APST table) capture, not an identify controller capture: read it with 'apstctl decode', or compare it with 'apstctl check ID-CAPTURE FEATURE-CAPTURE'", err}
}

// loadFeature reads and parses the get-feature (Feature 0Ch) capture at
// path; an id-ctrl capture is refused with the command that reads it, and
// 256 bytes that no APST table can be (reserved bits set) with what they
// look like (read anyway with force, and a note saying so).
func loadFeature(path string, stdin io.Reader, force bool) (capture.FeatureCapture, error) {
	b, err := readCapture(path, stdin)
	if err != nil {
		return capture.FeatureCapture{}, err
	}
	fc, err := capture.ParseFeatureCapture(bytes.NewReader(b))
	var ne *capture.NotAPSTTableError
	switch {
	case err == nil:
	case errors.As(err, &ne) && force:
		fc, err = ne.Capture, nil
		fc.Notes = append(fc.Notes, "read with --force although it does not look like an APST table: it looks like "+ne.Looks+" ("+ne.Reason+")")
	case errors.As(err, &ne):
		err = &hintError{err.Error() + "; if it is the buffer of a drive, give --force to read it anyway", err}
	case errors.Is(err, capture.ErrIdentifyCapture):
		err = &hintError{"this is an identify controller capture, not a get-feature (APST table) capture: plan it with 'apstctl plan', or give it as the first capture of 'apstctl check'", err}
	case errors.Is(err, capture.ErrUnknownFormat):
		err = withLooks(err, b, sniff.FeatureCapture)
	}
	if err != nil {
		return fc, inputErr(fmt.Errorf("%s: %w", captureName(path), err))
	}
	return fc, nil
}

// forceOnText refuses --force given for a text capture: it reads a binary
// image (or APST buffer) that looks like none, and a text capture says what
// it is, so the flag would be ignored. A command of two captures (check)
// refuses it only when neither is binary.
func forceOnText(force bool, format fmt.Stringer, binary bool) error {
	if !force || binary {
		return nil
	}
	return usagef("--force applies to a binary capture (a 4096-byte Identify image, a 256-byte APST buffer), and this capture is %s: read it without --force", format)
}
