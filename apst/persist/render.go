package persist

import (
	"errors"
	"fmt"
	"github.com/nvmeapst/nvmeapst/apst/persist/udev"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/nvmeapst/nvmeapst/apst"
)

// ErrForm is wrapped by the error of an unknown Form name.
var ErrForm = errors.New("persist: form")

// Form is a way to make a bound last.
type Form uint8

// The forms, in the order Forms lists them.
const (
	// FormUdev is a udev rule that writes the controller's
	// power/pm_qos_latency_tolerance_us: any scope, at every add and
	// connected (change) event, so also for a drive plugged in later.
	FormUdev Form = iota + 1
	// FormCmdline is the kernel command line argument
	// nvme_core.default_ps_max_latency_us: every controller, at probe.
	FormCmdline
	// FormModprobe is the modprobe.d line for nvme_core built as a module:
	// every controller, at probe.
	FormModprobe
	// FormTmpfiles is a systemd-tmpfiles line that writes every existing
	// controller's attribute once at boot.
	FormTmpfiles
	// FormTuned is a tuned profile whose sysfs plugin writes every existing
	// controller's attribute while the profile is active.
	FormTuned
)

var formNames = [...]string{FormUdev: "udev", FormCmdline: "cmdline", FormModprobe: "modprobe", FormTmpfiles: "tmpfiles", FormTuned: "tuned"}

// Forms lists every form.
func Forms() []Form { return []Form{FormUdev, FormCmdline, FormModprobe, FormTmpfiles, FormTuned} }

// String names the form: udev, cmdline, modprobe, tmpfiles, tuned.
func (f Form) String() string {
	if f >= FormUdev && int(f) < len(formNames) {
		return formNames[f]
	}
	return fmt.Sprintf("Form(%d)", uint8(f))
}

// ParseForm reads a form name as String writes it.
func ParseForm(s string) (Form, error) {
	for _, f := range Forms() {
		if f.String() == s {
			return f, nil
		}
	}
	return 0, fmt.Errorf("%w: %q: want udev, cmdline, modprobe, tmpfiles or tuned", ErrForm, s)
}

// Scoped reports whether the form can select controllers (only udev can);
// the others reach every controller.
func (f Form) Scoped() bool { return f == FormUdev }

// Files where the forms go.
const (
	UdevFile     = "/etc/udev/rules.d/61-nvme-apst-latency.rules"
	ModprobeFile = "/etc/modprobe.d/nvme-apst.conf"
	TmpfilesFile = "/etc/tmpfiles.d/nvme-apst.conf"
	TunedFile    = "/etc/tuned/nvme-apst/tuned.conf"
	// ToleranceGlob is every controller's attribute.
	ToleranceGlob = "/sys/class/nvme/nvme*/power/pm_qos_latency_tolerance_us"
	// ToleranceAttr is the attribute relative to the controller's directory
	// /sys/class/nvme/nvmeN, the path a udev rule writes (udev.ToleranceAttr).
	ToleranceAttr = udev.ToleranceAttr
	// ModuleParam is the runtime copy of the module default.
	ModuleParam = "/sys/module/nvme_core/parameters/default_ps_max_latency_us"
	// DefaultBound is the kernel's default_ps_max_latency_us (Linux 4.12
	// and later).
	DefaultBound apst.Microseconds = 100000
)

// udevReload applies the udev rules now.
const udevReload = UdevReload

// UdevReload is the command that applies a new rules file without a
// reboot, to the controllers present as well.
const UdevReload = "udevadm control --reload && udevadm trigger --action=change --subsystem-match=nvme"

// Setting is a bound and the controllers it reaches.
//
// The zero Setting is refused by Render with an error wrapping ErrScope:
// its Scope is the zero Scope, which reaches no controller.
type Setting struct {
	// Bound is the ps_max_latency_us to set: 0 turns APST off, NoLimit (or
	// anything above MaxValue) is no limit ("any").
	Bound apst.Microseconds
	// Scope is the controllers it reaches; the zero Scope is none, and
	// Render refuses it (AllControllers is every one).
	Scope Scope
	// Label optionally names what the scope is, for the comments
	// ("Samsung SSD 990 EVO Plus"). It is often a drive's model, text
	// from a drive or a capture: one that holds a character other than a
	// printable one (a newline would end the comment and start a rule) is
	// written quoted, its escapes in Go syntax.
	Label string
}

// Output is one rendered form of a setting.
//
// The zero Output renders nothing: its Form is none of the forms and its
// Text is empty; Render and RenderPowerSupply return it with their errors.
type Output struct {
	// Form is the form.
	Form Form
	// File is where Text goes ("" for the kernel command line, which goes
	// to the boot loader's configuration).
	File string
	// Text is the file's content (comments included) or, for FormCmdline,
	// the argument.
	Text string
	// Affects says which controllers it reaches and when.
	Affects string
	// Apply lists the commands that apply it now, without a reboot.
	Apply []string
	// Undo lists the steps that take it back.
	Undo []string
	// Notes are what else the user should know.
	Notes []string
}

// Render renders s in form f. Errors: the Scope's Validate error, and one
// wrapping ErrScope for a form other than FormUdev with a scope other than
// every controller (those forms cannot select controllers).
func Render(s Setting, f Form) (Output, error) {
	if err := s.Scope.Validate(); err != nil {
		return Output{}, err
	}
	if !f.Scoped() && s.Scope.Kind != ScopeAll {
		return Output{}, fmt.Errorf("%w: %s sets every controller; only a udev rule can select %s (use --form udev, or --scope all)", ErrScope, f, s.Scope)
	}
	t := toleranceOf(s.Bound)
	what := describeBound(s.Bound)
	switch f {
	case FormUdev:
		return renderUdev(s, t, what), nil
	case FormCmdline:
		return renderCmdline(s, what), nil
	case FormModprobe:
		return renderModprobe(s, what), nil
	case FormTmpfiles:
		return renderTmpfiles(t, what), nil
	case FormTuned:
		return renderTuned(t, what), nil
	}
	return Output{}, fmt.Errorf("%w: unknown form %d", ErrForm, f)
}

// describeBound is "ps_max_latency_us 25000us", "APST off (bound 0)" or "no
// limit (any)".
func describeBound(b apst.Microseconds) string {
	switch {
	case b == 0:
		return "bound 0: APST off"
	case b > MaxValue:
		return "no bound (any)"
	}
	return "bound " + b.String()
}

// moduleValue is the default_ps_max_latency_us for b: the number, or
// 2147483647 (no limit, reads back as any) above MaxValue.
func moduleValue(b apst.Microseconds) string {
	if b > MaxValue {
		return strconv.Itoa(apst.LatencyAny)
	}
	return strconv.FormatUint(uint64(b), 10)
}

// UdevMatch is the match part of a udev rule for scope s: the event, the
// subsystem, the controller names, the scope's key and the guard that the
// attribute exists. Errors: the scope's Validate error (wrapping ErrScope),
// so that no scope udev cannot quote, nor one that is not a scope, becomes
// a match.
func UdevMatch(s Scope) (string, error) {
	if err := s.Validate(); err != nil {
		return "", err
	}
	return udevMatch(s), nil
}

// udevMatch is UdevMatch of a valid scope.
func udevMatch(s Scope) string {
	m := `ACTION=="add|change", SUBSYSTEM=="nvme", KERNEL=="nvme[0-9]*", `
	switch s.Kind {
	case ScopeModel:
		m += `ATTR{model}=="` + s.Model + `", `
	case ScopePCI:
		m += fmt.Sprintf(`SUBSYSTEMS=="pci", ATTRS{vendor}=="0x%04x", ATTRS{device}=="0x%04x", `, s.PCI.Vendor, s.PCI.Device)
	case ScopeSerial:
		m += `ATTR{serial}=="` + s.Serial + `", `
	}
	return m + `TEST=="` + ToleranceAttr + `"`
}

// UdevRule is the rule that writes tolerance t for scope s. Errors: the
// scope's Validate error (wrapping ErrScope), and one wrapping
// apst.ErrInvalidTolerance for a tolerance that is not Valid (the zero
// Tolerance, which is unset, included).
func UdevRule(s Scope, t apst.Tolerance) (string, error) {
	m, err := UdevMatch(s)
	if err != nil {
		return "", err
	}
	if !t.Valid() {
		return "", fmt.Errorf("persist: udev rule: %w: %s (kind %s, value %d): obtain one from apst.ParseTolerance", apst.ErrInvalidTolerance, t, t.Kind, t.Value)
	}
	return m + `, ATTR{` + ToleranceAttr + `}="` + t.String() + `"`, nil
}

// commentLabel is label as a comment can hold it: as is when every
// character is printable, else quoted with Go escapes (strconv.QuoteToASCII),
// so that no newline, carriage return or NUL (each ends a line of a udev
// rules file) and no control or bidirectional character reaches the file.
func commentLabel(label string) string {
	for _, r := range label {
		if r == utf8.RuneError || !unicode.IsPrint(r) {
			return strconv.QuoteToASCII(label)
		}
	}
	return label
}

// udevRule is UdevRule of a valid scope and tolerance.
func udevRule(s Scope, t apst.Tolerance) string {
	return udevMatch(s) + `, ATTR{` + ToleranceAttr + `}="` + t.String() + `"`
}

func restoreStep() string {
	return fmt.Sprintf("the controllers keep the value until the next boot: write the module default back now with apstctl set-latency nvmeN %d (or the value of %s)", DefaultBound, ModuleParam)
}

func renderUdev(s Setting, t apst.Tolerance, what string) Output {
	label := s.Scope.String()
	if s.Label != "" {
		label += " (" + commentLabel(s.Label) + ")"
	}
	o := Output{
		Form:    FormUdev,
		File:    UdevFile,
		Affects: label + ", now and whenever one is added or (re)connected, where the kernel has APST enabled",
		Apply:   []string{udevReload},
		Undo:    []string{"rm " + UdevFile + " && udevadm control --reload", restoreStep()},
	}
	o.Text = fmt.Sprintf("# apstctl persist: %s for %s.\n# Writes /sys/class/nvme/nvmeN/%s; undo: remove this file.\n%s\n",
		what, label, ToleranceAttr, udevRule(s.Scope, t))
	o.Notes = append(o.Notes,
		`TEST=="`+ToleranceAttr+`" skips a controller where the kernel has APST disabled (the file is absent there): no failed write in the journal`,
		`ACTION=="change" catches the NVME_EVENT=connected uevent (Linux 5.18 and later) sent once the controller is live; at "add" the file may not exist yet`)
	switch s.Scope.Kind {
	case ScopeSerial:
		o.Notes = append(o.Notes, "keyed on one serial number: a second drive of the same model is not reached (key on the model to reach them all)")
	case ScopeModel:
		if s.Scope.IsGlob() {
			o.Notes = append(o.Notes, "the model is a glob: check that it reaches only the drives you mean (apstctl persist --check "+UdevFile+" CAPTURES...)")
		}
	case ScopePCI:
		o.Notes = append(o.Notes, "one PCI ID often covers several models and capacities of a vendor's controller: check which drives it reaches")
	}
	if t.Kind == apst.ToleranceValue && t.Value == 0 {
		o.Notes = append(o.Notes, "0 turns APST off for these controllers (the kernel sends APSTE=0)")
	}
	return o
}

func cmdlineArg(b apst.Microseconds) string {
	return "nvme_core.default_ps_max_latency_us=" + moduleValue(b)
}

func newOnly() string {
	return "the default applies to controllers probed after it is set: at boot, every controller; a value written to " + ModuleParam + " at run time reaches only controllers probed later, and a per-controller value (a udev rule, set-latency) overrides it"
}

func renderCmdline(s Setting, what string) Output {
	arg := cmdlineArg(s.Bound)
	o := Output{
		Form:    FormCmdline,
		Text:    arg,
		Affects: "the default of every NVMe controller, at probe (new controllers only)",
		// Where the argument goes is KernelArgument's, for every platform.
		Apply: append(KernelArgument(PlatformUnknown, arg).Steps,
			"now, for controllers probed later: echo "+moduleValue(s.Bound)+" > "+ModuleParam+"; for the present ones write each controller's attribute (apstctl set-latency nvmeN "+toleranceOf(s.Bound).String()+")"),
		Undo: []string{
			"remove the argument from the boot loader's configuration (grubby --update-kernel=ALL --remove-args=nvme_core.default_ps_max_latency_us) and reboot",
		},
		Notes: []string{newOnly(), "works whether nvme_core is built in or a module"},
	}
	if s.Bound == 0 {
		o.Notes = append(o.Notes, "0 turns APST off on every drive: when one model misbehaves, a udev rule keyed on that model (--scope model) keeps the others' idle power")
	}
	_ = what
	return o
}

// ModprobeOption is the modprobe.d line that makes bound b the default of
// every controller when nvme_core is loaded as a module (FormModprobe's
// file holds it).
func ModprobeOption(b apst.Microseconds) string {
	return "options nvme_core default_ps_max_latency_us=" + moduleValue(b)
}

func renderModprobe(s Setting, what string) Output {
	line := ModprobeOption(s.Bound)
	return Output{
		Form:    FormModprobe,
		File:    ModprobeFile,
		Text:    fmt.Sprintf("# apstctl persist: %s as the default of every NVMe controller (new controllers only).\n# Undo: remove this file and rebuild the initramfs.\n%s\n", what, line),
		Affects: "the default of every NVMe controller, when nvme_core is loaded (new controllers only)",
		// NixOS generates /etc/modprobe.d/nixos.conf from
		// boot.extraModprobeConfig and copies that file, not others, into
		// the initrd (nixpkgs: nixos/modules/system/boot/modprobe.nix,
		// stage-1.nix): a file written to /etc/modprobe.d misses it.
		Apply: []string{
			"rebuild the initramfs, which loads nvme_core when the root file system is on NVMe: update-initramfs -u (Debian, Ubuntu), dracut -f (Fedora, RHEL), mkinitcpio -P (Arch); then reboot (NixOS: the line goes in boot.extraModprobeConfig instead, then nixos-rebuild boot)",
			"now, for controllers probed later: echo " + moduleValue(s.Bound) + " > " + ModuleParam,
		},
		Undo:  []string{"rm " + ModprobeFile + ", rebuild the initramfs and reboot"},
		Notes: []string{newOnly(), "ignored when nvme_core is built into the kernel (grep NVME_CORE /boot/config-$(uname -r) says =y): use the kernel command line there"},
	}
}

func renderTmpfiles(t apst.Tolerance, what string) Output {
	return Output{
		Form:    FormTmpfiles,
		File:    TmpfilesFile,
		Text:    fmt.Sprintf("# apstctl persist: %s for every NVMe controller present at boot.\n# Undo: remove this file.\nw %s - - - - %s\n", what, ToleranceGlob, t),
		Affects: "every NVMe controller present when systemd-tmpfiles-setup runs at boot, where the kernel has APST enabled (the glob matches only existing files)",
		Apply:   []string{"systemd-tmpfiles --create " + TmpfilesFile},
		Undo:    []string{"rm " + TmpfilesFile, restoreStep()},
		Notes:   []string{"runs once at boot: a controller added later (hot plug, a fabrics connect, a reset that re-exposes the file) is not reached; a udev rule is"},
	}
}

func renderTuned(t apst.Tolerance, what string) Output {
	return Output{
		Form: FormTuned,
		File: TunedFile,
		Text: fmt.Sprintf("# apstctl persist: %s for every NVMe controller while this profile is active.\n# Undo: switch profile (tuned-adm profile ...); tuned writes the previous values back.\n[main]\nsummary=NVMe APST latency bound (%s)\n\n[sysfs]\n%s=%s\n",
			what, what, ToleranceGlob, t),
		Affects: "every NVMe controller present when the profile is applied, while it is active",
		Apply:   []string{"tuned-adm profile ACTIVE nvme-apst (ACTIVE: the profile tuned-adm active names; tuned merges the two)"},
		Undo:    []string{"tuned-adm profile ACTIVE (without nvme-apst): tuned restores the values it replaced; then rm -r /etc/tuned/nvme-apst"},
		Notes:   []string{"the [sysfs] section can instead go into an existing custom profile", "tuned's sysfs plugin matches paths, not models: for one model use a udev rule"},
	}
}
