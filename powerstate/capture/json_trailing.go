package capture

import (
	"strconv"
	"strings"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// jsonTrailing refuses what follows a JSON capture's document, which ends
// at offset end of s, when it cannot be paste material: anything on the
// line the document ends on (text run into the closing brace), or a JSON
// value or bracket on a later line (an edit gone wrong, another document,
// a stray "]" or "}"). White space (a final newline, CRLF) is what a tool
// prints after the document, and so are NUL bytes that end s (a file
// padded with zeros). A line of text after it is accepted, as the
// lines before it are (where newJSON skips them): nvme-cli 3.0's
// deprecation warning in a 2>&1 capture, the next shell prompt, a closing
// code fence or prose around a paste. The error is a *ParseError of format
// f or feature form ff naming the line and wrapping ErrTrailingData.
func jsonTrailing(f powerstate.Format, ff FeatureFormat, s string, end int) error {
	s = strings.TrimRight(s, "\x00") // the zeros a file was padded with
	off := end
	for off < len(s) && (s[off] == ' ' || s[off] == '\t') {
		off++
	}
	if off < len(s) && s[off] != '\r' && s[off] != '\n' {
		return trailingErr(f, ff, s, end, off)
	}
	for off < len(s) && strings.IndexByte(" \t\r\n", s[off]) >= 0 {
		off++
	}
	if off < len(s) && strings.IndexByte("{}[],:\"-0123456789", s[off]) >= 0 {
		return trailingErr(f, ff, s, end, off)
	}
	return nil
}

// trailingErr is the refusal of what starts at off, after the document
// that ends at end.
func trailingErr(f powerstate.Format, ff FeatureFormat, s string, end, off int) error {
	last := end
	for last > 0 && strings.IndexByte(" \t\r\n", s[last-1]) >= 0 {
		last--
	}
	w := jsonWalker{src: s}
	return &ParseError{Format: f, Feature: ff, Line: lineOf(s, off),
		Expected: "nothing but white space after the JSON document, which ends on line " + strconv.Itoa(lineOf(s, max(last-1, 0))),
		Err:      foundErr(ErrTrailingData, w.tokenText(off))}
}
