package diagnose

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst/diagnose/kernlog"
)

// escalation is how many incidents with a fatal controller status make a
// drive that is failing rather than one that hung once.
const escalation = 3

func powerLossCause(s *signals) builder {
	b := newBuilder(s, LayerPowerLoss)
	if s.gone() {
		b.proLine(1, logLine(s.down, "the device vanished from the bus at once, as when it loses power (the reset or removal that follows is its consequence)"))
	}
	if e := s.powerFault; e != nil {
		b.sign(3, logLine(e, "the hot-plug slot's power controller reported a power fault: the slot's supply to the drive failed"))
	}
	if h := s.in.Facts.Health; h != nil {
		src := "SMART / Health log"
		switch {
		case h.UnsafeShutdowns > 0 && h.PowerCycles > 0 && h.UnsafeShutdowns*4 >= h.PowerCycles:
			b.sign(2, Line{Source: src, Text: fmt.Sprintf("%d unsafe shutdowns in %d power cycles: power is often lost without a shutdown notice", h.UnsafeShutdowns, h.PowerCycles)})
		case h.PowerCycles > 0:
			b.con(1, src, fmt.Sprintf("%d unsafe shutdowns in %d power cycles", h.UnsafeShutdowns, h.PowerCycles))
		}
	}
	if s.hostLinkDown() {
		b.proLine(1, logLine(s.linkDown, "no device answered the host controller's link training: a drive without power (an unpowered HAT or adapter) never trains its link"))
	}
	if s.mmioDead() {
		b.conLine(1, logLine(s.down, "config space still answered when the controller went down: the device had power"))
	}
	if !s.hostLinkDown() {
		b.test("read unsafe_shutdowns now and again after the next drop-out: a rise means the drive lost power", "sudo nvme smart-log /dev/"+s.name(), "free")
	}
	b.test("check the drive's supply: the 3.3 V rail of the M.2 slot or carrier board, an enclosure's power", "", "a multimeter or a swap of board or power supply")
	return b
}

func firmwareCause(s *signals) builder {
	b := newBuilder(s, LayerFirmware)
	b.tried(s, []string{"firmware"}, nil, 8, 3, "the firmware update stopped the failures")
	switch {
	case s.cfs() && s.busErrors() != 0:
		b.proLine(1, logLine(s.down, "CSTS has Controller Fatal Status set, after its bus transactions failed (PCI_STATUS error bits): a consequence as likely as a cause"))
	case s.cfs():
		b.proLine(2, logLine(s.down, "CSTS has Controller Fatal Status set: the controller itself reports a fatal error"))
	}
	switch {
	case s.dupNamespace():
		b.proLine(2, logLine(s.dupIDs, "the drive reports namespace identifiers another drive has: a firmware fault (the same NGUID or EUI-64 on every unit)"))
	case s.dupIDs != nil:
		b.proLine(2, logLine(s.dupIDs, "the drive reports an identity another controller has: a firmware fault (the same NQN or controller ID on every unit)"))
	}
	if s.nsDesc != nil {
		b.proLine(2, logLine(s.nsDesc, "the drive refused a command of the NVMe specification that the kernel uses to scan namespaces: a firmware fault a firmware update may fix"))
	}
	if e := s.degraded; e != nil {
		b.proLine(2, logLine(e, fmt.Sprintf("the controller refused to set its number of I/O queues (NVMe status 0x%x), which a degraded controller does: its firmware is in a failure or recovery mode, which a firmware update (or the vendor's recovery) may bring it out of", e.Status)))
	}
	if s.refused != nil {
		b.proLine(2, logLine(s.refused, "the drive refused an I/O command it advertises, or a field of one, as invalid: a firmware fault a firmware update may fix"))
	}
	if n, of, e := s.writeZeroes(); e != nil {
		b.proLine(2, logLine(e, fmt.Sprintf("the commands that failed were Write Zeroes (%d of the %d I/O errors that name their operation, op 0x9): a drive whose firmware mishandles Write Zeroes stalls or fails on them, as the kernel's DISABLE_WRITE_ZEROES quirk of some models says; a firmware update may fix it", n, of)))
		b.test("look for a kernel whose nvme-pci quirk table lists the drive's PCI ID with NVME_QUIRK_DISABLE_WRITE_ZEROES (drivers/nvme/host/pci.c; the kernel then zeroes blocks by writing them), and for a firmware update", "lspci -nn -d ::0108; sudo nvme fw-log /dev/"+s.name(), "free to check")
	}
	if s.newIDs != nil {
		b.proLine(2, logLine(s.newIDs, "the drive reported other namespace identifiers than before: a firmware fault (the kernel quirks such drives with BOGUS_NID; a firmware update may fix it)"))
	}
	if s.internal != nil && s.persistErr == nil {
		b.proLine(2, logLine(s.internal, "the drive failed an I/O command with Internal Error, its own report that something inside it went wrong: a firmware fault a firmware update may fix"))
	}
	if s.persistErr != nil {
		b.proLine(2, logLine(s.persistErr, "the drive raised a Persistent Internal Error (an asynchronous event of its own)"+s.persistReset()+": the drive's firmware says something inside it is broken; a firmware update fixes some such drives"))
	}
	if s.fwAct != nil {
		b.proLine(2, logLine(s.fwAct, "the drive was activating a firmware image and stayed paused longer than its own maximum activation time (MTFA), so the kernel reset it: its firmware, or the image being activated; commit an image to be activated at the next reset (nvme fw-commit --action=1, or 2 for one already in a slot, then a reset or reboot) rather than at once (--action=3)"))
	}
	if s.bogusCQE != nil {
		b.proLine(2, logLine(s.bogusCQE, "a completion came back with a command identifier the host never issued: a controller whose firmware mishandles command IDs (the kernel quirks some with SKIP_CID_GEN), or a completion corrupted on its way"))
	}
	switch r := s.reset; {
	case s.hungReady():
		b.proLine(1, logLine(r, "the controller answered but kept reporting itself ready when the reset disabled it: its firmware no longer acted on its registers"))
	case s.notReadyCFS():
		b.proLine(2, logLine(r, fmt.Sprintf("the controller set Controller Fatal Status (CSTS 0x%x, bit 1) instead of reaching the state the driver waited for: its own report that it failed inside, its firmware's (an emulated controller's, its emulator's)", r.CSTS)))
	case r != nil && r.Kind == kernlog.ResetNotReady && r.HasCSTS && r.CSTS != 0xffffffff:
		b.proLine(1, logLine(r, "the controller answered but did not reach the state the driver waited for (ready after enabling it, not ready after disabling it)"))
	}
	if e := s.driveReceiverErrors(); e != nil {
		b.proLine(2, logLine(e, "the drive's own receiver logged the errors and nothing failed: a drive's PHY settings come with its firmware, and firmware updates of such drives often stop these reports (a marginal link's signal reads the same)"))
		b.test("update the drive's firmware (fwupdmgr get-updates, or the vendor's tool): if the reports stop, it was the firmware", "fwupdmgr get-updates; sudo nvme fw-log /dev/"+s.name(), "a backup and a reboot")
	}
	if s.plan != nil && !s.plan.Enabled && s.inc != nil {
		b.pro(1, "APST plan", "APST is off and the drive still failed")
	}
	if h := s.in.Facts.Health; h != nil && h.CriticalWarning != 0 {
		b.pro(1, "SMART / Health log", fmt.Sprintf("critical warning 0x%02x", h.CriticalWarning))
	}
	if s.gone() {
		b.conLine(1, logLine(s.down, "the device left the bus: more than a controller hang"))
	}
	b.test("look up the firmware revision and the vendor's release notes; read the drive's error log", "sudo nvme fw-log /dev/"+s.name()+"; sudo nvme error-log /dev/"+s.name(), "free to check; an update needs a backup and a reboot")
	return b
}

// writeZeroes returns, when three or more of the incident's I/O errors
// that name their request's operation are Write Zeroes (the block layer's
// "op 0x9:(WRITE_ZEROES)") and they are three in four of them at least
// (the rest the writes a reset aborted beside them), how many are, of how
// many, and the first; 0, 0, nil otherwise.
func (s *signals) writeZeroes() (n, of int, first *kernlog.Event) {
	for i := range s.ioErrors {
		e := &s.ioErrors[i]
		if e.ReqOp == "" {
			continue
		}
		of++
		if e.ReqOp == "WRITE_ZEROES" {
			n++
			if first == nil {
				first = e
			}
		}
	}
	if n < 3 || 4*n < 3*of {
		return 0, 0, nil
	}
	return n, of, first
}

// driveCause is a drive that is failing: the fatal status escalating,
// media errors, a critical warning. The verdict is to replace it.
func driveCause(s *signals) builder {
	b := newBuilder(s, LayerDrive)
	swapped := b.swapsTried(s, true)
	if s.fatal >= escalation {
		b.sign(3, logLine(cmp.Or(s.down, s.fatalDown), fmt.Sprintf("%d incidents in this log with the controller's fatal status set: the failures repeat and the drive reports itself broken; replace it", s.fatal)))
	} else if s.cfs() && s.busErrors() == 0 {
		b.proLine(1, logLine(s.down, "CSTS has Controller Fatal Status set: the drive reports an internal fatal error (once: a firmware fault is likelier than a failing drive until it repeats)"))
	}
	if n, first := s.mediaErrors(); n > 0 {
		b.sign(3, logLine(first, fmt.Sprintf("%d I/O error(s) the drive's media caused (an unrecoverable read, a write fault, an integrity check): the drive could not read or keep its own data, which no power setting causes; back up what it holds", n)))
	}
	if h := s.in.Facts.Health; h != nil {
		if h.MediaErrors > 0 {
			b.sign(2, Line{Source: "SMART / Health log", Text: fmt.Sprintf("%d media and data integrity errors", h.MediaErrors)})
		}
		if h.CriticalWarning&^0x02 != 0 {
			b.sign(2, Line{Source: "SMART / Health log", Text: fmt.Sprintf("critical warning 0x%02x: spare, reliability or read-only", h.CriticalWarning)})
		}
		if h.AvailableSpare < h.AvailableSpareThreshold {
			b.sign(2, Line{Source: "SMART / Health log", Text: fmt.Sprintf("available spare %d%% is below the threshold %d%%", h.AvailableSpare, h.AvailableSpareThreshold)})
		}
	}
	if len(s.polled) > 0 && !swapped {
		// The kernel quirks drives whose MSI does not work (BROKEN_MSI,
		// Sandisk SN530), and firmware that sets reserved bits of MSI-X
		// Vector Control lost its interrupts after a resume: the drive's
		// own interrupts read like the platform's.
		b.proLine(2, logLine(&s.polled[0], "the interrupt of a completed command was lost: some drives' MSI does not work (the kernel quirks such models with BROKEN_MSI), and then only another drive in this slot works"))
	}
	if e := s.degraded; e != nil {
		b.proLine(2, logLine(e, fmt.Sprintf("the controller refused to set its number of I/O queues (NVMe status 0x%x), which a degraded controller does, and the kernel kept only its admin queue, so its namespaces are not there: a drive in its failure mode; back up what it holds if it comes back, and read its SMART critical warning", e.Status)))
	}
	if s.internal != nil && s.persistErr == nil {
		b.proLine(2, logLine(s.internal, "the drive failed an I/O command with Internal Error: a drive whose internals are failing answers so, and when it repeats after a firmware update the drive is failing; back up what it holds"))
	}
	if s.persistErr != nil {
		b.proLine(2, logLine(s.persistErr, "the drive reported a Persistent Internal Error: a drive whose internals failed reports it so, and when it repeats after a firmware update the drive is failing; back up what it holds"))
	}
	if e := s.transferErr; e != nil && e.Kind != kernlog.APSTFailed {
		b.proLine(1, logLine(e, "the drive could not move a command's data to or from host memory (Data Transfer Error): its own controller's DMA can fail so too, and its error log says which command and why"))
	}
	if s.reset != nil && s.reset.Kind == kernlog.ProbeFailure && s.down == nil && len(s.timeouts) == 0 && s.resume == nil && s.liveRace == nil {
		b.proLine(1, logLine(s.reset, "the kernel gave up on the drive while bringing it up"))
	}
	if s.transport != nil {
		b.conLine(1, logLine(&s.transport[0], "a path-related status: the transport failed, not the drive's media"))
	}
	if ap, as := s.apstExcluded(), s.aspmExcluded(); ap != "" && as != "" && (s.down != nil || s.reset != nil) && !s.cfs() && s.onResume == nil {
		// With both power-saving layers out, a drive that still stops
		// answering, without a fatal status of its own (which speaks for
		// its firmware first), is the drive, its power or the platform:
		// the swap tells them apart.
		e := s.down
		if e == nil {
			e = s.reset
		}
		b.proLine(1, logLine(e, "the drive stopped answering with both of its power-saving layers out ("+ap+"; "+as+"): what is left is the drive and its power, or the platform"))
	}
	if e := s.portReceiverErrors(); e != nil && !swapped {
		// The port's receiver hears the drive's transmitter through the
		// slot and any riser or adapter: a drive whose transmitter is
		// marginal reads the same as a link that errs on L1 exits.
		b.proLine(2, logLine(e, "the port above the drive logged the errors as their receiver: what the drive sent arrived damaged, from a marginal transmitter of the drive, a slot, riser or adapter, or the link's L1 exits; another drive in this slot tells"))
	}
	if len(s.sameElsewhere) > 0 {
		b.conLine(1, logLine(&s.sameElsewhere[0], fmt.Sprintf("%d other NVMe controller(s) failed the same way in this log: not this drive alone", len(s.sameElsewhere))))
	}
	if len(s.othersDown) > 0 {
		b.conLine(1, logLine(&s.othersDown[0], "other NVMe controllers went down at the same time: not this drive alone"))
	}
	ps0, limit, over := ps0OverSlot(s)
	if over {
		b.sign(2, Line{Source: limit.Source, Text: ps0})
	}
	b.test("read the drive's health and error logs", "sudo nvme smart-log /dev/"+s.name()+"; sudo nvme error-log /dev/"+s.name(), "free: media_errors, critical_warning and available_spare say whether it is wearing out")
	if !swapped {
		b.test("move the drive to another machine or slot, or another drive into this slot: the failure following the drive convicts it (then --tried other-slot:no or other-drive:helped)", "", "downtime; a spare drive or slot")
	}
	if over {
		b.test("move the drive to a slot that delivers PS0's power (or a drive within the slot's budget)", "sudo lspci -vv -s "+s.addr()+" | grep -i powerlimit", "downtime; another slot, or another drive")
	}
	return b
}

// ps0OverSlot says whether the drive's power state 0 may draw more than
// its slot delivers: PS0's maximum power (Identify Controller) above the
// slot power limit the drive captured, or its slot's when the drive's is
// unknown. text quotes both values and their sources; limit is the fact
// compared. A limit unknown, or PS0's power not reported, is ok false.
func ps0OverSlot(s *signals) (text string, limit Fact, ok bool) {
	id, path := s.in.Identify, s.path()
	if id == nil || len(path) == 0 {
		return "", Fact{}, false
	}
	mp := id.PowerStates[0].MaxPower
	if !mp.Reported() {
		return "", Fact{}, false
	}
	whose := "the drive captured from its slot"
	limit = path[0].SlotPower
	mw, known := ParseMilliwatts(limit.Value)
	if !limit.Known() || !known {
		if len(path) < 2 {
			return "", Fact{}, false
		}
		whose, limit = "of the drive's slot ("+path[1].Role+" "+path[1].Address+")", path[1].SlotPower
		if mw, known = ParseMilliwatts(limit.Value); !limit.Known() || !known {
			return "", Fact{}, false
		}
	}
	if mp.MicroWatts() <= mw*1000 {
		return "", Fact{}, false
	}
	return fmt.Sprintf("PS0's maximum power %s (Identify Controller, power state 0) is above the slot power limit %s %s (%s): at its fastest the drive may draw more than the slot delivers",
		mp, limit.Value, whose, limit.Source), limit, true
}

// mediaErrors counts the media errors of the incident (mediaError) and
// returns the first: nvme's status lines when the log has any status line
// of the drive's, else the block layer's, which the kernel prints once more
// for each of nvme's (the same error twice). The block layer's "critical
// medium error" is also what nvme's Access Denied, Compare Failure, a
// deallocated block and a read-only namespace become (nvme_error_status:
// BLK_STS_MEDIUM), so beside nvme's own lines, which name the status, it
// counts for nothing: a locked self-encrypting drive refusing reads is no
// failing medium.
func (s *signals) mediaErrors() (int, *kernlog.Event) {
	statuses := false
	for i := range s.ioErrors {
		statuses = statuses || s.ioErrors[i].HasSC
	}
	n := 0
	var first *kernlog.Event
	for i := range s.media {
		if e := &s.media[i]; e.HasSC || !statuses {
			n++
			first = cmp.Or(first, e)
		}
	}
	return n, first
}

// persistReset is what the kernel did about the drive's Persistent
// Internal Error: newer kernels reset the controller for it, older ones
// printed its result alone ("async event result 00010300").
func (s *signals) persistReset() string {
	if strings.Contains(s.persistErr.Text, "async event result ") {
		return " (the kernel printed the event's result: error status, information 03h)"
	}
	return " and the kernel reset it"
}
