package shard

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"hash"
	"strings"
)

// A survey shard is the JSON report of a survey, the interchange format
// through which the surveys of parts of a fleet combine into the survey of
// the whole (Survey.Merge's records, carried in files). It is one document,
//
//	{"configs":[...],"kernel_quirks":B,"drives":[ROW,...],"summary":{...},"unreadable":[...]}
//
// or NDJSON, one object a line: {"configs":[...],"kernel_quirks":B} first,
// then {"drive":ROW} and {"unreadable":{...}} in any order, and
// {"summary":{...}} last. Each ROW is a Row (AppendRow or
// encoding/json of NewRow); the head is a Head, the summary holds
// at least a Summary's keys. Keys a reader does not know are skipped.
//
// Every shard names the surveys it holds in its summary's "shards": a
// survey holds one, identified (ID) by a hash of its rows and its
// unreadable files, so that the JSON and NDJSON reports of one survey,
// and a copy of either, have the same identity; a merged report holds
// those of every report merged into it. A Set refuses a survey that
// an earlier shard holds.

// IDPrefix starts every shard identity.
const IDPrefix = "sha256:"

// ID computes a survey's identity from its rows and unreadable files,
// in any interleaving of the two. The zero value is ready to use; a
// ID is not safe for concurrent use.
type ID struct {
	rows, unreadables hash.Hash
	buf               bytes.Buffer
}

func (s *ID) init() {
	if s.rows == nil {
		s.rows, s.unreadables = sha256.New(), sha256.New()
	}
}

// Row adds one drive's row, as JSON (compacted first: a report that was
// reformatted keeps its identity), without what only a full report writes:
// a survey's identity is the same full or not, since its drives are. It
// returns the row as hashed (its canonical form, which RowKey takes),
// valid until the next call.
func (s *ID) Row(raw []byte) []byte {
	s.init()
	s.buf.Reset()
	raw = withoutFull(raw)
	if json.Compact(&s.buf, raw) != nil {
		s.buf.Write(raw)
	}
	s.rows.Write(s.buf.Bytes())
	s.rows.Write([]byte{'\n'})
	return s.buf.Bytes()
}

// CompactRow is Row for a row that is compact and not full already
// (AppendRow's).
func (s *ID) CompactRow(raw []byte) {
	s.init()
	s.rows.Write(raw)
	s.rows.Write([]byte{'\n'})
}

// Unreadable adds one unreadable file: its path and error.
func (s *ID) Unreadable(u Unreadable) {
	s.init()
	s.unreadables.Write([]byte(u.Path))
	s.unreadables.Write([]byte{0})
	s.unreadables.Write([]byte(u.Error))
	s.unreadables.Write([]byte{0})
}

// Sum returns the identity: IDPrefix and 32 lower-case hexadecimal
// digits.
func (s *ID) Sum() string {
	s.init()
	h := sha256.New()
	h.Write(s.rows.Sum(nil))
	h.Write(s.unreadables.Sum(nil))
	return IDPrefix + hex.EncodeToString(h.Sum(nil)[:16])
}

// ValidID reports whether s has the form Sum returns.
func ValidID(s string) bool {
	h, ok := strings.CutPrefix(s, IDPrefix)
	if !ok || len(h) != 32 {
		return false
	}
	_, err := hex.DecodeString(h)
	return err == nil && strings.ToLower(h) == h
}

// withoutFull returns a drive's row without the keys only a full report
// writes (each configuration's name, mode, params and entries); a row
// without them, or one that is not a drive's row, is returned as it is.
func withoutFull(raw []byte) []byte {
	if !bytes.Contains(raw, []byte(`"entries"`)) && !bytes.Contains(raw, []byte(`"params"`)) {
		return raw
	}
	var d Row
	if json.Unmarshal(raw, &d) != nil {
		return raw
	}
	for i := range d.Configs {
		c := &d.Configs[i]
		c.Name, c.Mode, c.Params, c.Entries = "", "", nil, nil
	}
	b, err := json.Marshal(d)
	if err != nil {
		return raw
	}
	return b
}

// RowKey identifies a drive's row from its canonical form (ID.Row's:
// compacted, without what only a full report writes).
func RowKey(canonical []byte) [16]byte {
	sum := sha256.Sum256(canonical)
	var k [16]byte
	copy(k[:], sum[:])
	return k
}
