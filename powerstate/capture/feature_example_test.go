package capture_test

import (
	"fmt"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// What a drive holds, from two captures of the same table: the -H text
// gives APSTE but only ITPS and ITPT of each entry (Masked), the raw buffer
// gives every bit but not APSTE, which stays unknown rather than "0".
func ExampleParseFeatureBytes() {
	const text = `get-feature:0x0c (Autonomous Power State Transition), Current value:0x00000001
	Autonomous Power State Transition Enable (APSTE): Enabled
	Auto PST Entries	.................
`
	var b []byte
	b = append(b, text...)
	for i := range apst.Entries {
		target, idle := 0, 0
		switch {
		case i < 3:
			target, idle = 3, 100
		case i == 3:
			target, idle = 4, 2000
		}
		b = fmt.Appendf(b, "\tEntry[%2d]\n\t.................\n\tIdle Time Prior to Transition (ITPT): %d ms\n\tIdle Transition Power State   (ITPS): %d\n\t.................\n", i, idle, target)
	}
	h, err := capture.ParseFeatureBytes(b)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(h.Format, h.APSTE, h.Masked, h.Table[0], h.Table[3])

	raw, _ := h.Table.MarshalBinary()
	r, err := capture.ParseFeatureBytes(raw)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Format, r.APSTE, r.Masked, r.Equal(&h.Table))
	// Output:
	// feature-text enabled true ->ps3@100ms ->ps4@2000ms
	// feature-binary unknown false true
}
