package capture_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
	"github.com/nvmeapst/nvmeapst/powerstate/capture"
)

// A smartctl report pasted into a bug report: Parse detects the format,
// keeps what smartctl printed, and leaves unknown what it did not (APSTA,
// idle and active power); apst.Build then assumes APST is supported.
func ExampleParse() {
	const report = `smartctl 7.5 2025-04-30 r5714 [x86_64-linux-6.12.58-1-lts] (local build)
Copyright (C) 2002-25, Bruce Allen, Christian Franke, www.smartmontools.org

=== START OF INFORMATION SECTION ===
Model Number:                       Samsung SSD 990 EVO Plus 1TB
Firmware Version:                   2B2QKXG7
PCI Vendor/Subsystem ID:            0x144d
Warning  Comp. Temp. Threshold:     81 Celsius

Supported Power States
St Op     Max   Active     Idle   RL RT WL WT  Ent_Lat  Ex_Lat
 0 +     6.00W       -        -    0  0  0  0        0       0
 1 +     6.00W       -        -    1  1  1  1     1700    2100
 2 +     6.00W       -        -    2  2  2  2     3000    6500
 3 -   0.0800W       -        -    3  3  3  3     1600    4600
 4 -   0.0070W       -        -    4  4  4  4     1600   43000

`
	c, err := capture.Parse(strings.NewReader(report))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s (%s), vendor %#04x, NPSS %d, WCTEMP %d K\n", c.Model, c.Format, c.VendorID, c.NPSS, c.WarningTemp)
	fmt.Println("missing:", c.Missing)
	for i, d := range c.States() {
		fmt.Printf("ps%d %v\n", i, d)
	}
	plan, err := apst.Build(&c, apst.DefaultParams(apst.Current))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("assumed APSTA:", plan.AssumedAPSTA)
	fmt.Printf("entry 0: %v, entry 3: %v\n", plan.Table[0], plan.Table[3])

	// A capture cut inside the table is an error that names the line.
	_, err = capture.Parse(strings.NewReader(report[:strings.Index(report, " 4 -")]))
	fmt.Println(err)
	// Output:
	// Samsung SSD 990 EVO Plus 1TB (smartctl-text), vendor 0x144d, NPSS 4, WCTEMP 354 K
	// missing: sn,ieee,cntlid,ver,rtd3r,rtd3e,oacs,avscc,apsta,cctemp,idle_power,active_power,active_power_workload,cntrltype,ioccsz
	// ps0 mp:6.00W operational enlat:0 exlat:0
	// ps1 mp:6.00W operational enlat:1700 exlat:2100
	// ps2 mp:6.00W operational enlat:3000 exlat:6500
	// ps3 mp:0.0800W non-operational enlat:1600 exlat:4600
	// ps4 mp:0.0070W non-operational enlat:1600 exlat:43000
	// assumed APSTA: true
	// entry 0: ->ps3@100ms, entry 3: ->ps4@2000ms
	// capture: smartctl-text capture, line 16: expected power state row 4 or the blank line that ends the table: capture truncated
}

// An nvme id-ctrl capture quoted in an email, with the serial masked by
// hand: the quoting is removed, and the serial, which APST does not use, is
// kept as unknown with a note instead of refusing the capture.
func ExampleParseBytes() {
	const mail = `On Monday, Ann wrote:
> NVME Identify Controller:
> vid       : 0x8086
> sn        : <masked, ask me if you need it>
> mn        : INTEL SSDPEKKW256G7
> fr        : PSF109C
> npss      : 4
> apsta     : 0x1
> ps    0 : mp:9.00W operational enlat:0 exlat:0 rrt:0 rrl:0
>           rwt:0 rwl:0 idle_power:- active_power:-
> ps    1 : mp:4.60W operational enlat:0 exlat:0 rrt:1 rrl:1
>           rwt:1 rwl:1 idle_power:- active_power:-
> ps    2 : mp:3.80W operational enlat:0 exlat:0 rrt:2 rrl:2
>           rwt:2 rwl:2 idle_power:- active_power:-
> ps    3 : mp:0.0450W non-operational enlat:2000 exlat:2000 rrt:3 rrl:3
>           rwt:3 rwl:3 idle_power:- active_power:-
> ps    4 : mp:0.0040W non-operational enlat:6000 exlat:8000 rrt:4 rrl:4
>           rwt:4 rwl:4 idle_power:- active_power:-
--
Ann
`
	c, err := capture.ParseBytes([]byte(mail))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s %s (%s), NPSS %d, APSTA %#x, PCI device ID %#04x\n", c.Model, c.Firmware, c.Format, c.NPSS, c.APSTA, c.PCIDeviceID)
	fmt.Println("serial known:", c.Knows(powerstate.FieldSerial))
	for _, n := range c.Notes {
		fmt.Println(n)
	}
	// Output:
	// INTEL SSDPEKKW256G7 PSF109C (nvme-cli-text), NPSS 4, APSTA 0x1, PCI device ID 0x0000
	// serial known: false
	// line 4: sn kept as unknown (APST does not use it): expected at most 20 characters for sn, found "<masked, ask me if you need it>"
}

// A kernel log given where a capture belongs is refused, and the error
// says what the text is instead (ParseError.Looks).
func ExampleParseError() {
	const log = "[  217.417507] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10\n" +
		"[  217.417514] nvme nvme0: Does your device have a faulty power saving mode enabled?\n"
	_, err := capture.ParseBytes([]byte(log))
	var pe *capture.ParseError
	if errors.As(err, &pe) {
		fmt.Println(errors.Is(err, capture.ErrUnknownFormat))
		fmt.Println(pe.Looks)
	}
	// Output:
	// true
	// a kernel log (dmesg or journalctl -k)
}
