package diagnose_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// BenchmarkDiagnoseThread diagnoses the largest real thread's log, read
// once: the work a pasted log costs after reading it.
func BenchmarkDiagnoseThread(b *testing.B) {
	data, err := os.ReadFile("testdata/threads/ml13-power11-pseries-msi-parent-nvme-probe-lockup.log")
	if err != nil {
		b.Skip(err)
	}
	_, body, _ := strings.Cut(string(data), "\n---\n")
	l, err := kernlog.ReadString(body, kernlog.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		diagnose.Diagnose(diagnose.Input{Log: l})
	}
}

// BenchmarkDiagnoseManyIncidents diagnoses a log at kernlog's cap of
// incidents, half of them PCIe ports and half the devices of another
// driver failing beside them: the shape in which every port's incident is
// weighed against every other's (portOfOther), which must stay far from
// quadratic in the events.
func BenchmarkDiagnoseManyIncidents(b *testing.B) {
	var log strings.Builder
	for i := range 300 {
		for j := range 30 {
			fmt.Fprintf(&log, "[%d.%06d] pcieport 0000:%02x:1c.2: AER: device recovery failed\n", 100+i, j, i%256)
			fmt.Fprintf(&log, "[%d.%06d] igc 0000:%02x:00.%d: not ready 65535ms after bus reset; giving up\n", 100+i, j+1, i%256, i%8)
		}
	}
	l, err := kernlog.ReadString(log.String(), kernlog.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if len(l.Incidents) != kernlog.MaxIncidents {
		b.Fatalf("%d incidents, want the cap %d", len(l.Incidents), kernlog.MaxIncidents)
	}
	b.ReportAllocs()
	for b.Loop() {
		diagnose.Diagnose(diagnose.Input{Log: l})
	}
}
