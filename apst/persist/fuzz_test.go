package persist_test

import (
	"strings"
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

// FuzzParseSysfsWrites: every write found names its line, a /sys path or a
// tmpfiles path, and the line's text, on any input; text over the limit is
// refused.
func FuzzParseSysfsWrites(f *testing.F) {
	for _, s := range []string{
		"w /sys/class/nvme/nvme0/power/pm_qos_latency_tolerance_us - - - - 25000\n",
		"w+! /sys/x - - - - a b\n# c\n",
		"[sysfs]\n/sys/class/nvme/nvme0/power/pm_qos_latency_tolerance_us=25000\n[main]\nx=1\n",
		"[sysfs\nw\n", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ws, err := persist.ParseSysfsWrites(s)
		if err != nil {
			if len(s) <= persist.MaxSettingSize {
				t.Fatalf("%d bytes refused: %v", len(s), err)
			}
			return
		}
		lines := strings.Count(s, "\n") + 1
		for _, w := range ws {
			if w.Line < 1 || w.Line > lines || w.Path == "" || w.Text == "" {
				t.Fatalf("%q: %+v", s, w)
			}
			if w.Form == persist.FormTuned && !strings.HasPrefix(w.Path, "/sys/") {
				t.Fatalf("%q: a tuned write outside /sys: %+v", s, w)
			}
		}
	})
}
