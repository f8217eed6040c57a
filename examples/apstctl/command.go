package main

import (
	"context"
	"io"
)

// A command is one apstctl subcommand, in the shape of cmd/go's
// base.Command: its name, the usage line, a short and a long help text,
// examples, its flag set and the function that runs it. Every command line
// is parsed by the one parser of args.go.
type command struct {
	// name is the word after "apstctl".
	name string
	// usageLine is the synopsis after "apstctl ": "plan [flags] CAPTURE".
	usageLine string
	// short is the one-line summary "apstctl help" lists.
	short string
	// long is the paragraph "apstctl help CMD" prints after the usage line.
	long string
	// examples are command lines (after "apstctl ") that help shows and the
	// tests run.
	examples []string
	// flags are the command's flags; nil for a command without any.
	flags *flagSet
	// ignores are the flags the command has (from a shared set) but that
	// do nothing for it, each with the reason: runCommand refuses them
	// when given, and help, the man page and completion leave them out
	// (flagOrder).
	ignores map[string]string
	// args is how many positional arguments the command takes: min, and max
	// (-1 for no limit).
	minArgs, maxArgs int
	// check, when set, refuses positional arguments that contradict the
	// flags before anything is opened or written (collect's --output
	// inside its bundle directory); its error is a usage error.
	check func(args []string) error
	// run does the work on the parsed positional arguments. A returned
	// error is reported by runCommand (see errors.go for the exit status).
	run func(ctx context.Context, x *invocation, args []string) error
}

// invocation is what a command's run writes to and reads from.
type invocation struct {
	// cmd is the running command.
	cmd *command
	// stdin is standard input, for a CAPTURE of "-".
	stdin io.Reader
	// out is standard output; its first write error is kept, and
	// runCommand turns it into exit status 1.
	out *checkedWriter
	// errw is standard error, also checked.
	errw *checkedWriter
	// stdout is standard output as given (os.Stdout when run as a
	// program), for a command that asks whether it is a terminal.
	stdout io.Writer
	// stderr is standard error as given (os.Stderr when run as a program),
	// for a command that asks whether it is a terminal.
	stderr io.Writer
}

// commands returns the command table, with fresh flag sets: each run of
// apstctl (and each test) gets its own flag values.
func commands() []*command {
	cmds := []*command{
		planCommand(),
		checkCommand(),
		sweepCommand(),
		compareCommand(),
		simulateCommand(),
		recommendCommand(),
		surveyCommand(),
		measureCommand(),
		replayCommand(),
		decodeCommand(),
		convertCommand(),
		inspectCommand(),
		metricsCommand(),
		diagnoseCommand(),
		collectCommand(),
		setLatencyCommand(),
		setCPULatencyCommand(),
		persistCommand(),
		versionCommand(),
		completionCommand(),
		helpCommand(),
	}
	for _, c := range cmds {
		addReportFile(c)
	}
	return cmds
}

// lookupCommand returns the command called name, or nil.
func lookupCommand(cmds []*command, name string) *command {
	for _, c := range cmds {
		if c.name == name {
			return c
		}
	}
	return nil
}

// commandNames returns the names of cmds.
func commandNames(cmds []*command) []string {
	names := make([]string, len(cmds))
	for i, c := range cmds {
		names[i] = c.name
	}
	return names
}

// flagOrder is the long names of the flags c offers, in their order: its
// flags but those it refuses as doing nothing for it (ignores).
func (c *command) flagOrder() []string {
	if c.flags == nil {
		return nil
	}
	var out []string
	for _, n := range c.flags.order {
		if _, refused := c.ignores[n]; !refused {
			out = append(out, n)
		}
	}
	return out
}
