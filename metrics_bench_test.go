package nvmeapst_test

import (
	"context"
	"testing"

	nvmeapst "github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
)

// BenchmarkMetricsBundle is one scrape of the three-controller bundle of
// testdata/bundle (what apstctl collect writes of testdata/sys: the
// layout of a real collect, an Intel 600p, a Samsung 960 EVO and a 990 EVO
// Plus with their real Identify images), after a first one: what an
// exporter pays per scrape. The target (issue 34) is 200 µs and 200
// allocations; scripts and the CHANGELOG carry it, not this benchmark.
func BenchmarkMetricsBundle(b *testing.B) {
	sys, _, err := nvmeapst.OpenBundle(testfixture.Path("bundle"))
	if err != nil {
		b.Fatal(err)
	}
	r := sys.NewMetricsReader()
	var snap nvmeapst.MetricsSnapshot
	ctx := context.Background()
	if err := r.Read(ctx, &snap); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	start := cpuTime(b)
	for b.Loop() {
		if err := r.Read(ctx, &snap); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime(b)-start)/float64(b.N), "cpu-ns/op")
}

// BenchmarkInspectBundle is System.Inspect on the same bundle, for
// comparison.
func BenchmarkInspectBundle(b *testing.B) {
	sys, _, err := nvmeapst.OpenBundle(testfixture.Path("bundle"))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	start := cpuTime(b)
	for b.Loop() {
		if _, err := sys.Inspect(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime(b)-start)/float64(b.N), "cpu-ns/op")
}
