package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"

	"github.com/nvmeapst/nvmeapst/apst/analysis"
	"github.com/nvmeapst/nvmeapst/apst/survey"
	"github.com/nvmeapst/nvmeapst/apst/survey/shard"
	"github.com/nvmeapst/nvmeapst/internal/safeio"
	"github.com/nvmeapst/nvmeapst/internal/sniff"
)

// "apstctl survey --merge SHARD..." reads the JSON or NDJSON reports of
// surveys of shards of a fleet (survey shards, apst/survey's interchange
// format, which shard.Decode reads) and reports the survey of the
// whole fleet.
// Each report's drive rows carry the drive's survey.Record (the vendor, per
// configuration the reach, the worst stall and the deepest state's power,
// whether the command changes, and the bound sweep), and a survey's summary
// and stall budget are functions of its records only, so the merged report
// is exactly the report of one survey of every shard's captures: the same
// summary and stall budget, the rows of the shards in the order given, the
// unreadable files of all of them.

// merge reports the survey of the shards' reports: files, pipes the user
// names (<(cmd)) and "-", standard input.
func (r *surveyRun) merge(ctx context.Context, shards []string, stdin io.Reader) error {
	for _, path := range shards {
		if err := context.Cause(ctx); err != nil {
			return err
		}
		in, release, err := openShard(ctx, path, stdin)
		if err != nil {
			return inputErr(err)
		}
		br := bufio.NewReaderSize(in, 64<<10)
		head, _ := br.Peek(64 << 10) // what it looks like, for a refusal
		name := path
		if path == "-" {
			name = "standard input"
		}
		err = r.mergeShard(ctx, name, br, sniff.Looks(head, sniff.SurveyReport))
		release()
		if cause := context.Cause(ctx); err != nil && cause != nil {
			return cause // interrupted: the shard is not at fault
		}
		if err != nil {
			return err
		}
	}
	return r.out.end(r)
}

// openShard opens a shard's report: a regular file, a pipe the user named
// (its open waits for a writer), or standard input for "-"; ^C ends a wait
// of either for a writer or for data.
func openShard(ctx context.Context, path string, stdin io.Reader) (io.Reader, func(), error) {
	if path == "-" {
		// contextReader: a read waiting for a writer does not swallow ^C.
		return newContextReader(ctx, stdin), func() {}, nil
	}
	f, _, err := safeio.Open(path)
	var nr *safeio.NotRegularError
	if errors.As(err, &nr) && nr.Mode&fs.ModeNamedPipe != 0 {
		return openNamedPipe(ctx, path)
	}
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close() }, nil
}

// mergeShard reads one shard's report (shard.Decode: the codec of
// the interchange format) into the run.
func (r *surveyRun) mergeShard(ctx context.Context, path string, in io.Reader, looks string) error {
	fail := func(format string, args ...any) error {
		return inputErr(fmt.Errorf("--merge %s: %s", safeio.EscapeTerminal(path), fmt.Sprintf(format, args...)))
	}
	dupOf, dupRow := "", 0 // the first drive an earlier argument holds too
	sum, id, err := shard.Decode(in, shard.Visitor{
		Head: func(h *shard.Head) error { return r.mergeHead(path, h, looks) },
		Drive: func(d *shard.Drive) error {
			if dupOf == "" {
				if prev := r.shards.Row(path, d.Canonical); prev != "" {
					dupOf, dupRow = prev, d.N
				}
			}
			if err := r.survey.AddRecord(d.Decoded.Record); err != nil {
				return fail("drive %d (%s): %v", d.N, safeio.EscapeTerminal(d.Decoded.Record.Name), err)
			}
			r.countQuirkNotes(d.Decoded.QuirksInferred, d.Decoded.QuirksUnchecked)
			r.assumed.add(d.Decoded.Assumed)
			if d.Decoded.Bundle {
				r.bundleDrives++
			}
			if j, ok := r.out.(*surveyJSON); ok {
				if err := j.rawDrive(d.Raw); err != nil {
					return err
				}
			}
			r.drives++
			r.tick()
			if d.N%1024 == 0 {
				return context.Cause(ctx)
			}
			return nil
		},
		Unreadable: func(u surveyUnreadable) error {
			r.unreadable.add(u)
			return r.out.unreadable(u)
		},
	})
	var se *shard.Error
	var re *shard.RowError
	switch {
	case errors.As(err, &re):
		cause := re.Err
		if ve := (*shard.VendorIDError)(nil); errors.As(cause, &ve) {
			cause = fmt.Errorf("vendor_id %s: want 0x and 4 hexadecimal digits", strconv.Quote(safeio.EscapeTerminal(ve.VendorID)))
		}
		return fail("drive %d (%s): %v", re.Drive, safeio.EscapeTerminal(re.Name), cause)
	case errors.As(err, &se) && looks != "":
		return fail("%s; %s", se.Detail, looks)
	case errors.As(err, &se):
		return fail("%s", se.Detail)
	case err != nil:
		return err
	}
	r.unreadable.addUnlisted(sum.UnreadableNotListed)
	r.skipped += sum.SkippedFiles
	if err := r.shards.Add(path, sum.Shards, id); err != nil {
		var ce *shard.ConflictError
		if !errors.As(err, &ce) {
			return err
		}
		switch {
		case ce.Invalid:
			return inputErr(fmt.Errorf("--merge %s: shard identity %s: want %q and 32 hexadecimal digits", safeio.EscapeTerminal(path), strconv.Quote(safeio.EscapeTerminal(ce.Shard)), shard.IDPrefix))
		case ce.First == ce.Second:
			return inputErr(fmt.Errorf("--merge %s: given twice: its drives would be counted twice", safeio.EscapeTerminal(path)))
		}
		return inputErr(fmt.Errorf("--merge %s and %s both hold the survey %s: its drives would be counted twice (a shard given twice, or a shard and a merged report that holds it)", safeio.EscapeTerminal(ce.First), safeio.EscapeTerminal(path), ce.Shard))
	}
	if dupOf != "" {
		// Not the same survey, but overlapping ones: a drive (the same
		// path and the same answers) both hold.
		return fail("drive %d is a drive %s holds too (the same path and answers): shards that overlap would count it twice; survey disjoint sets of files", dupRow, safeio.EscapeTerminal(dupOf))
	}
	return nil
}

// mergeHead makes the survey from the first shard's configurations and
// checks that every other shard's are the same; looks says what the
// shard looks like when it is no survey report ("" otherwise).
func (r *surveyRun) mergeHead(path string, head *shard.Head, looks string) error {
	fail := func(format string, args ...any) error {
		return inputErr(fmt.Errorf("--merge %s: %s", safeio.EscapeTerminal(path), fmt.Sprintf(format, args...)))
	}
	if len(head.Configs) < 2 || head.KernelQuirks == nil {
		if looks != "" {
			return fail("no configurations at the start: not a survey report of this apstctl; %s", looks)
		}
		return fail("no configurations at the start: not a survey report of this apstctl")
	}
	if len(head.Configs) > maxConfigs {
		return fail("%d configurations: want 2 to %d (a survey takes --with at most %d times)", len(head.Configs), maxConfigs, maxConfigs)
	}
	names := make([]string, len(head.Configs))
	for i, c := range head.Configs {
		names[i] = c.Name
	}
	var configs []analysis.Config
	if r.survey != nil {
		configs = r.survey.Configs()
		same := len(configs) == len(names) && r.survey.Options().KernelQuirks == *head.KernelQuirks
		for i := 0; same && i < len(configs); i++ {
			same = configs[i].Name == names[i]
		}
		if !same {
			return fail("surveyed with other configurations or kernel quirks than the first shard: %q, kernel quirks %v", names, *head.KernelQuirks)
		}
	} else {
		var err error
		if configs, err = surveyConfigs(names); err != nil {
			return fail("%v", err)
		}
	}
	// The configurations' parameters as this apstctl reads the names must
	// be the ones the shard was surveyed with.
	for i, c := range configs {
		want, err := json.Marshal(c.Params)
		if err != nil {
			return err
		}
		var got bytes.Buffer
		if err := json.Compact(&got, head.Configs[i].Params); err != nil || !bytes.Equal(got.Bytes(), want) {
			return fail("configuration %q: params %s, but this apstctl reads it as %s", names[i], head.Configs[i].Params, want)
		}
	}
	if r.survey != nil {
		return nil
	}
	var err error
	r.survey, err = survey.NewWithOptions(survey.Options{KernelQuirks: *head.KernelQuirks}, configs...)
	if err != nil {
		return fail("%v", err)
	}
	return r.out.begin(configs, *head.KernelQuirks)
}
