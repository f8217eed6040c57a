package shard

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// Limits of what Decode reads.
const (
	// ValueMax bounds each JSON value of a shard (a row, the head,
	// the summary, an unreadable file): a longer one is refused after
	// about that many bytes instead of being held whole.
	ValueMax = 1 << 20
	// PathMax and VendorMax bound a row's path and vendor.
	PathMax   = 4096
	VendorMax = 64
)

// ErrNotShard is matched (errors.Is) by every error Decode returns
// for input that is not a survey shard it reads (a *Error or a
// *RowError).
var ErrNotShard = errors.New("shard: not a survey shard")

// Error says what is wrong with a shard: Detail, in the shard's terms
// ("drive 3: unexpected end of JSON input", "no summary: the report is
// incomplete"), and the cause, if any.
//
// The zero Error still matches ErrNotShard, with an empty Detail and no
// cause.
type Error struct {
	Detail string
	Err    error
}

// Error writes "shard: " and Detail.
func (e *Error) Error() string { return "shard: " + e.Detail }

// Unwrap returns the cause (nil when none).
func (e *Error) Unwrap() error { return e.Err }

// Is reports ErrNotShard.
func (e *Error) Is(target error) bool { return target == ErrNotShard }

// RowError is the error of DecodeRow: the row of Drive (1-based;
// 0 when not known), whose path is Name, is not one a survey writes.
//
// The zero RowError matches ErrNotShard but has no cause (Unwrap returns
// nil); its Error names drive 0 and an empty path.
type RowError struct {
	Drive int
	Name  string
	Err   error
}

// Error names the drive, its quoted path and the cause.
func (e *RowError) Error() string {
	return fmt.Sprintf("shard: drive %d (%s): %v", e.Drive, strconv.Quote(e.Name), e.Err)
}

// Unwrap returns the cause.
func (e *RowError) Unwrap() error { return e.Err }

// Is reports ErrNotShard.
func (e *RowError) Is(target error) bool { return target == ErrNotShard }

// Head is what a shard says before its drives: the configurations
// (names and parameters, as JSON) and whether kernel quirks were applied.
// KernelQuirks is nil when the shard does not say.
//
// The zero Head is what Visitor.Head receives for a shard that says
// neither: no configuration, and KernelQuirks nil.
type Head struct {
	Configs      []HeadConfig `json:"configs"`
	KernelQuirks *bool        `json:"kernel_quirks"`
}

// HeadConfig is a configuration of a shard's head: its name and its
// parameters as the shard wrote them (apst.Params' JSON).
//
// The zero HeadConfig names no configuration and holds no parameters.
type HeadConfig struct {
	Name   string          `json:"name"`
	Params json.RawMessage `json:"params"`
}

// Unreadable is a file a survey could not read: its path, the error
// and the class of the error (empty in a shard of an older writer).
//
// The zero Unreadable names no file, error or reason; Decode does not
// refuse it.
type Unreadable struct {
	Path   string `json:"path"`
	Error  string `json:"error"`
	Reason string `json:"reason,omitempty"`
}

// Summary is what Decode reads of a shard's summary.
//
// The zero Summary counts no drive and no file and names no shard; Decode
// returns it with an error.
type Summary struct {
	Drives              int      `json:"drives"`
	UnreadableFiles     int      `json:"unreadable_files"`
	UnreadableNotListed int      `json:"unreadable_not_listed"`
	SkippedFiles        int      `json:"skipped_files"`
	Shards              []string `json:"shards"`
}

// Drive is one drive's row as Decode delivers it.
//
// The zero Drive is no drive (N 0; Decode numbers drives from 1), with no
// row and the zero DecodedRow.
type Drive struct {
	// N is the drive's place in the shard, from 1.
	N int
	// Raw is the row as read; valid until the visitor returns.
	Raw json.RawMessage
	// Canonical is the row as its identity hashes it (ID.Row);
	// valid until the visitor returns.
	Canonical []byte
	// Decoded is what DecodeRow reads of it.
	Decoded DecodedRow
}

// Visitor receives what Decode reads, in the shard's order; an
// error a function returns ends Decode, which returns it unchanged.
// A nil function is not called.
//
// The zero Visitor calls nothing: Decode then only checks the shard and
// returns its summary and identity.
type Visitor struct {
	// Head is called once, before the first drive, with the head as read
	// (empty when the shard has none): the caller checks its
	// configurations and kernel quirks against those of its survey.
	Head func(*Head) error
	// Drive is called for each drive's row.
	Drive func(*Drive) error
	// Unreadable is called for each unreadable file listed.
	Unreadable func(Unreadable) error
}

// Decode reads a survey shard, JSON or NDJSON, from r and returns its
// summary and its identity (ID.Sum of what it read). It passes the shard's
// head, rows and unreadable files to v as they come (so that memory does
// not grow with the shard), and checks that the summary counts the drives
// and unreadable files the shard holds. Each JSON value is
// read within ValueMax bytes. Errors about the input are a
// *Error or a *RowError (both match ErrNotShard); errors of v
// and of r are returned as they are.
func Decode(r io.Reader, v Visitor) (Summary, string, error) {
	d := shardDecoder{v: v, lim: &budgetReader{r: r}}
	d.lim.reset()
	d.dec = json.NewDecoder(d.lim)
	sum, err := d.decode()
	if err != nil {
		return Summary{}, "", err
	}
	return sum, d.id.Sum(), nil
}

// shardDecoder is Decode's state.
type shardDecoder struct {
	v          Visitor
	lim        *budgetReader
	dec        *json.Decoder
	id         ID
	head       Head
	headDone   bool
	rows       int
	unreadable int
	drive      Drive
}

func bad(format string, args ...any) error {
	var cause error
	for _, a := range args {
		if e, ok := a.(error); ok {
			cause = e
		}
	}
	return &Error{Detail: fmt.Sprintf(format, args...), Err: cause}
}

// token and value read the next token or value within its own budget.
func (d *shardDecoder) token() (json.Token, error) { d.lim.reset(); return d.dec.Token() }
func (d *shardDecoder) value(v any) error          { d.lim.reset(); return d.dec.Decode(v) }

func (d *shardDecoder) startHead() error {
	d.headDone = true
	if d.v.Head != nil {
		return d.v.Head(&d.head)
	}
	return nil
}

func (d *shardDecoder) row(raw json.RawMessage) error {
	if !d.headDone {
		return bad("a drive before the configurations: not a survey shard")
	}
	dr, jsonErr, err := decodeRow(raw)
	if jsonErr != nil {
		return bad("drive %d: %v", d.rows+1, jsonErr)
	}
	canonical := d.id.Row(raw)
	if err != nil {
		return &RowError{Drive: d.rows + 1, Name: dr.Record.Name, Err: err}
	}
	d.rows++
	d.drive = Drive{N: d.rows, Raw: raw, Canonical: canonical, Decoded: dr}
	if d.v.Drive != nil {
		return d.v.Drive(&d.drive)
	}
	return nil
}

func (d *shardDecoder) addUnreadable(u Unreadable) error {
	d.id.Unreadable(u)
	d.unreadable++
	if d.v.Unreadable != nil {
		return d.v.Unreadable(u)
	}
	return nil
}

func (d *shardDecoder) decode() (Summary, error) {
	if t, err := d.dec.Token(); err == io.EOF {
		return Summary{}, bad("not a survey report (JSON or NDJSON): it is empty, or white space alone")
	} else if err != nil || t != json.Delim('{') {
		return Summary{}, bad("not a survey report (JSON or NDJSON): %v", tokenErr(t, err))
	}
	var sum *Summary
	// The head's keys, then either the document's other keys or, for
	// NDJSON, the end of the first object and one object a line.
	ndjson, document := false, false
	for {
		t, err := d.token()
		if err != nil {
			return Summary{}, bad("%v", err)
		}
		if t == json.Delim('}') {
			ndjson = !document
			break
		}
		key, _ := t.(string)
		switch key {
		case "configs":
			if err := d.value(&d.head.Configs); err != nil {
				return Summary{}, bad("configs: %v", err)
			}
		case "kernel_quirks":
			if err := d.value(&d.head.KernelQuirks); err != nil {
				return Summary{}, bad("kernel_quirks: %v", err)
			}
		case "drives":
			document = true
			if err := d.startHead(); err != nil {
				return Summary{}, err
			}
			if t, err := d.token(); err != nil || t != json.Delim('[') {
				return Summary{}, bad("drives: want a list: %v", tokenErr(t, err))
			}
			for d.dec.More() {
				var raw json.RawMessage
				if err := d.value(&raw); err != nil {
					return Summary{}, bad("drive %d: %v", d.rows+1, err)
				}
				if err := d.row(raw); err != nil {
					return Summary{}, err
				}
			}
			if _, err := d.token(); err != nil {
				return Summary{}, bad("drives: %v", err)
			}
		case "summary":
			sum = &Summary{}
			if err := d.value(sum); err != nil {
				return Summary{}, bad("summary: %v", err)
			}
		case "unreadable":
			// The document lists them after its drives: an NDJSON report
			// made from it has them after the shard's drives. One at a
			// time: the list may be long.
			if t, err := d.token(); err != nil || t != json.Delim('[') {
				return Summary{}, bad("unreadable: want a list: %v", tokenErr(t, err))
			}
			for d.dec.More() {
				var u Unreadable
				if err := d.value(&u); err != nil {
					return Summary{}, bad("unreadable: %v", err)
				}
				if err := d.addUnreadable(u); err != nil {
					return Summary{}, err
				}
			}
			if _, err := d.token(); err != nil {
				return Summary{}, bad("unreadable: %v", err)
			}
		default:
			var skip json.RawMessage
			if err := d.value(&skip); err != nil {
				return Summary{}, bad("%s: %v", strconv.Quote(key), err)
			}
		}
	}
	if ndjson {
		if err := d.startHead(); err != nil {
			return Summary{}, err
		}
		for d.dec.More() {
			var line struct {
				Drive      json.RawMessage `json:"drive"`
				Unreadable *Unreadable     `json:"unreadable"`
				Summary    *Summary        `json:"summary"`
			}
			if err := d.value(&line); err != nil {
				return Summary{}, bad("%v", err)
			}
			switch {
			case line.Drive != nil:
				if err := d.row(line.Drive); err != nil {
					return Summary{}, err
				}
			case line.Unreadable != nil:
				if err := d.addUnreadable(*line.Unreadable); err != nil {
					return Summary{}, err
				}
			case line.Summary != nil:
				sum = line.Summary
			}
		}
	} else if d.dec.More() {
		return Summary{}, bad("more after the end of the report")
	}
	switch {
	case sum == nil:
		return Summary{}, bad("no summary: the report is incomplete")
	case sum.SkippedFiles < 0:
		return Summary{}, bad("summary: skipped_files %d: want 0 or more", sum.SkippedFiles)
	case sum.Drives != d.rows:
		return Summary{}, bad("%d drives, but its summary counts %d: the report is incomplete or was edited", d.rows, sum.Drives)
	case sum.UnreadableNotListed < 0 || sum.UnreadableFiles != d.unreadable+sum.UnreadableNotListed:
		return Summary{}, bad("%d unreadable files listed and %d not listed, but its summary counts %d", d.unreadable, sum.UnreadableNotListed, sum.UnreadableFiles)
	}
	return *sum, nil
}

// tokenErr describes what was read instead of the token wanted.
func tokenErr(t json.Token, err error) error {
	if err != nil {
		return err
	}
	return fmt.Errorf("found %v", t)
}

// errValueTooLarge is the error of a budgetReader whose budget ran out.
var errValueTooLarge = fmt.Errorf("a JSON value longer than %d bytes (the limit of a survey shard)", ValueMax)

// budgetReader reads from r at most left bytes, then fails with
// errValueTooLarge: Decode gives each JSON value it decodes a fresh
// budget, so that one huge value (a 100 MB path) is refused after about
// ValueMax bytes instead of being held whole.
type budgetReader struct {
	r    io.Reader
	left int
}

func (b *budgetReader) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, errValueTooLarge
	}
	if len(p) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= n
	return n, err
}

// reset gives the next value its budget.
func (b *budgetReader) reset() { b.left = ValueMax }
