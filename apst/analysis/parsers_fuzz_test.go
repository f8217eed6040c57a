package analysis_test

import (
	"testing"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/analysis"
)

// FuzzParseGapDistribution: a distribution that reads is written back by
// String and reads to the same distribution; a bare gap reads as
// ParseMicroseconds does, or not at all (a number without its unit).
func FuzzParseGapDistribution(f *testing.F) {
	for _, s := range []string{"exp:500ms", "fixed:2s", "uniform:10ms..5s", "uniform:5s..10ms", "exponential:1s", "exp:10", "fixed:0", "exp:", "uniform:1s", "x:1s", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if g, err := analysis.ParseGapDuration(s); err == nil {
			if us, err := apst.ParseMicroseconds(s); err != nil || us != g {
				t.Fatalf("gap %q reads as %d, but as a duration %d (%v)", s, g, us, err)
			}
		}
		d, err := analysis.ParseGapDistribution(s)
		if err != nil {
			return
		}
		back, err := analysis.ParseGapDistribution(d.String())
		if err != nil || back != d {
			t.Fatalf("%q reads as %+v, whose string %q reads back as %+v (%v)", s, d, d.String(), back, err)
		}
	})
}

// FuzzParseExitFactors: factors that read are written back by String and
// read to the same text; a single factor does the same.
func FuzzParseExitFactors(f *testing.F) {
	for _, s := range []string{"0.78", "78%", "780‰", "39/50", "1", "0.8,ps4=78%", "ps3=0.75,ps4=0.81", "-1", "1/0", "0.78,0.8", "ps32=1", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if x, err := analysis.ParseFactor(s); err == nil {
			back, err := analysis.ParseFactor(x.String())
			if err != nil || back.String() != x.String() {
				t.Fatalf("factor %q reads as %s, which reads back as %s (%v)", s, x, back, err)
			}
		}
		fs, err := analysis.ParseExitFactors(s)
		if err != nil {
			return
		}
		back, err := analysis.ParseExitFactors(fs.String())
		if err != nil || back.String() != fs.String() {
			t.Fatalf("%q reads as %s, which reads back as %s (%v)", s, fs, back, err)
		}
	})
}

// FuzzParseReplayConfig: a configuration that reads keeps its text as its
// name; one that does not is an error, never a panic.
func FuzzParseReplayConfig(f *testing.F) {
	for _, s := range []string{"ps-max-latency-us=25000", "kernel=5.15,ps-max-latency-us=0", "quirks=no-apst", "x=1", "", ","} {
		f.Add(s)
	}
	base := apst.DefaultParams(apst.Current)
	f.Fuzz(func(t *testing.T, s string) {
		c, err := analysis.ParseReplayConfig(s, base)
		if err == nil && c.Name != s {
			t.Fatalf("%q named %q", s, c.Name)
		}
	})
}
