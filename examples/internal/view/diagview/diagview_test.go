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
