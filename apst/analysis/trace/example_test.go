package trace_test

import (
	"fmt"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst/analysis/trace"
)

// Reading a blkparse trace: only D and C count, in time order; the summary
// at the end is skipped.
func ExampleNewReader() {
	const blkparse = `259,0    1        1     0.000100000  4242  Q   R 2048 + 8 [app]
259,0    1        2     0.000110000  4242  D   R 2048 + 8 [app]
259,0    0        1     0.000350000     0  C   R 2048 + 8 [0]
259,0    1        3     0.000200000  4242  D   R 4096 + 8 [app]
259,0    0        2     0.000500000     0  C   R 4096 + 8 [0]

Total (259,0):
 Reads Queued:           2,        8KiB	 Writes Queued:           0,        0KiB
`
	r, err := trace.NewReader(strings.NewReader(blkparse), trace.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Format())
	for ev, err := range r.All() {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(ev)
	}
	// Output:
	// blkparse
	// 0.000000000s dispatch 259,0
	// 0.000090000s dispatch 259,0
	// 0.000240000s completion 259,0
	// 0.000390000s completion 259,0
}

// Several disks in a biosnoop trace: without a selection the Reader lists
// them; with one it keeps that disk's commands, each dispatched at TIME −
// LAT.
func ExampleReader_Next() {
	const biosnoop = `TIME(s)     COMM           PID    DISK    T SECTOR     BYTES   LAT(ms)
0.000100    cat            2002   sda     R 99         512        0.05
1.000000    Web Content    2001   nvme0n1 R 1234       4096       0.50
`
	r, _ := trace.NewReader(strings.NewReader(biosnoop), trace.Options{})
	for {
		if _, err := r.Next(); err != nil {
			fmt.Println(err)
			break
		}
	}
	r, _ = trace.NewReader(strings.NewReader(biosnoop), trace.Options{Disk: "nvme0n1"})
	for {
		ev, err := r.Next()
		if err != nil {
			fmt.Println(err) // io.EOF
			break
		}
		fmt.Println(ev.Time, ev.Kind, ev.Device)
	}
	// Output:
	// trace: biosnoop trace has events for 2 devices (nvme0n1, sda): select one disk (NAME)
	// 0 dispatch nvme0n1
	// 500000 completion nvme0n1
	// EOF
}

// A line that cannot be read names the format, the line and what was
// expected.
func ExampleSyntaxError() {
	r, _ := trace.NewReader(strings.NewReader("0.5 0.001\n0.75 fast\n"), trace.Options{})
	for _, err := range r.All() {
		if err != nil {
			fmt.Println(err)
		}
	}
	// Output:
	// trace: plain line 2: expected a duration in seconds (e.g. 0.0002) in field 2: got "0.75 fast"
}

// Parsing a blkparse trace on goroutines: the events and errors are the
// sequential Reader's; Close ends the goroutines (and is harmless once the
// trace has ended).
func ExampleOptions_workers() {
	const blkparse = `259,0    1        1     0.000100000  4242  Q   R 2048 + 8 [app]
259,0    1        2     0.000110000  4242  D   R 2048 + 8 [app]
259,0    0        1     0.000350000     0  C   R 2048 + 8 [0]
`
	r, err := trace.NewReader(strings.NewReader(blkparse), trace.Options{Workers: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	evs := make([]trace.Event, 16)
	for {
		n, err := r.NextEvents(evs)
		for _, ev := range evs[:n] {
			fmt.Println(ev)
		}
		if err != nil {
			fmt.Println(err)
			return
		}
	}
	// Output:
	// 0.000000000s dispatch 259,0
	// 0.000240000s completion 259,0
	// EOF
}
