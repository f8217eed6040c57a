// Package safeio reads and writes files the way a tool that handles
// untrusted paths and untrusted text must: without blocking, within bounds,
// atomically, with every error checked and with nothing reaching a terminal
// or a spreadsheet that could act on it.
//
// It exists because the obvious standard-library calls each fail one of
// those rules on the inputs this module meets: os.ReadFile on a
// named pipe blocks forever, and on a sysfs attribute trusts a size the
// kernel makes up; os.WriteFile on a full disk destroys the file it
// replaces; fmt.Fprintf to a closed stdout fails silently; a drive's model
// string can carry ESC, CR and LF; a CSV cell can start a formula.
//
//   - [ReadFile], [ReadFileInto], [Reader] and [ReadFileInRoot] refuse
//     anything that is not a regular file ([ErrNotRegular]: a FIFO, a socket,
//     a device, a directory) before opening it (stat first), open a path
//     without blocking (O_NONBLOCK where the system has it), check it again
//     with fstat, and read at most a limit, with as few system calls as the
//     kernel allows: stat, open, fstat, read, the read that sees end of file,
//     close. [Open] does the same checks and hands the file to the caller.
//   - [WriteFile] writes a file atomically: a temporary file in the same
//     directory, created with the mode the umask leaves, fsync, rename, fsync
//     of the directory. [MkdirTemp] makes a directory the same way. On any error the
//     temporary file is removed and an existing file is left as it was.
//   - [Writer] records the first write error of a text report, so that a
//     command can print everything and then return (and exit 1 on) the
//     error.
//   - [EscapeTerminal] escapes the control characters of an untrusted string
//     for text output; [CSVCell] neutralises a spreadsheet formula.
//
// Errors name the path and keep the *fs.PathError of the system call, so
// errors.Is(err, fs.ErrNotExist) and errors.Is(err, fs.ErrPermission) work;
// like the errors of package os they do not start with a package name, which
// the caller adds ("sysfs: ", "nvmeapst: ").
//
// The package builds on every GOOS and uses only the standard library. It
// is internal plumbing of this module: it keeps no state, and everything in
// it is safe for concurrent use except a [Reader] or a [Writer] value, which
// belongs to one goroutine.
package safeio
