package diagnose

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// Known is a known kernel regression or drive quirk that makes a drive
// drop out, reset or stall: data, matched against the log's release and
// what its lines show.
//
// The zero Known is no entry (KnownIssues holds none such): Describe
// returns "" for it.
type Known struct {
	// ID names the entry ("mt7986-perst").
	ID string
	// Layer is the layer it belongs to.
	Layer Layer
	// Title says what goes wrong, Fix what fixed it (a commit's subject,
	// its hash and the release it landed in, or a setting).
	Title string
	Fix   string
	// Affected are the releases that have the fault: from First (zero:
	// any) up to, not including, Fixed (zero: not fixed); or, when
	// Releases is set, the releases whose text starts with one of them
	// ("6.2.0-rc1": release candidates count as their release in
	// apst.Release).
	First, Fixed apst.Release
	Releases     []string
	// FixedIn are the stable updates that took the fix before Fixed
	// (6.1.55): a release of the same series at or after one is fixed.
	FixedIn []apst.Release
	// Needs says what else must hold that a log does not show ("an AMD
	// Renoir or Lucienne laptop"): such an entry is listed for the user
	// to check, and weighs nothing.
	Needs string
	// Signs are substrings every one of which a line of the incident (or
	// the release, for a string starting "release:") must hold; the sign
	// "on:resume" holds when the incident came on a resume (a suspend's
	// end just before it, or a resume that failed).
	Signs []string
	// Source is where the facts come from.
	Source string
}

// Describe says what the entry means for release rel; "" for an entry
// without a title (the zero Known).
func (k Known) Describe(rel string) string {
	if k.Title == "" {
		return ""
	}
	s := k.Title + "; fixed by " + k.Fix
	if k.Needs != "" {
		s += "; it applies only to " + k.Needs
	}
	if !k.Fixed.IsZero() {
		s += fmt.Sprintf(" (in %s", k.Fixed)
		if rel != "" {
			s += "; this log's kernel is " + rel
		}
		s += ")"
	}
	return s
}

// KnownIssues returns the table of known regressions and quirks. The
// entries are fresh copies: changing one changes no later answer.
func KnownIssues() []Known {
	out := make([]Known, len(known))
	for i, k := range known {
		out[i] = k.clone()
	}
	return out
}

// clone returns k with slices of its own, so that a caller's change to an
// entry it was given does not reach the table.
func (k Known) clone() Known {
	k.Releases = slices.Clone(k.Releases)
	k.Signs = slices.Clone(k.Signs)
	k.FixedIn = slices.Clone(k.FixedIn)
	return k
}

// known is the table. Each entry is a fact with its source: the thread
// (testdata/threads) where it was reported and resolved.
var known = []Known{
	{
		ID: "nvme-tagset-depth-6.2-rc1", Layer: LayerPlatform,
		Title: "Linux 6.2-rc1 sized the I/O queues one entry too deep (0da7feaa5913 \"nvme-pci: use the tagset alloc/free helpers\"): the queue wraps and commands time out and are aborted",
		Fix:   "33b93727ce90 \"nvme: fix setting the queue depth in nvme_alloc_io_tag_set\" and 88d356ca41ba \"nvme-pci: update sqsize when adjusting the queue depth\" (6.2-rc2)",
		// Linus's push of 13 December 2022 (the 6.2 merge window, before
		// v6.2-rc1 on 25 December) carries 0da7feaa5913; the "Linux
		// 6.2-rc2" shortlog (lore
		// CAHk-=wim8DMRzjyYTJ3UbdqZ26keQyZSU02NZb-JY1=9OpcO1w@mail.gmail.com)
		// lists both fixes.
		Releases: []string{"6.2.0-rc1", "6.2-rc1"},
		Signs:    []string{"timeout, aborting"},
		Source:   "https://lore.kernel.org/all/572cfcc0-197a-9ead-9cb-3c5bf5e735@google.com/",
	},
	{
		ID: "nvme-queue-rqs-empty-sq-6.13", Layer: LayerPlatform,
		Title: "beadf0088501 \"nvme-pci: reverse request order in nvme_queue_rqs\" (6.13) rings the submission queue doorbell for an empty request list: I/O times out, is aborted and the controller reset under load",
		Fix:   "288ff0d10beb \"nvme-pci: skip nvme_write_sq_db on empty rqlist\" (6.15-rc1; taken to 6.14.2 and 6.13.11 in April 2025 and 6.12.48 in September 2025)",
		// beadf0088501 came in for-6.13/block (6.13-rc1); the stable
		// reviews took it to 6.12.2 ("[PATCH 6.12 038/826]",
		// lore 20241203144744.948307361@linuxfoundation.org), 6.11.11
		// ("[PATCH 6.11 086/817]", 20241203143959.056753040@...), 6.6.64
		// ("[PATCH 6.6 075/676]", 20241206143656.298950146@...) and
		// 6.1.120 ("[PATCH 6.1 065/772]", 20241212144352.627702890@...).
		// The fix: "[PATCH 6.13 378/499]" (6.13.11-rc1,
		// 20250408104900.659375523@...), the 6.14.2-rc4 review
		// (20250409115934.968141886@...) and "[PATCH 6.12 012/140]"
		// (6.12.48-rc1, 20250917123344.615052063@...); no 6.6 or 6.1
		// review of it was found, so those series are left to Needs.
		Releases: append(append(updates("6.13", 0, 10), updates("6.12", 2, 47)...), "6.14.0", "6.14.1"),
		Signs:    []string{"timeout, aborting"},
		Needs:    "a kernel with beadf0088501 and without the fix: 6.13 before 6.13.11, 6.14 before 6.14.2, 6.12.2 to 6.12.47 (6.11.11, and 6.6.64 and 6.1.120 onwards, took beadf0088501 too; no backport of the fix to them was found)",
		Source:   "https://lore.kernel.org/all/CABXGCsMd_xv8jPDF_sFYhwd8GtANZ23nbaSJuCxQRO7cjPtgWg@mail.gmail.com/",
	},
	{
		ID: "pci-aspm-l1ss-refactor", Layer: LayerASPM,
		Title: "5e85eba6f50d \"PCI/ASPM: Refactor L1 PM Substates Control Register programming\" broke resume: devices fail to leave D3hot",
		Fix:   "the reverts ff209ecc376a and a7152be79b62 (6.2-rc8, taken to 6.1.12)",
		First: apst.Release{Major: 6, Minor: 1}, Fixed: apst.Release{Major: 6, Minor: 2},
		// The reverts' stable copy says "Cc: stable@vger.kernel.org #
		// v6.1+" and "[PATCH 6.1 011/114]" of the 6.1.12-rc1 review
		// (lore 20230213144742.780518015@linuxfoundation.org; cover
		// 20230213144742.219399167@...) lists both; Linus's push of 10
		// February 2023 (after v6.2-rc7, before v6.2-rc8 on 12 February)
		// carries ff209ecc376a and a7152be79b62. Fixed was 6.1.12, a
		// stable update: the mainline fix is 6.2 (which releases match is
		// unchanged, release candidates counting as their release).
		FixedIn: []apst.Release{{Major: 6, Minor: 1, Patch: 12}},
		Signs:   []string{"to D0, device inaccessible"},
		Source:  "https://lore.kernel.org/all/20230102171516.GA783946@bhelgaas/",
	},
	{
		ID: "dt-aspm-l1ss-6.18", Layer: LayerASPM,
		Title: "Linux 6.18-rc1 enables every ClockPM and ASPM state on devicetree platforms (f3ac2ff14834 \"PCI/ASPM: Enable all ClockPM and ASPM states for devicetree platforms\"): controllers whose driver does not handle CLKREQ# lose the drive in L1 substates",
		Fix:   "df5192d9bb0e \"PCI/ASPM: Enable only L0s and L1 for devicetree platforms\" (6.18-rc3); \"PCI: dwc: Advertise L1 PM Substates only if driver requests it\" (6.19, taken to 6.18.17) keeps a policy from enabling them; until then pcie_aspm=off or pcie_aspm.policy=performance (on 6.18-rc1 and rc2 the default policy is the one that enables them), later a policy other than powersupersave, or a driver fix",
		// Bjorn Helgaas, lore 20251110222929.2140564-1-helgaas@kernel.org
		// ("We enabled ASPM too aggressively in v6.18-rc1"): df5192d9bb0e
		// (v6.18-rc3) backed off Clock PM and L1 Substates, so only rc1
		// and rc2 enable them by default; the "Linux 6.18.17"
		// announcement lists the dwc change. The default policy applies
		// the link's aspm_default (aspm.c's policy_to_aspm_state), which
		// f3ac2ff14834 set to every state: pcie_aspm.policy=default is no
		// workaround on rc1 and rc2 (the reporters used pcie_aspm=off).
		// The dwc change (a00bba406b5a) is in "[GIT PULL] PCI changes for
		// v6.19" (lore 20251203221103.GA3193083@bhelgaas) and in
		// "[PATCH 6.18 078/314]" of the 6.18.17-rc1 review
		// (5d7657e1cac400811d0e7155d9cb9d02bd1c4896.1773141555.git.sashal@kernel.org).
		Releases: []string{"6.18.0-rc1", "6.18-rc1", "6.18.0-rc2", "6.18-rc2"},
		Signs:    []string{"controller is down"},
		Needs:    "a devicetree board (ARM, RISC-V) whose PCIe controller driver does not handle CLKREQ# or the aux clock",
		Source:   "https://lore.kernel.org/all/20251017163252.598812-2-cassel@kernel.org/",
	},
	{
		ID: "of-pci-mem64-5.13-rc", Layer: LayerPlatform,
		Title: "9d57e61bf723 \"of/pci: Add IORESOURCE_MEM_64 to resource flags for 64-bit memory addresses\" (5.13-rc1) marked a device tree's 64-bit non-prefetchable host bridge window below 4 GiB as 64-bit, and the PCI core then found no room in it for a drive's registers: BAR 0 is not assigned and the drive never appears (a RockPro64)",
		Fix:   "\"PCI: of: Clear 64-bit flag for non-prefetchable memory below 4GB\" (Punit Agrawal; pci-v5.13-fixes-2, merged on 18 June 2021, in 5.13-rc7)",
		// The report (lore 7a1e2ebc-f7d8-8431-d844-41a9c36a8911@arm.com,
		// 18 May 2021, bisected to 9d57e61bf723), the fix applied "to
		// for-linus for v5.13" by Bjorn Helgaas, and "[GIT PULL] PCI
		// fixes for v5.13" (lore
		// 20210618204937.GA3216522@bjorn-Precision-5520: "Clear 64-bit
		// flag for host bridge windows below 4GB to fix a resource
		// allocation regression added in -rc1"), which pr-tracker-bot
		// reported merged on 18 June 2021, two days before 5.13-rc7.
		Releases: []string{"5.13.0-rc1", "5.13-rc1", "5.13.0-rc2", "5.13-rc2", "5.13.0-rc3", "5.13-rc3", "5.13.0-rc4", "5.13-rc4", "5.13.0-rc5", "5.13-rc5", "5.13.0-rc6", "5.13-rc6"},
		Signs:    []string{"failed to assign"},
		Needs:    "a devicetree board whose PCIe host bridge window is 64-bit non-prefetchable memory below 4 GiB (the RockPro64's RK3399 was reported)",
		Source:   "https://lore.kernel.org/all/7a1e2ebc-f7d8-8431-d844-41a9c36a8911@arm.com/",
	},
	{
		ID: "micron-2t-bogus-subnqn", Layer: LayerPlatform,
		Title: "Micron MTFDKBA2T0TFH drives all report the same subsystem NQN, so the kernel rejects every drive but the first as a duplicate controller",
		Fix:   "41f38043f884 \"nvme: add a bogus subsystem NQN quirk for Micron MTFDKBA2T0TFH\" (NVME_QUIRK_IGNORE_DEV_SUBNQN, 5.19-rc4, taken to 5.15.81 and 5.10.157)",
		Fixed: apst.Release{Major: 5, Minor: 19},
		// "[GIT PULL] nvmes fixes for Linux 5.19" (23 June 2022) carries
		// it and the "Linux 5.19-rc4" shortlog (26 June 2022) lists it;
		// the "Linux 5.15.81" and "Linux 5.10.157" announcements (2
		// December 2022) list it ("[PATCH 5.10 007/162]", a Stable-dep-of
		// d5ceb4d1c507; lore 20221130180528.687378025@linuxfoundation.org
		// in the 5.10.157-rc1 review, 20221130180533.386128055@... in the
		// 5.15.81-rc1 one). 5.18.y is taken not to have it: Sasha Levin's
		// AUTOSEL of 28 June 2022 offered it to 5.18 ("[PATCH AUTOSEL 5.18
		// 51/53]", 20220628021839.594423-51-sashal@kernel.org), 5.15, 5.10
		// and 5.4 alike, and 5.15 and 5.10 did not take it then (they took
		// it in November as another fix's dependency); the 5.18.10, 5.18.11,
		// 5.18.13 to 5.18.17 and 5.18.19 review shortlogs do not list it
		// (the 5.18.12 and 5.18.18 ones could not be read, so it stays
		// unconfirmed for them).
		FixedIn: []apst.Release{{Major: 5, Minor: 15, Patch: 81}, {Major: 5, Minor: 10, Patch: 157}},
		Signs:   []string{"Duplicate cntlid"},
		Needs:   "Micron MTFDKBA2T0TFH drives (nvme list shows the model)",
		Source:  "https://lore.kernel.org/all/20220619132039.GA1243474@bhelgaas/",
	},
	{
		ID: "nvme-bogus-crto", Layer: LayerPlatform,
		Title: "Since 5.19 (354201c53e61 \"nvme: add support for TP4084 - Time-to-Ready Enhancements\") the driver waits CRTO for a controller that reports Controller Ready Modes, and drives that report 0 there are given up on before they are ready",
		Fix:   "6cc834ba6299 \"nvme: avoid bogus CRTO values\" (6.6-rc2, taken to 6.5.5 and 6.1.55 in September 2023): the larger of CAP.TO and CRTO",
		First: apst.Release{Major: 5, Minor: 19}, Fixed: apst.Release{Major: 6, Minor: 6},
		// The "Linux 6.6-rc2" shortlog (17 September 2023) lists the fix,
		// as do the stable pushes of linux-6.1.y (6.1.55-rc1, 20 September
		// 2023) and linux-6.5.y (6.5.5, 23 September 2023); Jens Axboe's
		// "[GIT PULL] Block driver updates for 5.19-rc" (22 May 2022)
		// lists 354201c53e61. "[PATCH 6.1 114/139]" of the 6.1.55-rc1
		// review (lore 20230920112839.812803999@linuxfoundation.org) and
		// "[PATCH 6.5 171/211]" of the 6.5.5-rc1 one
		// (20230920112851.189702568@...) carry it.
		FixedIn: []apst.Release{{Major: 6, Minor: 1, Patch: 55}, {Major: 6, Minor: 5, Patch: 5}},
		Signs:   []string{"Device not ready; aborting initialisation, CSTS=0x0"},
		Needs:   "a drive that reports Controller Ready Modes with CRTO 0 (MAXIO MAP1602 drives such as the Lexar NM790 4TB were reported; sudo nvme show-regs shows CAP and CRTO)",
		Source:  "https://lore.kernel.org/all/20230913202810.2631288-1-kbusch@meta.com/",
	},
	{
		ID: "pci-msix-mask-restore", Layer: LayerPlatform,
		Title: "After a resume the PCI core restored a drive's MSI-X vectors masked when the drive sets reserved bits of Vector Control (the whole word was taken for the mask bit); since 5.3 (d916b1be94b6 \"nvme-pci: use host managed power state for suspend\") s2idle keeps such drives powered, so their interrupts are lost and commands complete only by polling",
		Fix:   "e045fa29e893 \"PCI/MSI: Fix incorrect MSI-X masking on resume\" (5.5-rc1, taken to 5.4.6; 5.3.y ended with 5.3.18 without it); before it, 19ea025e1d28's NVME_QUIRK_SIMPLE_SUSPEND for Kingston firmware E8FK11.T (5.4 and 5.3.8), which 5.4.4 and 5.3.17 reverted ahead of the fix",
		First: apst.Release{Major: 5, Minor: 3}, Fixed: apst.Release{Major: 5, Minor: 5},
		// Bjorn Helgaas's "[GIT PULL] PCI changes for v5.5" (2 December
		// 2019; merged as c3bed3b20e40 on 3 December, pr-tracker-bot)
		// lists "Fix incorrect MSI-X masking on resume"; the "Linux
		// 5.4.6" announcement (21 December 2019) lists it, "Linux 5.3.18"
		// (18 December, the last 5.3.y) does not, and "Linux 5.3.17" and
		// "Linux 5.4.4" list only the revert of the Kingston quirk, which
		// "[PATCH 5.3 022/197]" of the 5.3.8 review had brought. The
		// first bad release is d916b1be94b6's, in "[GIT PULL] Block
		// changes for 5.3-rc" (8 July 2019). "[PATCH 5.4 10/80]" of the
		// 5.4.6 review (lore 20191219183045.268358671@linuxfoundation.org)
		// carries the fix.
		FixedIn: []apst.Release{{Major: 5, Minor: 4, Patch: 6}},
		Signs:   []string{"completion polled", "on:resume"},
		Needs:   "a drive that sets reserved bits of MSI-X Vector Control (Kingston firmware E8FK11.T was reported), and the timeouts after a resume from s2idle",
		Source:  "https://lore.kernel.org/all/20191008034238.2503-1-jian-hong@endlessm.com/",
	},
	{
		ID: "nvme-ana-rescan-6.15-rc", Layer: LayerPlatform,
		Title: "62baf70c3274 \"nvme: re-read ANA log page after ns scan completes\" ran the ANA work on controllers without an ANA log buffer: the controller goes down at boot and the scan fails",
		Fix:   "26d7fb4fd4ca \"nvme: fixup scan failure for non-ANA multipath controllers\" (6.15-rc3; the stable updates that took 62baf70c3274, 5.15.181 among them, took both together)",
		// The stable reviews of 29 April 2025 carry both in one update for
		// 5.10, 5.15 (5.15.181-rc1: "[PATCH 5.15 370/373]", lore
		// 20250429161138.349246813@linuxfoundation.org), 6.1, 6.6, 6.12 and
		// 6.14, so no stable release has the cause alone.
		// akpm/mm's push of its linus branch from 0af2f6be1b42 (Linux
		// 6.15-rc1) on 15 April 2025 lists 62baf70c3274 (merged with
		// block-6.15-20250410): rc2 brought it, rc1 did not have it.
		Releases: []string{"6.15.0-rc2", "6.15-rc2"},
		Signs:    []string{"Failed to get ANA log"},
		Source:   "https://lore.kernel.org/all/9a800759-b7f1-46dc-977c-7e39532ddec4@amd.com/",
	},
	{
		ID: "adata-sx6000lnp-subnqn", Layer: LayerPlatform,
		Title: "ADATA SX6000LNP drives (Realtek 10ec:5762) all report the same subsystem NQN, so the kernel rejects every drive but the first as a duplicate",
		Fix:   "08b903b5fd0c \"nvme: ignore subnqn for ADATA SX6000LNP\" (NVME_QUIRK_IGNORE_DEV_SUBNQN, 5.3-rc2, taken to 5.2.9)",
		Fixed: apst.Release{Major: 5, Minor: 3},
		// The "Linux 5.3-rc2" shortlog (28 July 2019) lists it; the
		// stable review "[PATCH 5.2 103/144] nvme: ignore subnqn for
		// ADATA SX6000LNP" (14 August 2019, the 5.2.9 cycle; lore
		// 20190814165804.205571639@linuxfoundation.org) too.
		FixedIn: []apst.Release{{Major: 5, Minor: 2, Patch: 9}},
		Signs:   []string{"ignoring ctrl due to duplicate subnqn"},
		Needs:   "ADATA SX6000LNP drives (nvme list shows the model), more than one in the machine",
		Source:  "https://lore.kernel.org/all/20190715071149.GA24206@nasledov.com/",
	},
	{
		ID: "nvme-duplicate-nid", Layer: LayerPlatform,
		Title: "Since 5.18 (2079f41ec6ff \"nvme: check that EUI/GUID/UUID are globally unique\") the kernel refuses a namespace whose NGUID, EUI-64 or UUID another namespace already has: a drive that gives every unit the same identifier loses its namespace beside a second one of its model",
		Fix:   "ac522fc6c316 \"nvme: dont reject probe due to duplicate IDs for single-ported PCIe devices\" (6.5-rc2, taken to 6.1.40 and 6.4.5 in July 2023), which clears the identifiers and warns (\"clearing duplicate IDs for nsid\") instead; before it, NVME_QUIRK_BOGUS_NID for the drive's PCI ID (1629de0e0373 for the ADATA SX6000LNP, among others)",
		// The "Linux 6.5-rc2" shortlog (16 July 2023) lists ac522fc6c316;
		// so do the 6.1.40-rc1 review and "[PATCH 6.4 239/292]" (21 July
		// 2023, the 6.4.5 cycle; lore 20230721160539.156897251@linuxfoundation.org;
		// the 6.1.40-rc1 one is "[PATCH 6.1 178/223]",
		// 20230721160528.467833091@...).
		// The line itself dates the kernel: 5.18 brought it, ac522fc6c316
		// replaced it for PCIe drives, so a release range would only lose
		// the logs that have none.
		Signs:  []string{"globally duplicate IDs for nsid"},
		Source: "https://lore.kernel.org/all/20220625121011.8103-1-pgreco@centosproject.org/",
	},
	{
		ID: "rtsx-petxcfg-6-1-46", Layer: LayerPlatform,
		Title: "101bd907b424 \"misc: rtsx: judge ASPM Mode to set PETXCFG Reg\" (6.5-rc6, taken to 6.4.11, 6.1.46 and 5.15.127): the Realtek card reader's driver breaks the NVMe drive's link at boot on some laptops, many of them Dell, and the drive cannot be brought back from D3cold",
		Fix:   "0e4cac557531 \"misc: rtsx: Fix some platforms can not boot and move the l1ss judgment to probe\" (6.6-rc4, taken to 6.5.6, 6.1.56 and 5.15.134); until then blacklisting rtsx_pci (losing the SD reader) or reverting 101bd907b424",
		// "[PATCH 6.1 057/149]" (6.1.46-rc1, lore
		// 20230813211720.520186679@linuxfoundation.org) and "[PATCH 5.15
		// 24/89]" (5.15.127-rc1, 20230813211711.479371422@...) brought
		// 101bd907b424; "[PATCH 6.1 216/259]" (6.1.56-rc1,
		// 20231004175227.235128746@...) and "[PATCH 5.15 159/183]"
		// (5.15.134-rc1, 20231004175210.679674119@...) the fix.
		Releases: []string{"6.1.46", "6.1.47", "6.1.48", "6.1.49", "6.1.50", "6.1.51", "6.1.52", "6.1.53", "6.1.54", "6.1.55",
			"6.4.11", "6.4.12", "6.4.13", "6.4.14", "6.4.15", "6.4.16", "6.5.0", "6.5.1", "6.5.2", "6.5.3", "6.5.4", "6.5.5",
			"5.15.127", "5.15.128", "5.15.129", "5.15.130", "5.15.131", "5.15.132", "5.15.133"},
		Signs:  []string{"Unable to change power state from D3cold to D0"},
		Needs:  "a laptop with a Realtek PCIe card reader driven by rtsx_pci (lspci shows it; blacklisting rtsx_pci and rtsx_pci_sdmmc for one boot is the test)",
		Source: "https://lore.kernel.org/all/5DHV0S.D0F751ZF65JA1@gmail.com/",
	},
	{
		ID: "amd-renoir-storaged3enable", Layer: LayerSuspend,
		Title: "AMD Renoir and Lucienne laptops whose firmware lacks the StorageD3Enable hint: the drive is not put in D3 over s2idle, and resume times out and resets the controller",
		Fix:   "e79a10652bbd \"ACPI: Add quirks for AMD Renoir/Lucienne CPUs to force the D3 hint\" (5.14-rc1, taken to 5.10.221); before it, nvme.noacpi does not help, a newer kernel does",
		Fixed: apst.Release{Major: 5, Minor: 14},
		// Christoph Hellwig's "[GIT PULL] second round of nvme updates for
		// Linux 5.14" (nvme-5.14-2021-06-22) lists it, and Jens Axboe's
		// "[GIT PULL] Block driver updates for 5.14-rc1", which carries
		// that tag, was merged as 440462198d9c on 30 June 2021
		// (pr-tracker-bot). The linux-5.10.y push ending "Linux
		// 5.10.221-rc1" (3 July 2024) lists it, as "[PATCH 5.10 198/290]"
		// of that review (lore 20240703102911.643064967@linuxfoundation.org).
		FixedIn: []apst.Release{{Major: 5, Minor: 10, Patch: 221}},
		Signs:   []string{"timeout, aborting", "on:resume"},
		Needs:   "an AMD Renoir or Lucienne (Ryzen 4000 or 5000 mobile) laptop, and the failure on resume from s2idle",
		Source:  "https://lore.kernel.org/all/20210604165403.2317-2-mario.limonciello@amd.com/",
	},
	{
		ID: "nvme-awupf-validation-6.16-rc4", Layer: LayerPlatform,
		Title: "f46d273449ba \"nvme: fix atomic write size validation\" (6.16-rc4, taken to 6.15's stable updates) refused a controller whose AWUPF differs from its subsystem's, as after a format that changes the LBA size, and the controller was disabled after its reset (\"inconsistent AWUPF, controller not added\")",
		Fix:   "1fc09f2961f5 \"nvme: revert the cross-controller atomic write size validation\" (nvme fixes for 6.16 of 17 July 2025; 6.15.8)",
		// The check and its message exist only in the kernels that have
		// f46d273449ba (block-6.16-20250626, nvme-6.16-2025-06-26) and
		// not the revert (nvme-6.16-2025-07-17; "[PATCH 6.15 120/187]",
		// the 6.15.8-rc1 review, lore
		// 20250722134350.225898481@linuxfoundation.org): the line dates
		// the kernel, so no release range is needed.
		Signs:  []string{"inconsistent AWUPF"},
		Source: "https://lore.kernel.org/all/CAHj4cs_Ckhz4sL5k5ug_Dc5XfjSo9QDRSrHMfBj2XYGm_gb2+g@mail.gmail.com/",
	},
}

// updates returns the stable updates from..to of series ("6.12", 2, 4:
// "6.12.2", "6.12.3", "6.12.4").
func updates(series string, from, to int) []string {
	var out []string
	for p := from; p <= to; p++ {
		out = append(out, fmt.Sprintf("%s.%d", series, p))
	}
	return out
}

// matchKnown returns the entries whose release range holds the log's
// release and whose signs the incident shows.
func matchKnown(s *signals) []Known {
	var out []Known
	// The stable update a distribution's kernel is built on ("6.1.52" of
	// "6.1.0-12-amd64 (Debian 6.1.52-1)"), whose text the release's is
	// not: "6.1.52." is in "6.1.52" and "6.1.", never in "6.1.5" or
	// "6.1.520"; 6.5 is "6.5.0." (an unknown release "0.0.0.", in none).
	// Only a release candidate ("6.2.0-rc1") is matched by its text: a
	// stable entry's text is in later updates' ("6.5.1" in "6.5.10") and
	// in a distribution's ("6.5.0" in "6.5.0-2-amd64", built on 6.5.6).
	base := fmt.Sprintf("%d.%d.%d.", s.release.Major, s.release.Minor, s.release.Patch)
	for _, k := range known {
		if s.releaseText == "" && k.someReleases() {
			// Without the release the entry cannot be matched: said
			// (unmatchedKnown) where the lines show its signs.
			continue
		}
		if len(k.Releases) > 0 {
			if !slices.ContainsFunc(k.Releases, func(r string) bool {
				return strings.Contains(r, "-") && strings.HasPrefix(strings.TrimPrefix(s.releaseText, "v"), r) ||
					strings.HasPrefix(base, r+".")
			}) {
				continue
			}
		} else if !s.release.IsZero() {
			if !k.First.IsZero() && s.release.Compare(k.First) < 0 || !k.Fixed.IsZero() && s.release.Compare(k.Fixed) >= 0 ||
				slices.ContainsFunc(k.FixedIn, func(r apst.Release) bool {
					return r.Major == s.release.Major && r.Minor == s.release.Minor && s.release.Compare(r) >= 0
				}) {
				continue
			}
		} else if !k.First.IsZero() || !k.Fixed.IsZero() {
			continue
		}
		if s.shows(k.Signs) {
			out = append(out, k.clone())
		}
	}
	return out
}

// someReleases reports whether the entry holds for some releases only
// (Releases, First or Fixed set), so that a log without its release
// cannot be matched against it.
func (k Known) someReleases() bool {
	return len(k.Releases) > 0 || !k.First.IsZero() || !k.Fixed.IsZero()
}

// unmatchedKnown names the known regressions whose signs the incident
// shows but which hold only for some releases, when the log gives none
// (its "Linux version" line cut away): what an answer that has the
// release could add, said in a note.
func unmatchedKnown(s *signals) []string {
	if s.releaseText != "" {
		return nil
	}
	var out []string
	for _, k := range known {
		if k.someReleases() && s.shows(k.Signs) {
			out = append(out, k.ID)
		}
	}
	return out
}

// shows reports whether every sign is in a line of the incident (or the
// release).
func (s *signals) shows(signs []string) bool {
	if s.inc == nil || len(signs) == 0 {
		return false
	}
	for _, sign := range signs {
		if sign == "on:resume" {
			if s.resume == nil && s.onResume == nil {
				return false
			}
			continue
		}
		if r, ok := strings.CutPrefix(sign, "release:"); ok {
			if !strings.Contains(s.releaseText, r) {
				return false
			}
			continue
		}
		if !anyEvent(s.inc.Events, func(e *kernlog.Event) bool { return strings.Contains(e.Text, sign) }) {
			return false
		}
	}
	return true
}

func anyEvent(es []kernlog.Event, f func(*kernlog.Event) bool) bool {
	for i := range es {
		if f(&es[i]) {
			return true
		}
	}
	return false
}
