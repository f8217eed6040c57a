// Package capture is the one machinery behind every capture reader of the
// module: the Identify Controller readers of package powerstate (nvme
// id-ctrl text and JSON, smartctl text and JSON) and the APST feature
// readers of package apst (nvme get-feature text, hex dump and JSON).
//
// It holds what those readers share and must not do twice: the bounded
// read ([Read], at most [MaxSize] bytes), the text decoding ([Text]: a
// UTF-8 byte order mark, UTF-16 with a byte order mark as PowerShell's ">"
// writes), the line reader ([Lines], with "\n", "\r\n" and "\r"), the
// removal of the indentation or "> " quoting a pasted block carries
// ([Prefix], [Dedent]), the decoding of a quoted-printable mail body
// ([DecodeQuotedPrintable]), the one hex dump reader of binary captures in
// the layouts of nvme-cli, xxd, hexdump -C and od ([HexDump],
// [ReadHexDump]), and one JSON walker ([JSON]) that reads a document
// in place, keeps line numbers for errors and allocates only for strings
// with escapes.
//
// It is internal because its errors are not its own: the sentinels are
// powerstate's (the package whose ParseError every reader
// returns), and a walker reports its failures through the function its
// caller gives, which builds that ParseError. The package is pure (no I/O
// but reading the io.Reader it is given, no mutable globals) and safe for
// concurrent use; a [Lines] or [JSON] value belongs to one goroutine.
package capture
