package diagnose_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nvmeapst/nvmeapst/apst/diagnose"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// Every known issue is data with its source, and matches only the
// releases and lines it names: the 6.2-rc1 queue-depth regression weighs
// on a 6.2-rc1 log of aborted timeouts and on no other release; an entry
// that needs what a log cannot show is listed and weighs nothing.
func TestKnownIssues(t *testing.T) {
	for _, k := range diagnose.KnownIssues() {
		assert.NotEmpty(t, k.ID)
		assert.NotEmpty(t, k.Fix, k.ID)
		assert.Contains(t, k.Source, "https://", k.ID)
		assert.NotEmpty(t, k.Signs, k.ID)
		assert.Contains(t, diagnose.Layers(), k.Layer, k.ID)
	}
	read := func(release string) diagnose.Diagnosis {
		l, err := kernlog.ReadString("[    0.000000] Linux version "+release+" (x@y) #1 SMP\n"+
			"[   30.100000] nvme nvme0: I/O 0 (I/O Cmd) QID 2 timeout, aborting\n"+
			"[   30.100100] nvme nvme0: Abort status: 0x0\n", kernlog.Options{})
		require.NoError(t, err)
		return diagnose.Diagnose(diagnose.Input{Log: l})
	}
	ids := func(d diagnose.Diagnosis) []string {
		var s []string
		for _, k := range d.Known {
			s = append(s, k.ID)
		}
		return s
	}
	d := read("6.2.0-rc1")
	assert.Contains(t, ids(d), "nvme-tagset-depth-6.2-rc1")
	assert.Equal(t, diagnose.LayerPlatform, d.Causes[0].Layer, d.Summary)
	assert.True(t, slices.ContainsFunc(d.Causes[0].Evidence, func(l diagnose.Line) bool {
		return l.Source == "https://lore.kernel.org/all/572cfcc0-197a-9ead-9cb-3c5bf5e735@google.com/"
	}))
	assert.NotContains(t, ids(read("6.2.0")), "nvme-tagset-depth-6.2-rc1")
	assert.NotContains(t, ids(read("6.1.8")), "nvme-tagset-depth-6.2-rc1")
	// Before 5.14 the AMD Renoir entry matches timeouts on a resume, but
	// needs the CPU: listed, no weight. Timeouts of a running machine are
	// not its fault.
	d = read("5.13.0")
	assert.NotContains(t, ids(d), "amd-renoir-storaged3enable")
	l, err := kernlog.ReadString("[    0.000000] Linux version 5.13.0 (x@y) #1 SMP\n"+
		"[   20.000000] PM: suspend exit\n"+
		"[   30.100000] nvme nvme0: I/O 0 (I/O Cmd) QID 2 timeout, aborting\n"+
		"[   30.100100] nvme nvme0: Abort status: 0x0\n", kernlog.Options{})
	require.NoError(t, err)
	d = diagnose.Diagnose(diagnose.Input{Log: l})
	assert.Contains(t, ids(d), "amd-renoir-storaged3enable")
	assert.NotEqual(t, diagnose.LayerPlatform, d.Causes[0].Layer, d.Summary)

	// A drive given up on before it was ready, between 5.19 and 6.6: the
	// bogus-CRTO entry is listed (it needs the drive's registers), and not
	// on 6.6 or before 5.19. The line is nvme-pci's, as the Lexar NM790
	// thread quotes it (testdata/threads/ml4-lexar-nm790-bogus-crto-init-timeout.log).
	match := func(release, log string) []string {
		l, err := kernlog.ReadString("[    0.000000] Linux version "+release+" (x@y) #1 SMP\n"+log, kernlog.Options{})
		require.NoError(t, err)
		return ids(diagnose.Diagnose(diagnose.Input{Log: l}))
	}
	notReady := func(release string) []string {
		return match(release, "[ 358.950147] nvme nvme0: pci function 0000:06:00.0\n"+
			"[ 358.958327] nvme nvme0: Device not ready; aborting initialisation, CSTS=0x0\n")
	}
	assert.Contains(t, notReady("6.3.13"), "nvme-bogus-crto")
	assert.Contains(t, notReady("5.19.0"), "nvme-bogus-crto")
	assert.NotContains(t, notReady("6.6.1"), "nvme-bogus-crto")
	assert.NotContains(t, notReady("5.18.19"), "nvme-bogus-crto")
	// 6.1.55 and 6.5.5 took the fix; 6.4.y ended without it.
	assert.Contains(t, notReady("6.1.54"), "nvme-bogus-crto")
	assert.NotContains(t, notReady("6.1.55"), "nvme-bogus-crto")
	assert.NotContains(t, notReady("6.1.100"), "nvme-bogus-crto")
	assert.Contains(t, notReady("6.5.4"), "nvme-bogus-crto")
	assert.NotContains(t, notReady("6.5.5"), "nvme-bogus-crto")
	assert.Contains(t, notReady("6.4.16"), "nvme-bogus-crto")

	// A controller refused after a format changed its AWUPF: the line
	// dates the kernel (6.16-rc4 to rc6, 6.15 before 6.15.8), so the
	// entry needs no release; as Yi Zhang posted the lines to linux-block
	// (CAHj4cs_Ckhz4sL5k5ug_Dc5XfjSo9QDRSrHMfBj2XYGm_gb2+g@mail.gmail.com).
	l, err = kernlog.ReadString("[  752.177475] nvme nvme4: resetting controller\n"+
		"[  752.221030] nvme nvme4: inconsistent AWUPF, controller not added (0/7).\n"+
		"[  752.227653] nvme nvme4: Disabling device after reset failure: -22\n", kernlog.Options{})
	require.NoError(t, err)
	d = diagnose.Diagnose(diagnose.Input{Log: l})
	assert.Contains(t, ids(d), "nvme-awupf-validation-6.16-rc4")
	assert.Equal(t, diagnose.LayerPlatform, d.Causes[0].Layer, d.Summary)
	assert.NotContains(t, match("6.15.0", "[  752.227653] nvme nvme4: Disabling device after reset failure: -22\n"), "nvme-awupf-validation-6.16-rc4")

	// Each entry of the tuning half's threads matches its own lines and
	// release, and not a release outside its range.
	// drivers/nvme/host/pci.c's line, as ml-kingston-e8fk11-msix-mask-resume.log quotes it.
	const polled = "[  170.000000] PM: suspend exit\n[  174.715534] nvme nvme0: I/O 978 QID 3 timeout, completion polled\n"
	// On a resume only: lost interrupts of a running machine are another
	// fault.
	assert.NotContains(t, match("5.3.0", "[  174.715534] nvme nvme0: I/O 978 QID 3 timeout, completion polled\n"), "pci-msix-mask-restore")
	assert.Contains(t, match("5.3.0", polled), "pci-msix-mask-restore")
	assert.NotContains(t, match("5.2.0", polled), "pci-msix-mask-restore")
	// e045fa29e893 first shipped in 5.5 and reached 5.4.6; 5.4 and 5.3.18,
	// the last 5.3.y, do not have it.
	assert.Contains(t, match("5.4.0", polled), "pci-msix-mask-restore")
	assert.Contains(t, match("5.4.5", polled), "pci-msix-mask-restore")
	assert.NotContains(t, match("5.4.6", polled), "pci-msix-mask-restore")
	assert.Contains(t, match("5.3.18", polled), "pci-msix-mask-restore")
	assert.NotContains(t, match("5.5.0", polled), "pci-msix-mask-restore")
	// As ml3-next-20250414-ana-rescan-boot-hang.log quotes them.
	const ana = "[   49.361223] nvme nvme0: controller is down; will reset: CSTS=0x3, PCI_STATUS=0x1010\n" +
		"[   49.457080] nvme nvme0: Failed to get ANA log: -4\n"
	assert.Contains(t, match("6.15.0-rc2", ana), "nvme-ana-rescan-6.15-rc")
	assert.NotContains(t, match("6.15.0", ana), "nvme-ana-rescan-6.15-rc")
	// 6.15-rc2 brought 62baf70c3274; rc1 did not have it.
	assert.NotContains(t, match("6.15.0-rc1", ana), "nvme-ana-rescan-6.15-rc")
	// As ml6-adata-sx6000lnp-duplicate-subnqn.log quotes them.
	const subnqn = "[ 0.942706] nvme nvme1: ignoring ctrl due to duplicate subnqn (nqn.2018-05.com.example:nvme:nvm-subsystem-OUI00E04C).\n" +
		"[ 0.943017] nvme nvme1: Removing after probe failure status: -22\n"
	assert.Contains(t, match("5.2.0", subnqn), "adata-sx6000lnp-subnqn")
	assert.NotContains(t, match("5.3.0", subnqn), "adata-sx6000lnp-subnqn")
	// 5.2.9 took the quirk.
	assert.Contains(t, match("5.2.8", subnqn), "adata-sx6000lnp-subnqn")
	assert.NotContains(t, match("5.2.9", subnqn), "adata-sx6000lnp-subnqn")
	// The kernel's refusal of a second Micron MTFDKBA2T0TFH: 5.19, 5.15.81
	// and 5.10.157 took the quirk.
	const cntlid = "[    1.2] nvme nvme1: Duplicate cntlid 1 with nvme0, subsys nqn.2014.08.org.nvmexpress:1344Micron, rejecting\n"
	assert.Contains(t, match("5.18.19", cntlid), "micron-2t-bogus-subnqn")
	assert.Contains(t, match("5.15.80", cntlid), "micron-2t-bogus-subnqn")
	assert.NotContains(t, match("5.15.81", cntlid), "micron-2t-bogus-subnqn")
	assert.NotContains(t, match("5.19.0", cntlid), "micron-2t-bogus-subnqn")
	assert.Contains(t, match("5.10.156", cntlid), "micron-2t-bogus-subnqn")
	assert.NotContains(t, match("5.10.157", cntlid), "micron-2t-bogus-subnqn")
	// Only 6.18-rc1 and rc2 enabled L1 Substates by default; 6.18-rc3
	// backed off.
	const down = "[    5.1] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0xffff\n"
	assert.Contains(t, match("6.18.0-rc2", down), "dt-aspm-l1ss-6.18")
	assert.NotContains(t, match("6.18.0-rc3", down), "dt-aspm-l1ss-6.18")
	assert.NotContains(t, match("6.18.0", down), "dt-aspm-l1ss-6.18")
	// 5.10.221 took the Renoir quirk.
	const aborting = "[  590.0] PM: suspend exit\n[  600.1] nvme nvme0: I/O 5 QID 0 timeout, aborting\n"
	assert.Contains(t, match("5.10.220", aborting), "amd-renoir-storaged3enable")
	assert.NotContains(t, match("5.10.221", aborting), "amd-renoir-storaged3enable")
	assert.Contains(t, match("5.13.19", aborting), "amd-renoir-storaged3enable")
	assert.NotContains(t, match("5.14.0", aborting), "amd-renoir-storaged3enable")
	// On a resume only: the same timeouts of a running machine are not it.
	assert.NotContains(t, match("5.10.220", "[  600.1] nvme nvme0: I/O 5 QID 0 timeout, aborting\n"), "amd-renoir-storaged3enable")
	// As ml7-6-13-queue-rqs-empty-sq-doorbell-timeouts.log quotes it:
	// listed on 6.13 (it needs a kernel from before the backport), weighing
	// nothing, and not on 6.14.
	const rqs = "nvme nvme0: I/O tag 960 (33c0) opcode 0x2 (I/O Cmd) QID 7 timeout, aborting req_op:READ(0) size:16384\n"
	assert.Contains(t, match("6.13.5", rqs), "nvme-queue-rqs-empty-sq-6.13")
	// 6.14 shipped without the fix; 6.14.2 took it.
	assert.Contains(t, match("6.14.1", rqs), "nvme-queue-rqs-empty-sq-6.13")
	assert.NotContains(t, match("6.14.2", rqs), "nvme-queue-rqs-empty-sq-6.13")
	assert.NotContains(t, match("6.15.0", rqs), "nvme-queue-rqs-empty-sq-6.13")
	assert.NotContains(t, match("6.1.0", rqs), "nvme-queue-rqs-empty-sq-6.13")
	// 6.13.11 took the fix (the table listed every 6.13 update); 6.12.2
	// took beadf0088501 and 6.12.48 the fix (6.12 was not listed).
	for _, rel := range []string{"6.13.0-rc1", "6.13.0", "6.13.10", "6.12.2", "6.12.47"} {
		assert.Contains(t, match(rel, rqs), "nvme-queue-rqs-empty-sq-6.13", rel)
	}
	for _, rel := range []string{"6.13.11", "6.13.12", "6.12.1", "6.12.48", "6.12.0", "6.11.10"} {
		assert.NotContains(t, match(rel, rqs), "nvme-queue-rqs-empty-sq-6.13", rel)
	}

	// As ml7-adata-spectrix-s40g-duplicate-nid-bogus-nid.log quotes it: the
	// line dates the kernel (5.18 brought it, 6.5 replaced it), so the
	// entry weighs with or without a release, and says so.
	const dupNID = "[    2.347197] nvme nvme2: globally duplicate IDs for nsid 1\n"
	l, err = kernlog.ReadString(dupNID, kernlog.Options{})
	require.NoError(t, err)
	d = diagnose.Diagnose(diagnose.Input{Log: l})
	assert.Contains(t, ids(d), "nvme-duplicate-nid")
	assert.Equal(t, diagnose.LayerPlatform, d.Causes[0].Layer, d.Summary)
	assert.Equal(t, diagnose.Likely, d.Causes[0].Likelihood, d.Summary)
	assert.Contains(t, d.Summary, "most likely platform (a known kernel issue that its lines show)")
	assert.Contains(t, match("6.1.20", dupNID), "nvme-duplicate-nid")
	// The line that replaced it is no refusal.
	assert.NotContains(t, match("6.5.0", "[    2.3] nvme nvme2: clearing duplicate IDs for nsid 1\n"), "nvme-duplicate-nid")

	// As ml22-xps9560-rtsx-petxcfg-d3cold-revert-6-1.log quotes it: listed
	// on the stable releases that carried the card reader's change, weighing
	// nothing (the log does not show the card reader), and not on the
	// releases before it or after the fix.
	const d3cold = "[    3.1] nvme 0000:04:00.0: Unable to change power state from D3cold to D0, device inaccessible\n"
	// The fix reached 6.5.6, 6.1.56 and 5.15.134 (5.15.127 took the change
	// too); "6.5.10" is no 6.5.1.
	for _, rel := range []string{"6.1.46", "6.1.51", "6.1.55", "6.4.11", "6.4.16", "6.5.0", "6.5.5", "5.15.127", "5.15.133"} {
		assert.Contains(t, match(rel, d3cold), "rtsx-petxcfg-6-1-46", rel)
	}
	for _, rel := range []string{"6.1.45", "6.1.4", "6.1.56", "6.4.10", "6.5.6", "6.5.10", "5.15.126", "5.15.134", "6.6.0", "6.15.0"} {
		assert.NotContains(t, match(rel, d3cold), "rtsx-petxcfg-6-1-46", rel)
	}
	// As the revert of 5e85eba6f50d quotes it: 6.1 had the change, 6.1.12
	// took the reverts.
	const d3hot = "[   60.1] nvme 0000:03:00.0: Unable to change power state from D3hot to D0, device inaccessible\n"
	for _, rel := range []string{"6.1.0", "6.1.11"} {
		assert.Contains(t, match(rel, d3hot), "pci-aspm-l1ss-refactor", rel)
	}
	for _, rel := range []string{"6.0.19", "6.1.12", "6.1.13", "6.2.0"} {
		assert.NotContains(t, match(rel, d3hot), "pci-aspm-l1ss-refactor", rel)
	}
	// The mainline fix is 6.2 (6.2-rc8), 6.1.12 the stable update that
	// took it.
	for _, k := range diagnose.KnownIssues() {
		if k.ID == "pci-aspm-l1ss-refactor" {
			assert.Equal(t, "6.2", k.Fixed.String())
			require.Len(t, k.FixedIn, 1)
			assert.Equal(t, "6.1.12", k.FixedIn[0].String())
		}
	}
	l, err = kernlog.ReadString("[    0.000000] Linux version 6.1.50 (x@y) #1 SMP\n"+d3cold, kernlog.Options{})
	require.NoError(t, err)
	d = diagnose.Diagnose(diagnose.Input{Log: l})
	for _, c := range d.Causes {
		for _, e := range c.Evidence {
			assert.NotContains(t, e.Text, "rtsx", "an entry that needs what the log cannot show weighs nothing")
		}
	}
}

// docs/diagnose.md lists the known issues as the table holds them: the
// section between its "<!-- known:table -->" markers, byte for byte
// (-update rewrites it).
func TestKnownIssuesDoc(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "diagnose.md")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	doc := string(b)
	var w strings.Builder
	w.WriteString("| id | layer | releases | what goes wrong | fixed by | needs | source |\n| --- | --- | --- | --- | --- | --- | --- |\n")
	cell := func(s string) string { return strings.ReplaceAll(s, "|", "\\|") }
	for _, k := range diagnose.KnownIssues() {
		rel := "any"
		switch {
		case len(k.Releases) > 0:
			rel = strings.Join(k.Releases, ", ")
		case !k.First.IsZero() && !k.Fixed.IsZero():
			rel = "from " + k.First.String() + "; fixed in " + k.Fixed.String()
			for _, r := range k.FixedIn {
				rel += ", " + r.String()
			}
		case !k.Fixed.IsZero():
			rel = "fixed in " + k.Fixed.String()
		case !k.First.IsZero():
			rel = "since " + k.First.String()
		}
		needs := k.Needs
		if needs == "" {
			needs = "-"
		}
		fmt.Fprintf(&w, "| `%s` | %s | %s | %s | %s | %s | %s |\n", k.ID, k.Layer, cell(rel), cell(k.Title), cell(k.Fix), cell(needs), k.Source)
	}
	const begin, end = "<!-- known:table -->\n", "<!-- known:table end -->"
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	require.True(t, i >= 0 && j > i, "docs/diagnose.md has no %q ... %q section", begin, end)
	if *update {
		doc = doc[:i+len(begin)] + w.String() + doc[j:]
		require.NoError(t, os.WriteFile(path, []byte(doc), 0o644))
		return
	}
	assert.Equal(t, w.String(), doc[i+len(begin):j], "docs/diagnose.md's known-issues table (go test ./apst/diagnose -run TestKnownIssuesDoc -update)")
}

// The entries KnownIssues and a Diagnosis give are the caller's: changing
// their Signs or Releases changes no later answer (both once shared the
// table's slices).
func TestKnownIssuesFresh(t *testing.T) {
	want := diagnose.KnownIssues()
	for _, k := range diagnose.KnownIssues() {
		for i := range k.Signs {
			k.Signs[i] = "changed"
		}
		for i := range k.Releases {
			k.Releases[i] = "changed"
		}
	}
	l, err := kernlog.ReadString("[    0.000000] Linux version 6.2.0-rc1 (x@y) #1 SMP\n"+
		"[   30.100000] nvme nvme0: I/O 0 (I/O Cmd) QID 2 timeout, aborting\n", kernlog.Options{})
	require.NoError(t, err)
	d := diagnose.Diagnose(diagnose.Input{Log: l})
	require.NotEmpty(t, d.Known)
	for _, k := range d.Known {
		for i := range k.Signs {
			k.Signs[i] = "changed"
		}
		for i := range k.Releases {
			k.Releases[i] = "changed"
		}
	}
	assert.Equal(t, want, diagnose.KnownIssues())
	assert.NotEmpty(t, diagnose.Diagnose(diagnose.Input{Log: l}).Known)
}

// An entry of listed releases matches a distribution's kernel by the
// stable update it is built on, which its release text does not start
// with: Debian's 6.1.0-12-amd64 is 6.1.52, in the rtsx regression's
// range, and before was matched only as plain 6.1.52. A stable release
// matches its own entry and no longer one (6.1.5 is not 6.1.52).
func TestKnownIssuesDistributionRelease(t *testing.T) {
	read := func(version string) []string {
		l, err := kernlog.ReadString("[    0.000000] Linux version "+version+"\n"+
			"[    1.000000] nvme nvme0: pci function 0000:04:00.0\n"+
			"[    1.500000] nvme 0000:04:00.0: Unable to change power state from D3cold to D0, device inaccessible\n"+
			"[    1.600000] nvme nvme0: Removing after probe failure status: -19\n", kernlog.Options{})
		require.NoError(t, err)
		var ids []string
		for _, k := range diagnose.Diagnose(diagnose.Input{Log: l}).Known {
			ids = append(ids, k.ID)
		}
		return ids
	}
	for _, tc := range []struct {
		version string
		rtsx    bool
	}{
		{"6.1.0-12-amd64 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Debian 6.1.52-1 (2023-09-07)", true},
		{"6.1.52 (x@y) #1 SMP", true},
		{"6.5.0-1-amd64 (debian-kernel@lists.debian.org) (gcc-13) #1 SMP PREEMPT_DYNAMIC Debian 6.5.3-1 (2023-09-13)", true},
		{"6.1.0-18-amd64 (debian-kernel@lists.debian.org) (gcc-12) #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)", false},
		{"6.5.0-2-amd64 (debian-kernel@lists.debian.org) (gcc-13) #1 SMP PREEMPT_DYNAMIC Debian 6.5.6-1", false},
		{"6.1.5 (x@y) #1 SMP", false},
		{"6.6.0-1-amd64 (debian-kernel@lists.debian.org) (gcc-13) #1 SMP PREEMPT_DYNAMIC Debian 6.6.3-1 (2023-11-29)", false},
	} {
		assert.Equal(t, tc.rtsx, slices.Contains(read(tc.version), "rtsx-petxcfg-6-1-46"), tc.version)
	}
}

// A log without its release cannot be matched against a regression that
// holds for some releases only: where its lines fit one, a note says so
// and names it; with the release, no note.
func TestKnownWithoutRelease(t *testing.T) {
	const fail = "[  100.0] nvme nvme0: I/O tag 5 (0005) QID 2 timeout, aborting req_op:READ(0) size:4096\n" +
		"[  130.0] nvme nvme0: I/O tag 5 (0005) QID 2 timeout, reset controller\n"
	note := func(d diagnose.Diagnosis) string {
		for _, n := range d.Notes {
			if strings.HasPrefix(n, "the log has no kernel release") {
				return n
			}
		}
		return ""
	}
	d := diagnoseFailure(t, fail)
	assert.Contains(t, note(d), "known regression(s) that its lines fit were not checked against it (", "%q", d.Notes)
	d = diagnoseFailure(t, "[    0.0] Linux version 6.8.0-31-generic (buildd@lcy02-amd64-080) (gcc 13.2.0) #31-Ubuntu SMP\n"+fail)
	assert.Empty(t, note(d), "%q", d.Notes)
}
