// Package capture reads and writes the captures users have of an NVMe
// drive's power states: Identify Controller captures into a
// powerstate.Controller, APST feature captures into an apst.Feature.
//
// # Identify Controller captures
//
// [Parse] (from an io.Reader) and [ParseBytes] (in place, without copying)
// read any capture and detect its format from the content ([DetectFormat]):
// a 4096-byte image, `nvme id-ctrl` text of every nvme-cli generation (with
// or without -H), `nvme id-ctrl -o json` of every key set, smartctl
// -a/-x/-c text (6.x to 7.5) and smartctl -j JSON (7.5). Text may be UTF-8
// (with or without a byte order mark) or UTF-16 with one, and pasted
// indented or quoted (a markdown or reST code block, an email's "> "), or
// be a quoted-printable mail body; a hex dump of the image (nvme-cli, xxd,
// hexdump -C, od) reads as the image. Binary input is checked with
// powerstate.CheckIdentify, so that a PDF, an Identify Namespace image or
// random bytes are refused with what they look like; so is text that is
// no capture but an output users paste in a capture's place (a kernel log,
// nvme-cli's smart-log, id-ns or list, lspci), in [ParseError.Looks]. The per-format
// readers ([ParseNVMeCLIText], [ParseNVMeCLIJSON], [ParseSmartctlText],
// [ParseSmartctlJSON]) are exported too, and [WriteNVMeCLIText],
// [WriteNVMeCLIJSON] and [WriteSmartctlText] write the formats back.
//
// # APST feature captures
//
// [ParseFeatureCapture] and [ParseFeatureBytes] read Get Features FID 0Ch
// as nvme get-feature prints it (the raw 256-byte buffer, -H text of every
// generation, the hex dump, -o json), pasted or not, into a
// [FeatureCapture]: the apst.Feature, the form and the notes. A new
// get-feature form is one reader in this package (feature*.go) and one
// powerstate.Format value.
//
// # Errors
//
// Every reader returns a *[ParseError] naming the format, the line and
// what was expected there, wrapping a sentinel: a capture larger than
// [MaxSize] is refused without being read whole ([ErrTooLarge]), a key
// given twice is [ErrDuplicateKey], two devices' captures in one input are
// [ErrMultipleCaptures], an APST feature capture given to [Parse] is
// [ErrFeatureCapture] and an Identify capture given to
// [ParseFeatureCapture] is [ErrIdentifyCapture]. Messages start with
// "capture: ", the package called.
//
// # Formats
//
// The enumeration of the formats, powerstate.Format, is declared in package
// powerstate, not here: powerstate.Controller records the format it was
// read from, and the model does not import its readers.
//
// # One machinery
//
// Every reader shares one unexported machinery: one bounded read (at most
// MaxSize bytes), one text decoding (a UTF-8 byte order mark, UTF-16 with a
// byte order mark as PowerShell's ">" writes), one line reader ("\n",
// "\r\n", "\r", and the "\r\r\n" of a CRLF file converted twice), one
// removal of the indentation or "> " quoting a pasted block carries, one
// decoding of a quoted-printable mail body, one hex
// dump reader (nvme-cli, xxd, hexdump -C and od layouts) and one JSON
// walker that reads a document in place, keeps line numbers for errors and
// allocates only for strings with escapes. It reads captures in place:
// every string a reader keeps in its result is copied out of the input.
//
// The package is pure (no I/O but reading the io.Reader it is given, no
// mutable globals), builds on every GOOS and is safe for concurrent use.
package capture
