package persist_test

import (
	"testing"

	"github.com/nvmeapst/nvmeapst/apst/persist"
)

func FuzzParseDefaults(f *testing.F) {
	for _, s := range []string{
		"BOOT_IMAGE=/vmlinuz quiet nvme_core.default_ps_max_latency_us=5500",
		"options nvme_core default_ps_max_latency_us=0x10 other=1",
		`GRUB_CMDLINE_LINUX_DEFAULT="quiet nvme-core.default_ps_max_latency_us=0"`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		ds, err := persist.ParseDefaults(text)
		if err != nil {
			return
		}
		for _, d := range ds {
			if d.Line < 1 || d.Text == "" {
				t.Fatalf("%q: %+v", text, d)
			}
		}
	})
}

func FuzzParseGoal(f *testing.F) {
	for _, s := range []string{"25000", "any", "stall=25ms", "bar=ps3,ps4", "power=0.07W", "power=10mW", "deepest"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, err := persist.ParseGoal(s)
		if err != nil {
			return
		}
		back, err := persist.ParseGoal(g.String())
		if err != nil || back != g {
			t.Fatalf("%q: %+v written as %q reads back as %+v, %v", s, g, g.String(), back, err)
		}
	})
}
