package sysfs

import (
	"errors"

	"github.com/nvmeapst/nvmeapst/internal/safeio"
)

// attrError rewords the error of an attribute's read: a file that is not a
// regular one (a FIFO or a device in a copy of the tree) is said to be no
// sysfs attribute, and note ("; nothing written") is added to the message.
// The error still wraps err.
func attrError(err error, note string) error {
	msg := err.Error()
	var nr *safeio.NotRegularError
	if errors.As(err, &nr) && !nr.WantDir {
		msg = "sysfs: " + nr.Path + " is " + safeio.Kind(nr.Mode) + ", not a sysfs attribute"
	} else if note == "" {
		return err
	}
	return safeio.Reworded(msg+note, err)
}
