package diagnose_test

import (
	"fmt"
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
// indented, with CRLF ends, with dmesg -T times, wrapped by a mail client.
var repaste = map[string]func(string) string{
	"quoted":       func(s string) string { return eachLine(s, func(l string) string { return "> " + l }) },
	"quoted twice": func(s string) string { return eachLine(s, func(l string) string { return "> > " + l }) },
	"indented":     func(s string) string { return eachLine(s, func(l string) string { return "    " + l }) },
	"crlf":         func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") },
	"dmesg -T": func(s string) string {
		return eachLine(s, func(l string) string { return dmesgT.ReplaceAllStringFunc(l, toHuman) })
	},
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
