package shard_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/nvmeapst/nvmeapst/apst/survey/shard"
	"github.com/nvmeapst/nvmeapst/internal/surveytest"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/survey"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// testingT is what the helpers need of a *testing.T or a *rapid.T.
type testingT interface {
	require.TestingT
	Helper()
}

// shardOpts writes a shard: its rows full or not, JSON or NDJSON, with the
// unreadable files given.
type shardOpts struct {
	full, ndjson bool
	unreadable   []shard.Unreadable
}

// writeShard writes the shard of the rows of a survey with configs and
// kernel quirks kq, as apstctl survey writes it (the head, a row a line,
// the summary with its identity, the unreadable files).
func writeShard(tb testingT, configs []analysis.Config, kq bool, rows []survey.Row, o shardOpts) []byte {
	tb.Helper()
	type cfg struct {
		Name   string `json:"name"`
		Params any    `json:"params"`
	}
	head := struct {
		Configs      []cfg `json:"configs"`
		KernelQuirks bool  `json:"kernel_quirks"`
	}{KernelQuirks: kq}
	for _, c := range configs {
		head.Configs = append(head.Configs, cfg{c.Name, c.Params})
	}
	hb, err := json.Marshal(head)
	require.NoError(tb, err)
	var b bytes.Buffer
	var id shard.ID
	if o.ndjson {
		b.Write(hb)
		b.WriteByte('\n')
	} else {
		b.Write(hb[:len(hb)-1])
		b.WriteString(`,"drives":[` + "\n")
	}
	for i := range rows {
		var line []byte
		if o.full {
			line, err = json.Marshal(shard.NewRow(&rows[i], "smartctl-text", true))
			require.NoError(tb, err)
			id.Row(line)
		} else {
			line = shard.AppendRow(nil, &rows[i], "smartctl-text")
			id.CompactRow(line)
		}
		switch {
		case o.ndjson:
			fmt.Fprintf(&b, "{\"drive\":%s}\n", line)
		case i > 0:
			b.WriteByte(',')
			fallthrough
		default:
			b.Write(line)
			b.WriteByte('\n')
		}
	}
	for _, u := range o.unreadable {
		id.Unreadable(u)
		if o.ndjson {
			ub, _ := json.Marshal(map[string]any{"unreadable": u})
			b.Write(ub)
			b.WriteByte('\n')
		}
	}
	sum := shard.Summary{Drives: len(rows), UnreadableFiles: len(o.unreadable), Shards: []string{id.Sum()}}
	sb, err := json.Marshal(sum)
	require.NoError(tb, err)
	if o.ndjson {
		fmt.Fprintf(&b, "{\"summary\":%s}\n", sb)
		return b.Bytes()
	}
	ub, err := json.Marshal(append([]shard.Unreadable{}, o.unreadable...))
	require.NoError(tb, err)
	fmt.Fprintf(&b, "],\n\"summary\":%s,\n\"unreadable\":%s}\n", sb, ub)
	return b.Bytes()
}

// readShard decodes a shard into a new survey of configs, as apstctl
// survey --merge does, and returns it with the shard's identity.
func readShard(tb testingT, configs []analysis.Config, opts survey.Options, data []byte) (*survey.Survey, string, []shard.Unreadable, error) {
	tb.Helper()
	s, err := survey.NewWithOptions(opts, configs...)
	require.NoError(tb, err)
	var unreadable []shard.Unreadable
	_, id, err := shard.Decode(bytes.NewReader(data), shard.Visitor{
		Drive:      func(d *shard.Drive) error { return s.AddRecord(d.Decoded.Record) },
		Unreadable: func(u shard.Unreadable) error { unreadable = append(unreadable, u); return nil },
	})
	return s, id, unreadable, err
}

// surveyRows surveys cs under configs and returns the rows.
func surveyRows(tb testing.TB, configs []analysis.Config, opts survey.Options, names []string, cs []*powerstate.Controller) (*survey.Survey, []survey.Row) {
	tb.Helper()
	s, err := survey.NewWithOptions(opts, configs...)
	require.NoError(tb, err)
	rows := make([]survey.Row, len(cs))
	for i, c := range cs {
		rows[i], err = s.Add(names[i], c)
		require.NoError(tb, err)
	}
	return s, rows
}

// A shard of the corpus, JSON or NDJSON, full or not, reads back to the
// survey it was written from, with the same identity in every form.
func TestShardRoundTripCorpus(t *testing.T) {
	names, cs := surveytest.Captures(t, surveytest.CorpusDir+"/smartctl")
	configs := surveytest.Configs(t, "ps-max-latency-us=100000", "ps-max-latency-us=25000")
	opts := survey.Options{KernelQuirks: true}
	whole, rows := surveyRows(t, configs, opts, names, cs)
	unreadable := []shard.Unreadable{{Path: "a/b.txt", Error: "capture: unknown capture format", Reason: "unknown-format"}}
	ids := map[string]bool{}
	for _, o := range []shardOpts{{}, {ndjson: true}, {full: true}, {full: true, ndjson: true}} {
		o.unreadable = unreadable
		got, id, un, err := readShard(t, configs, opts, writeShard(t, configs, true, rows, o))
		require.NoError(t, err, "%+v", o)
		assert.Equal(t, whole.Summary(), got.Summary(), "%+v", o)
		assert.Equal(t, unreadable, un)
		assert.True(t, shard.ValidID(id), id)
		ids[id] = true
	}
	assert.Len(t, ids, 1, "one identity for every form of one survey")
}

// Each error names what is wrong with the shard, and matches ErrNotShard.
func TestDecodeShardErrors(t *testing.T) {
	names, cs := surveytest.Captures(t, surveytest.CorpusDir+"/smartctl")
	configs := surveytest.Configs(t, "ps-max-latency-us=100000", "ps-max-latency-us=25000")
	_, rows := surveyRows(t, configs, survey.Options{}, names[:3], cs[:3])
	good := string(writeShard(t, configs, false, rows, shardOpts{}))
	goodND := string(writeShard(t, configs, false, rows, shardOpts{ndjson: true}))
	row0 := string(shard.AppendRow(nil, &rows[0], "smartctl-text"))
	for _, tc := range []struct {
		name, in, want string
	}{
		{"empty", "", "shard: not a survey report (JSON or NDJSON): it is empty, or white space alone"},
		{"white space", " \n\t\n", "shard: not a survey report (JSON or NDJSON): it is empty, or white space alone"},
		{"a list", "[1]", "shard: not a survey report (JSON or NDJSON): found ["},
		{"no summary", good[:strings.Index(good, `"summary"`)-2] + "}", "shard: no summary: the report is incomplete"},
		{"cut", good[:len(good)/2], "shard: drive"},
		{"more after the end", good + "{}", "shard: more after the end of the report"},
		{"summary counts", strings.Replace(good, `"drives":3`, `"drives":4`, 1), "shard: 3 drives, but its summary counts 4: the report is incomplete or was edited"},
		{"skipped", strings.Replace(good, `"skipped_files":0`, `"skipped_files":-1`, 1), "shard: summary: skipped_files -1: want 0 or more"},
		{"unreadable counts", strings.Replace(good, `"unreadable_files":0`, `"unreadable_files":2`, 1), "shard: 0 unreadable files listed and 0 not listed, but its summary counts 2"},
		{"drives not a list", strings.Replace(good, `"drives":[`, `"drives":{`, 1), "shard: drives: want a list: found {"},
		{"row not an object", strings.Replace(good, row0, "17", 1), "shard: drive 1: json: cannot unmarshal number"},
		{"vendor_id", strings.Replace(good, `"vendor_id":"0x`, `"vendor_id":"0X`, 1), `shard: drive 1 ("`},
		{"one configuration", strings.Replace(good, row0, strings.Replace(row0, `"changes":[{`, `"changes":[{"x":{},`, 1), 1), ""},
		{"max_ps", strings.Replace(good, `"max_ps":`, `"max_ps":40,"x":`, 1), "configuration 1: max_ps 40: want a power state, 0 to 31, or -1"},
		{"power", strings.Replace(good, `"deepest_state_max_power_w":`, `"deepest_state_max_power_w":1e9,"x":`, 1), "configuration 1: power 1e+09 W is not a drive's maximum power"},
		{"path too long", strings.Replace(good, `"path":"`, `"path":"`+strings.Repeat("x", shard.PathMax), 1), "the limits are 4096 and 64 bytes"},
		{"value too long", strings.Replace(good, `"path":"`, `"path":"`+strings.Repeat("x", shard.ValueMax), 1), "a JSON value longer than 1048576 bytes"},
		{"ndjson without its head", goodND[strings.Index(goodND, "\n")+1:], "shard: 2 drives, but its summary counts 3"}, // the first line is read as the head, its drive skipped
		{"ndjson cut", goodND[:strings.LastIndex(goodND, "{\"summary\"")], "shard: no summary: the report is incomplete"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, _, err := readShard(t, configs, survey.Options{}, []byte(tc.in))
			if tc.want == "" {
				require.NoError(t, err, "an unknown key is skipped")
				return
			}
			require.Error(t, err)
			assert.ErrorIs(t, err, shard.ErrNotShard)
			assert.Contains(t, err.Error(), tc.want)
			assert.True(t, strings.HasPrefix(err.Error(), "shard: "), err.Error())
		})
	}
}

// An error of the visitor ends the decoding and is returned as it is.
func TestDecodeShardVisitorError(t *testing.T) {
	names, cs := surveytest.Captures(t, surveytest.CorpusDir+"/smartctl")
	configs := surveytest.Configs(t, "ps-max-latency-us=100000", "ps-max-latency-us=25000")
	_, rows := surveyRows(t, configs, survey.Options{}, names[:3], cs[:3])
	data := writeShard(t, configs, false, rows, shardOpts{})
	stop := errors.New("stop")
	n := 0
	_, _, err := shard.Decode(bytes.NewReader(data), shard.Visitor{
		Head: func(h *shard.Head) error {
			require.Len(t, h.Configs, 2)
			require.NotNil(t, h.KernelQuirks)
			return nil
		},
		Drive: func(d *shard.Drive) error { n++; return stop },
	})
	assert.Same(t, stop, err)
	assert.Equal(t, 1, n)
	_, _, err = shard.Decode(iotestErr{}, shard.Visitor{})
	assert.ErrorIs(t, err, errRead)
}

var errRead = errors.New("read failed")

type iotestErr struct{}

func (iotestErr) Read([]byte) (int, error) { return 0, errRead }

var _ io.Reader = iotestErr{}

// A Set refuses a survey two shards hold, an identity that is not
// one, and tells the drives two shards hold.
func TestShardSet(t *testing.T) {
	var s shard.Set
	a, b := "sha256:"+strings.Repeat("0", 32), "sha256:"+strings.Repeat("1", 32)
	require.NoError(t, s.Add("x.json", nil, a))
	var ce *shard.ConflictError
	err := s.Add("x.json", nil, a)
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, shard.ConflictError{Shard: a, First: "x.json", Second: "x.json"}, *ce)
	err = s.Add("y.json", []string{b, a}, "")
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, shard.ConflictError{Shard: a, First: "x.json", Second: "y.json"}, *ce)
	assert.Contains(t, err.Error(), `shard: "x.json" and "y.json" both hold the survey`)
	err = s.Add("z.json", []string{"sha256:ABC"}, "")
	require.ErrorAs(t, err, &ce)
	assert.True(t, ce.Invalid)
	assert.Equal(t, []string{a, b}, s.Shards())
	assert.Equal(t, "", s.Row("x.json", []byte("r1")))
	assert.Equal(t, "", s.Row("x.json", []byte("r1")), "the same source")
	assert.Equal(t, "x.json", s.Row("y.json", []byte("r1")))
	for _, tc := range []struct {
		id string
		ok bool
	}{{a, true}, {"sha256:" + strings.Repeat("A", 32), false}, {"sha256:" + strings.Repeat("0", 31), false}, {"md5:" + strings.Repeat("0", 32), false}, {"", false}} {
		assert.Equal(t, tc.ok, shard.ValidID(tc.id), tc.id)
	}
}

// Encode then decode: the record read back from a drive's row (written by
// hand or by encoding/json, full or not) is the row's record, and full and
// not full rows have one identity.
func TestPropertyShardRowRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		configs := []analysis.Config{{Name: "a", Params: surveytest.GenParams(t)}, {Name: "b", Params: surveytest.GenParams(t)}}
		s, err := survey.NewWithOptions(survey.Options{KernelQuirks: rapid.Bool().Draw(t, "kq")}, configs...)
		require.NoError(t, err)
		row, err := s.Add(rapid.StringN(0, 20, -1).Draw(t, "name"), surveytest.GenController(t))
		require.NoError(t, err)
		want := row.Record()
		compact := shard.AppendRow(nil, &row, "binary")
		full, err := json.Marshal(shard.NewRow(&row, "binary", true))
		require.NoError(t, err)
		for _, raw := range [][]byte{compact, full} {
			got, err := shard.DecodeRow(raw)
			require.NoError(t, err, "%s", raw)
			require.Equal(t, want, got.Record)
			require.Equal(t, row.Assumed, got.Assumed)
		}
		var a, b shard.ID
		a.CompactRow(compact)
		b.Row(full)
		require.Equal(t, a.Sum(), b.Sum())
	})
}

// Merging shards is associative and commutative: whatever the order and
// grouping of three shards' surveys, read back from their shards, the
// summary and the stall budget are those of one survey of every drive.
func TestPropertyShardMergeAssociativeCommutative(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		configs := []analysis.Config{{Name: "a", Params: surveytest.GenParams(t)}, {Name: "b", Params: surveytest.GenParams(t)}}
		opts := survey.Options{KernelQuirks: rapid.Bool().Draw(t, "kq")}
		whole, err := survey.NewWithOptions(opts, configs...)
		require.NoError(t, err)
		var parts [3]*survey.Survey
		for k := range parts {
			var rows []survey.Row
			for i := range rapid.IntRange(0, 3).Draw(t, "drives") {
				c := surveytest.GenController(t)
				name := fmt.Sprintf("shard%d/drive%d", k, i)
				_, err := whole.Add(name, c)
				require.NoError(t, err)
				s, err := survey.NewWithOptions(opts, configs...)
				require.NoError(t, err)
				row, err := s.Add(name, c)
				require.NoError(t, err)
				rows = append(rows, row)
			}
			var rerr error
			parts[k], _, _, rerr = readShard(t, configs, opts, writeShard(t, configs, opts.KernelQuirks, rows, shardOpts{ndjson: k == 1}))
			require.NoError(t, rerr)
		}
		merge := func(ss ...*survey.Survey) *survey.Survey {
			m, err := survey.NewWithOptions(opts, configs...)
			require.NoError(t, err)
			for _, s := range ss {
				require.NoError(t, m.Merge(s))
			}
			return m
		}
		a, b, c := parts[0], parts[1], parts[2]
		bound := surveytest.GenParams(t).Bound
		for _, got := range []*survey.Survey{
			merge(merge(a, b), c), merge(a, merge(b, c)), merge(c, b, a), merge(b, merge(c, a)),
		} {
			require.Equal(t, whole.Summary(), got.Summary())
			require.Equal(t, whole.StallBudget(bound), got.StallBudget(bound))
		}
	})
}

// FuzzDecode: whatever the input, Decode returns without
// panicking, an error matching ErrNotShard for a bad shard, and for a
// shard it reads, a summary that counts the drives it delivered.
func FuzzDecode(f *testing.F) {
	names, cs := surveytest.Captures(f, surveytest.CorpusDir+"/smartctl")
	configs := surveytest.Configs(f, "ps-max-latency-us=100000", "ps-max-latency-us=25000")
	_, rows := surveyRows(f, configs, survey.Options{}, names[:2], cs[:2])
	un := []shard.Unreadable{{Path: "x", Error: "e"}}
	for _, o := range []shardOpts{{}, {ndjson: true}, {full: true, unreadable: un}, {ndjson: true, unreadable: un}} {
		f.Add(writeShard(f, configs, false, rows, o))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		n := 0
		sum, id, err := shard.Decode(bytes.NewReader(b), shard.Visitor{
			Drive: func(d *shard.Drive) error {
				n++
				require.Equal(t, n, d.N)
				require.GreaterOrEqual(t, len(d.Decoded.Record.Outcomes), 2)
				return nil
			},
		})
		if err != nil {
			require.ErrorIs(t, err, shard.ErrNotShard)
			require.True(t, strings.HasPrefix(err.Error(), "shard: "), err.Error())
			return
		}
		require.Equal(t, n, sum.Drives)
		require.True(t, shard.ValidID(id))
	})
}
