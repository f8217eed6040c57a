package kernlog_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// What copying adds to a line is taken off before it is read, and only
// that: an escape sequence whatever its parameters (and an escape cut off
// at the end of the line), the blanks and invisible characters of a web
// page, HTML's entities (numeric ones of printable ASCII too), a Markdown
// editor's backslashes before punctuation; an ampersand that starts no
// entity, a backslash before anything else (an ACPI path's "\_SB" after a
// space or a bracket), and other non-ASCII text, stay.
func TestReadUnpastes(t *testing.T) {
	const want = "[   12.345678] nvme nvme0: I/O 9 QID 0 timeout, reset controller"
	for _, tc := range []struct{ name, line, raw string }{
		{"colour with parameters", "\x1b[38;5;208m[   12.345678]\x1b[m nvme nvme0: I/O 9 QID 0 timeout, reset controller\x1b[K", want},
		{"escape cut off", "[   12.345678] nvme nvme0: I/O 9 QID 0 timeout, reset controller\x1b", want},
		{"other escape", "\x1bc[   12.345678] nvme nvme0: I/O 9 QID 0 timeout, reset controller", want},
		{"figure and narrow spaces, a byte order mark", "\ufeff[\u2007\u2007 12.345678]\u202fnvme nvme0: I/O 9 QID 0\u3000timeout, reset controller", want},
		{"entities", "[&nbsp;&nbsp; 12.345678] nvme nvme0: I/O 9 QID 0 timeout, reset controller", want},
		{"ampersands that are no entity", "[   12.345678] nvme nvme0: I/O 9 QID 0 timeout, reset controller &amp &foo; AT&T", want + " &amp &foo; AT&T"},
		{"other text", "[   12.345678] nvme nvme0: I/O 9 QID 0 timeout, reset controller … ’", want + " … ’"},
		{"numeric entities", "[&#32;&#x20; 12.345678] nvme nvme0&#58; I/O 9 QID 0 timeout&#X2c; reset controller", want},
		{"numeric entities of no printable ASCII character", "[   12.345678] nvme nvme0: I/O 9 QID 0 timeout, reset controller &#0; &#9; &#127; &#233; &#x1F600; &#; &#x; &#61", want + " &#0; &#9; &#127; &#233; &#x1F600; &#; &#x; &#61"},
		{"Markdown escapes", `\[   12.345678\] nvme nvme0: I/O 9 QID 0 timeout, reset controller`, want},
		{"Markdown's escaped underscores", `\[   12.345678\] nvme nvme0: I/O 9 QID 0 timeout, reset controller \_\_nvme\_submit\_sync\_cmd \*\*`, want + " __nvme_submit_sync_cmd **"},
		{"backslashes that are no Markdown escape", `[   12.345678] nvme nvme0: I/O 9 QID 0 timeout, reset controller \_SB.PCI0 [\_PR_.CPU0] \n \\`, want + ` \_SB.PCI0 [\_PR_.CPU0] \n \\`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := kernlog.ReadString(tc.line+"\n", kernlog.Options{})
			require.NoError(t, err)
			require.Len(t, l.Incidents, 1)
			e := l.Incidents[0].Events[0]
			assert.Equal(t, tc.raw, e.Raw)
			if tc.raw == want {
				assert.Equal(t, kernlog.AdminTimeout, e.Kind)
				assert.Equal(t, 9, e.Tag)
			}
		})
	}
}
