package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"hash"
	"strings"
)

// Every JSON and NDJSON survey report names the surveys it holds in its
// summary's "shards": a survey of directories holds one, identified by a
// hash of its rows and its unreadable files (so the JSON and NDJSON reports
// of one survey, and a copy of either, have the same identity); a merged
// report holds those of every report merged into it. --merge refuses a
// survey that an earlier argument holds: the same shard twice, or a shard
// with a merged report that holds it.

// shardIDPrefix starts every shard identity.
const shardIDPrefix = "sha256:"

// shardID computes a survey's identity from its rows and unreadable files,
// in any interleaving of the two.
type shardID struct {
	rows, unreadables hash.Hash
	buf               bytes.Buffer
}

func newShardID() *shardID {
	return &shardID{rows: sha256.New(), unreadables: sha256.New()}
}

// row adds one drive's row, as JSON (compacted first: a report that was
// reformatted keeps its identity).
func (s *shardID) row(raw []byte) {
	s.buf.Reset()
	if json.Compact(&s.buf, raw) != nil {
		s.buf.Write(raw)
	}
	s.rows.Write(s.buf.Bytes())
	s.rows.Write([]byte{'\n'})
}

// compactRow is row for a row that is compact JSON already.
func (s *shardID) compactRow(raw []byte) {
	s.rows.Write(raw)
	s.rows.Write([]byte{'\n'})
}

// unreadable adds one unreadable file.
func (s *shardID) unreadable(u surveyUnreadable) {
	s.unreadables.Write([]byte(u.Path))
	s.unreadables.Write([]byte{0})
	s.unreadables.Write([]byte(u.Error))
	s.unreadables.Write([]byte{0})
}

// sum returns the identity: shardIDPrefix and 32 hexadecimal digits.
func (s *shardID) sum() string {
	h := sha256.New()
	h.Write(s.rows.Sum(nil))
	h.Write(s.unreadables.Sum(nil))
	return shardIDPrefix + hex.EncodeToString(h.Sum(nil)[:16])
}

// validShardID reports whether s has the form sum returns.
func validShardID(s string) bool {
	h, ok := strings.CutPrefix(s, shardIDPrefix)
	if !ok || len(h) != 32 {
		return false
	}
	_, err := hex.DecodeString(h)
	return err == nil && strings.ToLower(h) == h
}
