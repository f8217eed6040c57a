package main

import (
	"context"
	"io"
	"io/fs"
	"os"

	"github.com/nvmeapst/nvmeapst/internal/safeio"
)

// captureFromStdin names the commands whose one argument is a capture:
// given no argument, with standard input not a terminal, they read it
// (`nvme id-ctrl /dev/nvme0 | apstctl plan`).
var captureFromStdin = map[string]bool{
	"plan": true, "decode": true, "convert": true, "sweep": true,
	"compare": true, "simulate": true, "recommend": true,
}

// commandInput is standard input as a command sees it: the reader, with
// the command's context (so that a read that waits can be interrupted) and
// standard error (for the line that asks for a paste on a terminal).
type commandInput struct {
	ctx    context.Context
	r      io.Reader
	errw   *checkedWriter
	prefix string
	// implicit is set when "-" was not given but supplied because no
	// argument was; emptyErr is then the usage error for an empty input.
	implicit bool
	emptyErr error
}

// Read reads standard input.
func (in *commandInput) Read(p []byte) (int, error) { return in.r.Read(p) }

// isTerminalInput reports whether r is a terminal (isTerminal): a person
// typing, not a pipe, a file or /dev/null.
func isTerminalInput(r io.Reader) bool {
	if in, ok := r.(*commandInput); ok {
		r = in.r
	}
	switch f := r.(type) {
	case terminalWriter: // a test's stand-in for a terminal
		return f.IsTerminal()
	case *os.File:
		return isTerminal(f)
	}
	return false
}

// inputContext is the context of a read from stdin's command.
func inputContext(stdin io.Reader) context.Context {
	if in, ok := stdin.(*commandInput); ok && in.ctx != nil {
		return in.ctx
	}
	return context.Background()
}

// readStdin reads the capture on standard input; on a terminal it first
// says on standard error how to end the paste.
func readStdin(stdin io.Reader, limit int64) ([]byte, error) {
	in, _ := stdin.(*commandInput)
	if in != nil && isTerminalInput(stdin) {
		in.errw.Println(in.prefix + ": reading a capture from the terminal: paste it, then press ^D on a line of its own")
	}
	// contextReader: a read waiting for a writer (a pipe, a terminal)
	// does not swallow ^C.
	b, err := io.ReadAll(io.LimitReader(newContextReader(inputContext(stdin), stdin), limit+1))
	if err == nil && int64(len(b)) > limit {
		return nil, safeio.ErrTooLarge
	}
	if err == nil && len(b) == 0 && in != nil && in.implicit {
		return nil, in.emptyErr
	}
	return b, err
}

// isNamedPipe reports whether path (following links: /dev/fd/N, a link to
// a FIFO) is a pipe or a FIFO, which a path named on the command line may
// be: `apstctl plan <(nvme id-ctrl /dev/nvme0)`.
func isNamedPipe(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode()&fs.ModeNamedPipe != 0
}

// openNamedPipe opens the pipe or FIFO path that the user named, waiting
// for a writer, and returns it with a function that releases it. ^C (the
// end of ctx) ends the wait for a writer, and later closes the file, so
// that a read waiting for data returns too.
func openNamedPipe(ctx context.Context, path string) (*os.File, func(), error) {
	type result struct {
		f   *os.File
		err error
	}
	done := make(chan result, 1)
	go func() {
		f, err := os.OpenFile(path, os.O_RDONLY, 0)
		if err == nil {
			if fi, serr := f.Stat(); serr != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
				f.Close()
				f, err = nil, serr
				if serr == nil {
					err = &safeio.NotRegularError{Path: path, Mode: fi.Mode().Type()}
				}
			}
		}
		done <- result{f, err}
	}()
	var res result
	select {
	case res = <-done:
	case <-ctx.Done():
		go func() { // close what the open returns, if it ever does
			if r := <-done; r.f != nil {
				r.f.Close()
			}
		}()
		return nil, nil, context.Cause(ctx)
	}
	if res.err != nil {
		return nil, nil, res.err
	}
	stop := context.AfterFunc(ctx, func() { res.f.Close() })
	return res.f, func() {
		stop()
		res.f.Close()
	}, nil
}

// readNamedPipe reads the pipe or FIFO the user named, at most limit
// bytes: the open waits for a writer and the read for its end, both
// interruptible by ^C.
func readNamedPipe(stdin io.Reader, path string, limit int64) ([]byte, error) {
	return readNamedPipeContext(inputContext(stdin), path, limit)
}

// readNamedPipeContext is readNamedPipe interruptible by the end of ctx.
func readNamedPipeContext(ctx context.Context, path string, limit int64) ([]byte, error) {
	f, release, err := openNamedPipe(ctx, path)
	if err != nil {
		return nil, err
	}
	defer release()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if ctx.Err() != nil {
		return nil, context.Cause(ctx)
	}
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, safeio.ErrTooLarge
	}
	return b, nil
}
