package diagnose_test

import (
	"encoding/json"
	"fmt"
	"html"
	"mime/quotedprintable"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// repaste is how a log is pasted again: quoted in a reply, at any depth,
// indented, with CRLF or CR ends, with dmesg -T or dmesg -d times, as dmesg
// --json (the logs of dmesg's own lines alone), wrapped by a mail client,
// stored quoted-printable by a mail archive.
var repaste = map[string]func(string) string{
	"quoted":       func(s string) string { return eachLine(s, func(l string) string { return "> " + l }) },
	"quoted twice": func(s string) string { return eachLine(s, func(l string) string { return "> > " + l }) },
	"indented":     func(s string) string { return eachLine(s, func(l string) string { return "    " + l }) },
	"crlf":         func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") },
	// Lines that end in CR alone: a classic Mac text, a terminal capture
	// saved raw.
	"cr": func(s string) string { return strings.ReplaceAll(s, "\n", "\r") },
	// Copied from a web page that kept the blanks as &nbsp;, and from a
	// page's source, its characters escaped as HTML's entities.
	"copied from a web page": func(s string) string { return strings.ReplaceAll(s, " ", "\u00a0") },
	"HTML source":            html.EscapeString,
	// Pasted into a Markdown editor that escapes what it would format
	// (Reddit's): brackets, asterisks and underscores.
	"Markdown-escaped": strings.NewReplacer("[", `\[`, "]", `\]`, "*", `\*`, "_", `\_`).Replace,
	"dmesg -T": func(s string) string {
		return eachLine(s, func(l string) string { return dmesgT.ReplaceAllStringFunc(l, toHuman) })
	},
	"dmesg -d": func(s string) string {
		return eachLine(s, func(l string) string {
			return dmesgT.ReplaceAllStringFunc(l, func(m string) string { return m[:len(m)-1] + " <    0.000123>]" })
		})
	},
	"dmesg --json": toJSON,
	"wrapped at 78": func(s string) string {
		return eachLine(s, func(l string) string { return wrapWords(l, 78) })
	},
	"wrapped at 72": func(s string) string {
		return eachLine(s, func(l string) string { return wrapWords(l, 72) })
	},
	"wrapped at 60": func(s string) string {
		return eachLine(s, func(l string) string { return wrapWords(l, 60) })
	},
	"wrapped at 48": func(s string) string {
		return eachLine(s, func(l string) string { return wrapWords(l, 48) })
	},
	"wrapped at 56": func(s string) string {
		return eachLine(s, func(l string) string { return wrapWords(l, 56) })
	},
	"wrapped at 64": func(s string) string {
		return eachLine(s, func(l string) string { return wrapWords(l, 64) })
	},
	// A mail archive that shows the message as stored (RFC 2045), by the
	// standard library's encoder.
	"quoted-printable": func(s string) string {
		var b strings.Builder
		w := quotedprintable.NewWriter(&b)
		w.Write([]byte(s)) // a strings.Builder takes every write
		w.Close()
		return b.String()
	},
	"quoted-printable reply": func(s string) string {
		var b strings.Builder
		w := quotedprintable.NewWriter(&b)
		w.Write([]byte(eachLine(s, func(l string) string { return "> " + l })))
		w.Close()
		return b.String()
	},
	"quoted, wrapped at 72": func(s string) string {
		return eachLine(s, func(l string) string { return "> " + strings.ReplaceAll(wrapWords(l, 70), "\n", "\n> ") })
	},
}

// dmesgT is a dmesg time stamp at the start of a line (after quoting).
var dmesgT = regexp.MustCompile(`^[> ]*\[ *[0-9]+\.[0-9]+\]`)

// toHuman writes a dmesg time as dmesg -T does, from a boot at a fixed
// date: "[Tue Dec  1 10:00:05 2026]".
func toHuman(m string) string {
	i := strings.IndexByte(m, '[')
	secs, err := strconv.ParseFloat(strings.TrimSpace(m[i+1:len(m)-1]), 64)
	if err != nil {
		return m
	}
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC).Add(time.Duration(secs * float64(time.Second)))
	return m[:i] + fmt.Sprintf("[%s]", at.Format("Mon Jan _2 15:04:05 2006"))
}

// toJSON writes a log whose every line has dmesg's time as dmesg --json
// does (util-linux's tests/expected/dmesg/json); any other log is left as
// it is, since dmesg --json holds only dmesg's own records.
func toJSON(s string) string {
	var b strings.Builder
	b.WriteString("{\n   \"dmesg\": [\n")
	first := true
	for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
		if l == "" {
			continue
		}
		m := dmesgT.FindString(l)
		if m == "" || strings.HasPrefix(l, ">") || strings.HasPrefix(l, " ") {
			return s
		}
		secs, err := strconv.ParseFloat(strings.TrimSpace(m[strings.IndexByte(m, '[')+1:len(m)-1]), 64)
		if err != nil {
			return s
		}
		msg, _ := json.Marshal(strings.TrimLeft(l[len(m):], " "))
		if !first {
			b.WriteString("},")
		}
		first = false
		fmt.Fprintf(&b, "{\n         \"pri\": 4,\n         \"time\": %12.6f,\n         \"msg\": %s\n      ", secs, msg)
	}
	b.WriteString("}\n   ]\n}\n")
	return b.String()
}

func eachLine(s string, f func(string) string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = f(l)
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

// wrapWords breaks a line at the last space before width, as mail clients
// and bug trackers do; a word longer than the line stays whole.
func wrapWords(l string, width int) string {
	var out []string
	for len(l) > width {
		i := strings.LastIndexByte(l[:width], ' ')
		if i <= 0 {
			break
		}
		out = append(out, l[:i])
		l = l[i+1:]
	}
	return strings.Join(append(out, l), "\n")
}

// TestThreadsInEveryShape reads every thread's log pasted again in each
// shape a reply, a bug tracker or a mail client gives it: the same
// answer, and no line left unread. It checks reading, not the answer's
// truth, so both halves take part (no answer is printed for a held-out
// thread).
func TestThreadsInEveryShape(t *testing.T) {
	for _, th := range loadThreads(t) {
		l, err := kernlog.ReadString(th.log, kernlog.Options{})
		require.NoError(t, err, th.name)
		d := diagnose.Diagnose(diagnose.Input{Log: l})
		want := verdict(&d)
		for shape, f := range repaste {
			l, err := kernlog.ReadString(f(th.log), kernlog.Options{})
			require.NoError(t, err, "%s %s", th.name, shape)
			d := diagnose.Diagnose(diagnose.Input{Log: l})
			if !assert.Equal(t, want, verdict(&d), "%s %s", th.name, shape) {
				continue
			}
			assert.Empty(t, l.Unread, "%s %s", th.name, shape)
		}
	}
}
