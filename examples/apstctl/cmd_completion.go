package main

import (
	"context"
	"fmt"
	"io"
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

// flagSpellings are the spellings of c's flags for a completion list.
func flagSpellings(c *command) []string {
	if c.flags == nil {
		return nil
	}
	var out []string
	for _, n := range c.flagOrder() {
		out = append(out, spelling(n))
		if s, ok := c.flags.short[n]; ok {
			out = append(out, "-"+s)
		}
	}
	return out
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
				arg := ""
				if c.flags.meta[n] != "" {
					arg = ":" + strings.ToLower(zshQuote(c.flags.meta[n])) + ":"
				}
				fmt.Fprintf(w, " \\\n        '%s[%s]%s'", spelling(n), usage, arg)
				if s, ok := c.flags.short[n]; ok {
					fmt.Fprintf(w, " \\\n        '-%s[%s]%s'", s, usage, arg)
				}
			}
		}
		fmt.Fprint(w, " \\\n        '*:file:_files' ;;\n")
	}
	fmt.Fprintln(w, "  esac")
	fmt.Fprintln(w, "}")
	fmt.Fprintln(w, `_apstctl "$@"`)
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
			opt := "-l " + n
			if len(n) == 1 {
				opt = "-s " + n
			}
			line := fmt.Sprintf("complete -c apstctl -n '__fish_seen_subcommand_from %s' %s", c.name, opt)
			if s, ok := c.flags.short[n]; ok {
				line += " -s " + s
			}
			if c.flags.meta[n] != "" {
				line += " -r"
			}
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
