//go:build !nolog

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
	"github.com/nvmeapst/nvmeapst/apst/persist"
	"github.com/nvmeapst/nvmeapst/examples/internal/view"
	"github.com/nvmeapst/nvmeapst/examples/internal/view/diagview"
	"github.com/nvmeapst/nvmeapst/internal/describe"
	"github.com/nvmeapst/nvmeapst/internal/describe/pastedlog"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// diagnoseLog diagnoses the pasted kernel log of req as apstctl diagnose
// --log does (diagnosePasted): kernlog.Read, the release of the log, and
// with a drive (id, the capture as parsed, or the shared drive) the
// parameters the command builds for --id-ctrl (pastedlog.Params).
// field names the input an error belongs to ("log", "tried", "platform").
func diagnoseLog(req *Request, id *powerstate.Controller) (*DiagnosisView, string, error) {
	if len(req.Log) > maxLog {
		return nil, "log", fmt.Errorf("kernel log is larger than %d bytes: paste the boot that failed (journalctl -k -b -1 --no-pager)", maxLog)
	}
	var tried []diagnose.Tried
	if s := strings.TrimSpace(req.Tried); s != "" {
		t, err := diagnose.ParseTriedFlag(s)
		if err != nil {
			return nil, "tried", err
		}
		tried = t
	}
	plat, err := platform(req.Platform)
	if err != nil {
		return nil, "platform", err
	}
	l, err := kernlog.Read(context.Background(), bytes.NewReader(req.Log), kernlog.Options{})
	if err != nil {
		if errors.Is(err, kernlog.ErrBinary) {
			err = fmt.Errorf("this is not a kernel log: paste the text that dmesg or journalctl -k prints (a saved kern.log or syslog works too; a binary journal file does not): %w", err)
		}
		err = pastedlog.NotALog(err, req.Log[:min(len(req.Log), pastedlog.HeadSize)], "the capture (above)", "the log")
		return nil, "log", err
	}
	in := diagnose.Input{Log: l, Tried: tried, Platform: plat}
	if l.Release != "" {
		if rel, err := apst.ParseRelease(l.Release); err == nil {
			in.Release = rel
		}
	}
	var notes []string
	var assumed apst.Assumptions
	if id != nil {
		p, a, note := pastedlog.Params(id, in.Release, l.CommandLine)
		in.Identify, in.Params = id, p
		assumed = a
		notes = append(notes, note)
	}
	d := diagnose.Diagnose(in)
	d.Notes = append(d.Notes, notes...)
	return diagnosisView(&d, l, describe.Assumptions(&assumed, "", "a PCI ID")), "", nil
}

// platform is apstctl diagnose's --platform: "" or "auto" is unknown (the
// diagnosis guesses it from the log), else one of persist.Platforms.
func platform(s string) (persist.Platform, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "auto" {
		return persist.PlatformUnknown, nil
	}
	if slices.Contains(persist.Platforms(), persist.Platform(s)) {
		return persist.Platform(s), nil
	}
	names := []string{"auto"}
	for _, p := range persist.Platforms() {
		names = append(names, string(p))
	}
	return "", fmt.Errorf("platform %q: want one of %s", s, strings.Join(names, ", "))
}

func escAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = view.Escape(s)
	}
	return out
}

// linesView is ls as the page shows it: escaped, and never nil.
func linesView(ls []diagnose.Line) []view.Evidence {
	if v := diagview.Lines(ls, view.Escape); v != nil {
		return v
	}
	return []view.Evidence{}
}

// testView is t as the page shows it: escaped (where is left out when
// there is no place to write a setting, as in apstctl's JSON).
func testView(t *diagnose.Test) view.Test { return diagview.Test(t, view.Escape) }

// diagnosisView is the page's view of d, read from l; assumptions are the
// lines of what the capture's plan assumed. Lists are never null.
func diagnosisView(d *diagnose.Diagnosis, l *kernlog.Log, assumptions []string) *DiagnosisView {
	v := &DiagnosisView{
		Controller: view.Escape(d.Controller), Address: view.Escape(d.Address), Failure: d.Failure, Summary: view.Escape(d.Summary),
		APSTRuledOut: d.APSTRuledOut, Undecided: []string{}, OnResume: d.OnResume, Replace: d.Replace,
		Causes: []CauseView{}, Known: []KnownView{}, Tried: []TriedView{}, Platform: string(d.Platform),
		Unread: []view.Unread{}, Relayed: []view.Unread{}, Notes: escAll(d.Notes), Assumptions: escAll(assumptions), Consequences: linesView(d.Consequences),
		Log: LogView{Release: view.Escape(l.Release), CommandLine: view.Escape(l.CommandLine), Boots: l.Boots, Lines: l.Lines, Compression: l.Compression,
			Events: l.Events, Incidents: len(l.Incidents)},
	}
	for _, u := range d.Undecided {
		v.Undecided = append(v.Undecided, string(u))
	}
	if d.Separate != nil {
		t := testView(d.Separate)
		v.Separate = &t
	}
	for _, c := range d.Causes {
		cv := CauseView{Layer: string(c.Layer), Likelihood: string(c.Likelihood), Score: c.Score,
			Evidence: linesView(c.Evidence), Against: linesView(c.Against), Tests: []view.Test{}}
		for i := range c.Tests {
			cv.Tests = append(cv.Tests, testView(&c.Tests[i]))
		}
		v.Causes = append(v.Causes, cv)
	}
	for _, k := range d.Known {
		kv := KnownView{ID: view.Escape(k.ID), Layer: string(k.Layer), Title: view.Escape(k.Title), Fix: view.Escape(k.Fix), Source: view.Escape(k.Source)}
		if !k.Fixed.IsZero() {
			kv.Fixed = k.Fixed.String()
		}
		v.Known = append(v.Known, kv)
	}
	for i := range d.Tried {
		t := &d.Tried[i]
		if text, ok := diagview.Tried(t, view.Escape); ok {
			v.Tried = append(v.Tried, TriedView{Setting: view.Escape(t.Setting), Value: view.Escape(t.Value), Outcome: string(t.Outcome), FromLog: t.FromLog, Text: text})
		}
	}
	for _, u := range d.Unread {
		v.Unread = append(v.Unread, view.Unread{Line: u.Line, Text: view.Escape(u.Text)})
	}
	for _, u := range d.Relayed {
		v.Relayed = append(v.Relayed, view.Unread{Line: u.Line, Text: view.Escape(u.Text), Program: view.Escape(u.Program)})
	}
	return v
}
