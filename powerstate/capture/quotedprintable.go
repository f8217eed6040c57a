package capture

import "strings"

// quotedPrintableNote is the note a reader adds to what it read from a
// capture decodeQuotedPrintable decoded.
const quotedPrintableNote = "the capture was quoted-printable (a mail body: =20, =3D, soft line breaks) and was decoded; line numbers are those of the decoded text"

// decodeQuotedPrintable decodes s when it shows the quoted-printable
// encoding of a mail body (RFC 2045) and returns it with true; any other
// text is returned as is with false, without allocating.
//
// The text shows the encoding when it holds more of what a plain capture
// never has (a soft line break: "=" at the very end of a line of at most
// 76 characters, the quoting aside; the escapes "=20", "=09", "=3D" and
// those of bytes above 0x7f) than of "=" that start neither an escape nor
// a soft line break (the "charset=UTF-8" of a mail header left in the
// paste). A "=" followed by blanks at a line end counts for neither: it is
// what a plain nvme-cli capture shows when a serial number ends in "="
// (nvme-cli pads it with blanks), and what a transport may make of a soft
// line break (decoding strips the blanks). A plain smartctl
// report never passes: each of its "=== START OF ... ===" lines has one
// "=" at its end and five that are plain.
//
// A soft line break joins the line with the next. A mail quotes with "> "
// either before the encoding (the continuation of a quoted line then starts
// without the quote) or after it (the continuation starts with the same
// quote): both read, at any depth of quoting. Blanks before a line end are
// dropped, as the RFC asks of a decoder.
func decodeQuotedPrintable(s string) (string, bool) {
	if !isQuotedPrintable(s) {
		return s, false
	}
	var b strings.Builder
	b.Grow(len(s))
	l := newLineReader(s)
	joining := false
	quote := ""
	for {
		line, terminated, ok := l.Next()
		if !ok {
			break
		}
		if joining {
			if quote != "" && strings.HasPrefix(line, quote) {
				line = line[len(quote):]
			}
		} else {
			quote = quotePrefix(line)
		}
		line = strings.TrimRight(line, " \t")
		joining = strings.HasSuffix(line, "=") // "=" is no hexadecimal digit: never the end of an escape
		if joining {
			line = line[:len(line)-1]
		}
		decodeEscapes(&b, line)
		if !joining && terminated {
			b.WriteByte('\n')
		}
	}
	return b.String(), true
}

// looksQuotedPrintable reports whether decodeQuotedPrintable would decode
// s. A writer of captures uses it to refuse an output that a reader would
// take for a mail body (a serial number of "X=3D", say).
func looksQuotedPrintable(s string) bool { return isQuotedPrintable(s) }

// isQuotedPrintable reports whether s shows the encoding (see
// decodeQuotedPrintable).
func isQuotedPrintable(s string) bool {
	telling, plain := 0, 0
	for i := 0; ; {
		j := strings.IndexByte(s[i:], '=')
		if j < 0 {
			return telling > plain
		}
		i += j + 1
		if i+1 < len(s) && isHex(s[i]) && isHex(s[i+1]) {
			v := unhex(s[i])<<4 | unhex(s[i+1])
			if v == ' ' || v == '\t' || v == '=' || v >= 0x80 {
				telling++
			}
			i += 2
			continue
		}
		k := i
		for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
			k++
		}
		switch {
		case k < len(s) && s[k] != '\n' && s[k] != '\r':
			plain++ // a "=" a plain text has ("charset=UTF-8", "===")
		case k > i:
			// "=" and blanks at a line end: transport padding after a soft
			// line break, which decoding strips, or the blanks that pad a
			// serial number ending in "=" in a plain capture; it tells
			// nothing either way.
		case k < len(s) && encodedLine(s, i-1):
			telling++ // a soft line break
		case k < len(s):
			plain++ // "=" ending a line longer than an encoder writes (base64)
		}
		i = k
	}
}

// encodedLine reports whether the line whose soft line break is at s[eq]
// is as long as an encoder writes: at most 76 characters with the "=",
// not counting the mail quoting before it.
func encodedLine(s string, eq int) bool {
	start := strings.LastIndexAny(s[:eq], "\r\n") + 1
	line := s[start : eq+1]
	return len(line)-len(quotePrefix(line)) <= 76
}

// quotePrefix returns the mail quoting a line starts with: "> " or ">"
// repeated ("> > ", ">> ").
func quotePrefix(line string) string {
	i := 0
	for i < len(line) && line[i] == '>' {
		i++
		if i < len(line) && line[i] == ' ' {
			i++
		}
	}
	return line[:i]
}

// decodeEscapes writes line with its "=XX" escapes decoded; a "=" that
// starts none is kept.
func decodeEscapes(b *strings.Builder, line string) {
	for {
		i := strings.IndexByte(line, '=')
		if i < 0 {
			b.WriteString(line)
			return
		}
		b.WriteString(line[:i])
		if i+2 < len(line) && isHex(line[i+1]) && isHex(line[i+2]) {
			b.WriteByte(unhex(line[i+1])<<4 | unhex(line[i+2]))
			line = line[i+3:]
			continue
		}
		b.WriteByte('=')
		line = line[i+1:]
	}
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'A' <= c && c <= 'F' || 'a' <= c && c <= 'f'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}
