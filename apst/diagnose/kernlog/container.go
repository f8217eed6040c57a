package kernlog

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"fmt"
	"io"

	"github.com/nvmeapst/nvmeapst/internal/textenc"
)

// A container is a file format a kernel log reaches users in that is not
// the log's text: a compressed file as bug trackers attach it
// (dmesg.txt.gz, kern.log.2.gz from logrotate), or systemd's binary
// journal. Read opens the two the standard library decompresses and names
// the others.
type container struct {
	// format is the Log's Compression for one Read opens ("gzip"); name
	// says what the input is, in an error or a note.
	format string
	name   string
	magic  []byte
	// open, when set, gives the text inside; else how tells the user how
	// to get it.
	open func(io.Reader) (io.Reader, error)
	how  string
}

// containers are matched against the first bytes of the input by their
// magic numbers: gzip RFC 1952 §2.3.1, bzip2's "BZh" with a block size and
// its block magic, xz's stream header, zstd's and lz4's frame magic
// numbers (little-endian), the systemd journal file's signature
// ("LPKSHHRH", systemd's journal-def.h) and a ZIP local file header.
var containers = []container{
	{format: "gzip", name: "gzip-compressed", magic: []byte{0x1f, 0x8b, 0x08}, open: func(r io.Reader) (io.Reader, error) {
		return gzip.NewReader(r)
	}},
	{format: "bzip2", name: "bzip2-compressed", magic: []byte("BZh"), open: func(r io.Reader) (io.Reader, error) {
		return bzip2.NewReader(r), nil
	}},
	{name: "xz-compressed", magic: []byte{0xfd, '7', 'z', 'X', 'Z', 0x00}, how: "decompress it first (xz -dc FILE)"},
	{name: "zstd-compressed", magic: []byte{0x28, 0xb5, 0x2f, 0xfd}, how: "decompress it first (zstd -dc FILE)"},
	{name: "lz4-compressed", magic: []byte{0x04, 0x22, 0x4d, 0x18}, how: "decompress it first (lz4 -dc FILE)"},
	{name: "a systemd journal file", magic: []byte("LPKSHHRH"), how: "give its kernel messages as text (journalctl --file FILE -k -o short-monotonic --no-pager)"},
	{name: "a ZIP archive", magic: []byte{'P', 'K', 0x03, 0x04}, how: "extract the log from it first (unzip -p FILE)"},
}

// sniffContainer looks at the first bytes of br and returns the container
// they open, or nil for anything else (text, or binary the line reader
// refuses). bzip2's "BZh" must be followed by a block size 1 to 9 and the
// block magic 0x314159265359 (or the end-of-stream magic of an empty
// stream), so that a log beginning with the letters "BZh" stays text.
func sniffContainer(br *bufio.Reader) *container {
	head, _ := br.Peek(10)
	for i := range containers {
		c := &containers[i]
		if !bytes.HasPrefix(head, c.magic) {
			continue
		}
		if c.format == "bzip2" {
			if len(head) < 10 || head[3] < '1' || head[3] > '9' ||
				!bytes.Equal(head[4:10], []byte{0x31, 0x41, 0x59, 0x26, 0x53, 0x59}) && !bytes.Equal(head[4:10], []byte{0x17, 0x72, 0x45, 0x38, 0x50, 0x90}) {
				return nil
			}
		}
		return c
	}
	return nil
}

// openContainer returns the text inside a container Read can open, or
// an error wrapping ErrBinary that names the container and says how to
// give its log.
func openContainer(c *container, r io.Reader) (io.Reader, error) {
	if c.open == nil {
		return nil, fmt.Errorf("%w: it is %s: %s", ErrBinary, c.name, c.how)
	}
	zr, err := c.open(r)
	if err != nil {
		return nil, fmt.Errorf("%w: it is %s, and its header does not read: %v", ErrBinary, c.name, err)
	}
	return &containerReader{r: zr, name: c.name}, nil
}

// containerReader names the container in its read errors: a truncated
// download or a corrupt file ("gzip: invalid checksum", "unexpected
// EOF") is binary input that does not decompress (ErrBinary, wrapping the
// decompressor's error), not a log cut short.
type containerReader struct {
	r    io.Reader
	name string
}

func (c *containerReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("%w: it is %s and does not decompress: %w", ErrBinary, c.name, err)
	}
	return n, err
}

// text returns the text of r: r itself, buffered, UTF-16 text (after a
// byte order mark, or without one: textenc.UTF16Unmarked) as UTF-8, or
// what a compressed file holds (with its format, "gzip" or "bzip2"); an
// error wrapping ErrBinary for a container it cannot open.
func text(r io.Reader) (io.Reader, string, error) {
	br := bufio.NewReaderSize(r, MaxLineLength)
	head, _ := br.Peek(16)
	if order := textenc.UTF16BOM(head); order != textenc.None {
		br.Discard(2)
		return textenc.NewUTF16Reader(br, order), "", nil
	}
	if order := textenc.UTF16Unmarked(head); order != textenc.None {
		return textenc.NewUTF16Reader(br, order), "", nil
	}
	c := sniffContainer(br)
	if c == nil {
		return br, "", nil
	}
	zr, err := openContainer(c, br)
	if err != nil {
		return nil, "", err
	}
	// What the container holds may be UTF-16 too (a log saved by a
	// Windows tool, then compressed): read it as a file of its own would
	// be.
	zb := bufio.NewReaderSize(zr, MaxLineLength)
	head, _ = zb.Peek(16)
	if order := textenc.UTF16BOM(head); order != textenc.None {
		zb.Discard(2)
		return textenc.NewUTF16Reader(zb, order), c.format, nil
	}
	if order := textenc.UTF16Unmarked(head); order != textenc.None {
		return textenc.NewUTF16Reader(zb, order), c.format, nil
	}
	return zb, c.format, nil
}
