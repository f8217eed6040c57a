package sysfs_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nvmeapst/nvmeapst/sysfs"
)

// The zero AttributeError (no Err) has a message instead of a nil
// dereference; with a path it names the attribute.
func TestZeroAttributeError(t *testing.T) {
	assert.Equal(t, "sysfs: an unreadable attribute (no path, no error recorded: the zero AttributeError)", sysfs.AttributeError{}.Error())
	assert.Equal(t, "sysfs: class/nvme/nvme0/model: unreadable attribute (no error recorded)", sysfs.AttributeError{Path: "class/nvme/nvme0/model"}.Error())
	assert.NoError(t, sysfs.AttributeError{}.Unwrap())
}
