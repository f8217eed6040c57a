package ioctl_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"

	"github.com/nvmeapst/nvmeapst/ioctl"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// Read what a real controller reports. It needs Linux and, for Get Features,
// CAP_SYS_ADMIN; it is compiled but not run by go test.
func ExampleOpen() {
	dev, err := ioctl.Open("/dev/nvme0")
	if err != nil {
		log.Fatal(err) // e.g. "... /dev/nvme0n1 is an NVMe namespace ...: use the controller /dev/nvme0"
	}
	defer dev.Close()
	ctx := context.Background()

	image, err := dev.IdentifyController(ctx)
	if err != nil {
		log.Fatal(err)
	}
	c, err := powerstate.DecodeIdentify(image)
	if err != nil {
		log.Fatal(err)
	}
	feat, err := dev.GetAPST(ctx)
	if errors.Is(err, os.ErrPermission) {
		log.Fatal("run as root: ", err)
	}
	if err != nil {
		log.Fatal(err)
	}
	pm, err := dev.GetPowerManagement(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: APSTE %v, in PS%d\n", c.Model, feat.APSTE, pm.State)
}

// Decode the NVMe status a command failed with.
func ExampleStatus() {
	err := error(&ioctl.CommandError{Op: ioctl.OpGetAPST, Status: 0x4002})
	fmt.Println(err)

	var ce *ioctl.CommandError
	if errors.As(err, &ce) {
		s := ioctl.Status(ce.Status)
		fmt.Println(s.SCT(), s.SC(), s.DNR(), s.Name())
	}
	// Output:
	// ioctl: get features (APST): NVMe status 0x4002: Invalid Field in Command (generic, SC 02h, DNR)
	// 0 2 true Invalid Field in Command
}

// An unprivileged Get Features fails with an error that says what is
// needed and matches os.ErrPermission.
func ExampleCommandError() {
	err := error(&ioctl.CommandError{Op: ioctl.OpGetAPST, Errno: os.ErrPermission})
	fmt.Println(errors.Is(err, os.ErrPermission))
	fmt.Println(err)
	// Output:
	// true
	// ioctl: get features (APST): permission denied: Get Features needs CAP_SYS_ADMIN (run as root); without it kernels allow Identify only, and only since v6.2
}
