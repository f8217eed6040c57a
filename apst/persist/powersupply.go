package persist

import (
	"fmt"

	"github.com/nvmeapst/nvmeapst/apst"
)

// PowerSupplyFile is where RenderPowerSupply's rules go.
const PowerSupplyFile = "/etc/udev/rules.d/61-nvme-apst-power.rules"

// PowerSupplyProgram prints "battery" when some power supply of the
// machine reports online 0 and none reports 1, else "ac" (a machine
// without power supplies counts as on AC). It reads every
// /sys/class/power_supply/*/online, so the supply's name (AC, ACAD, ADP1,
// a USB-C port) does not matter, and skips the supplies whose scope is
// Device: the batteries of a wireless mouse, keyboard or headset, which
// report online 1 while the device is connected and would make a laptop on
// battery read as on AC. It is the PROGRAM value of a udev rule, written
// in udev's format: $$ is udev's escape of the shell's $.
const PowerSupplyProgram = `/bin/sh -c 'b=ac; for d in /sys/class/power_supply/*; do grep -qsx Device $$d/scope && continue; grep -qsx 1 $$d/online && exec echo ac; grep -qsx 0 $$d/online && b=battery; done; echo $$b'`

// PowerSupplyTrigger is the rule that re-runs the NVMe rules when a power
// supply's online state changes (a battery's change events, which have no
// online attribute, do not fire it). It runs udevadm through /bin/sh, so
// that the PATH udev gives its programs finds it wherever the distribution
// keeps it: /usr/bin, /bin on Debian before the /usr merge, the system
// profile on NixOS (whose rebuild refuses a rule that RUNs an absolute
// path that does not exist there: nixos/modules/services/hardware/udev.nix,
// "is called in udev rules but is not executable or does not exist"; it
// allows /bin/sh).
const PowerSupplyTrigger = `ACTION=="change", SUBSYSTEM=="power_supply", TEST=="online", RUN+="/bin/sh -c 'udevadm trigger --action=change --subsystem-match=nvme'"`

// RenderPowerSupply renders the udev rules that give the controllers of
// scope s the bound ac on mains power and battery on battery. They switch
// on every power-supply change: one rule re-runs the NVMe rules on a
// power_supply change event, and two NVMe rules pick the value by what
// PowerSupplyProgram prints. label optionally names what the scope is, for
// the comment, as Setting.Label. Errors: the scope's Validate error.
func RenderPowerSupply(s Scope, label string, ac, battery apst.Microseconds) (Output, error) {
	if err := s.Validate(); err != nil {
		return Output{}, err
	}
	what := s.String()
	if label != "" {
		what += " (" + commentLabel(label) + ")"
	}
	rule := func(result string, b apst.Microseconds) string {
		return udevMatch(s) + `, PROGRAM=="` + PowerSupplyProgram + `", RESULT=="` + result + `", ATTR{` + ToleranceAttr + `}="` + toleranceOf(b).String() + `"`
	}
	text := fmt.Sprintf("# apstctl persist: %s on AC, %s on battery, for %s.\n", describeBound(ac), describeBound(battery), what) +
		"# Writes /sys/class/nvme/nvmeN/" + ToleranceAttr + " at add, connect and every power-supply change; undo: remove this file.\n" +
		PowerSupplyTrigger + "\n" + rule("ac", ac) + "\n" + rule("battery", battery) + "\n"
	return Output{
		Form:    FormUdev,
		File:    PowerSupplyFile,
		Text:    text,
		Affects: what + ": the AC value on mains power, the battery value on battery, switched at every power-supply change",
		Apply:   []string{udevReload},
		Undo:    []string{"rm " + PowerSupplyFile + " && udevadm control --reload", restoreStep()},
		Notes: []string{
			"the switch happens on the power_supply change uevent the kernel sends when a charger is plugged in or out; the NVMe rules then read every power supply's online attribute",
			"a power manager would need the same three things to do it itself: a value per power source for each drive (keyed on the model, not the controller name), the path /sys/class/nvme/nvmeN/" + ToleranceAttr + " (written only where it exists), and a write again whenever a controller is added or reconnected; TLP has no such setting today (TLP issue #799 asks for it) and power-profiles-daemon switches profiles, not power sources, and has no NVMe action, so neither overrides these rules",
		},
	}, nil
}
