package kernlog

import "strings"

// A platform that reports PCIe errors firmware first hands them to the
// kernel as a UEFI CPER record, which the GHES driver prints line by line
// under the record's number (drivers/firmware/efi/cper.c, cper_print_pcie;
// a Skylake-SP server's Samsung drive, ovro-lwa/lwa-issues#117, posted
// za-05):
//
//	{1}[Hardware Error]: Hardware error from APEI Generic Hardware Error Source: 1
//	{1}[Hardware Error]: event severity: recoverable
//	{1}[Hardware Error]:   section_type: PCIe error
//	{1}[Hardware Error]:   device_id: 0000:5e:00.0
//
// Read keeps each record's severity and section, and reads an
// uncorrected PCIe section's device as an AER report of that function
// (AERError, with the record's severity as AER names it); the record's
// other lines are its details, and a corrected record's report is the
// AER lines the kernel prints from it.

// ghesRecords is what the log said of the CPER records in course: each
// record number's severity and whether its section is a PCIe error.
type ghesRecords struct {
	severity map[string]string
	pcie     map[string]bool
}

// ghesPrefix is the GHES driver's mark of a record's line.
const ghesPrefix = "[Hardware Error]: "

// ghesRecord reports whether a message is a CPER record's line: the
// GHES driver's mark after the record's number ("{1}"), or alone.
func ghesRecord(msg string) bool {
	i := strings.Index(msg[:min(len(msg), 32)], ghesPrefix)
	return i >= 0 && i <= 8
}

// ghesLine reads a CPER record's line: the PCIe section's device is an
// event (ok); the record's severity and section type are noted.
func (st *state) ghesLine(msg string) (e Event, ok bool) {
	i := strings.Index(msg, ghesPrefix)
	if i < 0 || i > 8 {
		return e, false
	}
	rec := msg[:i] // "{1}", or "" when the kernel printed no number
	body := strings.TrimLeft(msg[i+len(ghesPrefix):], " ")
	g := &st.ghes
	if g.severity == nil {
		g.severity, g.pcie = map[string]string{}, map[string]bool{}
	}
	switch {
	case strings.HasPrefix(body, "Hardware error from APEI"):
		delete(g.severity, rec)
		delete(g.pcie, rec)
	case strings.HasPrefix(body, "event severity: "):
		if len(g.severity) < MaxAddresses {
			g.severity[rec] = strings.TrimPrefix(body, "event severity: ")
		}
	case strings.HasPrefix(body, "section_type: "):
		if len(g.pcie) < MaxAddresses {
			g.pcie[rec] = body == "section_type: PCIe error"
		}
	case strings.HasPrefix(body, "device_id: ") && g.pcie[rec]:
		addr := strings.ToLower(strings.TrimPrefix(body, "device_id: "))
		if !isPCIAddr(addr) {
			return e, false
		}
		e.Severity = cperSeverity(g.severity[rec])
		if !strings.HasPrefix(e.Severity, "Uncorrected") {
			// A corrected error's record goes on with the AER lines the
			// kernel reads out of it ("AER: aer_layer=..."), each its
			// report already: counted once.
			return Event{}, false
		}
		e.Kind, e.Action, e.PCI, e.Text = AERError, ActionFirmwareRecord, addr, clip(msg)
		return e, true
	}
	return e, false
}

// cperSeverity names a CPER record's severity as AER does: "corrected" is
// "Corrected", "recoverable" an uncorrected error the platform recovered
// from ("Uncorrected (Non-Fatal)"), "fatal" "Uncorrected (Fatal)"; "" for
// "info" or none.
func cperSeverity(s string) string {
	switch s {
	case "corrected":
		return "Corrected"
	case "recoverable":
		return "Uncorrected (Non-Fatal)"
	case "fatal":
		return "Uncorrected (Fatal)"
	}
	return ""
}
