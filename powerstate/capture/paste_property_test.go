package capture_test

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// pasteShape is one thing that happens to a capture on its way into a bug
// report, which must leave what it reads as unchanged.
type pasteShape struct {
	name string
	text bool // text formats only (it would change a JSON string), and first (a copy from the terminal)
	f    func(string) string
}

var pasteShapes = []pasteShape{
	{"CRLF", false, func(s string) string {
		if strings.Contains(s, "\r\r") {
			return s // twice at most: "\r\r\r\n" is two line ends
		}
		return strings.ReplaceAll(s, "\n", "\r\n")
	}},
	{"quoted", false, func(s string) string { return quote(s, 1) }},
	{"quoted twice", false, func(s string) string { return quote(s, 2) }},
	{"indented", false, func(s string) string { return indent(s, "    ") }},
	{"fenced", false, func(s string) string { return "```\n" + s + "```\n" }},
	{"fenced with a language", false, func(s string) string { return "```console\n" + s + "```\n" }},
	{"details", false, func(s string) string {
		return "<details>\n<summary>nvme id-ctrl</summary>\n\n```\n" + s + "```\n\n</details>\n"
	}},
	{"prompts", false, func(s string) string { return "$ sudo nvme id-ctrl /dev/nvme0\n" + s + "user@host:~$ \n" }},
	{"tabs", true, tabify},
}

// TestPasteShapesProperty: a text or JSON capture of the corpus, through
// any sequence of paste shapes, reads as the capture itself (tabs and NUL
// padding did not: TestTabbedNVMeCLIText, TestNULPaddedCaptures).
func TestPasteShapesProperty(t *testing.T) {
	type cap struct {
		text string
		json bool
		want powerstate.Controller
	}
	var caps []cap
	for _, dev := range corpusDevices(t)[:40] {
		paths := []corpusCapture{{dev.smartctl, powerstate.FormatSmartctlText}}
		for _, o := range dev.others {
			if o.format != powerstate.FormatBinary {
				paths = append(paths, o)
			}
		}
		for _, p := range paths {
			b, err := os.ReadFile(p.path)
			require.NoError(t, err)
			s := string(b)
			if !strings.HasSuffix(s, "\n") {
				s += "\n" // as the tools end their output
			}
			c, err := parseString(s)
			require.NoError(t, err, p.path)
			caps = append(caps, cap{s, p.format == powerstate.FormatNVMeCLIJSON, c})
		}
	}
	rapid.Check(t, func(rt *rapid.T) {
		c := caps[rapid.IntRange(0, len(caps)-1).Draw(rt, "capture")]
		s := c.text
		var names []string
		for range rapid.IntRange(1, 4).Draw(rt, "shapes") {
			sh := rapid.SampledFrom(pasteShapes).Draw(rt, "shape")
			if sh.text && (c.json || len(names) > 0) {
				continue
			}
			s = sh.f(s)
			names = append(names, sh.name)
		}
		if rapid.Bool().Draw(rt, "NUL padded") { // a file padded with zeros: last
			s += strings.Repeat("\x00", 100)
			names = append(names, "NUL padded")
		}
		got, err := parseString(s)
		if err != nil {
			rt.Fatalf("%v: %v", names, err)
		}
		want := c.want
		want.Notes, got.Notes = nil, nil
		if !reflect.DeepEqual(want, got) {
			rt.Fatalf("%v: read %+v, want %+v", names, got, want)
		}
	})
}
