package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst/analysis"
)

// A file a command writes (--output and the other flags of type
// outputFile: --svg, --persist-rules, --factor-out) may not be a file it
// reads: the atomic replacement would put the report where the capture,
// the log or the shard was, and the input would be lost. checkWrittenInputs
// refuses that before anything is read or written, for every command.

// inputArgs names the positional arguments of the commands whose
// positionals are files they read, in order; the last name stands for
// the rest. survey's are files or directories it walks (shards with
// --merge).
var inputArgs = map[string][]string{
	"plan":      {"CAPTURE"},
	"check":     {"ID-CAPTURE", "FEATURE-CAPTURE"},
	"sweep":     {"CAPTURE"},
	"compare":   {"CAPTURE"},
	"simulate":  {"CAPTURE"},
	"recommend": {"CAPTURE"},
	"survey":    {"DIR"},
	"replay":    {"CAPTURE", "TRACE"},
	"decode":    {"FEATURE-CAPTURE"},
	"convert":   {"CAPTURE"},
	"persist":   {"CAPTURE"},
}

// inputFlags are the flags whose value names a file the command reads
// (--exit-factor only when its value is no factors: parseExitFactor).
var inputFlags = []string{"log", "id-ctrl", "from", "check", "simulate", "exit-factor"}

// readFile is a file the command line names for the command to read:
// what names it ("CAPTURE", "--log") and its path.
type readFile struct{ what, path string }

// commandInputs returns the files c reads of the command line pos (its
// positionals): standard input ("-") is none.
func commandInputs(c *command, pos []string) []readFile {
	var out []readFile
	if names := inputArgs[c.name]; names != nil {
		if c.name == "survey" && c.flags != nil && slices.Contains(c.flags.given(), "merge") {
			names = []string{"SHARD"}
		}
		for i, p := range pos {
			if p != "-" && p != "" {
				out = append(out, readFile{names[min(i, len(names)-1)], p})
			}
		}
	}
	if c.flags == nil {
		return out
	}
	for _, name := range inputFlags {
		if !slices.Contains(c.flags.given(), name) {
			continue
		}
		v := c.flags.fs.Lookup(name).Value.String()
		if v == "" || v == "-" {
			continue
		}
		if name == "exit-factor" {
			if _, err := analysis.ParseExitFactors(v); err == nil {
				continue // factors, not a file
			}
		}
		out = append(out, readFile{spelling(name), v})
	}
	return out
}

// checkWrittenInputs refuses (a usage error, before the command runs) a
// file that a flag of c writes and that c reads too: the same file by
// os.SameFile, however the two paths are spelt (./x and x, a symbolic
// link, a hard link), or, for a directory survey walks, a file it holds
// that the walk reads.
func checkWrittenInputs(c *command, pos []string) error {
	if c.flags == nil {
		return nil
	}
	if err := checkWrittenRoot(c); err != nil {
		return err
	}
	inputs := commandInputs(c, pos)
	if len(inputs) == 0 {
		return nil
	}
	for _, name := range c.flags.given() {
		o, ok := c.flags.fs.Lookup(name).Value.(*outputFile)
		if !ok || o.file() == "" {
			continue
		}
		out := o.file()
		oi, err := os.Stat(out)
		if err != nil {
			continue // not there yet: nothing of it is read
		}
		for _, in := range inputs {
			ii, err := os.Stat(in.path)
			if err != nil {
				continue // the command says so when it reads it
			}
			if os.SameFile(oi, ii) {
				return usagef("%s %s and %s %s name the same file: %s reads it, and %s would replace it; give %s another file", spelling(name), quoteArg(out), in.what, quoteArg(in.path), c.name, spelling(name), spelling(name))
			}
			if ii.IsDir() && in.what == "DIR" && walkReads(in.path, out) {
				return usagef("%s %s is a file in %s, which survey walks: it would be read as a capture and then replaced; write it outside %s", spelling(name), quoteArg(out), quoteArg(in.path), quoteArg(in.path))
			}
		}
	}
	return nil
}

// checkWrittenRoot refuses a file a flag of c writes inside the tree or
// bundle that --root names (or the tree its default names): the command
// reads that tree (set-latency writes an attribute of it), and a report
// written into it would replace an attribute or a bundle's manifest, or
// be read back as one.
func checkWrittenRoot(c *command) error {
	f := c.flags.fs.Lookup("root")
	if f == nil || f.Value.String() == "" {
		return nil
	}
	root := f.Value.String()
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return nil // the command says what is wrong with it
	}
	for _, name := range c.flags.given() {
		o, ok := c.flags.fs.Lookup(name).Value.(*outputFile)
		if !ok || o.file() == "" {
			continue
		}
		if out := o.file(); inside(out, root) {
			return usagef("%s %s is inside --root %s, the tree %s reads: write it outside %s", spelling(name), quoteArg(out), quoteArg(root), c.name, quoteArg(root))
		}
	}
	return nil
}

// walkReads reports whether survey's walk of dir reads the file path:
// path lies below dir (their symbolic links resolved) and no component of
// it below dir is one the walk skips (a hidden name, a file of
// surveySkippedExts).
func walkReads(dir, path string) bool {
	if !inside(path, dir) {
		return false
	}
	rel, err := filepath.Rel(resolvedPath(dir), resolvedPath(path))
	if err != nil || rel == "." {
		return false
	}
	parts := strings.Split(rel, string(filepath.Separator))
	for i, p := range parts {
		if surveySkips(p, i < len(parts)-1) {
			return false
		}
	}
	return true
}
