package ioctltest_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/ioctl"
	"github.com/nvmeapst/nvmeapst/ioctl/ioctltest"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// A fake Intel 600p that holds the table the kernel builds for it, and
// refuses Get Features Power Management as it would to a user without
// CAP_SYS_ADMIN.
func Example() {
	var c powerstate.Controller
	c.VendorID = 0x8086
	c.Model = "INTEL SSDPEKKW256G7"
	c.NPSS, c.APSTA = 4, 1
	c.PowerStates[3] = powerstate.Descriptor{NonOperational: true, EntryLatency: 10000, ExitLatency: 300}
	c.PowerStates[4] = powerstate.Descriptor{NonOperational: true, EntryLatency: 2000, ExitLatency: 10000}
	image, err := c.MarshalBinary()
	if err != nil {
		log.Fatal(err)
	}
	table := apst.Table{apst.NewEntry(3, 100), apst.NewEntry(3, 100), apst.NewEntry(3, 100)}

	fake := ioctltest.New(image, apst.Feature{APSTE: apst.APSTEEnabled, Table: table}, ioctl.PowerManagement{})
	fake.SetError(ioctl.OpGetPowerManagement, ioctltest.PermissionError(ioctl.OpGetPowerManagement))

	show(fake)
	// Output:
	// INTEL SSDPEKKW256G7: NPSS 4, APSTA 0x1
	// APSTE enabled, ps0 ->ps3@100ms
	// power state: not readable without privileges
}

// show is code under test: it sees only the ioctl.Controller interface.
func show(ctrl ioctl.Controller) {
	ctx := context.Background()
	image, err := ctrl.IdentifyController(ctx)
	if err != nil {
		log.Fatal(err)
	}
	c, err := powerstate.DecodeIdentify(image)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: NPSS %d, APSTA %#x\n", c.Model, c.NPSS, c.APSTA)
	feat, err := ctrl.GetAPST(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("APSTE %v, ps0 %v\n", feat.APSTE, feat.Table[0])
	if _, err := ctrl.GetPowerManagement(ctx); errors.Is(err, os.ErrPermission) {
		fmt.Println("power state: not readable without privileges")
	}
}
