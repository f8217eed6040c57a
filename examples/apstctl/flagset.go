package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
)

// flagSet holds a command's flags: each has a long name (shown as --name),
// optionally a one-letter alias (-o) and other long aliases (--format), a
// metavariable for help (FILE, FORMAT) and a usage text. Values live in a
// flag.FlagSet; parsing is done by parseArgs (args.go), not by package flag,
// so that flags may come before or after positionals and -- ends them.
type flagSet struct {
	fs      *flag.FlagSet
	order   []string          // long names in definition order
	short   map[string]string // long name -> one-letter alias
	aliases map[string]string // alias (short or long) -> long name
	meta    map[string]string // long name -> metavariable ("" for a boolean)
	// text holds the plain string flags (String, StringVar): each names
	// something (a file, a duration, a goal), so an empty value given on
	// the command line (--log "", --root=) is refused rather than read as
	// the flag left out.
	text map[string]bool
	// repeat holds the flags that may be given more than once (--with,
	// --gap): every other flag given twice with different values is a
	// contradiction.
	repeat map[string]bool
	// values holds the flags that take one of a few fixed words, or a
	// comma list of them (long name -> the words), for completion: Choice
	// and a Var whose value has a method fixedWords() []string record
	// them, Values the others.
	values map[string]fixedValues
	// set are the long names of the flags the command line gave, in order
	// (parseArgs records them).
	set []string
	// report, when not nil, is the value of --output FILE that runCommand
	// writes the command's standard output to (see addOutputFormat).
	report *outputFile
}

func newFlagSet(name string) *flagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return &flagSet{fs: fs, short: map[string]string{}, aliases: map[string]string{}, meta: map[string]string{}, repeat: map[string]bool{}, text: map[string]bool{}, values: map[string]fixedValues{}}
}

func (f *flagSet) add(name, meta string) {
	f.order = append(f.order, name)
	f.meta[name] = meta
}

// String defines a string flag --name META with default def.
func (f *flagSet) String(name, meta, def, usage string) *string {
	f.add(name, meta)
	f.text[name] = true
	return f.fs.String(name, def, usage)
}

// Bool defines a boolean flag --name (--name=false turns it off).
func (f *flagSet) Bool(name string, def bool, usage string) *bool {
	f.add(name, "")
	return f.fs.Bool(name, def, usage)
}

// Var defines a flag --name META with the value v. A value that
// accumulates (a repeatable flag, such as --with) says so with a method
// Repeatable() bool.
func (f *flagSet) Var(v flag.Value, name, meta, usage string) {
	f.add(name, meta)
	f.fs.Var(v, name, usage)
	if r, ok := v.(interface{ Repeatable() bool }); ok && r.Repeatable() {
		f.repeat[name] = true
	}
	if c, ok := v.(chooser); ok {
		f.values[name] = fixedValues{words: c.fixedWords()}
	}
}

// fixedValues are the words a flag takes: one of them, or with list a
// comma list of them.
type fixedValues struct {
	words []string
	list  bool
}

// chooser is a flag value that takes one of a few words, which fixedWords
// returns (every spelling Set accepts).
type chooser interface{ fixedWords() []string }

// Values says that the flag name takes one of words, or with list a comma
// list of them (words being what its parsing accepts): completion offers
// them.
func (f *flagSet) Values(name string, list bool, words []string) {
	f.values[name] = fixedValues{words: words, list: list}
}

// Func defines a repeatable flag --name META that calls fn with each value.
func (f *flagSet) Func(name, meta, usage string, fn func(string) error) {
	f.add(name, meta)
	f.fs.Func(name, usage, fn)
	f.repeat[name] = true
}

// given returns the long names of the flags the command line set, in
// the order they were first given.
func (f *flagSet) given() []string { return f.set }

// firstGiven returns the first of names (long names) that the command line
// set, in the order of names, or "" when it set none of them.
func (f *flagSet) firstGiven(names ...string) string {
	for _, n := range names {
		if slices.Contains(f.set, n) {
			return n
		}
	}
	return ""
}

// markGiven records that the command line set the flag long.
func (f *flagSet) markGiven(long string) {
	if !slices.Contains(f.set, long) {
		f.set = append(f.set, long)
	}
}

// longName returns the long name of the flag called name (a long name or
// an alias).
func (f *flagSet) longName(name string) string {
	if long, ok := f.aliases[name]; ok {
		return long
	}
	return name
}

// StringVar defines a string flag --name META stored in p.
func (f *flagSet) StringVar(p *string, name, meta, def, usage string) {
	f.add(name, meta)
	f.text[name] = true
	f.fs.StringVar(p, name, def, usage)
}

// emptyChecked says that the command refuses an empty value of the string
// flags names itself, with a message of its own, so parseArgs leaves it.
func (f *flagSet) emptyChecked(names ...string) {
	for _, n := range names {
		delete(f.text, n)
	}
}

// BoolVar defines a boolean flag --name stored in p.
func (f *flagSet) BoolVar(p *bool, name string, def bool, usage string) {
	f.add(name, "")
	f.fs.BoolVar(p, name, def, usage)
}

// IntVar defines an int flag --name META stored in p.
func (f *flagSet) IntVar(p *int, name, meta string, def int, usage string) {
	f.add(name, meta)
	f.fs.IntVar(p, name, def, usage)
}

// Int64Var defines an int64 flag --name META stored in p.
func (f *flagSet) Int64Var(p *int64, name, meta string, def int64, usage string) {
	f.add(name, meta)
	f.fs.Int64Var(p, name, def, usage)
}

// Uint64Var defines a uint64 flag --name META stored in p.
func (f *flagSet) Uint64Var(p *uint64, name, meta string, def uint64, usage string) {
	f.add(name, meta)
	f.fs.Uint64Var(p, name, def, usage)
}

// Float64Var defines a float64 flag --name META stored in p.
func (f *flagSet) Float64Var(p *float64, name, meta string, def float64, usage string) {
	f.add(name, meta)
	f.fs.Float64Var(p, name, def, usage)
}

// choiceValue is a string flag that takes one of a few words.
type choiceValue struct {
	p       *string
	choices []string
}

func (c *choiceValue) String() string {
	if c.p == nil {
		return ""
	}
	return *c.p
}

func (c *choiceValue) fixedWords() []string { return c.choices }

func (c *choiceValue) Set(s string) error {
	if !slices.Contains(c.choices, s) {
		return fmt.Errorf("want %s", orList(c.choices))
	}
	*c.p = s
	return nil
}

// Choice defines a flag --name that takes one of choices, stored in p; its
// metavariable lists them.
func (f *flagSet) Choice(p *string, name, def string, choices []string, usage string) {
	*p = def
	f.Var(&choiceValue{p: p, choices: choices}, name, strings.Join(choices, "|"), usage)
}

// orList writes "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// Alias makes alias another spelling of the flag name: a one-letter alias
// is shown beside it (-o, --output-format), a longer one in its usage.
func (f *flagSet) Alias(alias, name string) {
	f.aliases[alias] = name
	if len(alias) == 1 {
		f.short[name] = alias
	}
}

// lookup returns the flag called name (a long name or an alias), or nil.
func (f *flagSet) lookup(name string) *flag.Flag {
	if long, ok := f.aliases[name]; ok {
		name = long
	}
	return f.fs.Lookup(name)
}

// metaOf returns the metavariable of the flag called name (or an alias).
func (f *flagSet) metaOf(name string) string {
	if long, ok := f.aliases[name]; ok {
		name = long
	}
	if m := f.meta[name]; m != "" {
		return m
	}
	return "a value"
}

// names returns every spelling of every flag, for suggestions and
// completion.
func (f *flagSet) names() []string {
	out := append([]string(nil), f.order...)
	for a := range f.aliases {
		out = append(out, a)
	}
	return out
}

// spelling is how help and messages write a flag: "--name", or "-o" for a
// one-letter name.
func spelling(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// writeHelp prints the flags of order (long names), one entry of two
// lines each: the spellings with the metavariable, then the usage with the
// default and long aliases.
func (f *flagSet) writeHelp(w io.Writer, order []string) {
	for _, name := range order {
		fl := f.fs.Lookup(name)
		head := "  "
		if s, ok := f.short[name]; ok {
			head += "-" + s + ", "
		}
		head += spelling(name)
		if m := f.meta[name]; m != "" {
			head += " " + m
		}
		usage := fl.Usage
		var extra []string
		if fl.DefValue != "" && fl.DefValue != "false" {
			extra = append(extra, "default "+fl.DefValue)
		}
		var longAliases []string
		for a, n := range f.aliases {
			if n == name && len(a) > 1 {
				longAliases = append(longAliases, "--"+a)
			}
		}
		if len(longAliases) > 0 {
			slices.Sort(longAliases)
			extra = append(extra, "also "+strings.Join(longAliases, ", "))
		}
		if len(extra) > 0 {
			usage += " (" + strings.Join(extra, "; ") + ")"
		}
		fmt.Fprintf(w, "%s\n        %s\n", head, usage)
	}
}

// isBool reports whether fl takes no value.
func isBool(fl *flag.Flag) bool {
	b, ok := fl.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}
