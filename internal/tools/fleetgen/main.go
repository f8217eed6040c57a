// Command fleetgen writes a synthetic fleet of captures for "apstctl
// survey" benchmarks: N capture files made from the smartctl reports of the
// project's corpus, each drive with its own serial number and its
// non-operational states' latencies scaled by 0.50 to 1.50, in one capture
// format or all of them in turn, 1000 files a directory.
//
//	go run ./internal/tools/fleetgen -n 100000 -format smartctl -out /tmp/fleet
//	apstctl survey /tmp/fleet
//
// With -copy it writes the corpus files themselves instead, round-robin,
// only the serial number of each copy rewritten to be unique (smartctl:
// the "Serial Number:" line; binary: bytes 4-23 of the 4096-byte images of
// testdata/corpus/binary/synthetic): the fleet of the published survey
// figures (examples/fleetbench).
//
//	go run ./internal/tools/fleetgen -copy -n 100000 -format smartctl -out /tmp/fleet
//
// The same flags give the same files, so a figure measured on a fleet can
// be repeated by anyone with the repository.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// formats are the capture formats fleetgen writes, by flag name. smartctl
// reports are the corpus's own (about 3 KB each, with their SMART data),
// edited; the others are written from the drive.
var formats = []struct {
	name, ext string
	write     func(w *bytes.Buffer, t *template, c *powerstate.Controller) error
}{
	{"binary", ".bin", func(w *bytes.Buffer, _ *template, c *powerstate.Controller) error {
		b, err := c.MarshalBinary()
		w.Write(b)
		return err
	}},
	{"nvme-text", ".nvme.txt", func(w *bytes.Buffer, _ *template, c *powerstate.Controller) error {
		return capture.WriteNVMeCLIText(w, c)
	}},
	{"nvme-json", ".json", func(w *bytes.Buffer, _ *template, c *powerstate.Controller) error {
		return capture.WriteNVMeCLIJSON(w, c)
	}},
	{"smartctl", ".smartctl.txt", func(w *bytes.Buffer, t *template, c *powerstate.Controller) error {
		return editSmartctl(w, t.report, c)
	}},
}

// template is a drive of the corpus: its report and what it parses to.
type template struct {
	report []byte
	c      powerstate.Controller
}

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "fleetgen:", err)
		os.Exit(2)
	}
}

func run(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("fleetgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("n", 10000, "number of captures to write")
	out := fs.String("out", "", "directory to write the fleet into (created; must be empty or absent)")
	format := fs.String("format", "mixed", "capture format: binary, nvme-text, nvme-json, smartctl, or mixed (each in turn)")
	corpus := fs.String("corpus", "testdata/corpus/smartctl", "directory of smartctl reports to make the drives from")
	perDir := fs.Int("per-dir", 1000, "files per directory")
	copyCorpus := fs.Bool("copy", false, "copy the corpus files round-robin, only the serial number rewritten (-format smartctl or binary)")
	images := fs.String("images", "testdata/corpus/binary/synthetic", "with -copy -format binary: directory of 4096-byte Identify images")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *copyCorpus {
		if *out == "" || *n < 0 || *perDir < 1 || fs.NArg() > 0 {
			return errors.New("want -out DIR, -n >= 0, -per-dir >= 1 and no arguments")
		}
		switch *format {
		case "smartctl":
			return copyFleet(*corpus, ".txt", *out, *n, *perDir, ".smartctl.txt", serialSmartctl)
		case "binary":
			return copyFleet(*images, ".bin", *out, *n, *perDir, ".bin", serialBinary)
		}
		return fmt.Errorf("-copy -format %q: want smartctl or binary", *format)
	}
	if *out == "" || *n < 0 || *perDir < 1 || fs.NArg() > 0 {
		fs.Usage()
		return errors.New("want -out DIR, -n >= 0, -per-dir >= 1 and no arguments")
	}
	var pick []int
	for i, f := range formats {
		if *format == "mixed" || *format == f.name {
			pick = append(pick, i)
		}
	}
	if len(pick) == 0 {
		return fmt.Errorf("-format %q: want binary, nvme-text, nvme-json, smartctl or mixed", *format)
	}
	templates, err := readTemplates(*corpus)
	if err != nil {
		return err
	}
	if entries, err := os.ReadDir(*out); err == nil && len(entries) > 0 {
		return fmt.Errorf("-out %s: not empty", *out)
	}
	cs := make([]powerstate.Controller, len(templates))
	for i := range templates {
		cs[i] = templates[i].c
	}
	var buf bytes.Buffer
	for i := range *n {
		c := Drive(cs, i)
		f := formats[pick[i%len(pick)]]
		buf.Reset()
		if err := f.write(&buf, &templates[i%len(templates)], &c); err != nil {
			return fmt.Errorf("drive %d (%s): %w", i, c.Model, err)
		}
		dir := filepath.Join(*out, fmt.Sprintf("rack%04d", i / *perDir))
		if i%*perDir == 0 {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
		}
		name := filepath.Join(dir, fmt.Sprintf("host%07d%s", i, f.ext))
		if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// readTemplates parses every capture in dir (its *.txt files), in name
// order.
func readTemplates(dir string) ([]template, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("-corpus: %w", err)
	}
	var out []template
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".txt") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		c, err := capture.ParseBytes(b)
		if err != nil {
			return nil, fmt.Errorf("-corpus: %s: %w", e.Name(), err)
		}
		out = append(out, template{report: b, c: c})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("-corpus %s: no *.txt capture", dir)
	}
	return slices.Clip(out), nil
}

// Drive returns drive i of the fleet: template i mod len(templates), with
// serial number FLEET followed by i, APSTA 1 where the template does not
// record it (what apst.Build assumes), every field known, and its
// non-operational states' entry and exit latencies scaled by a factor from
// 0.50 to 1.50 that changes with each pass over the templates.
func Drive(templates []powerstate.Controller, i int) powerstate.Controller {
	c := templates[i%len(templates)]
	if !c.APSTAKnown() {
		// smartctl does not print APSTA; apst.Build assumes APST is
		// supported, and so does the fleet, in every format.
		c.APSTA = 1
	}
	c.Missing, c.Notes = 0, nil
	c.Serial = fmt.Sprintf("FLEET%015d", i)
	f := uint64(50 + (i/len(templates)*37)%101)
	for s := range c.States() {
		if d := &c.PowerStates[s]; d.NonOperational {
			d.ExitLatency = powerstate.Microseconds(uint64(d.ExitLatency) * f / 100)
			d.EntryLatency = powerstate.Microseconds(uint64(d.EntryLatency) * f / 100)
		}
	}
	return c
}

// editSmartctl writes the smartctl report of template drive report with
// c's serial number and c's non-operational states' entry and exit
// latencies (the last two columns of the "Supported Power States" table).
func editSmartctl(w *bytes.Buffer, report []byte, c *powerstate.Controller) error {
	inTable, state := false, 0
	for line := range strings.SplitAfterSeq(string(report), "\n") {
		body := strings.TrimRight(line, "\r\n")
		eol := line[len(body):]
		switch {
		case strings.HasPrefix(body, "Serial Number:"):
			k := strings.IndexByte(body, ':') + 1
			body = body[:k] + strings.Repeat(" ", max(1, 36-k)) + c.Serial
		case strings.HasPrefix(body, "St Op"):
			inTable, state = true, 0
		case inTable && strings.TrimSpace(body) == "":
			inTable = false
		case inTable:
			f := strings.Fields(body)
			if len(f) < 4 || state >= powerstate.MaxStates {
				return fmt.Errorf("smartctl report: power state line %q", body)
			}
			d := &c.PowerStates[state]
			state++
			if !d.NonOperational {
				break
			}
			cut := strings.TrimRight(body, " ")
			for range 2 {
				cut = strings.TrimRight(cut[:strings.LastIndexByte(cut, ' ')+1], " ")
			}
			body = fmt.Sprintf("%s %8d %7d", cut, d.EntryLatency, d.ExitLatency)
		}
		w.WriteString(body)
		w.WriteString(eol)
	}
	return nil
}
