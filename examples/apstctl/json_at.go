package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
)

// jsonErrorAt is err of json.Unmarshal(b) with the line and column it is
// at: encoding/json's syntax and type errors carry a byte offset only.
func jsonErrorAt(b []byte, err error) string {
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	msg := err.Error()
	if te != nil {
		// Not Go's "cannot unmarshal string into Go struct field": the key
		// and the JSON value the command wants.
		want := "a number"
		if k := te.Type.Kind(); k >= reflect.Uint && k <= reflect.Uint64 {
			want = "an unsigned integer"
		} else if k == reflect.Bool {
			want = "true or false"
		}
		msg = fmt.Sprintf("%s: want %s, found a JSON %s", te.Field, want, te.Value)
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return "it is empty, or white space alone"
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || err.Error() == "unexpected end of JSON input" {
		return fmt.Sprintf("line %d: the JSON document ends early (truncated)", bytes.Count(b, []byte("\n"))+1)
	}
	if off < 0 || off > int64(len(b)) {
		return msg
	}
	// Offset is the byte after the one that failed; the column is 1-based.
	at := max(off-1, 0)
	line := bytes.Count(b[:at], []byte("\n")) + 1
	col := at - int64(bytes.LastIndexByte(b[:at], '\n'))
	return fmt.Sprintf("line %d, column %d: %s", line, col, msg)
}
