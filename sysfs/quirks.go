package sysfs

import (
	"fmt"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
)

// quirksParam is the quirks parameter of the nvme (nvme-pci) module.
const quirksParam = "module/nvme/parameters/quirks"

// QuirksParam is the quirks parameter of the nvme (nvme-pci) module,
// module/nvme/parameters/quirks: the nvme.quirks= string of Linux 7.0 and
// later, which sets or clears quirks per PCI vendor:device ID after the
// driver's ID table and DMI rules (see [apst.ParseQuirkOverrides] for its form).
//
// The zero QuirksParam is an absent parameter (Present false): what
// FS.QuirksParam returns, without error, for a kernel without one.
type QuirksParam struct {
	// Present is false when the kernel has no such parameter (before 7.0, or
	// nvme-pci not loaded). That is not an error, and it is distinct from a
	// parameter that exists but cannot be read, which QuirksParam reports as
	// an error.
	Present bool
	// Raw is the parameter as the kernel shows it, without surrounding white
	// space; "" when no override is set.
	Raw string
	// Overrides is Raw parsed by apst.ParseQuirkOverrides, in order; nil
	// when Raw is empty or does not parse (FS.QuirksParam then returns the
	// parse error with Raw set).
	Overrides []apst.QuirkOverride
}

// QuirksParam reads module/nvme/parameters/quirks. An absent parameter is
// QuirksParam{Present: false} and no error. One that exists but cannot be
// read is an error (os.ErrPermission, ErrNotRegular, ...) with Present
// false; one that does not parse is returned with Present and Raw set, no
// Overrides and an error wrapping ErrInvalidAttribute (kernels 7.0 to 7.2
// log and ignore a malformed string, 7.3 refuses it).
func (fs FS) QuirksParam() (QuirksParam, error) {
	raw, err := fs.readRaw(quirksParam)
	if isNotExist(err) {
		return QuirksParam{}, nil
	}
	if err != nil {
		return QuirksParam{}, err
	}
	q := QuirksParam{Present: true, Raw: strings.TrimSpace(raw)}
	ov, err := apst.ParseQuirkOverrides(q.Raw)
	if err != nil {
		return q, fmt.Errorf("%w: %s: %w", ErrInvalidAttribute, fs.path(quirksParam), err)
	}
	q.Overrides = ov
	return q, nil
}
