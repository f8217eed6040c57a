package powerstate_test

import (
	"fmt"
	"os"

	"github.com/nvmeapst/nvmeapst/powerstate"
)

// Decode a 4096-byte Identify Controller image (nvme id-ctrl -b) and list its
// power states.
func ExampleDecodeIdentify() {
	img, err := os.ReadFile("../testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin")
	if err != nil {
		panic(err)
	}
	c, err := powerstate.DecodeIdentify(img)
	if err != nil {
		panic(err)
	}
	fmt.Println(c.Model, c.Firmware, "NPSS", c.NPSS)
	for i, d := range c.States() {
		fmt.Printf("ps%d %s\n", i, d)
	}
	// Output:
	// Samsung SSD 990 EVO Plus 1TB 2B2QKXG7 NPSS 4
	// ps0 mp:6.00W operational enlat:0 exlat:0
	// ps1 mp:6.00W operational enlat:1700 exlat:2100
	// ps2 mp:6.00W operational enlat:3000 exlat:6500
	// ps3 mp:0.0800W non-operational enlat:1600 exlat:4600
	// ps4 mp:0.0070W non-operational enlat:1600 exlat:43000
}
