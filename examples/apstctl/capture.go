package main

import (
	"bytes"
	_ "embed"
	"fmt"
	"io"
	"os"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// defaultCapture is the Identify Controller image of a Samsung SSD 990 EVO
// Plus 1TB (firmware 2B2QKXG7), built from its smartctl power state table.
//
//go:embed default-capture.bin
var defaultCapture []byte

// maxCapture bounds what is read from a capture file.
const maxCapture = powerstate.MaxCaptureSize

// readCapture reads the capture at path ("-" = stdin), refusing more than
// maxCapture bytes without reading them all.
func readCapture(path string, stdin io.Reader) ([]byte, error) {
	var r io.Reader
	if path == "-" {
		r = stdin
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, maxCapture+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(b) > maxCapture {
		return nil, fmt.Errorf("%s: capture is larger than %d bytes", path, maxCapture)
	}
	return b, nil
}

// loadController reads and parses the capture at path.
func loadController(path string, stdin io.Reader) (*powerstate.Controller, error) {
	b, err := readCapture(path, stdin)
	if err != nil {
		return nil, err
	}
	c, err := parseCapture(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &c, nil
}

// parseCapture detects the capture format (binary image, nvme-cli text or
// JSON, smartctl text or JSON) and parses it.
func parseCapture(b []byte) (powerstate.Controller, error) {
	return powerstate.Parse(bytes.NewReader(b))
}
