package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
)

// errHelp is returned by parseArgs for -h, -help and --help.
var errHelp = errors.New("help requested")

// parseArgs is the one argument parser of apstctl. It sets the flags of fs
// from args and returns the positional arguments in order:
//
//   - flags may come before, between and after the positionals;
//   - a flag is written --name or -name (or its one-letter alias -o), with
//     its value as the next argument or after "=" (--name=value); a
//     boolean flag takes a value only after "=";
//   - "--" ends the flags: everything after it is positional;
//   - "-" alone (standard input) and a negative number ("-5", a value that
//     set-latency must refuse with its reason) are positionals;
//   - -h, -help and --help return errHelp once the rest of the line has
//     parsed: a flag the command does not know is refused beside them too,
//     wherever it stands.
//
// A flag it does not know, a missing value, an empty value of a string flag
// (--log "") or a value the flag refuses is a *usageError naming the flag
// (with a suggestion for a misspelt name).
func parseArgs(fs *flagSet, args []string) ([]string, error) {
	var pos []string
	given := map[string]givenFlag{} // long name -> how and with what it was first given
	help := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			if help {
				return nil, errHelp
			}
			return append(pos, args[i+1:]...), nil
		}
		if !strings.HasPrefix(a, "-") || a == "-" || isNegativeNumber(a) {
			pos = append(pos, a)
			continue
		}
		dashes := "--"
		if !strings.HasPrefix(a, "--") {
			dashes = "-"
		}
		name := strings.TrimPrefix(a, dashes)
		value, hasValue := "", false
		if k, v, ok := strings.Cut(name, "="); ok {
			name, value, hasValue = k, v, true
		}
		if name == "h" || name == "help" {
			on, err := strconv.ParseBool(cmp.Or(value, "true"))
			if err != nil {
				return nil, usagef("%s: want true or false", a)
			}
			help = help || on // --help=false asks for no help
			continue
		}
		if name == "" || strings.HasPrefix(name, "-") {
			return nil, usagef("%q is not a flag", a)
		}
		var fl *flag.Flag
		if fs != nil {
			fl = fs.lookup(name)
			// getopt's attached form of a one-letter flag: -ojson.
			if fl == nil && dashes == "-" && !hasValue && len(name) > 1 {
				if short := fs.lookup(name[:1]); short != nil && len(fs.short[fs.longName(name[:1])]) == 1 && !isBool(short) {
					fl, name, value, hasValue = short, name[:1], name[1:], true
				}
			}
		}
		spelt := dashes + name // the flag as given, for messages
		if fl == nil {
			msg := fmt.Sprintf("unknown flag %s", spelt)
			if fs != nil {
				if s := suggest(name, fs.names()); s != "" {
					msg += fmt.Sprintf(" (did you mean %s?)", spelling(s))
				}
			}
			return nil, usagef("%s", msg)
		}
		if !hasValue {
			if isBool(fl) {
				value = "true"
			} else {
				if i+1 >= len(args) {
					return nil, usagef("flag %s needs a value (%s)", spelt, fs.metaOf(name))
				}
				i++
				value = args[i]
			}
		}
		long := fs.longName(name)
		if !fs.repeat[long] {
			first, seen := given[long]
			this := spelt + " " + quoteArg(value)
			if isBool(fl) {
				this = spelt + "=" + value
			}
			if seen && first.text != this && first.canon != canonical(fl, value) {
				return nil, usagef("%s and %s contradict each other: give %s once", first.text, this, spelling(long))
			}
			if !seen {
				given[long] = givenFlag{this, canonical(fl, value)}
			}
		}
		if value == "" && fs.text[long] {
			return nil, usagef("%s \"\": want %s, not an empty value (leave the flag out for its default)", spelt, fs.metaOf(name))
		}
		if err := fl.Value.Set(value); err != nil {
			if isBool(fl) {
				// package flag's own error is "parse error"
				return nil, usagef("%s=%s: want true or false", spelt, quoteArg(value))
			}
			return nil, usagef("%s %s: %v", spelt, quoteArg(value), err)
		}
		fs.markGiven(long)
	}
	if help {
		return nil, errHelp
	}
	return pos, nil
}

// isNegativeNumber reports whether a looks like "-5" or "-1.5": no flag name
// starts with a digit.
func isNegativeNumber(a string) bool {
	return len(a) > 1 && a[0] == '-' && a[1] >= '0' && a[1] <= '9'
}

// quoteArg quotes s for a message when it is empty or holds a space or a
// control character.
func quoteArg(s string) string {
	if s == "" || strings.ContainsAny(s, " \t\r\n\"'\\") || strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return fmt.Sprintf("%q", s)
	}
	return s
}

// givenFlag is how a flag was first given ("-o json") and its value in
// canonical form (canonical).
type givenFlag struct{ text, canon string }

// canonical is the value s of flag fl as the flag reads it, so that two
// spellings of one value (-o text and -o normal, --force-apst and
// --force-apst=1) are no contradiction: a Value with a Canonical method
// says, a boolean is true or false, any other value is its text.
func canonical(fl *flag.Flag, s string) string {
	if c, ok := fl.Value.(interface{ Canonical(string) string }); ok {
		return c.Canonical(s)
	}
	if isBool(fl) {
		if b, err := strconv.ParseBool(s); err == nil {
			return strconv.FormatBool(b)
		}
	}
	return s
}
