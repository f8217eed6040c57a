package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// copyFleet writes n copies of the files of dir whose names end in ext,
// round-robin in name order, perDir a directory, each rewritten by serial
// with its own serial number.
func copyFleet(dir, ext, out string, n, perDir int, outExt string, serial func(b []byte, sn string) ([]byte, error)) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var files [][]byte
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ext) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return err
		}
		files = append(files, b)
	}
	if len(files) == 0 {
		return fmt.Errorf("%s: no *%s file", dir, ext)
	}
	if entries, err := os.ReadDir(out); err == nil && len(entries) > 0 {
		return fmt.Errorf("-out %s: not empty", out)
	}
	for i := range n {
		b, err := serial(files[i%len(files)], fmt.Sprintf("FLEET%015d", i))
		if err != nil {
			return err
		}
		sub := filepath.Join(out, fmt.Sprintf("rack%04d", i/perDir))
		if i%perDir == 0 {
			if err := os.MkdirAll(sub, 0o755); err != nil {
				return err
			}
		}
		if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("host%07d%s", i, outExt)), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// serialSmartctl rewrites the report's "Serial Number:" line.
func serialSmartctl(b []byte, sn string) ([]byte, error) {
	const key = "\nSerial Number:"
	i := bytes.Index(b, []byte(key))
	if i < 0 {
		return nil, errors.New("smartctl report without a Serial Number line")
	}
	start := i + len(key)
	end := start + bytes.IndexByte(b[start:], '\n')
	if end < start {
		end = len(b)
	}
	out := make([]byte, 0, len(b)+len(sn))
	out = append(out, b[:start]...)
	out = append(out, strings.Repeat(" ", 36-len(key)+1)...)
	out = append(out, sn...)
	return append(out, b[end:]...), nil
}

// serialBinary rewrites bytes 4-23 (SN) of an Identify image.
func serialBinary(b []byte, sn string) ([]byte, error) {
	if len(b) != 4096 {
		return nil, fmt.Errorf("an image of %d bytes, want 4096", len(b))
	}
	out := bytes.Clone(b)
	copy(out[4:24], fmt.Sprintf("%-20s", sn))
	return out, nil
}
