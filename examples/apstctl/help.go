package main

import (
	"context"
	"io"
	"strings"
)

// writeUsage prints the general help: the commands and how to get more.
func writeUsage(w io.Writer, cmds []*command) {
	io.WriteString(w, "usage: apstctl COMMAND [flags] [ARGS]\n\n"+
		"apstctl shows what the Linux kernel does with an NVMe drive's Autonomous Power State\n"+
		"Transitions. With no arguments it runs its main job on an embedded Samsung 990 EVO Plus capture.\n\n"+
		"Commands:\n")
	for _, c := range cmds {
		io.WriteString(w, "  "+padRight(c.name, 16)+c.short+"\n")
	}
	io.WriteString(w, "\nCAPTURE is a path, or - for standard input. Flags go before or after the arguments;\n"+
		"-- ends them. A flag given twice with two values, or with an empty value, is a usage error.\n"+
		"Run 'apstctl help COMMAND' (or 'apstctl COMMAND --help') for a command.\n")
}

// writeCommandHelp prints a command's help: usage line, paragraph, flags
// and examples.
func writeCommandHelp(w io.Writer, c *command) {
	io.WriteString(w, "usage: apstctl "+c.usageLine+"\n\n"+strings.TrimSpace(c.long)+"\n")
	if c.flags != nil && len(c.flags.order) > 0 {
		io.WriteString(w, "\nFlags:\n")
		c.flags.writeHelp(w, c.flagOrder())
	}
	if len(c.examples) > 0 {
		io.WriteString(w, "\nExamples:\n")
		for _, e := range c.examples {
			io.WriteString(w, "  apstctl "+e+"\n")
		}
	}
}

func padRight(s string, n int) string {
	if len(s) >= n {
		return s + " "
	}
	return s + strings.Repeat(" ", n-len(s))
}

// helpCommand is "apstctl help [COMMAND]".
func helpCommand() *command {
	c := &command{
		name:      "help",
		usageLine: "help [COMMAND]",
		short:     "this list, or the help of one command",
		long: "Prints the list of commands, or with COMMAND that command's usage line, what it does,\n" +
			"its flags and examples, on standard output.",
		examples: []string{"help", "help plan"},
		flags:    newFlagSet("help"),
		minArgs:  0, maxArgs: 1,
	}
	c.run = func(ctx context.Context, x *invocation, args []string) error {
		cmds := commands()
		if len(args) == 0 {
			writeUsage(x.out, cmds)
			return nil
		}
		t := lookupCommand(cmds, args[0])
		if t == nil {
			msg := "unknown command " + quoteArg(args[0])
			if s := suggest(args[0], commandNames(cmds)); s != "" {
				msg += " (did you mean " + s + "?)"
			}
			return usagef("%s", msg)
		}
		writeCommandHelp(x.out, t)
		return nil
	}
	return c
}
