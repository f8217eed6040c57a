package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
)

func completionCommand() *command {
	c := &command{
		name:      "completion",
		usageLine: "completion bash|zsh|fish",
		short:     "a shell completion script for bash, zsh or fish",
		long: `
Prints a completion script for the shell: the commands, each command's flags, and file names for
the arguments. Load it with:

  bash:  source <(apstctl completion bash)        (or save it in /etc/bash_completion.d/apstctl)
  zsh:   apstctl completion zsh > "${fpath[1]}/_apstctl"
  fish:  apstctl completion fish > ~/.config/fish/completions/apstctl.fish`,
		examples: []string{"completion bash", "completion fish"},
		flags:    newFlagSet("completion"),
		minArgs:  1, maxArgs: 1,
	}
	c.run = func(ctx context.Context, x *invocation, args []string) error {
		cmds := commands()
		switch args[0] {
		case "bash":
			writeBashCompletion(x.out, cmds)
		case "zsh":
			writeZshCompletion(x.out, cmds)
		case "fish":
			writeFishCompletion(x.out, cmds)
		default:
			msg := "unknown shell " + quoteArg(args[0]) + ": want bash, zsh or fish"
			if s := suggest(args[0], []string{"bash", "zsh", "fish"}); s != "" {
				msg += " (did you mean " + s + "?)"
			}
			return usagef("%s", msg)
		}
		return nil
	}
	return c
}

// flagNames are the spellings of c's flag long, as its help lists them:
// --long, its one-letter alias (-o), then its long aliases (--format).
func flagNames(c *command, long string) []string {
	names := []string{spelling(long)}
	if s, ok := c.flags.short[long]; ok {
		names = append(names, "-"+s)
	}
	var longs []string
	for a, n := range c.flags.aliases {
		if n == long && len(a) > 1 {
			longs = append(longs, "--"+a)
		}
	}
	slices.Sort(longs)
	return append(names, longs...)
}

// flagSpellings are the spellings of c's flags for a completion list.
func flagSpellings(c *command) []string {
	var out []string
	for _, n := range c.flagOrder() {
		out = append(out, flagNames(c, n)...)
	}
	return out
}

// argKind is what a flag's value is, for completion.
type argKind int

const (
	argNone     argKind = iota // a boolean: no value
	argValue                   // a value no list holds (a number, a duration)
	argFile                    // a file name (metavariable FILE or CAPTURE)
	argDir                     // a directory (metavariable DIR)
	argWords                   // one of a few words
	argWordList                // a comma list of a few words
)

// flagArg returns what c's flag long takes and, for words, the words its
// help names (see helpWords).
func flagArg(c *command, long string) (argKind, []string) {
	meta := c.flags.meta[long]
	if meta == "" {
		return argNone, nil
	}
	if v, ok := c.flags.values[long]; ok {
		if words := helpWords(c, long, v.words); len(words) > 0 {
			if v.list {
				return argWordList, words
			}
			return argWords, words
		}
	}
	switch meta {
	case "FILE", "CAPTURE":
		return argFile, nil
	case "DIR":
		return argDir, nil
	}
	return argValue, nil
}

// helpWords are those of words (what the flag long accepts) that its help
// entry names, in their order: completion offers what the help documents,
// and a spelling kept but not listed (convert's -o text) stays unoffered.
func helpWords(c *command, long string, words []string) []string {
	var b strings.Builder
	c.flags.writeHelp(&b, []string{long})
	entry := b.String()
	var out []string
	for _, w := range words {
		if hasWord(entry, w) && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// hasWord reports whether s holds w as a word of its own: not inside a
// longer name (json in nvme-cli-json).
func hasWord(s, w string) bool {
	inWord := func(i int) bool {
		if i < 0 || i >= len(s) {
			return false
		}
		b := s[i]
		return b == '-' || b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
	}
	for i := 0; i <= len(s); {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		if !inWord(j-1) && !inWord(j+len(w)) {
			return true
		}
		i = j + 1
	}
	return false
}

func writeBashCompletion(w io.Writer, cmds []*command) {
	fmt.Fprintln(w, "# bash completion for apstctl (apstctl completion bash)")
	fmt.Fprintln(w, "_apstctl() {")
	fmt.Fprintln(w, `    local cur=${COMP_WORDS[COMP_CWORD]} opts=""`)
	fmt.Fprintln(w, `    if [ "$COMP_CWORD" -eq 1 ]; then`)
	fmt.Fprintf(w, "        COMPREPLY=($(compgen -W %q -- \"$cur\"))\n", strings.Join(commandNames(cmds), " "))
	fmt.Fprintln(w, "        return")
	fmt.Fprintln(w, "    fi")
	fmt.Fprintln(w, `    case "${COMP_WORDS[1]}" in`)
	for _, c := range cmds {
		fmt.Fprintf(w, "        %s) opts=%q ;;\n", c.name, strings.Join(append(flagSpellings(c), "--help"), " "))
	}
	fmt.Fprintln(w, "    esac")
	fmt.Fprintln(w, `    if [[ $cur == -* ]]; then`)
	fmt.Fprintln(w, `        COMPREPLY=($(compgen -W "$opts" -- "$cur"))`)
	fmt.Fprintln(w, "    else")
	fmt.Fprintln(w, `        COMPREPLY=($(compgen -f -- "$cur"))`)
	fmt.Fprintln(w, "    fi")
	fmt.Fprintln(w, "}")
	fmt.Fprintln(w, "complete -o default -F _apstctl apstctl")
}

// zshQuote makes s safe inside a single-quoted zsh word and an
// _arguments description.
func zshQuote(s string) string {
	r := strings.NewReplacer("'", "", "[", "(", "]", ")", ":", " -", "\\", "")
	return r.Replace(s)
}

// zshAction is the part of an _arguments spec after the description for
// c's flag long: none for a boolean, else :MESSAGE:ACTION, the action
// completing the value (files, directories, the words, or nothing).
func zshAction(c *command, long string) string {
	kind, words := flagArg(c, long)
	if kind == argNone {
		return ""
	}
	msg := strings.ToLower(zshQuote(c.flags.meta[long]))
	if strings.Contains(msg, "|") || kind == argWordList {
		msg = long // random|fixed, list: the flag's name says more
	}
	for i, w := range words {
		words[i] = zshQuote(w)
	}
	action := ""
	switch kind {
	case argFile:
		action = "_files"
	case argDir:
		action = "_files -/"
	case argWords:
		action = "(" + strings.Join(words, " ") + ")"
	case argWordList:
		action = "_values -s , " + long + " " + strings.Join(words, " ")
	}
	return ":" + msg + ":" + action
}

func writeZshCompletion(w io.Writer, cmds []*command) {
	fmt.Fprintln(w, "#compdef apstctl")
	fmt.Fprintln(w, "# zsh completion for apstctl (apstctl completion zsh)")
	fmt.Fprintln(w, "_apstctl() {")
	fmt.Fprintln(w, "  local -a cmds")
	fmt.Fprintln(w, "  cmds=(")
	for _, c := range cmds {
		fmt.Fprintf(w, "    '%s:%s'\n", c.name, zshQuote(c.short))
	}
	fmt.Fprintln(w, "  )")
	fmt.Fprintln(w, "  if (( CURRENT == 2 )); then")
	fmt.Fprintln(w, "    _describe 'command' cmds")
	fmt.Fprintln(w, "    return")
	fmt.Fprintln(w, "  fi")
	fmt.Fprintln(w, "  case $words[2] in")
	for _, c := range cmds {
		fmt.Fprintf(w, "    %s)\n      _arguments", c.name)
		if c.flags != nil {
			for _, n := range c.flagOrder() {
				usage := zshQuote(c.flags.fs.Lookup(n).Usage)
				if len(usage) > 60 {
					usage = usage[:60]
				}
				action := zshAction(c, n)
				names := flagNames(c, n)
				// A repeatable flag may come again (*); the spellings of
				// another exclude each other once one is given.
				prefix := ""
				if c.flags.repeat[n] {
					prefix = "*"
				} else if len(names) > 1 {
					prefix = "(" + strings.Join(names, " ") + ")"
				}
				for _, name := range names {
					fmt.Fprintf(w, " \\\n        '%s%s[%s]%s'", prefix, name, usage, action)
				}
			}
		}
		fmt.Fprint(w, " \\\n        '*:file:_files' ;;\n")
	}
	fmt.Fprintln(w, "  esac")
	fmt.Fprintln(w, "}")
	fmt.Fprintln(w, `_apstctl "$@"`)
}

// fishArg is the part of a complete line for c's flag long that says what
// its value is: -r and files for a file, -x (no files) and the directories
// or the words for a directory or words, -r for any other value.
func fishArg(c *command, long string) string {
	kind, words := flagArg(c, long)
	switch kind {
	case argValue:
		return " -r"
	case argFile:
		return " -r -F"
	case argDir:
		return " -x -a '(__fish_complete_directories)'"
	case argWords:
		return " -x -a " + fishQuote(strings.Join(words, " "))
	case argWordList:
		return " -x -a " + fishQuote(`(__fish_complete_list , "printf '%s\n' `+strings.Join(words, " ")+`")`)
	}
	return ""
}

func writeFishCompletion(w io.Writer, cmds []*command) {
	fmt.Fprintln(w, "# fish completion for apstctl (apstctl completion fish)")
	fmt.Fprintln(w, "complete -c apstctl -f")
	for _, c := range cmds {
		fmt.Fprintf(w, "complete -c apstctl -n __fish_use_subcommand -a %s -d %s\n", c.name, fishQuote(c.short))
	}
	for _, c := range cmds {
		if c.flags == nil {
			continue
		}
		for _, n := range c.flagOrder() {
			line := fmt.Sprintf("complete -c apstctl -n '__fish_seen_subcommand_from %s'", c.name)
			for _, name := range flagNames(c, n) {
				if strings.HasPrefix(name, "--") {
					line += " -l " + name[2:]
				} else {
					line += " -s " + name[1:]
				}
			}
			line += fishArg(c, n)
			line += " -d " + fishQuote(c.flags.fs.Lookup(n).Usage)
			fmt.Fprintln(w, line)
		}
		fmt.Fprintf(w, "complete -c apstctl -n '__fish_seen_subcommand_from %s' -F\n", c.name)
	}
}

// fishQuote single-quotes s for fish.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}
