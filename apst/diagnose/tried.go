package diagnose

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/apst/persist"
)

// Outcome says whether a setting the user already tried helped.
type Outcome string

// The outcomes of a setting tried.
const (
	// DidNotHelp: the drive still failed with the setting in force (the
	// default: a user who asks still has the failure).
	DidNotHelp Outcome = "did not help"
	// Helped: the failures stopped with it.
	Helped Outcome = "helped"
	// Partly: fewer failures, not none.
	Partly Outcome = "partly"
)

// Tried is one setting the user already ran with: a kernel command line
// parameter ("pcie_aspm=off", "nvme_core.default_ps_max_latency_us=0"), a
// module parameter in the same form, a Raspberry Pi config.txt line
// ("dtparam=pciex1_gen=2") or a sysfs write written as FILE=VALUE
// ("/sys/bus/pci/devices/0000:01:00.0/d3cold_allowed=0").
//
// The zero Tried names no setting and has an empty Outcome (none of the
// outcomes); String writes it as "".
type Tried struct {
	// Setting is the parameter or file, Value what it was set to ("" for
	// a bare flag such as "nvme.noacpi").
	Setting string
	Value   string
	Outcome Outcome
	// FromLog says that the setting is on the command line of the boot
	// that failed (the log's "Kernel command line", the last one the log
	// shows), so it did not help.
	FromLog bool
	// Weighed says, in a Diagnosis's Tried, that a rule looked at the
	// setting with its value: a word of the log's command line that none
	// weighs (root=, quiet, a Raspberry Pi 5's pci=pcie_bus_safe) was not
	// tried against the failure. Diagnose ignores it in its Input.
	Weighed bool
}

// String is "SETTING=VALUE (OUTCOME)"; "" for the zero Tried, which names
// no setting.
//
//go:noinline
func (t Tried) String() string {
	// Not inlined: its copies at its calls took 2.8 KB of the page's wasm.
	if t == (Tried{}) {
		return ""
	}
	s := t.Setting
	if t.Value != "" {
		s += "=" + t.Value
	}
	return s + " (" + string(t.Outcome) + ")"
}

// MaxTried is the most settings tried that ParseTriedFlag,
// ParseTriedForm and MergeTried take, a setting given twice with the same
// outcome counted once: a kernel command line holds a few hundred parameters at most
// (COMMAND_LINE_SIZE is 2048 bytes on x86), and the diagnosis weighs
// a few dozen. More is refused, so that what was tried costs no more than
// reading it.
const MaxTried = 1000

// ParseTried reads settings tried, separated by white space (any, as the
// kernel splits its command line) or commas, each SETTING[=VALUE] with an
// optional outcome after a colon ("pcie_aspm=off:helped",
// "nvme_core.default_ps_max_latency_us=0:no"; blanks around the colon are
// the separator's). Without one, a setting did not help. A colon inside a
// value stays the value's (nvme.quirks=144d:a808:no_apst); a word after
// the last colon is read as an outcome. Words that are not settings are
// kept too: the rules look only at those they know, and Diagnose notes
// the others, and values the kernel does not take, as not weighed. A
// kernel command line, where commas and colons belong to values, is
// ParseCommandLine's.
func ParseTried(s string) []Tried {
	var out []Tried
	for _, w := range splitTried(s) {
		t, _, err := parseTried(strings.TrimRight(w, ":"))
		if err == nil {
			out = append(out, t)
		}
	}
	return out
}

// ParseTriedFlag reads one --tried value strictly: SETTING[=VALUE][:OUTCOME]
// with OUTCOME one of helped, yes, partly, no, did-not-help, separated as
// ParseTried separates them (a line copied whole from GRUB, systemd-boot,
// modprobe.d or NixOS is ParseTriedForm's). A value's comma before a
// number stays the value's (console=serial0,115200), as do the commas of
// a quirks list and of pci=, iommu=, amd_iommu= and intel_iommu= options.
// It refuses, with the one likely meant, a SETTING a letter or two off
// one the rules know ("pcie_apsm=off"), in another letter case, cut short
// or without its module, and a value of a known setting that the kernel
// does not take as the kernel reads it ("pcie_aspm=of", "pcie_aspm=OFF":
// the kernel compares it exactly; "…_us=0x0" is the number 0); another
// name is kept, as ParseTried keeps it. A setting given twice with the
// same outcome is read once, with two outcomes refused (CheckTried), and
// more than MaxTried settings are refused.
func ParseTriedFlag(s string) ([]Tried, error) {
	var l triedList
	for _, w := range splitTried(s) {
		t, said, err := parseTried(w)
		if err == nil && strings.HasSuffix(w, ":") {
			err = fmt.Errorf("diagnose: %q: no outcome after ':' (want helped, partly or no)", w)
		}
		if err != nil {
			return nil, err
		}
		if l.has(t) {
			continue // read once, and its name checked once
		}
		if err := checkSpelling(t, w, said); err != nil {
			return nil, err
		}
		if err := l.add(t, MaxTried); err != nil {
			return nil, err
		}
	}
	if len(l.ts) == 0 {
		return nil, fmt.Errorf("diagnose: --tried %q names no setting (want SETTING=VALUE[:helped|:no])", s)
	}
	return l.ts, nil
}

// CheckTried refuses settings tried that contradict each other: the same
// setting with the same value, as the kernel reads it, given twice with
// different outcomes ("pcie_aspm=off:helped" and "pcie_aspm=off:no",
// "…_us=0:helped" and "…_us=0x0:no"), which no answer can weigh. The same
// setting with other values (d3cold_allowed of two devices, two latency
// bounds) is no contradiction. Its time grows with len(ts), not faster.
func CheckTried(ts []Tried) error {
	_, err := mergeTried(ts, -1)
	return err
}

// MergeTried returns ts with every setting given again with the same
// outcome left out (the same setting and value as the kernel reads them:
// "…_us=0x0" is "…_us=0"), in the order given; an error when two
// contradict each other (CheckTried) or more than MaxTried are left. It
// is what apstctl diagnose makes of all its --tried values together.
func MergeTried(ts []Tried) ([]Tried, error) {
	return mergeTried(ts, MaxTried)
}

func mergeTried(ts []Tried, limit int) ([]Tried, error) {
	var l triedList
	for _, t := range ts {
		if err := l.add(t, limit); err != nil {
			return nil, err
		}
	}
	return l.ts, nil
}

// triedKey is a setting tried as the kernel reads it: the name with a
// module parameter's dashes as underscores, the value in kernelValue's
// form.
// (A string, not a struct of the two: a map keyed by a struct costs the
// page's wasm its own hash and equality code.)
type triedKey = string

func keyOf(t Tried) triedKey {
	v, _ := kernelValue(t.Setting, t.Value)
	return moduleParam(t.Setting) + "\x00" + v
}

// triedList gathers settings tried, each once: the zero triedList is
// empty.
type triedList struct {
	ts   []Tried
	seen map[triedKey]int // where in ts
}

// has reports whether t is in l with its outcome.
func (l *triedList) has(t Tried) bool {
	i, ok := l.seen[keyOf(t)]
	return ok && l.ts[i].Outcome == t.Outcome
}

// add adds t to l, unless it is there with its outcome; it refuses t
// given with another outcome, or as the limit+1st (a negative limit is
// none).
func (l *triedList) add(t Tried, limit int) error {
	k := keyOf(t)
	if i, ok := l.seen[k]; ok {
		if a := l.ts[i]; a.Outcome != t.Outcome {
			return fmt.Errorf("diagnose: %s and %s contradict each other: give the setting once, with what it did", a, t)
		}
		return nil
	}
	if len(l.ts) == limit {
		return fmt.Errorf("diagnose: more than %d settings tried (at most %d are read): give those that bear on the failure", limit, limit)
	}
	if l.seen == nil {
		l.seen = map[triedKey]int{}
	}
	l.seen[k] = len(l.ts)
	l.ts = append(l.ts, t)
	return nil
}

// splitTried splits s into settings at white space (any: blanks, tabs,
// line ends, as the kernel splits its command line, and a byte order mark
// a paste carried along) and at commas, keeping a value's commas: those
// of a quirks list (nvme.quirks=144d:a808:no_apst,no_deepest_ps is one
// setting), a number's (console=serial0,115200: no setting's name starts
// with a digit) and a list parameter's options (pci=noaer,nomsi), none of
// them set off by white space. An outcome set off by blanks
// ("pcie_aspm=off :helped", "pcie_aspm=off: helped", "... : no") is its
// setting's. Its time grows with len(s).
func splitTried(s string) []string {
	var out [][]string // each setting's pieces, joined by commas
	for _, field := range strings.FieldsFunc(s, isBlank) {
		for j, w := range strings.Split(field, ",") {
			if w == "" {
				continue
			}
			n := len(out)
			var last *string
			if n > 0 {
				last = &out[n-1][len(out[n-1])-1]
			}
			switch {
			case n > 0 && w[0] == ':' && !strings.HasSuffix(*last, ":") && !endsInOutcome(*last):
				*last += w // ":helped", or ":" before one
			case n > 0 && strings.HasSuffix(*last, ":") && !strings.Contains(w, ":") && isOutcome(w):
				*last += w
			case j > 0 && n > 0 && !endsInOutcome(*last) && valueGoesOn(out[n-1][0], w):
				out[n-1] = append(out[n-1], w)
			default:
				out = append(out, []string{w})
			}
		}
	}
	words := make([]string, len(out))
	for i, ps := range out {
		words[i] = strings.Join(ps, ",")
	}
	return words
}

// isBlank reports whether r separates settings: white space, as the
// kernel's command line is split (lib/cmdline.c next_arg: isspace), and a
// byte order mark, which a copy from a file can carry.
func isBlank(r rune) bool { return unicode.IsSpace(r) || r == '\uFEFF' }

// valueGoesOn reports whether w, after a comma, is more of the value of
// the setting first (its first piece): a number (no setting's name starts
// with a digit), a quirks list's next name or another option of pci=,
// iommu=, amd_iommu= or intel_iommu= (a word without '=' that is no
// setting the rules know).
func valueGoesOn(first, w string) bool {
	name, _, ok := strings.Cut(first, "=")
	if !ok || strings.Contains(w, "=") {
		return false
	}
	if w[0] >= '0' && w[0] <= '9' {
		return true
	}
	head, _, _ := strings.Cut(w, ":")
	return (strings.HasSuffix(name, "quirks") || settingOf(name).kind == listValue) && !slices.Contains(knownSettings(), moduleParam(head))
}

// endsInOutcome reports whether w ends in ":OUTCOME".
func endsInOutcome(w string) bool {
	i := strings.LastIndexByte(w, ':')
	return i >= 0 && isOutcome(w[i+1:])
}

func isOutcome(s string) bool {
	_, ok := outcome(s)
	return ok
}

// parseTried reads w, SETTING[=VALUE][:OUTCOME], and returns with it the
// outcome as written (":helped"; "" for none).
func parseTried(w string) (Tried, string, error) {
	t, said := Tried{Outcome: DidNotHelp}, ""
	if i := strings.LastIndexByte(w, ':'); i > 0 {
		tail := w[i+1:]
		if o, ok := outcome(tail); ok {
			t.Outcome, said, w = o, w[i:], w[:i]
		} else if misspeltOutcome(tail) {
			return Tried{}, "", fmt.Errorf("diagnose: %q: the outcome after ':' is %q (want helped, partly or no)", w, tail)
		}
		// Otherwise the colon is the value's: nvme.quirks=144d:a808:no_apst,
		// a sysfs path's PCI address.
	}
	t.Setting, t.Value, _ = strings.Cut(w, "=")
	if t.Setting == "" || strings.ContainsAny(w, "\"'`$;|&<>(){}*?[]\\") {
		return Tried{}, "", fmt.Errorf("diagnose: %q is not a setting (want NAME=VALUE)", w)
	}
	return t, said, nil
}

// misspeltOutcome reports whether the text after a setting's last colon
// is a word meant as its outcome ("maybe", "nope"): three letters or more
// and nothing else, not a hexadecimal number. A value's own colons leave
// numbers, flags and paths there ("0x800", "k", "00.0/d3cold_allowed=0").
func misspeltOutcome(tail string) bool {
	if len(tail) < 3 {
		return false
	}
	hex := true
	for _, r := range tail {
		switch {
		case r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F':
		case r >= 'g' && r <= 'z' || r >= 'G' && r <= 'Z' || r == '-':
			hex = false
		default:
			return false
		}
	}
	return !hex
}

// ParseCommandLine reads a kernel command line (the log's "Kernel command
// line:") as settings that did not help, as persist.CommandLineArguments
// reads it. Its parameters are split at blanks outside double quotes, as
// the kernel splits them (lib/cmdline.c, next_arg), a quoted value is
// unquoted, and nothing after "--" (init's arguments) is read. A colon is the value's
// (nvme.quirks=144d:a808:0x800), never an outcome; words the rules do not
// know are kept as they are, words that cannot name a parameter left out.
func ParseCommandLine(s string) []Tried {
	return tried(persist.CommandLineArguments(s), true)
}

// tried is the parameters args as settings that did not help.
func tried(args []persist.Argument, fromLog bool) []Tried {
	var out []Tried
	for _, a := range args {
		out = append(out, Tried{Setting: a.Name, Value: a.Value, Outcome: DidNotHelp, FromLog: fromLog})
	}
	return out
}

func outcome(s string) (Outcome, bool) {
	switch strings.ToLower(s) {
	case "helped", "yes", "fixed", "ok":
		return Helped, true
	case "partly", "partial", "some":
		return Partly, true
	case "no", "did-not-help", "didnothelp", "failed", "not":
		return DidNotHelp, true
	}
	return "", false
}

// triedOf returns the settings tried whose name is one of names (and
// whose value, when values is not empty, is one of values as the kernel
// reads them: sameValue).
func (s *signals) triedOf(names []string, values ...string) []Tried {
	var out []Tried
	for i := range s.tried {
		t := &s.tried[i]
		if !matchSetting(t.Setting, names) {
			continue
		}
		if len(values) > 0 && !slices.ContainsFunc(values, func(v string) bool { return sameValue(t.Setting, t.Value, v) }) {
			continue // another value, as the kernel reads them
		}
		t.Weighed = true // s.tried is the Diagnosis's: a rule looked at it
		out = append(out, *t)
	}
	return out
}

// apstOffTried returns the settings tried that turn APST off for the
// drive: the latency bound 0 (nvme_core.default_ps_max_latency_us=0, or
// the controller's pm_qos_latency_tolerance_us=0), and
// an nvme.quirks= entry (Linux 7.0 and later) that sets no_apst for it,
// or for any drive when the log does not give the drive's PCI ID.
func (s *signals) apstOffTried() []Tried {
	out := s.triedOf(apstOff, "0")
	// The controller's own bound, 0: APST off for it alone (sysfs
	// power/pm_qos_latency_tolerance_us, or apstctl set-latency 0).
	out = append(out, s.triedOf([]string{"pm_qos_latency_tolerance_us"}, "0")...)
	var id apst.PCIID
	known := s.pciID != "" && id.UnmarshalText([]byte(s.pciID)) == nil
	for _, t := range s.triedOf([]string{"nvme.quirks"}) {
		ovs, err := apst.ParseQuirkOverrides(t.Value)
		if err != nil {
			continue // the kernel ignores or refuses a malformed value
		}
		for _, o := range ovs {
			if (!known || o.ID == id) && o.Set&apst.QuirkNoAPST != 0 {
				out = append(out, t)
				break
			}
		}
	}
	return out
}

// triedBefore says what the setting NAME=VALUE did when it was tried:
// Helped when it helped (even partly), DidNotHelp when it was tried and did
// not, "" when it was not tried.
func (s *signals) triedBefore(setting string) Outcome {
	name, value, _ := strings.Cut(setting, "=")
	var out Outcome
	for _, t := range s.triedOf([]string{name}) {
		if !sameValue(t.Setting, t.Value, value) {
			continue
		}
		if t.Outcome != Helped && t.Outcome != Partly {
			return DidNotHelp
		}
		out = Helped
	}
	return out
}

// dropFailedWrites leaves out of ts the tests that write sysfs files
// ("echo 0 | sudo tee /sys/.../link/l1_2_aspm") with a value the user
// already wrote to those files without help: a test that failed is never
// offered again.
func (s *signals) dropFailedWrites(ts []Test) []Test {
	out := ts[:0]
	for _, t := range ts {
		if !s.writeFailed(t.Command) {
			out = append(out, t)
		}
	}
	return out
}

// writeFailed reports whether command is "echo V | sudo tee FILE..." and
// every FILE (by its name) was tried with V and did not help.
func (s *signals) writeFailed(command string) bool {
	v, files, ok := strings.Cut(strings.TrimPrefix(command, "echo "), " | sudo tee ")
	if !ok || !strings.HasPrefix(command, "echo ") || strings.ContainsAny(files, ";|&") {
		return false
	}
	n := 0
	for _, f := range strings.Fields(files) {
		if !strings.Contains(f, "/") {
			continue // a word of "$(basename $(readlink -f ...))"
		}
		n++
		if len(s.failedWith([]string{f[strings.LastIndexByte(f, '/')+1:]}, v)) == 0 {
			return false
		}
	}
	return n > 0
}

// failedWith returns the settings tried among names (with one of values,
// when given) that did not help: what rules a layer out. One that helped,
// even partly, rules its layer in.
func (s *signals) failedWith(names []string, values ...string) []Tried {
	return didNotHelp(s.triedOf(names, values...))
}

// didNotHelp returns the settings of ts that did not help.
//
// Not inlined: its copies at the rules' calls took 2.7 KB of the page's
// wasm.
//
//go:noinline
func didNotHelp(ts []Tried) []Tried {
	var out []Tried
	for _, t := range ts {
		if t.Outcome == DidNotHelp {
			out = append(out, t)
		}
	}
	return out
}

// helpedAny reports whether a setting of ts helped, even partly.
func helpedAny(ts []Tried) bool { return len(didNotHelp(ts)) < len(ts) }

// matchSetting compares a setting with names; a name ending in "/" matches
// a sysfs file under any device ("d3cold_allowed" matches
// "/sys/bus/pci/devices/X/d3cold_allowed").
func matchSetting(setting string, names []string) bool {
	setting = moduleParam(setting)
	for _, n := range names {
		if setting == n || strings.HasPrefix(setting, "/sys/") && strings.HasSuffix(setting, "/"+n) {
			return true
		}
	}
	return false
}

// triedRule weighs what was tried for layer b: a setting that helped is
// the strongest sign there is, one that did not help rules the layer out
// as far as that setting reaches. It returns whether such a setting was
// tried without helping (so its test is not recommended again).
func (b *builder) tried(s *signals, names []string, values []string, helped, notHelped int, what string) bool {
	return b.weighTried(s, s.triedOf(names, values...), helped, notHelped, what)
}

// weighTried weighs the settings ts, tried for layer b, as tried does.
func (b *builder) weighTried(s *signals, ts []Tried, helped, notHelped int, what string) bool {
	failed := false
	for _, t := range ts {
		// A setting of the log's own command line quotes that line, with
		// its number; one the user gave quotes what was given.
		l := Line{Source: "settings tried", Quote: t.String()}
		if t.FromLog {
			l = s.cmdlineLine
		}
		switch t.Outcome {
		case Helped:
			l.Text = t.Setting + " helped: " + what
			b.sign(helped, l)
		case Partly:
			l.Text = t.Setting + " helped partly: " + what + ", and something else is at work too"
			b.proLine(helped/2, l)
		default:
			failed = true
			l.Text = fmt.Sprintf("the drive failed with %s in force: %s", t.Setting+"="+t.Value, "so it is not (only) "+string(b.Layer))
			if t.Value == "" {
				l.Text = fmt.Sprintf("the drive failed with %s in force: so it is not (only) %s", t.Setting, b.Layer)
			}
			b.conLine(notHelped, l)
		}
	}
	return failed
}

// moduleParam writes a module parameter's name (MODULE.PARAM) with
// underscores for its dashes, as the kernel and modprobe read it
// (nvme-core.default-ps-max-latency-us is
// nvme_core.default_ps_max_latency_us); other names are returned as they
// are.
func moduleParam(name string) string {
	if !strings.Contains(name, ".") || strings.HasPrefix(name, "/") {
		return name
	}
	return strings.ReplaceAll(name, "-", "_")
}

// settleTried sets s.tried, what the rules weigh as tried: the settings
// given, then those of the failure's command line (s.cmdline), each once
// (a setting given again with the same outcome, as the kernel reads it,
// would weigh twice). Left out, with a note each, are a setting whose
// value the kernel does not take (pcie_aspm=OFF: its strcmp ignores it;
// the machine ran as without it) and one given as having helped that the
// command line has: that line is the last one the log shows
// (kernlog.Log.CommandLine, of the last "Linux version" line), which is
// not always of the failure's boot, so the pair is not refused; the
// setting is weighed as the command line has it, not as having helped.
// A name the rules do not know is kept and named in a note.
func (s *signals) settleTried(given []Tried) {
	var cmdline []Tried
	if s.inc != nil {
		cmdline = ParseCommandLine(s.cmdline)
	}
	where := "the kernel command line"
	if s.cmdlineLine.Line > 0 {
		where += fmt.Sprintf(" (kernel log line %d)", s.cmdlineLine.Line)
	}
	inForce := map[triedKey]bool{}
	for _, t := range cmdline {
		if _, ok := kernelValue(t.Setting, t.Value); ok {
			inForce[keyOf(t)] = true
		}
	}
	seen := map[string]bool{} // the key, the outcome and whether from the log
	s.tried = nil
	for _, t := range append(slices.Clip(given), cmdline...) {
		t.Weighed = false // the rules' to say (triedOf)
		if _, why := valueRefused(t); why != nil {
			if t.FromLog {
				s.notes = append(s.notes, fmt.Sprintf("%s has %s: %v, so the boot ran as without it: not weighed", where, t.Setting+"="+t.Value, why))
			} else {
				s.notes = append(s.notes, fmt.Sprintf("tried %s: %v, so it tried nothing: not weighed", t, why))
			}
			continue
		}
		key := keyOf(t)
		k := key + "\x00" + string(t.Outcome) + strconv.FormatBool(t.FromLog)
		if seen[k] {
			continue
		}
		seen[k] = true
		if !t.FromLog && !weighed(t.Setting) {
			s.notes = append(s.notes, fmt.Sprintf("tried %s: no setting the diagnosis knows (the rules weigh the NVMe, PCIe and power-management parameters and sysfs files): not weighed", t))
		}
		if !t.FromLog && t.Outcome != DidNotHelp && inForce[key] {
			s.notes = append(s.notes, fmt.Sprintf("tried %s, yet %s has %s, and the drive failed: not counted as having helped (that line is the last command line the log shows, which may be of another boot than the failure's)", t, where, t.Setting+"="+t.Value))
			continue
		}
		s.tried = append(s.tried, t)
	}
}
