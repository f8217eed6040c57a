package diagview

import (
	"strings"
	"testing"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/examples/internal/view"
	"github.com/stretchr/testify/assert"
)

func TestLines(t *testing.T) {
	assert.Nil(t, Lines(nil, Plain), "nil stays nil")
	assert.Equal(t, []view.Evidence{}, Lines([]diagnose.Line{}, Plain))
	ls := []diagnose.Line{{Source: "kernel log", Text: "a reset", Line: 7, Quote: "nvme nvme0: \x1b[31mreset"}}
	assert.Equal(t, []view.Evidence{{Source: "kernel log", Text: "a reset", Line: 7, Quote: "nvme nvme0: \x1b[31mreset"}}, Lines(ls, Plain))
	got := Lines(ls, view.Escape)
	assert.NotContains(t, got[0].Quote, "\x1b", "escaped for a page")
	assert.Equal(t, 7, got[0].Line)
}

func TestTest(t *testing.T) {
	in := diagnose.Test{Action: "boot with", Command: "x", Cost: "a reboot", Setting: "pcie_aspm=off", Where: []string{"/etc/default/grub"}}
	assert.Equal(t, view.Test{Action: "boot with", Command: "x", Cost: "a reboot", Setting: "pcie_aspm=off", Where: []string{"/etc/default/grub"}}, Test(&in, Plain))
	up := Test(&in, strings.ToUpper)
	assert.Equal(t, "/ETC/DEFAULT/GRUB", up.Where[0])
	assert.Equal(t, "/etc/default/grub", in.Where[0], "the library's slice is not written")
	assert.Nil(t, Test(&diagnose.Test{}, Plain).Where)
}

// The views list the settings the user gave and those of the log's command
// line a rule weighed, the latter marked; the line's other words not.
func TestTried(t *testing.T) {
	for _, tc := range []struct {
		tried diagnose.Tried
		want  string
		ok    bool
	}{
		{diagnose.Tried{Setting: "pcie_aspm", Value: "off", Outcome: diagnose.DidNotHelp}, "pcie_aspm=off (did not help)", true},
		{diagnose.Tried{Setting: "nvme_core.default_ps_max_latency_us", Value: "0", Outcome: diagnose.DidNotHelp, FromLog: true, Weighed: true},
			"nvme_core.default_ps_max_latency_us=0 (did not help) [the log's command line]", true},
		{diagnose.Tried{Setting: "root", Value: "/dev/sda1", Outcome: diagnose.DidNotHelp, FromLog: true}, "", false},
	} {
		got, ok := Tried(&tc.tried, Plain)
		assert.Equal(t, tc.ok, ok, tc.want)
		assert.Equal(t, tc.want, got)
		assert.Equal(t, tc.ok, Listed(&tc.tried))
	}
	got, _ := Tried(&diagnose.Tried{Setting: "x\x1b[31m", Outcome: diagnose.Helped}, view.Escape)
	assert.NotContains(t, got, "\x1b", "escaped for a page")
}
