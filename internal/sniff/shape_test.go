package sniff_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nvmeapst/nvmeapst/internal/sniff"
)

// TestShape: an input of no kind is said to be JSON of another tool, with
// the first keys of its object, or text, with its first line; clipped (at
// the start of a character), and nothing for a kind, binary data or white
// space.
func TestShape(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"package.json", `{"name":"x","version":"1.0.0","dependencies":{}}`, `JSON of another tool (an object with the keys "name", "version", "dependencies")`},
		{"more keys", `{"a":1,"b":[2],"c":{"d":3},"e":4,"f":5}`, `JSON of another tool (an object with the keys "a", "b", "c", "e", ...)`},
		{"escaped key", `{"a\u001b[2J\u202e\u0085":1}`, "JSON of another tool (an object with the keys \"a\x1b[2J\u202e\u0085\")"},
		{"raw control", "{\"a\x1b[2J\u202e\":1}", "text of another kind (its first line is \"{\"a\x1b[2J\u202e\":1}\")"},
		{"array", "[1, 2]\n", "JSON of another tool (an array)"},
		{"deep array", strings.Repeat("[", 100000), "JSON of another tool (an array)"},
		{"deep value", `{"k": ` + strings.Repeat("[", 100000), `JSON of another tool (an object with the keys "k")`},
		{"ini section", "[Unit]\nDescription=x\n", `text of another kind (its first line is "[Unit]")`},
		{"not JSON", "{oops\n", `text of another kind (its first line is "{oops")`},
		{"prose", "\n  hello world\r\nbye\n", `text of another kind (its first line is "hello world")`},
		{"invalid UTF-8", "\xff\xfe\xc3( hello\n", "text of another kind (its first line is \"\xff\xfe\xc3( hello\")"},
		{"long line", strings.Repeat("é", 100), `text of another kind (its first line is "` + strings.Repeat("é", 30) + `...")`},
		{"empty", "", ""},
		{"white space", " \n\t\n", ""},
		{"binary", "\x00\x01abc", ""},
		{"a kind", "[    1.000000] nvme nvme0: pci function 0000:01:00.0\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := sniff.Shape([]byte(tc.in))
			assert.Equal(t, tc.want, got)
		})
	}
}
