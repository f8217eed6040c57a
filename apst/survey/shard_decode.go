package survey

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// Limits of what DecodeShard reads.
const (
	// ShardValueMax bounds each JSON value of a shard (a row, the head,
	// the summary, an unreadable file): a longer one is refused after
	// about that many bytes instead of being held whole.
	ShardValueMax = 1 << 20
	// ShardPathMax and ShardVendorMax bound a row's path and vendor.
	ShardPathMax   = 4096
	ShardVendorMax = 64
)

// ErrBadShard is matched (errors.Is) by every error DecodeShard returns
// for input that is not a survey shard it reads (a *ShardError or a
// *ShardRowError).
var ErrBadShard = errors.New("survey: not a survey shard")

// ShardError says what is wrong with a shard: Detail, in the shard's terms
// ("drive 3: unexpected end of JSON input", "no summary: the report is
// incomplete"), and the cause, if any.
type ShardError struct {
	Detail string
	Err    error
}

// Error writes "survey: shard: " and Detail.
func (e *ShardError) Error() string { return "survey: shard: " + e.Detail }

// Unwrap returns the cause (nil when none).
func (e *ShardError) Unwrap() error { return e.Err }

// Is reports ErrBadShard.
func (e *ShardError) Is(target error) bool { return target == ErrBadShard }

// ShardRowError is the error of DecodeShardRow: the row of Drive (1-based;
// 0 when not known), whose path is Name, is not one a survey writes.
type ShardRowError struct {
	Drive int
	Name  string
	Err   error
}

// Error names the drive, its quoted path and the cause.
func (e *ShardRowError) Error() string {
	return fmt.Sprintf("survey: shard: drive %d (%s): %v", e.Drive, strconv.Quote(e.Name), e.Err)
}

// Unwrap returns the cause.
func (e *ShardRowError) Unwrap() error { return e.Err }

// Is reports ErrBadShard.
func (e *ShardRowError) Is(target error) bool { return target == ErrBadShard }

// ShardHead is what a shard says before its drives: the configurations
// (names and parameters, as JSON) and whether kernel quirks were applied.
// KernelQuirks is nil when the shard does not say.
type ShardHead struct {
	Configs      []ShardHeadConfig `json:"configs"`
	KernelQuirks *bool             `json:"kernel_quirks"`
}

// ShardHeadConfig is a configuration of a shard's head: its name and its
// parameters as the shard wrote them (apst.Params' JSON).
type ShardHeadConfig struct {
	Name   string          `json:"name"`
	Params json.RawMessage `json:"params"`
}

// ShardUnreadable is a file a survey could not read: its path, the error
// and the class of the error (empty in a shard of an older writer).
type ShardUnreadable struct {
	Path   string `json:"path"`
	Error  string `json:"error"`
	Reason string `json:"reason,omitempty"`
}

// ShardSummary is what DecodeShard reads of a shard's summary.
type ShardSummary struct {
	Drives              int      `json:"drives"`
	UnreadableFiles     int      `json:"unreadable_files"`
	UnreadableNotListed int      `json:"unreadable_not_listed"`
	SkippedFiles        int      `json:"skipped_files"`
	Shards              []string `json:"shards"`
}

// ShardDrive is one drive's row as DecodeShard delivers it.
type ShardDrive struct {
	// N is the drive's place in the shard, from 1.
	N int
	// Raw is the row as read; valid until the visitor returns.
	Raw json.RawMessage
	// Canonical is the row as its identity hashes it (ShardID.Row);
	// valid until the visitor returns.
	Canonical []byte
	// Decoded is what DecodeShardRow reads of it.
	Decoded DecodedRow
}

// ShardVisitor receives what DecodeShard reads, in the shard's order; an
// error a function returns ends DecodeShard, which returns it unchanged.
// A nil function is not called.
type ShardVisitor struct {
	// Head is called once, before the first drive, with the head as read
	// (empty when the shard has none): the caller checks its
	// configurations and kernel quirks against those of its survey.
	Head func(*ShardHead) error
	// Drive is called for each drive's row.
	Drive func(*ShardDrive) error
	// Unreadable is called for each unreadable file listed.
	Unreadable func(ShardUnreadable) error
}

// DecodeShard reads a survey shard, JSON or NDJSON, from r, passes its
// head, rows and unreadable files to v as they come (so that memory does
// not grow with the shard), and returns its summary and its identity
// (ShardID.Sum of what it read), having checked that the summary counts
// the drives and unreadable files the shard holds. Each JSON value is
// read within ShardValueMax bytes. Errors about the input are a
// *ShardError or a *ShardRowError (both match ErrBadShard); errors of v
// and of r are returned as they are.
func DecodeShard(r io.Reader, v ShardVisitor) (ShardSummary, string, error) {
	d := shardDecoder{v: v, lim: &budgetReader{r: r}}
	d.lim.reset()
	d.dec = json.NewDecoder(d.lim)
	sum, err := d.decode()
	if err != nil {
		return ShardSummary{}, "", err
	}
	return sum, d.id.Sum(), nil
}

// shardDecoder is DecodeShard's state.
type shardDecoder struct {
	v          ShardVisitor
	lim        *budgetReader
	dec        *json.Decoder
	id         ShardID
	head       ShardHead
	headDone   bool
	rows       int
	unreadable int
	drive      ShardDrive
}

func bad(format string, args ...any) error {
	var cause error
	for _, a := range args {
		if e, ok := a.(error); ok {
			cause = e
		}
	}
	return &ShardError{Detail: fmt.Sprintf(format, args...), Err: cause}
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
		return &ShardRowError{Drive: d.rows + 1, Name: dr.Record.Name, Err: err}
	}
	d.rows++
	d.drive = ShardDrive{N: d.rows, Raw: raw, Canonical: canonical, Decoded: dr}
	if d.v.Drive != nil {
		return d.v.Drive(&d.drive)
	}
	return nil
}

func (d *shardDecoder) addUnreadable(u ShardUnreadable) error {
	d.id.Unreadable(u)
	d.unreadable++
	if d.v.Unreadable != nil {
		return d.v.Unreadable(u)
	}
	return nil
}

func (d *shardDecoder) decode() (ShardSummary, error) {
	if t, err := d.dec.Token(); err != nil || t != json.Delim('{') {
		return ShardSummary{}, bad("not a survey report (JSON or NDJSON): %v", tokenErr(t, err))
	}
	var sum *ShardSummary
	// The head's keys, then either the document's other keys or, for
	// NDJSON, the end of the first object and one object a line.
	ndjson, document := false, false
	for {
		t, err := d.token()
		if err != nil {
			return ShardSummary{}, bad("%v", err)
		}
		if t == json.Delim('}') {
			ndjson = !document
			break
		}
		key, _ := t.(string)
		switch key {
		case "configs":
			if err := d.value(&d.head.Configs); err != nil {
				return ShardSummary{}, bad("configs: %v", err)
			}
		case "kernel_quirks":
			if err := d.value(&d.head.KernelQuirks); err != nil {
				return ShardSummary{}, bad("kernel_quirks: %v", err)
			}
		case "drives":
			document = true
			if err := d.startHead(); err != nil {
				return ShardSummary{}, err
			}
			if t, err := d.token(); err != nil || t != json.Delim('[') {
				return ShardSummary{}, bad("drives: want a list: %v", tokenErr(t, err))
			}
			for d.dec.More() {
				var raw json.RawMessage
				if err := d.value(&raw); err != nil {
					return ShardSummary{}, bad("drive %d: %v", d.rows+1, err)
				}
				if err := d.row(raw); err != nil {
					return ShardSummary{}, err
				}
			}
			if _, err := d.token(); err != nil {
				return ShardSummary{}, bad("drives: %v", err)
			}
		case "summary":
			sum = &ShardSummary{}
			if err := d.value(sum); err != nil {
				return ShardSummary{}, bad("summary: %v", err)
			}
		case "unreadable":
			// The document lists them after its drives: an NDJSON report
			// made from it has them after the shard's drives. One at a
			// time: the list may be long.
			if t, err := d.token(); err != nil || t != json.Delim('[') {
				return ShardSummary{}, bad("unreadable: want a list: %v", tokenErr(t, err))
			}
			for d.dec.More() {
				var u ShardUnreadable
				if err := d.value(&u); err != nil {
					return ShardSummary{}, bad("unreadable: %v", err)
				}
				if err := d.addUnreadable(u); err != nil {
					return ShardSummary{}, err
				}
			}
			if _, err := d.token(); err != nil {
				return ShardSummary{}, bad("unreadable: %v", err)
			}
		default:
			var skip json.RawMessage
			if err := d.value(&skip); err != nil {
				return ShardSummary{}, bad("%s: %v", strconv.Quote(key), err)
			}
		}
	}
	if ndjson {
		if err := d.startHead(); err != nil {
			return ShardSummary{}, err
		}
		for d.dec.More() {
			var line struct {
				Drive      json.RawMessage  `json:"drive"`
				Unreadable *ShardUnreadable `json:"unreadable"`
				Summary    *ShardSummary    `json:"summary"`
			}
			if err := d.value(&line); err != nil {
				return ShardSummary{}, bad("%v", err)
			}
			switch {
			case line.Drive != nil:
				if err := d.row(line.Drive); err != nil {
					return ShardSummary{}, err
				}
			case line.Unreadable != nil:
				if err := d.addUnreadable(*line.Unreadable); err != nil {
					return ShardSummary{}, err
				}
			case line.Summary != nil:
				sum = line.Summary
			}
		}
	} else if d.dec.More() {
		return ShardSummary{}, bad("more after the end of the report")
	}
	switch {
	case sum == nil:
		return ShardSummary{}, bad("no summary: the report is incomplete")
	case sum.SkippedFiles < 0:
		return ShardSummary{}, bad("summary: skipped_files %d: want 0 or more", sum.SkippedFiles)
	case sum.Drives != d.rows:
		return ShardSummary{}, bad("%d drives, but its summary counts %d: the report is incomplete or was edited", d.rows, sum.Drives)
	case sum.UnreadableNotListed < 0 || sum.UnreadableFiles != d.unreadable+sum.UnreadableNotListed:
		return ShardSummary{}, bad("%d unreadable files listed and %d not listed, but its summary counts %d", d.unreadable, sum.UnreadableNotListed, sum.UnreadableFiles)
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
var errValueTooLarge = fmt.Errorf("a JSON value longer than %d bytes (the limit of a survey shard)", ShardValueMax)

// budgetReader reads from r at most left bytes, then fails with
// errValueTooLarge: DecodeShard gives each JSON value it decodes a fresh
// budget, so that one huge value (a 100 MB path) is refused after about
// ShardValueMax bytes instead of being held whole.
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
func (b *budgetReader) reset() { b.left = ShardValueMax }
