package sysfs_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/sysfs"
)

func TestControllerQuirks(t *testing.T) {
	cs, err := newFS(t, "testdata/v7").Controllers()
	require.NoError(t, err)
	require.Len(t, cs, 2)
	assert.True(t, cs[0].HasQuirks)
	assert.Equal(t, []string{"no_deepest_ps", "medium_prio_sq", "no_temp_thresh_change", "disable_write_zeroes"}, cs[0].Quirks)
	assert.True(t, cs[1].HasQuirks, "an empty file is no quirk, not an absent file")
	assert.Empty(t, cs[1].Quirks)
	assert.True(t, cs[1].HasTolerance, "nvme.quirks= cleared the DMI rule's NO_APST")

	c, err := newFS(t, "../testdata/sys").Controller("nvme0")
	require.NoError(t, err)
	assert.False(t, c.HasQuirks, "before 7.0 there is no quirks file")
	assert.Nil(t, c.Quirks)

	root := sysfs.CopyFixture(t, "testdata/v7")
	writeFile(t, root, "class/nvme/nvme0/quirks", "no_apst\n\nquirk_from_2030\n")
	c, err = newFS(t, root).Controller("nvme0")
	require.NoError(t, err)
	assert.Equal(t, []string{"no_apst", "quirk_from_2030"}, c.Quirks, "unknown names are kept")

	files, err := newFS(t, "testdata/v7").Files("nvme0")
	require.NoError(t, err)
	assert.Contains(t, files, "class/nvme/nvme0/quirks")
}

func TestQuirksParam(t *testing.T) {
	q, err := newFS(t, "testdata/v7").QuirksParam()
	require.NoError(t, err)
	assert.Equal(t, sysfs.QuirksParam{
		Present: true,
		Raw:     "144d:a804:^no_apst",
		Overrides: []apst.QuirkOverride{
			{ID: apst.PCIID{Vendor: 0x144d, Device: 0xa804}, Clear: apst.QuirkNoAPST},
		},
	}, q)
	sys, err := newFS(t, "testdata/v7").SystemFiles()
	require.NoError(t, err)
	assert.Contains(t, sys, "module/nvme/parameters/quirks")

	q, err = newFS(t, "../testdata/sys").QuirksParam()
	require.NoError(t, err)
	assert.Equal(t, sysfs.QuirksParam{}, q, "absent before 7.0: not present, no error")

	root := sysfs.CopyFixture(t, "testdata/v7")
	writeFile(t, root, "module/nvme/parameters/quirks", "144d:a804\n")
	q, err = newFS(t, root).QuirksParam()
	require.ErrorIs(t, err, sysfs.ErrInvalidAttribute)
	assert.Contains(t, err.Error(), "module/nvme/parameters/quirks")
	assert.Equal(t, sysfs.QuirksParam{Present: true, Raw: "144d:a804"}, q)

	writeFile(t, root, "module/nvme/parameters/quirks", "\n")
	q, err = newFS(t, root).QuirksParam()
	require.NoError(t, err)
	assert.Equal(t, sysfs.QuirksParam{Present: true}, q)
}

func TestParseQuirkList(t *testing.T) {
	assert.Equal(t, []string{}, sysfs.ParseQuirkList(""))
	assert.Equal(t, []string{}, sysfs.ParseQuirkList("\n"))
	assert.Equal(t, []string{"a", "b"}, sysfs.ParseQuirkList("a\nb\n"))
	assert.Equal(t, []string{"a", "b"}, sysfs.ParseQuirkList(" a  b "))
}
