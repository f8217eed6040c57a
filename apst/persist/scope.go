package persist

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/powerstate"
)

// ErrScope is wrapped by the errors of a Scope that cannot be expressed: a
// model or serial udev cannot quote, or a form that cannot select by it
// (only udev rules match a model, a PCI ID or a serial number; the kernel
// command line, modprobe.d, systemd-tmpfiles and tuned set every
// controller).
var ErrScope = errors.New("persist: scope")

// ScopeKind says which controllers a setting reaches.
type ScopeKind uint8

// The scopes. The zero value, ScopeUnset, is no scope: Validate refuses it,
// so that a Setting left zero never reaches every controller.
const (
	// ScopeUnset is no scope given; Validate refuses it.
	ScopeUnset ScopeKind = iota
	// ScopeAll is every NVMe controller (AllControllers).
	ScopeAll
	// ScopeModel is every controller whose model matches Scope.Model,
	// exactly or as a glob.
	ScopeModel
	// ScopePCI is every controller behind a PCI function with Scope.PCI's
	// vendor and device ID.
	ScopePCI
	// ScopeSerial is the one controller with Scope.Serial.
	ScopeSerial
)

var scopeNames = [...]string{ScopeUnset: "unset", ScopeAll: "all", ScopeModel: "model", ScopePCI: "pci", ScopeSerial: "serial"}

// String names the kind: "unset", "all", "model", "pci", "serial".
func (k ScopeKind) String() string {
	if int(k) < len(scopeNames) {
		return scopeNames[k]
	}
	return fmt.Sprintf("ScopeKind(%d)", uint8(k))
}

// Scope selects the controllers a setting reaches. The zero value selects
// nothing and is refused by Validate (and so by Render): every controller
// is AllControllers, asked for by name.
type Scope struct {
	// Kind says which of the fields below is used.
	Kind ScopeKind
	// Model is the model as sysfs prints it (Identify MN without its
	// padding), or a udev glob of it (* ? [...]) when it contains one of
	// those characters: "Samsung SSD 990 EVO Plus *".
	Model string
	// PCI is the vendor:device ID of the PCI function.
	PCI apst.PCIID
	// Serial is the serial number as sysfs prints it.
	Serial string
}

// AllControllers is the scope of every controller.
func AllControllers() Scope { return Scope{Kind: ScopeAll} }

// ModelScope selects the controllers whose model matches m, a udev glob
// when it holds * ? or [ (a pattern the user wrote, such as "Samsung SSD
// 990 EVO Plus *"). A model read from a drive or a capture goes through
// ExactModelScope instead, so that a model holding * matches only itself.
func ModelScope(m string) Scope { return Scope{Kind: ScopeModel, Model: strings.TrimSpace(m)} }

// ExactModelScope selects the controllers whose model is exactly m, a
// model as a drive reports it: its glob characters are matched literally
// (LiteralModel).
func ExactModelScope(m string) Scope { return ModelScope(LiteralModel(strings.TrimSpace(m))) }

// LiteralModel is the udev glob that matches exactly the string m: each of
// the glob characters * ? [ becomes a bracket expression of itself ([*],
// [?], [[]), which fnmatch(3), the matcher of udev's == on attributes,
// reads as that one character.
func LiteralModel(m string) string {
	if !strings.ContainsAny(m, "*?[") {
		return m
	}
	var b strings.Builder
	for _, c := range m {
		switch c {
		case '*', '?', '[':
			b.WriteByte('[')
			b.WriteRune(c)
			b.WriteByte(']')
		default:
			b.WriteRune(c)
		}
	}
	return b.String()
}

// PCIScope selects the controllers behind PCI functions with ID id.
func PCIScope(id apst.PCIID) Scope { return Scope{Kind: ScopePCI, PCI: id} }

// SerialScope selects the one controller with serial number s.
func SerialScope(s string) Scope { return Scope{Kind: ScopeSerial, Serial: strings.TrimSpace(s)} }

// IsGlob reports whether the scope's model is a glob.
func (s Scope) IsGlob() bool { return strings.ContainsAny(s.Model, "*?[") }

// String describes the scope: `every NVMe controller`, `model "Samsung SSD
// 990 EVO Plus *" (glob)`, `PCI ID 144d:a80d`, `serial "S7U..."`.
func (s Scope) String() string {
	switch s.Kind {
	case ScopeAll:
		return "every NVMe controller"
	case ScopeModel:
		if s.IsGlob() {
			return fmt.Sprintf("every controller whose model matches %q", s.Model)
		}
		return fmt.Sprintf("every controller of model %q", s.Model)
	case ScopePCI:
		return "every controller with PCI ID " + s.PCI.String()
	case ScopeSerial:
		return fmt.Sprintf("the one controller with serial number %q", s.Serial)
	}
	return s.Kind.String()
}

// Validate reports whether the scope can be written in a udev rule and
// whether it can match a drive. To be written it needs a known kind, a
// model or serial that is printable ASCII without " or \ (a serial also
// without glob characters * ? [ |, a model without |), a PCI ID that is not
// zero; to match a drive, a model glob that matches strings of at most 40
// characters (Identify MN), a serial of at most 20 (SN).
func (s Scope) Validate() error {
	switch s.Kind {
	case ScopeUnset:
		return fmt.Errorf("%w: no scope given (the zero Scope): name it, AllControllers() for every controller, or ModelScope, PCIScope, SerialScope", ErrScope)
	case ScopeAll:
		return nil
	case ScopeModel:
		if s.Model == "" {
			return fmt.Errorf("%w: the model is empty", ErrScope)
		}
		if err := quotable("model", s.Model, "|"); err != nil {
			return err
		}
		if !bracketsClosed(s.Model) {
			return fmt.Errorf("%w: model %s: unbalanced [ ] in the glob", ErrScope, clipQuote(s.Model))
		}
		if n := globMinLen(s.Model); n > powerstate.ModelFieldSize {
			return fmt.Errorf("%w: model %s: it matches only models of %d characters or more, and a model number (Identify MN) has at most %d", ErrScope, clipQuote(s.Model), n, powerstate.ModelFieldSize)
		}
	case ScopePCI:
		if s.PCI.Vendor == 0 || s.PCI.Device == 0 {
			return fmt.Errorf("%w: PCI ID %s: want a vendor and a device ID (VVVV:DDDD)", ErrScope, s.PCI)
		}
	case ScopeSerial:
		if s.Serial == "" {
			return fmt.Errorf("%w: the serial number is empty", ErrScope)
		}
		if err := quotable("serial number", s.Serial, "*?[]|"); err != nil {
			return err
		}
		if len(s.Serial) > serialFieldSize {
			return fmt.Errorf("%w: serial number %s: %d characters, and a serial number (Identify SN) has at most %d", ErrScope, clipQuote(s.Serial), len(s.Serial), serialFieldSize)
		}
	default:
		return fmt.Errorf("%w: unknown kind %d", ErrScope, s.Kind)
	}
	return nil
}

// serialFieldSize is the length in bytes of the Identify Controller's SN
// (Serial Number) field, bytes 23:04.
const serialFieldSize = 20

// globMinLen is the length of the shortest string the glob m matches: one
// character for each character outside a bracket expression other than *,
// and for each bracket expression (m's brackets closed).
func globMinLen(m string) int {
	n := 0
	for i := 0; i < len(m); i++ {
		switch m[i] {
		case '*':
			continue
		case '[':
			j := i + 1
			if j < len(m) && (m[j] == '!' || m[j] == '^') {
				j++
			}
			if j < len(m) && m[j] == ']' {
				j++
			}
			if k := strings.IndexByte(m[j:], ']'); k >= 0 {
				i = j + k
			}
		}
		n++
	}
	return n
}

// clipQuote quotes s, clipped to 80 bytes.
func clipQuote(s string) string {
	if len(s) > 80 {
		return strconv.Quote(s[:80]) + "..."
	}
	return strconv.Quote(s)
}

// bracketsClosed reports whether every [ of the glob m opens a bracket
// expression that a ] closes, as fnmatch(3) reads them: a ] right after
// the [ (or after [! or [^) belongs to the expression.
func bracketsClosed(m string) bool {
	for i := 0; i < len(m); i++ {
		if m[i] != '[' {
			continue
		}
		j := i + 1
		if j < len(m) && (m[j] == '!' || m[j] == '^') {
			j++
		}
		if j < len(m) && m[j] == ']' {
			j++
		}
		k := strings.IndexByte(m[j:], ']')
		if k < 0 {
			return false
		}
		i = j + k
	}
	return true
}

// quotable checks that v can stand between double quotes in a udev rule.
func quotable(what, v, forbidden string) error {
	for _, c := range v {
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' || strings.ContainsRune(forbidden, c) {
			return fmt.Errorf("%w: %s %s: a udev rule cannot match %q (want printable ASCII without \" \\ %s)", ErrScope, what, clipQuote(v), c, forbidden)
		}
	}
	return nil
}

// ModelFamily is the glob of a model that covers its other capacities. It
// is the model with a trailing capacity word (1TB, 500GB, 2T, 512G) replaced
// by *, its own glob characters matched literally (LiteralModel),
// "Samsung SSD 990 EVO Plus 1TB" giving "Samsung SSD 990 EVO Plus *"; ok is
// false, and the model is returned matched exactly, when it ends in no such
// word (INTEL SSDPEKKW256G7 carries its capacity inside the part number).
func ModelFamily(model string) (glob string, ok bool) {
	model = strings.TrimSpace(model)
	i := strings.LastIndexByte(model, ' ')
	if i <= 0 || !isCapacity(model[i+1:]) {
		return LiteralModel(model), false
	}
	return LiteralModel(model[:i+1]) + "*", true
}

// isCapacity reports whether w reads like a capacity: digits (a decimal
// point allowed) then TB, GB, T or G, any case.
func isCapacity(w string) bool {
	u := strings.ToUpper(w)
	var num string
	for _, suf := range []string{"TB", "GB", "T", "G"} {
		if strings.HasSuffix(u, suf) {
			num = u[:len(u)-len(suf)]
			break
		}
	}
	if num == "" || num[0] == '.' || num[len(num)-1] == '.' || strings.Count(num, ".") > 1 {
		return false
	}
	for _, c := range num {
		if (c < '0' || c > '9') && c != '.' {
			return false
		}
	}
	return true
}
