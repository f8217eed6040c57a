package nvmeapst

import (
	"fmt"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// A bundle's admin command files are files: copied, edited or damaged
// since collection, they may hold anything. What the drive answered is
// taken as it is on a live machine, but a bundle's Identify data must
// look like an Identify Controller image (powerstate.CheckIdentify: a
// vendor ID, a printable model and firmware, NPSS at most 31), and its
// APST table must keep the bits 2:0 of every entry clear, which neither
// the specification nor the kernel ever sets: random bytes pass neither,
// and would otherwise be reported as a drive with 238 power states or a
// table that moves to ps30.

// checkBundleIdentify refuses the Identify file rel of a bundle whose
// bytes b cannot be an Identify Controller image.
func checkBundleIdentify(rel string, b []byte) error {
	if err := powerstate.CheckIdentify(b); err != nil {
		return fmt.Errorf("%w: %s: %w", ErrBundle, rel, err)
	}
	return nil
}

// checkBundleTable refuses the APST file rel of a bundle whose table t has
// an entry with reserved bits 2:0 set, naming the first.
func checkBundleTable(rel string, t *apst.Table) error {
	for i, e := range t {
		if e.ReservedLow() {
			return fmt.Errorf("%w: %s: not an APST table: entry %d is %#016x, with reserved bits 2:0 set (an entry is ITPS in bits 7:3 and ITPT in bits 31:8): random bytes or a damaged file", ErrBundle, rel, i, uint64(e))
		}
	}
	return nil
}
