package diagnose_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// aspmDown is a failure whose answer hangs on what was tried: with
// nothing tried it is "possibly aspm"; with pcie_aspm=off in force
// undecided; with APST off tried, ASPM.
const aspmDown = "[    0.000000] Linux version 6.8.0-51-generic (buildd@lcy02-amd64-091) #52-Ubuntu SMP PREEMPT_DYNAMIC\n" +
	"[    0.010000] Kernel command line: BOOT_IMAGE=/boot/vmlinuz-6.8.0-51-generic root=UUID=a1b2 ro quiet%s\n" +
	"[    1.000000] nvme nvme0: pci function 0000:04:00.0\n" +
	"[ 5000.000000] pcieport 0000:00:1d.0: AER: Corrected error received: 0000:04:00.0\n" +
	"[ 5000.000001] nvme 0000:04:00.0: PCIe Bus Error: severity=Corrected, type=Physical Layer, (Receiver ID)\n" +
	"[ 5100.000000] pcieport 0000:00:1d.0: AER: Corrected error received: 0000:04:00.0\n" +
	"[ 5100.000001] nvme 0000:04:00.0: PCIe Bus Error: severity=Corrected, type=Physical Layer, (Receiver ID)\n" +
	"[ 5200.000000] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff\n"

func diagnoseTried(t *testing.T, cmdline string, tried ...diagnose.Tried) diagnose.Diagnosis {
	t.Helper()
	l, err := kernlog.ReadString(fmt.Sprintf(aspmDown, cmdline), kernlog.Options{})
	require.NoError(t, err)
	d := diagnose.Diagnose(diagnose.Input{Log: l, Tried: tried})
	require.True(t, d.Failure, d.Summary)
	return d
}

// given is what d lists as tried that its Input gave (not the log's).
func given(d diagnose.Diagnosis) []diagnose.Tried {
	var out []diagnose.Tried
	for _, t := range d.Tried {
		if !t.FromLog {
			out = append(out, t)
		}
	}
	return out
}

func against(d diagnose.Diagnosis, l diagnose.Layer) string {
	var b strings.Builder
	for _, e := range d.Cause(l).Against {
		b.WriteString(e.Text + " | " + e.Quote + "\n")
	}
	return b.String()
}

// A module parameter's number is read as the kernel reads it (kstrtoul in
// base 0: "00" is octal 0, "0x0" hexadecimal 0, a '+' allowed), so APST
// off written so counts as APST off; before, only "0" did.
func TestTriedNumbersAsTheKernelReadsThem(t *testing.T) {
	for _, v := range []string{"0", "00", "0x0", "0X0", "+0", "000"} {
		ts, err := diagnose.ParseTriedFlag("nvme_core.default_ps_max_latency_us=" + v)
		require.NoError(t, err, v)
		d := diagnoseTried(t, "", ts...)
		assert.True(t, d.APSTRuledOut, "%s: %s", v, d.Summary)
		assert.Contains(t, against(d, diagnose.LayerAPST), "failed with nvme_core.default_ps_max_latency_us="+v+" in force", v)
	}
	for _, v := range []string{"0x10", "010", "8"} { // 16, 8, 8: APST on
		ts, err := diagnose.ParseTriedFlag("nvme_core.default_ps_max_latency_us=" + v)
		require.NoError(t, err, v)
		assert.False(t, diagnoseTried(t, "", ts...).APSTRuledOut, v)
	}
	// A sysfs file read with kstrtoul (d3cold_allowed: any number not 0 is
	// on) or kstrtobool (a link's l1_2_aspm), and the latency tolerance
	// (kstrtos32, or auto and any).
	for _, tc := range []struct {
		in   string
		same string // "" when refused
	}{
		{"/sys/bus/pci/devices/0000:04:00.0/d3cold_allowed=0x0", "0"},
		{"/sys/bus/pci/devices/0000:04:00.0/d3cold_allowed=2", "1"},
		{"/sys/bus/pci/devices/0000:04:00.0/link/l1_2_aspm=n", "0"},
		{"/sys/bus/pci/devices/0000:04:00.0/link/l1_2_aspm=off", "0"},
		{"/sys/class/nvme/nvme0/power/pm_qos_latency_tolerance_us=0x0", "0"},
		{"/sys/class/nvme/nvme0/power/pm_qos_latency_tolerance_us=any", "2147483647"},
		{"nvme.noacpi=y", "1"},
		{"nvme.noacpi", "1"},
		{"nvme_core.default_ps_max_latency_us=08", ""}, // 8 is no octal digit
		{"nvme_core.default_ps_max_latency_us=0x", ""},
		{"nvme_core.default_ps_max_latency_us=-1", ""},
		{"nvme_core.default_ps_max_latency_us=18446744073709551616", ""}, // 2^64
		{"nvme_core.default_ps_max_latency_us=", ""},
		{"nvme_core.shutdown_timeout=256", ""},        // a byte
		{"nvme.max_host_mem_size_mb=0x100000000", ""}, // a uint
		{"/sys/class/nvme/nvme0/power/pm_qos_latency_tolerance_us=-5", ""},
		{"/sys/class/nvme/nvme0/power/pm_qos_latency_tolerance_us=2147483648", ""},
		{"/sys/bus/pci/devices/0000:04:00.0/d3cold_allowed=off", ""},
		{"nvme.noacpi=maybe", ""},
	} {
		got, err := diagnose.ParseTriedFlag(tc.in + ":helped")
		if tc.same == "" {
			assert.Error(t, err, tc.in)
			continue
		}
		require.NoError(t, err, tc.in)
		// Its value is the same to the kernel as tc.same: given with
		// another outcome, it contradicts.
		name, _, _ := strings.Cut(tc.in, "=")
		_, err = diagnose.MergeTried(append(got, diagnose.Tried{Setting: name, Value: tc.same, Outcome: diagnose.DidNotHelp}))
		assert.ErrorContains(t, err, "contradict each other", tc.in)
	}
}

// A word the kernel compares exactly (pcie_aspm's strcmp, a sysfs file's
// sysfs_streq) is weighed only as the kernel reads it: "OFF" and "of" are
// ignored by it. --tried refuses them with the value meant; given to
// Diagnose, or on the log's own command line, they are noted and not
// weighed. Before, pcie_aspm=OFF counted as off.
func TestTriedWordsAsTheKernelReadsThem(t *testing.T) {
	for _, tc := range []struct{ in, says string }{
		{"pcie_aspm=OFF", `the kernel takes pcie_aspm=off or force, compared exactly, and ignores pcie_aspm="OFF": did you mean "pcie_aspm=off"?`},
		{"pcie_aspm=of:helped", `did you mean "pcie_aspm=off:helped"?`},
		{"pcie_aspm=forced", `did you mean "pcie_aspm=force"?`},
		{"pcie_aspm=", `ignores pcie_aspm=""`},
		{"pcie_aspm", `ignores pcie_aspm=""`},
		{"PCIE_ASPM=OFF", `unknown setting "PCIE_ASPM": did you mean "pcie_aspm=off"?`},
		{"pcie_apsm=Off:no", `unknown setting "pcie_apsm": did you mean "pcie_aspm=off:no"?`},
		{"pcie_port_pm=Off", `did you mean "pcie_port_pm=off"?`},
		{"pcie_aspm.policy=Performance", `did you mean "pcie_aspm.policy=performance"?`},
		{"mem_sleep_default=S3", `takes mem_sleep_default=s2idle or shallow or deep`},
		{"/sys/bus/pci/devices/0000:04:00.0/power/control=On", `did you mean "/sys/bus/pci/devices/0000:04:00.0/power/control=on"?`},
		{"nvme_core.default_ps_max_latency_us=zero", `reads nvme_core.default_ps_max_latency_us as an unsigned number`},
		{"nvme.quirks=144d:a808:0x800", `quirk name "0x800" is not one of the kernel's`},
	} {
		_, err := diagnose.ParseTriedFlag(tc.in)
		require.Error(t, err, tc.in)
		assert.Contains(t, err.Error(), tc.says, tc.in)
		assert.True(t, strings.HasPrefix(err.Error(), "diagnose: "), err.Error())
	}

	// Given to Diagnose: noted, not weighed, not listed.
	d := diagnoseTried(t, "", diagnose.Tried{Setting: "pcie_aspm", Value: "OFF", Outcome: diagnose.DidNotHelp})
	assert.Equal(t, diagnoseTried(t, "").Summary, d.Summary)
	assert.Empty(t, given(d))
	assert.Contains(t, strings.Join(d.Notes, "\n"), `tried pcie_aspm=OFF (did not help): the kernel takes pcie_aspm=off or force, compared exactly, and ignores pcie_aspm="OFF", so it tried nothing: not weighed`)
	// The reference: off, as the kernel reads it, is weighed.
	assert.Contains(t, against(diagnoseTried(t, "", diagnose.Tried{Setting: "pcie_aspm", Value: "off", Outcome: diagnose.DidNotHelp}), diagnose.LayerASPM), "failed with pcie_aspm=off in force")

	// On the log's own command line: the boot ran as without it.
	d = diagnoseTried(t, " pcie_aspm=OFF nvme_core.default_ps_max_latency_us=0x0")
	assert.Contains(t, strings.Join(d.Notes, "\n"), `the kernel command line (kernel log line 2) has pcie_aspm=OFF: the kernel takes pcie_aspm=off or force`)
	assert.NotContains(t, against(d, diagnose.LayerASPM), "pcie_aspm=OFF")
	assert.True(t, d.APSTRuledOut, "0x0 is 0: %s", d.Summary)
}

// A setting given as having helped that the log's own command line has
// (the failure came with it in force) is noted and not counted as having
// helped; the line it quotes is the log's, with its number. The pair is
// not refused as two --tried values are: the command line kernlog keeps is
// the last one the log shows, which can be a later boot's. Before, the
// answer was "most likely aspm (pcie_aspm helped ...)".
func TestTriedHelpedAgainstTheLogsCommandLine(t *testing.T) {
	for _, tc := range []struct {
		cmdline string
		tried   diagnose.Tried
	}{
		{" pcie_aspm=off", diagnose.Tried{Setting: "pcie_aspm", Value: "off", Outcome: diagnose.Helped}},
		{" pcie_aspm=off", diagnose.Tried{Setting: "pcie_aspm", Value: "off", Outcome: diagnose.Partly}},
		{" nvme-core.default_ps_max_latency_us=0", diagnose.Tried{Setting: "nvme_core.default_ps_max_latency_us", Value: "0x0", Outcome: diagnose.Helped}},
	} {
		d := diagnoseTried(t, tc.cmdline, tc.tried)
		assert.NotContains(t, d.Summary, " helped", tc.tried.String())
		for _, tr := range d.Tried {
			assert.True(t, tr.FromLog, "%s: %+v listed", tc.tried, tr)
		}
		assert.Contains(t, strings.Join(d.Notes, "\n"), "tried "+tc.tried.String()+", yet the kernel command line (kernel log line 2) has ", tc.tried.String())
		assert.Contains(t, strings.Join(d.Notes, "\n"), "not counted as having helped")
	}
	// Without it on the command line, it helped.
	d := diagnoseTried(t, "", diagnose.Tried{Setting: "pcie_aspm", Value: "off", Outcome: diagnose.Helped})
	assert.Contains(t, d.Summary, "most likely aspm (pcie_aspm helped")
	// What did not help, given again, weighs once.
	once := diagnoseTried(t, "", diagnose.Tried{Setting: "nvme_core.default_ps_max_latency_us", Value: "0", Outcome: diagnose.DidNotHelp})
	thrice := diagnoseTried(t, "", diagnose.Tried{Setting: "nvme_core.default_ps_max_latency_us", Value: "0", Outcome: diagnose.DidNotHelp},
		diagnose.Tried{Setting: "nvme_core.default_ps_max_latency_us", Value: "00", Outcome: diagnose.DidNotHelp},
		diagnose.Tried{Setting: "nvme-core.default_ps_max_latency_us", Value: "0", Outcome: diagnose.DidNotHelp})
	assert.Equal(t, once.Cause(diagnose.LayerAPST).Score, thrice.Cause(diagnose.LayerAPST).Score)
	assert.Len(t, given(thrice), 1)
}

// How --tried is split and trimmed: any white space separates settings (a
// paste of lines, tabs, a CR of a CRLF, a byte order mark), as the kernel
// splits its command line; blanks around the outcome's colon are the
// separator's. Before, "pcie_aspm=off :helped" read as a setting
// ":helped", and a newline stayed inside the value.
func TestParseTriedFlagBlanks(t *testing.T) {
	aspm := diagnose.Tried{Setting: "pcie_aspm", Value: "off", Outcome: diagnose.DidNotHelp}
	aspmHelped := diagnose.Tried{Setting: "pcie_aspm", Value: "off", Outcome: diagnose.Helped}
	apst := diagnose.Tried{Setting: "nvme_core.default_ps_max_latency_us", Value: "0", Outcome: diagnose.DidNotHelp}
	for _, tc := range []struct {
		in   string
		want []diagnose.Tried
	}{
		{"pcie_aspm=off :helped", []diagnose.Tried{aspmHelped}},
		{"pcie_aspm=off: helped", []diagnose.Tried{aspmHelped}},
		{"pcie_aspm=off : helped", []diagnose.Tried{aspmHelped}},
		{"pcie_aspm=off\t:helped", []diagnose.Tried{aspmHelped}},
		{"pcie_aspm=off\r\n", []diagnose.Tried{aspm}},
		{"\ufeffpcie_aspm=off", []diagnose.Tried{aspm}},
		{"pcie_aspm=off\tnvme_core.default_ps_max_latency_us=0", []diagnose.Tried{aspm, apst}},
		{"pcie_aspm=off\nnvme_core.default_ps_max_latency_us=0\n", []diagnose.Tried{aspm, apst}},
		{"pcie_aspm=off\r\nnvme_core.default_ps_max_latency_us=0\r\n", []diagnose.Tried{aspm, apst}},
		{"pcie_aspm=off , nvme_core.default_ps_max_latency_us=0", []diagnose.Tried{aspm, apst}},
		{"pcie_aspm=off,pcie_aspm=off pcie_aspm=off:no", []diagnose.Tried{aspm}},
		// A list parameter's options are its value's.
		{"pci=noaer,nomsi:helped,pcie_aspm=off", []diagnose.Tried{{Setting: "pci", Value: "noaer,nomsi", Outcome: diagnose.Helped}, aspm}},
		{"pci=noaer nomsi", []diagnose.Tried{{Setting: "pci", Value: "noaer", Outcome: diagnose.DidNotHelp}, {Setting: "nomsi", Outcome: diagnose.DidNotHelp}}},
	} {
		got, err := diagnose.ParseTriedFlag(tc.in)
		require.NoError(t, err, "%q", tc.in)
		assert.Equal(t, tc.want, got, "%q", tc.in)
		if slices.Contains(tc.want, aspmHelped) {
			assert.Equal(t, tc.want, diagnose.ParseTried(tc.in), "ParseTried %q", tc.in)
		}
	}
	for _, tc := range []struct{ in, says string }{
		{"pcie_aspm=off:", `"pcie_aspm=off:": no outcome after ':'`},
		{"pcie_aspm=off: maybe", `no outcome after ':'`},
		{"pcie_aspm=off :maybe", `the outcome after ':' is "maybe"`},
		// A name cut short at a word, or a module parameter without its
		// module: the kernel would not read it as meant.
		{"nvme_core.default_ps_max_latency=0", `did you mean "nvme_core.default_ps_max_latency_us=0"?`},
		{"default_ps_max_latency_us=0:no", `did you mean "nvme_core.default_ps_max_latency_us=0:no"?`},
		{"noacpi=1", `did you mean "nvme.noacpi=1"?`},
	} {
		_, err := diagnose.ParseTriedFlag(tc.in)
		assert.ErrorContains(t, err, tc.says, "%q", tc.in)
	}
	// ParseTried, which reads loosely, drops the colon that has no
	// outcome after it.
	assert.Equal(t, []diagnose.Tried{aspm}, diagnose.ParseTried("pcie_aspm=off:"))
}

// A setting the rules do not know, far from every one they do, is kept
// (another kernel parameter, a note) and Diagnose says it weighed nothing.
func TestTriedUnknownNameIsNoted(t *testing.T) {
	for _, name := range []string{"foo_bar=1", "acpi=off", "pcie_ports=native"} {
		ts, err := diagnose.ParseTriedFlag(name)
		require.NoError(t, err, name)
		d := diagnoseTried(t, "", ts...)
		assert.Contains(t, strings.Join(d.Notes, "\n"), "tried "+name+" (did not help): no setting the diagnosis knows", name)
		assert.Equal(t, diagnoseTried(t, "").Summary, d.Summary, name)
	}
}

// Settings tried cost time in proportion to their number: a --tried list
// of many, the same setting many times, MergeTried of all the values of a
// command line. Before, apstctl checked each value against all before it
// (4000 --tried values: more than 30 s), and CheckTried compared every
// pair (an 8000-setting list: half a second). More than MaxTried settings
// are refused, naming the maximum.
func TestTriedTimeIsLinear(t *testing.T) {
	many := strings.Repeat("pcie_aspm=off,", 200000)
	start := time.Now()
	got, err := diagnose.ParseTriedFlag(many)
	require.NoError(t, err)
	assert.Len(t, got, 1)

	var ts []diagnose.Tried
	for i := range 200000 {
		ts = append(ts, diagnose.Tried{Setting: fmt.Sprintf("/sys/bus/pci/devices/0000:%02x:00.0/d3cold_allowed", i%diagnose.MaxTried), Value: "0", Outcome: diagnose.DidNotHelp})
	}
	merged, err := diagnose.MergeTried(ts)
	require.NoError(t, err)
	assert.Equal(t, diagnose.MaxTried, len(merged))
	require.NoError(t, diagnose.CheckTried(ts))
	d := diagnoseTried(t, "", ts...)
	assert.Equal(t, diagnose.MaxTried, len(given(d)))
	assert.Less(t, time.Since(start), 5*time.Second, "quadratic again?")

	var distinct []string
	for i := range diagnose.MaxTried + 1 {
		distinct = append(distinct, fmt.Sprintf("/sys/bus/pci/devices/0000:%03x:00.0/d3cold_allowed=0", i))
	}
	_, err = diagnose.ParseTriedFlag(strings.Join(distinct, ","))
	assert.ErrorContains(t, err, fmt.Sprintf("diagnose: more than %d settings tried", diagnose.MaxTried))
	ts, err = diagnose.ParseTriedFlag(strings.Join(distinct[1:], " "))
	require.NoError(t, err)
	_, err = diagnose.MergeTried(append(ts, diagnose.Tried{Setting: "pcie_aspm", Value: "off", Outcome: diagnose.DidNotHelp}))
	assert.ErrorContains(t, err, fmt.Sprintf("more than %d settings tried", diagnose.MaxTried))
}

// ParseTriedFlag reads the same settings however the valid ones are
// ordered, repeated or separated (any white space, commas, blanks around
// them and around an outcome's colon, a byte order mark first).
func TestParseTriedFlagProperty(t *testing.T) {
	valid := []string{
		"pcie_aspm=off", "pcie_aspm=force:no", "nvme_core.default_ps_max_latency_us=0:helped",
		"nvme_core.default_ps_max_latency_us=5500", "nvme.noacpi=1:partly", "pcie_port_pm=off",
		"/sys/bus/pci/devices/0000:01:00.0/d3cold_allowed=0:yes", "dtparam=pciex1_gen=2",
		"nvme.quirks=144d:a808:no_apst,no_deepest_ps:no", "other-slot:no", "pci=noaer,nomsi",
		"mem_sleep_default=deep", "console=ttyS0,115200", "acpi=off",
	}
	seps := []string{" ", ",", "\t", "\n", "\r\n", " , ", ",\n", "  \t "}
	colons := []string{":", " :", ": ", " : ", "\t:"}
	rapid.Check(t, func(t *rapid.T) {
		picked := rapid.SliceOfNDistinct(rapid.SampledFrom(valid), 1, 6, rapid.ID[string]).Draw(t, "picked")
		want, err := diagnose.ParseTriedFlag(strings.Join(picked, ","))
		if err != nil {
			t.Fatalf("%q: %v", picked, err)
		}
		// Any order, each given one or more times.
		var words []string
		for _, w := range picked {
			for range rapid.IntRange(1, 3).Draw(t, "times") {
				words = append(words, w)
			}
		}
		words = rapid.Permutation(words).Draw(t, "order")
		var b strings.Builder
		if rapid.Bool().Draw(t, "bom") {
			b.WriteString("\ufeff")
		}
		for i, w := range words {
			if i > 0 {
				b.WriteString(rapid.SampledFrom(seps).Draw(t, "sep"))
			}
			if setting, out, ok := cutOutcome(w); ok {
				w = setting + rapid.SampledFrom(colons).Draw(t, "colon") + out
			}
			b.WriteString(w)
		}
		b.WriteString(rapid.SampledFrom([]string{"", " ", "\n", "\r\n", "\t"}).Draw(t, "end"))
		got, err := diagnose.ParseTriedFlag(b.String())
		if err != nil {
			t.Fatalf("%q: %v", b.String(), err)
		}
		if !sameSet(got, want) {
			t.Fatalf("%q reads as %v, %q as %v", b.String(), got, strings.Join(picked, ","), want)
		}
	})
}

// cutOutcome splits an outcome off w ("x=1:no" is "x=1" and "no").
func cutOutcome(w string) (string, string, bool) {
	i := strings.LastIndexByte(w, ':')
	if i < 0 {
		return w, "", false
	}
	switch w[i+1:] {
	case "helped", "yes", "no", "partly":
		return w[:i], w[i+1:], true
	}
	return w, "", false
}

func sameSet(a, b []diagnose.Tried) bool {
	key := func(ts []diagnose.Tried) []string {
		var out []string
		for _, t := range ts {
			out = append(out, t.String())
		}
		slices.Sort(out)
		return out
	}
	return slices.Equal(key(a), key(b))
}

// A modprobe.d file pasted whole (a comment, other lines, then its options
// line), or written by echo into /etc/modprobe.d, is read line by line: its
// options line's settings, whatever line it is. It had been refused unless
// the options line came first ("unknown setting default_ps_max_latency_us").
func TestParseTriedFormPastedFile(t *testing.T) {
	want := diagnose.Tried{Setting: "nvme_core.default_ps_max_latency_us", Value: "0", Outcome: diagnose.DidNotHelp}
	for _, s := range []string{
		"# /etc/modprobe.d/nvme.conf\noptions nvme_core default_ps_max_latency_us=0",
		"\n# written 2024-12-05\n\noptions nvme_core default_ps_max_latency_us=0\n",
		"echo options nvme_core default_ps_max_latency_us=0 > /etc/modprobe.d/nvme.conf",
		`echo "options nvme_core default_ps_max_latency_us=0" | sudo tee /etc/modprobe.d/nvme.conf`,
	} {
		ts, form, err := diagnose.ParseTriedForm(s)
		require.NoError(t, err, "%q", s)
		assert.True(t, form, "%q", s)
		assert.Equal(t, []diagnose.Tried{want}, ts, "%q", s)
	}
	ts, form, err := diagnose.ParseTriedForm("pcie_aspm=off\noptions nvme_core default_ps_max_latency_us=0")
	require.NoError(t, err)
	assert.True(t, form)
	assert.Equal(t, []diagnose.Tried{{Setting: "pcie_aspm", Value: "off", Outcome: diagnose.DidNotHelp}, want}, ts)
	// Lines of settings alone are no form: ParseTriedFlag reads them.
	_, form, err = diagnose.ParseTriedForm("pcie_aspm=off\nnvme_core.default_ps_max_latency_us=0")
	require.NoError(t, err)
	assert.False(t, form)
	// A line of the paste that is a typo is still refused.
	_, _, err = diagnose.ParseTriedForm("pcie_aspm=of\noptions nvme_core default_ps_max_latency_us=0")
	assert.ErrorContains(t, err, "pcie_aspm=off")
}
