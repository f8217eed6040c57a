// Command apstctl shows what the Linux kernel does with an NVMe drive's
// Autonomous Power State Transitions: the table it programs for a bound,
// why each state is used or not, and how that changes with the bound, the
// kernel release and the module parameters.
//
// With no arguments it runs its main job on an embedded capture of a Samsung
// SSD 990 EVO Plus: the table at the default 100 ms bound next to the one at
// 25 ms. The command contract (flags, JSON keys, exit status) is in the
// project's docs/spec/cli.md; run "apstctl help" for the commands and
// "apstctl help CMD" for one of them.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/nvmeapst/nvmeapst/examples/internal/view"
	"github.com/nvmeapst/nvmeapst/internal/safeio"
)

func main() {
	os.Exit(runMain(os.Args[1:]))
}

// runMain runs the command line args with the process's standard streams
// under the signal policy (signalContext) and returns the exit status:
// 128+N when signal N cancelled the command.
func runMain(args []string) int {
	ctx, signalled, stop := signalContext(context.Background())
	code := runContext(ctx, args, os.Stdin, os.Stdout, os.Stderr)
	stop()
	if n := signalled(); n != 0 {
		// The shell's convention for a command ended by a signal.
		code = 128 + n
	}
	return code
}

// checkedWriter remembers the first failed write (safeio.Writer), so that a
// command can print its whole report and apstctl still exits 1 when
// standard output was, say, a full disk.
type checkedWriter = safeio.Writer

// run runs the command line args (without the program name) and returns
// the exit status. Tests call it.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runContext(context.Background(), args, stdin, stdout, stderr)
}

// runContext is run with a context that the signals of signalContext cancel.
func runContext(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmds := commands()
	if len(args) == 0 {
		return runCommand(ctx, demoCommand(), nil, stdin, stdout, stderr)
	}
	switch name := args[0]; name {
	case "-h", "-help", "--help":
		args = []string{"help"}
	case "-version", "--version":
		args = []string{"version"}
	}
	c := lookupCommand(cmds, args[0])
	if c == nil {
		errw := safeio.NewWriter(stderr)
		msg := fmt.Sprintf("apstctl: unknown command %s", quoteArg(args[0]))
		if strings.HasPrefix(args[0], "-") {
			msg = fmt.Sprintf("apstctl: %s: flags go after the command name", quoteArg(args[0]))
		} else if s := suggest(args[0], commandNames(cmds)); s != "" {
			msg += fmt.Sprintf(" (did you mean %s?)", s)
		}
		errw.Println(msg)
		errw.Println("see 'apstctl help'")
		return exitUsage
	}
	return runCommand(ctx, c, args[1:], stdin, stdout, stderr)
}

// runCommand parses args for c, runs it and reports its outcome: the
// message of a failure on standard error (one line, "apstctl CMD: ..."),
// the pointer to the help after a usage error, and exit status 1 when a
// write to standard output or standard error failed.
func runCommand(ctx context.Context, c *command, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	out, errw := safeio.NewWriter(stdout), safeio.NewWriter(stderr)
	prefix := "apstctl"
	if c.name != "" {
		prefix += " " + c.name
	}
	in := &commandInput{ctx: ctx, r: stdin, errw: errw, prefix: prefix}
	x := &invocation{cmd: c, stdin: in, out: out, errw: errw, stdout: stdout, stderr: stderr}
	addReportFile(c) // for a command built outside the table (tests)
	pos, err := parseArgs(c.flags, args)
	if err == errHelp {
		writeCommandHelp(out, c)
		if brokenPipe(ctx, out) {
			return 128 + int(syscall.SIGPIPE) // `apstctl plan --help | head -1`
		}
		return finish(prefix, exitOK, false, out, errw)
	}
	if err == nil && len(pos) == 0 && captureFromStdin[c.name] && stdin != nil && !isTerminalInput(stdin) {
		// `nvme id-ctrl /dev/nvme0 | apstctl plan`: the capture is on
		// standard input; an empty one is the usual usage error.
		in.implicit, in.emptyErr = true, checkArgCount(c, pos)
		pos = []string{"-"}
	}
	if err == nil {
		err = checkIgnored(c)
	}
	if err == nil {
		err = checkWrittenFiles(c)
	}
	if err == nil {
		err = checkArgCount(c, pos)
	}
	if err == nil {
		err = checkWrittenInputs(c, pos)
	}
	if err == nil && c.check != nil {
		err = c.check(pos)
	}
	if err == nil {
		if ctx.Err() != nil {
			err = context.Cause(ctx) // interrupted before it started
		} else if file := reportFile(c); file != "" {
			err = runToFile(ctx, c, x, pos, file)
		} else {
			err = c.run(ctx, x, pos)
		}
	}
	code, msg, hint := statusOf(err)
	if brokenPipe(ctx, out) {
		// Standard output has no reader: exit quietly, as a filter does
		// (128+SIGPIPE, whether or not the signal has been handled yet).
		return 128 + int(syscall.SIGPIPE)
	}
	if msg != "" {
		if ctx.Err() != nil {
			msg = "interrupted: " + msg
		}
		errw.Println(prefix + ": " + escapeLine(msg))
		if hint {
			errw.Println("see '" + prefix + " --help'")
		}
	}
	_, explicit := err.(exitStatus)
	return finish(prefix, code, explicit, out, errw)
}

// reportFile is the --output FILE of a command whose report runCommand
// writes, or "" (no --output, or one naming standard output).
func reportFile(c *command) string {
	if c.flags == nil || c.flags.report == nil {
		return ""
	}
	return c.flags.report.file()
}

// runToFile runs c with its standard output going to file, which is
// replaced atomically (writeFileOrFail, honouring the umask) once the
// command has finished without a failure: a failed run leaves an existing
// file as it was. A command that ends with its own exit status (check's
// mismatch) has written a whole report, which is kept.
func runToFile(ctx context.Context, c *command, x *invocation, args []string, file string) error {
	return reportToFile(ctx, x, file, func(inner *invocation) error { return c.run(ctx, inner, args) })
}

// reportToFile runs report with its standard output going to file, as
// runToFile says.
func reportToFile(ctx context.Context, x *invocation, file string, report func(*invocation) error) error {
	var runErr error
	err := writeFileOrFail("--output", file, func(w io.Writer) error {
		inner := *x
		inner.out = safeio.NewWriter(w)
		runErr = report(&inner)
		if runErr == nil && ctx.Err() != nil {
			// A signal arrived: the file is not replaced, and the
			// temporary one is removed.
			runErr = context.Cause(ctx)
		}
		if _, ok := runErr.(exitStatus); runErr != nil && !ok {
			return runErr
		}
		return nil // a failed write is w's: safeio.WriteFile reports it
	})
	if runErr != nil {
		return runErr
	}
	return err
}

// brokenPipe reports whether the command was cancelled by SIGPIPE or its
// standard output failed with EPIPE.
func brokenPipe(ctx context.Context, out *checkedWriter) bool {
	return isBrokenPipe(ctx) || errors.Is(out.Err(), syscall.EPIPE)
}

// finish turns a failed write into exit status 1 with one line on standard
// error, unless the command set its status explicitly.
func finish(prefix string, code int, explicit bool, out, errw *checkedWriter) int {
	if explicit {
		return code
	}
	if err := out.Err(); err != nil {
		if code == exitOK { // otherwise the failure has been reported
			errw.Println(prefix + ": writing standard output: " + err.Error())
		}
		return exitFailure
	}
	if errw.Err() != nil && code == exitOK {
		return exitFailure
	}
	return code
}

// checkIgnored refuses a flag that does nothing for the command, with the
// reason.
func checkIgnored(c *command) error {
	if c.flags == nil {
		return nil
	}
	for _, name := range c.flags.given() {
		if why, ok := c.ignores[name]; ok {
			return usagef("%s does nothing for %s: %s", spelling(name), c.name, why)
		}
	}
	return nil
}

// checkWrittenFiles refuses, before the command runs (a live measure, a
// survey of a fleet), the files its flags would write (--output, --svg,
// --persist-rules, --factor-out: values of type outputFile) that cannot be:
// one that exists and is not a regular file (a directory, /dev/null), and
// one file named by two of the flags, each of which would replace the
// other.
func checkWrittenFiles(c *command) error {
	if c.flags == nil {
		return nil
	}
	type written struct {
		flag, path string
		info       fs.FileInfo
	}
	var files []written
	for _, name := range c.flags.given() {
		o, ok := c.flags.fs.Lookup(name).Value.(*outputFile)
		if !ok || o.file() == "" {
			continue
		}
		w := written{flag: spelling(name), path: o.file()}
		if fi, err := os.Stat(w.path); err == nil {
			if !fi.Mode().IsRegular() {
				return usagef("%s: %v", w.flag, &safeio.NotRegularError{Path: w.path, Mode: fi.Mode().Type()})
			}
			w.info = fi
		}
		for _, f := range files {
			if sameFile(f.path, f.info, w.path, w.info) {
				return usagef("%s %s and %s %s name the same file: each would replace the other; give two files", f.flag, quoteArg(f.path), w.flag, quoteArg(w.path))
			}
		}
		files = append(files, w)
	}
	return nil
}

// sameFile reports whether the paths a and b (with their FileInfo, nil for
// a file that does not exist yet) name one file: the same file, or the same
// path once made absolute.
func sameFile(a string, ai fs.FileInfo, b string, bi fs.FileInfo) bool {
	if ai != nil && bi != nil {
		return os.SameFile(ai, bi)
	}
	aa, aerr := filepath.Abs(a)
	ba, berr := filepath.Abs(b)
	return aerr == nil && berr == nil && aa == ba
}

// checkArgCount refuses a wrong number of positional arguments.
func checkArgCount(c *command, pos []string) error {
	if len(pos) >= c.minArgs && (c.maxArgs < 0 || len(pos) <= c.maxArgs) {
		return nil
	}
	want := plural(c.minArgs, "argument")
	switch {
	case c.maxArgs < 0:
		want = "at least " + plural(c.minArgs, "argument")
	case c.maxArgs != c.minArgs:
		want = fmt.Sprintf("%d to %d arguments", c.minArgs, c.maxArgs)
	}
	quoted := make([]string, len(pos))
	for i, p := range pos {
		quoted[i] = quoteArg(p)
	}
	got := fmt.Sprintf("got %d", len(pos))
	if len(pos) > 0 {
		got += " (" + strings.Join(quoted, " ") + ")"
	}
	usage, _, _ := strings.Cut(c.usageLine, "\n")
	return usagef("want %s, %s: usage: apstctl %s", want, got, usage)
}

// escapeLine returns a message for standard error with its control
// characters escaped (a path or a value from the command line can hold
// them: C0 and C1 controls, bidirectional controls such as U+202E, bytes
// that are not UTF-8 such as a raw 0x9b); a message without any is
// returned as it is.
func escapeLine(s string) string { return view.EscapeMessage(s) }
