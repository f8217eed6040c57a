package diagnose

// Swaps of hardware the user already tried, named in --tried as settings
// without a value, with their outcome: a drive moved to another slot or
// machine, another drive put in this slot. They separate the drive from
// its slot, its link and the board as no kernel setting does.
const (
	// SwapOtherSlot: this drive moved to another slot or machine
	// ("other-slot:no": it failed there the same way). "other-machine" is
	// read the same way.
	SwapOtherSlot = "other-slot"
	// SwapOtherDrive: another drive put in this slot ("other-drive:helped":
	// it works there). "replaced" is read the same way.
	SwapOtherDrive = "other-drive"
)

// The evidence of the swaps that convict the drive (followsDrive).
const (
	followsToSlot   = "the drive failed the same way in another slot: the failure follows the drive"
	otherDriveWorks = "another drive works in the same slot: the drive"
)

// swapsTried reads the swaps for the drive's layer and for the slot's
// (the link, the platform): the failure that follows the drive convicts
// it, one that stays with the slot clears it. It reports whether a swap
// was tried at all (its test is then not recommended again).
func (b *builder) swapsTried(s *signals, drive bool) bool {
	swapped := false
	for _, t := range s.triedOf([]string{SwapOtherSlot, "other-machine"}) {
		swapped = true
		l := Line{Source: "settings tried", Quote: t.String()}
		switch {
		case t.Outcome == DidNotHelp && drive:
			l.Text = followsToSlot
			b.sign(6, l)
		case t.Outcome == DidNotHelp:
			l.Text = "the drive failed the same way in another slot: not this slot or its link"
			b.conLine(3, l)
		case t.Outcome == Helped && drive:
			l.Text = "the drive works in another slot: the slot, its link or the board, not the drive"
			b.conLine(6, l)
		case t.Outcome == Helped:
			l.Text = "the drive works in another slot: this slot, its link or the board"
			b.proLine(3, l)
		}
	}
	for _, t := range s.triedOf([]string{SwapOtherDrive, "replaced"}) {
		swapped = true
		l := Line{Source: "settings tried", Quote: t.String()}
		switch {
		case t.Outcome == Helped && drive:
			l.Text = otherDriveWorks
			b.sign(8, l)
		case t.Outcome == Helped:
			l.Text = "another drive works in the same slot: not the slot or the platform"
			b.conLine(3, l)
		case t.Outcome == DidNotHelp && drive:
			l.Text = "another drive fails the same way in this slot: not the drive"
			b.conLine(6, l)
		case t.Outcome == DidNotHelp:
			l.Text = "another drive fails the same way in this slot: the slot, its link or the platform"
			b.proLine(3, l)
		}
	}
	return swapped
}
