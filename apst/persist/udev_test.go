package persist_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/persist"
)

func TestParseRules(t *testing.T) {
	rs, err := persist.ParseRules("# comment\n\n" +
		`ACTION=="add|change", SUBSYSTEM=="nvme", \` + "\n" +
		`  ATTR{model}=="A \"quoted\" model", ATTR{power/pm_qos_latency_tolerance_us}="0"` + "\n" +
		`PROGRAM="/bin/true", RESULT=="x", RUN+="/bin/echo", ENV{X}:="1", LABEL="end"` + "\r\n" +
		`KERNEL=="nvme*",GOTO="end"` + "\n")
	require.NoError(t, err)
	require.Len(t, rs, 3)
	assert.Equal(t, 3, rs[0].Line)
	assert.Equal(t, persist.Expr{Key: "ATTR", Attr: "model", Op: persist.OpMatch, Value: `A "quoted" model`}, rs[0].Exprs[2])
	assert.Equal(t, persist.OpMatch, rs[1].Exprs[0].Op, "PROGRAM= is read as ==, as udev does")
	assert.Equal(t, 6, rs[2].Line)
}

func TestParseRulesErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{`KERNAL=="nvme0"`, `unknown key "KERNAL"`},
		{`KERNEL="nvme0"`, "KERNEL does not take ="},
		{`ATTR=="x"`, "ATTR needs an {attribute}"},
		{`KERNEL{x}=="y"`, "KERNEL takes no {attribute}"},
		{`ATTR{}=="y"`, "empty attribute"},
		{`ATTR{model=="y"`, "no closing }"},
		{`KERNEL=="nvme0`, "unterminated string"},
		{`KERNEL==nvme0`, "want a value in double quotes"},
		{`KERNEL=="a" SUBSYSTEM=="b"`, "want a comma"},
		{`KERNEL~"a"`, "want an operator"},
		{`kernel=="a"`, "want a key"},
		{`OWNER=="root"`, "OWNER does not take =="},
		{`ATTRS{vendor}:="x"`, "ATTRS does not take :="},
	} {
		_, err := persist.ParseRules("\n" + tc.text)
		require.ErrorIs(t, err, persist.ErrRuleSyntax, tc.text)
		assert.ErrorContains(t, err, "line 2: ", tc.text)
		assert.ErrorContains(t, err, tc.want, tc.text)
	}
	_, err := persist.ParseRules(strings.Repeat("#", persist.MaxRulesSize+1))
	assert.ErrorIs(t, err, persist.ErrRuleSyntax)
	_, err = persist.ParseRules(strings.Repeat(`KERNEL=="a", `, persist.MaxRuleExprs+1) + `KERNEL=="a"`)
	assert.ErrorContains(t, err, "more than")
}

// A rule keyed on the 990 EVO Plus family matches both capacities and no
// other model of the corpus.
func TestModelFamily(t *testing.T) {
	for _, tc := range []struct{ model, glob string }{
		{"Samsung SSD 990 EVO Plus 1TB", "Samsung SSD 990 EVO Plus *"},
		{"Samsung SSD 970 EVO Plus 250GB", "Samsung SSD 970 EVO Plus *"},
		{"WD Blue SN570 1TB", "WD Blue SN570 *"},
		{"KINGSTON SNV3S500G", "KINGSTON SNV3S500G"},
		{"INTEL SSDPEKKW256G7", "INTEL SSDPEKKW256G7"},
		{"Model 1.5T", "Model *"},
		{"Model .5T", "Model .5T"},
		{"TB", "TB"},
	} {
		got, ok := persist.ModelFamily(tc.model)
		assert.Equal(t, tc.glob, got, tc.model)
		assert.Equal(t, tc.glob != tc.model, ok, tc.model)
	}
}

func TestGlobMatch(t *testing.T) {
	rs, err := persist.ParseRules(`SUBSYSTEM=="nvme", ATTR{model}=="Samsung SSD 9[0-9]0 EVO*|WD*", ATTR{power/pm_qos_latency_tolerance_us}="1"`)
	require.NoError(t, err)
	for model, want := range map[string]bool{
		"Samsung SSD 990 EVO Plus 1TB": true, "Samsung SSD 970 EVO 1TB": true, "Samsung SSD 9x0 EVO": false,
		"WD Blue": true, "Samsung SSD 990 PRO 4TB": false, "Samsung SSD 990 EVO Plus 4TB   ": true,
	} {
		_, ok := persist.Tolerance(rs.Apply(persist.Drive{Model: model, HasTolerance: true}))
		assert.Equal(t, want, ok, model)
	}
}

func FuzzParseRules(f *testing.F) {
	for _, s := range []string{
		`ACTION=="add|change", SUBSYSTEM=="nvme", KERNEL=="nvme[0-9]*", ATTR{model}=="Samsung SSD 990 EVO Plus *", TEST=="power/pm_qos_latency_tolerance_us", ATTR{power/pm_qos_latency_tolerance_us}="25000"`,
		"KERNEL==\"a\", \\\nGOTO=\"x\"\nLABEL=\"x\"",
		`ENV{A}=e"\n\t\"", RUN+="x"`,
		`ATTR{x}=="[!a-z]*?"`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		rs, err := persist.ParseRules(text)
		if err != nil {
			return
		}
		// What parses writes back in a form that parses to the same rules.
		for _, r := range rs {
			back, err := persist.ParseRules(r.String())
			if err != nil {
				t.Fatalf("%q: written back as %q: %v", text, r.String(), err)
			}
			if len(back) != 1 || len(back[0].Exprs) != len(r.Exprs) {
				t.Fatalf("%q: written back as %q: %d rules", text, r.String(), len(back))
			}
			for i := range r.Exprs {
				if back[0].Exprs[i] != r.Exprs[i] {
					t.Fatalf("%q: expression %d %+v came back as %+v", text, i, r.Exprs[i], back[0].Exprs[i])
				}
			}
		}
		// Applying them never panics and terminates (GOTO only jumps forward).
		rs.Apply(persist.Drive{Model: "m", Serial: "s", HasTolerance: true})
	})
}

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
