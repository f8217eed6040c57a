// Package trace reads block I/O traces as a stream of dispatch and
// completion events, in time order, for one device.
//
// Five formats are read, detected from the content (the first significant
// line) unless [Options.Format] names one:
//
//   - blkparse default text: "MAJ,MIN CPU SEQ SECONDS.NANOS PID ACTION RWBS
//     ..."; action D is a dispatch, action C a completion, every other
//     action, the summary blocks at the end and blank lines are skipped;
//   - biosnoop from bcc: a header starting "TIME(s)" with a "LAT(ms)"
//     column; each line is a command completed at TIME and dispatched at
//     TIME − LAT;
//   - biosnoop from bpftrace (biosnoop.bt): the same with a "TIME(ms)"
//     header;
//   - fio iolog version 3: first line "fio version 3 iolog"; each read,
//     write, trim, sync or datasync line is a command dispatched and
//     completed at its timestamp (milliseconds); add, open, close and wait
//     lines are skipped. Version 2 has no timestamps and is refused
//     ([ErrFioV2]);
//   - plain: lines "SECONDS [DURATION_SECONDS]", '#' starting a comment: a
//     command dispatched at SECONDS and completed DURATION later (0 when
//     absent).
//
// A [Reader] yields [Event] values: a [Kind] ([Dispatch] or [Completion]),
// a time in nanoseconds from the trace's first event, and the device, with
// [Reader.Next], a batch at a time with [Reader.NextEvents], or with the
// iterator [Reader.All].
//
// Its memory does not depend on the trace's length. Lines are at most
// [Options.MaxLineLength] bytes (64 KiB by default). Events are put in time
// order in a bounded reorder window ([Options.ReorderWindow], 16384 events
// by default, about 1.5 MiB at most), because blkparse merges per-CPU
// streams and biosnoop's dispatch times (TIME − LAT) come out of order: an
// event leaves the window when more than that many events are held, the
// earliest first. Events are sorted by time, then for blkparse by the
// sequence number and for the other formats dispatch before completion,
// then in the order read. An event earlier than one already returned is an
// error ([ErrOutOfOrder]), never a silently wrong order; one of the same
// time is not, whatever its sequence number or kind: it comes after it
// (events of equal times are in time order, however many of them follow
// each other).
//
// A trace with several devices (blkparse MAJ,MIN; biosnoop DISK; fio file)
// needs one selected ([Options.Device], [Options.Disk]); without it the Reader
// returns a [*DeviceError] listing the devices found. Every error starts with
// "trace: "; errors about a line are a [*SyntaxError] naming the format, the
// line number and what was expected.
//
// A blkparse trace can be parsed on several goroutines ([Options.Workers]):
// one reads the input in blocks of whole lines (256 KiB, or what a pipe
// has delivered so far), the workers parse blocks into records, and Next
// applies the records in order (device selection, reorder window, errors)
// on the caller's goroutine, so that the events, the errors and their line
// numbers are exactly those of the sequential Reader. At most 2×Workers+2
// blocks are in flight. Such a Reader runs goroutines from its first Next
// until Next returns io.EOF or [Reader.Close] is called: call Close when
// done with it (after an error other than io.EOF, the goroutine reading
// ends once a Read in progress returns). The other formats are read on
// the caller's goroutine.
//
// The package is pure: it reads an [io.Reader] and opens nothing. The
// subpackage [github.com/nvmeapst/nvmeapst/apst/analysis/trace/tracetest]
// generates synthetic workloads and renders them in each format.
package trace
