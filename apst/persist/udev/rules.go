package udev

import (
	"errors"
	"fmt"
	"strings"
)

// ErrRuleSyntax is wrapped by the errors of ParseRules: a line udev would
// refuse or ignore.
var ErrRuleSyntax = errors.New("udev: rule syntax")

// Limits of ParseRules: a rules file or a line beyond them is refused.
const (
	// MaxRulesSize is the largest rules text ParseRules reads (1 MiB).
	MaxRulesSize = 1 << 20
	// MaxRuleExprs is the most expressions in one rule.
	MaxRuleExprs = 256
	// MaxLineSize is udev's UDEV_LINE_SIZE: a line, or a rule continued
	// over lines, is at most MaxLineSize-1 bytes.
	MaxLineSize = 16384
)

// Op is a udev rule operator.
type Op string

// The operators udev knows.
const (
	OpMatch    Op = "=="
	OpNotMatch Op = "!="
	OpAssign   Op = "="
	OpAdd      Op = "+="
	OpRemove   Op = "-="
	OpFinal    Op = ":="
)

// IsMatch reports whether op compares (== or !=) rather than assigns.
func (op Op) IsMatch() bool { return op == OpMatch || op == OpNotMatch }

// keySyntax is what udev accepts for one key: whether it takes {attribute}
// (required, optional or never) and which operators.
type keySyntax struct {
	attr int // 0 never, 1 required, 2 optional
	ops  string
}

// udevKeys is every key of udev-rules(7) with the operators it takes (match
// keys: == !=; assignment keys: = += -= :=, as the man page lists them).
var udevKeys = map[string]keySyntax{
	"ACTION":     {0, "== !="},
	"DEVPATH":    {0, "== !="},
	"KERNEL":     {0, "== !="},
	"KERNELS":    {0, "== !="},
	"SUBSYSTEM":  {0, "== !="},
	"SUBSYSTEMS": {0, "== !="},
	"DRIVER":     {0, "== !="},
	"DRIVERS":    {0, "== !="},
	"ATTR":       {1, "== != = += :="}, // udev reads += and := as =
	"ATTRS":      {1, "== !="},
	"SYSCTL":     {1, "== != = += :="}, // udev reads += and := as =
	"ENV":        {1, "== != = += :="},
	"CONST":      {1, "== !="},
	"TAG":        {0, "== != = += -= :="},
	"TAGS":       {0, "== !="},
	"TEST":       {2, "== !="},
	"PROGRAM":    {0, "== != ="}, // udev reads = as == (with a debug message)
	"RESULT":     {0, "== !="},
	"NAME":       {0, "== != = += :="},
	"SYMLINK":    {0, "== != = += -= :="},
	"OWNER":      {0, "= :="},
	"GROUP":      {0, "= :="},
	"MODE":       {0, "= :="},
	"SECLABEL":   {1, "= += :="},
	"RUN":        {2, "= += :="},
	"IMPORT":     {1, "== != = +="},
	"OPTIONS":    {0, "= += :="},
	"LABEL":      {0, "="},
	"GOTO":       {0, "="},
}

// Expr is one key-operator-value expression of a rule: ATTR{model}=="x".
//
// The zero Expr has no key and no operator (ParseRules never gives one):
// Apply neither tests nor assigns it, and String writes it as a bare pair
// of double quotes.
type Expr struct {
	// Key is the key: ATTR, KERNEL, ...
	Key string
	// Attr is the part between braces ("model" in ATTR{model}), "" for none.
	Attr string
	// Op is the operator.
	Op Op
	// Value is the value without its quotes, escapes resolved.
	Value string
	// CaseInsensitive reports an i prefix on a match (ATTR{model}==i"..."),
	// which compares without regard to case (systemd 256 and later).
	CaseInsensitive bool
}

// String writes the expression back in rule syntax.
func (e Expr) String() string {
	k := e.Key
	if e.Attr != "" {
		k += "{" + e.Attr + "}"
	}
	i := ""
	if e.CaseInsensitive {
		i = "i"
	}
	v := strings.ReplaceAll(strings.ReplaceAll(e.Value, `\`, `\\`), `"`, `\"`)
	if strings.ContainsAny(v, "\n\t") {
		// Only an e"" string can carry them on one line.
		v = strings.ReplaceAll(strings.ReplaceAll(v, "\n", `\n`), "\t", `\t`)
		return k + string(e.Op) + `e` + i + `"` + v + `"`
	}
	return k + string(e.Op) + i + `"` + v + `"`
}

// Rule is one udev rule: its expressions and the line it starts on.
//
// The zero Rule has no expression (ParseRules gives none such): Apply finds
// it matching every drive and writing nothing, and String writes it as the
// empty string.
type Rule struct {
	// Line is the 1-based line number the rule starts on.
	Line int
	// Exprs are its expressions in order.
	Exprs []Expr
}

// String writes the rule back in rule syntax.
func (r Rule) String() string {
	parts := make([]string, len(r.Exprs))
	for i, e := range r.Exprs {
		parts[i] = e.String()
	}
	return strings.Join(parts, ", ")
}

// Rules is a parsed rules file.
type Rules []Rule

// ParseRules parses the text of a udev rules file as udev reads it. Lines
// end at a newline, a carriage return or a NUL (CR LF one end), their
// leading whitespace skipped; a line whose first character is # is a
// comment, also in the middle of a continuation and also when it ends in a
// backslash; a line ending in a backslash continues on the next line that
// is not a comment; each rule is a list of KEY[{attr}]OP"value"
// expressions separated by commas or whitespace (udev takes either), every
// key and operator one udev knows (udev-rules(7)), values in double quotes
// (an e prefix allows C escapes; \" and \\ are read in both forms; an i
// prefix makes a match case-insensitive, and udev refuses it elsewhere).
//
// Errors wrap ErrRuleSyntax and name the line: an unknown key, an operator
// the key does not take, a missing or unexpected {attr}, an unterminated
// string, text after an expression that is not one, more than MaxRuleExprs
// expressions, a continuation at the end of the text, a line longer than
// udev reads (MaxLineSize: it skips a longer rule, and stops reading the
// file at a longer line); a text longer than MaxRulesSize is refused.
func ParseRules(text string) (Rules, error) {
	if len(text) > MaxRulesSize {
		return nil, fmt.Errorf("%w: %d bytes: more than the limit of %d", ErrRuleSyntax, len(text), MaxRulesSize)
	}
	var rules Rules
	var cont strings.Builder
	continued, start := false, 0
	for i, raw := range splitLines(text) {
		n := i + 1
		if len(raw) >= MaxLineSize {
			return nil, fmt.Errorf("%w: line %d: %d bytes: udev reads lines of at most %d bytes, and stops reading the file at a longer one", ErrRuleSyntax, n, len(raw), MaxLineSize-1)
		}
		line := strings.TrimLeft(raw, " \t")
		if strings.HasPrefix(line, "#") {
			continue // a comment, also inside a continuation
		}
		if !continued {
			start = n
		}
		if continued {
			cont.WriteString(line)
			if cont.Len() >= MaxLineSize {
				return nil, fmt.Errorf("%w: line %d: the rule continued from line %d is longer than %d bytes: udev ignores it", ErrRuleSyntax, n, start, MaxLineSize-1)
			}
			line = cont.String()
		}
		if strings.HasSuffix(line, `\`) {
			if !continued {
				cont.Reset()
				cont.WriteString(line[:len(line)-1])
				continued = true
			} else {
				s := cont.String()
				cont.Reset()
				cont.WriteString(s[:len(s)-1])
			}
			continue
		}
		continued = false
		t := strings.TrimSpace(line)
		if t == "" {
			continue
		}
		exprs, err := parseRuleLine(t)
		if err != nil {
			return nil, fmt.Errorf("%w: line %d: %v", ErrRuleSyntax, start, err)
		}
		rules = append(rules, Rule{Line: start, Exprs: exprs})
	}
	if continued {
		return nil, fmt.Errorf("%w: line %d: the text ends in a continuation (\\): udev ignores the rule", ErrRuleSyntax, start)
	}
	return rules, nil
}

// splitLines splits text into lines as udev's read_line does: a line ends
// at a run of end-of-line characters (newline, carriage return, NUL) in
// which no one of them repeats and nothing follows a NUL, so that CR LF
// (and LF CR) is one end and LF LF an empty line; text after the last end
// is a line, an end at the end of the text starts none.
func splitLines(text string) []string {
	var lines []string
	for i := 0; i < len(text); {
		j := i
		for j < len(text) && text[j] != '\n' && text[j] != '\r' && text[j] != 0 {
			j++
		}
		lines = append(lines, text[i:j])
		seen := 0
		for j < len(text) {
			var bit int
			switch text[j] {
			case '\n':
				bit = 1
			case '\r':
				bit = 2
			case 0:
				bit = 4
			}
			if bit == 0 || seen&bit != 0 || seen&4 != 0 {
				break
			}
			seen |= bit
			j++
		}
		i = j
	}
	return lines
}

// parseRuleLine reads the expressions of one rule. As udev does, any run
// of commas and whitespace separates two expressions (udevadm verify only
// notes a missing or doubled comma as a matter of style), and one may lead
// or trail the rule.
func parseRuleLine(s string) ([]Expr, error) {
	var exprs []Expr
	for {
		s = strings.TrimLeft(s, " \t,")
		if s == "" {
			if len(exprs) == 0 {
				return nil, errors.New("empty rule")
			}
			return exprs, nil
		}
		if len(exprs) >= MaxRuleExprs {
			return nil, fmt.Errorf("more than %d expressions", MaxRuleExprs)
		}
		e, rest, err := parseExpr(s)
		if err != nil {
			if len(exprs) > 0 {
				return nil, fmt.Errorf("expression %d, after %s: %v", len(exprs)+1, exprs[len(exprs)-1], err)
			}
			return nil, fmt.Errorf("expression %d: %v", len(exprs)+1, err)
		}
		exprs = append(exprs, e)
		s = rest
	}
}

func parseExpr(s string) (Expr, string, error) {
	var e Expr
	i := 0
	for i < len(s) && (s[i] >= 'A' && s[i] <= 'Z') {
		i++
	}
	e.Key, s = s[:i], s[i:]
	if e.Key == "" {
		return e, "", fmt.Errorf("want a key (ACTION, KERNEL, ATTR{...}, ...), found %q", clip(s))
	}
	syn, ok := udevKeys[e.Key]
	if !ok {
		return e, "", fmt.Errorf("unknown key %q", e.Key)
	}
	if strings.HasPrefix(s, "{") {
		j := strings.IndexByte(s, '}')
		if j < 0 {
			return e, "", fmt.Errorf("%s{: no closing }", e.Key)
		}
		e.Attr, s = s[1:j], s[j+1:]
		if e.Attr == "" {
			return e, "", fmt.Errorf("%s{}: empty attribute", e.Key)
		}
		if syn.attr == 0 {
			return e, "", fmt.Errorf("%s takes no {attribute}", e.Key)
		}
	} else if syn.attr == 1 {
		return e, "", fmt.Errorf("%s needs an {attribute}", e.Key)
	}
	s = strings.TrimLeft(s, " \t")
	for _, op := range []Op{OpMatch, OpNotMatch, OpAdd, OpRemove, OpFinal, OpAssign} {
		if strings.HasPrefix(s, string(op)) {
			e.Op, s = op, s[len(op):]
			break
		}
	}
	if e.Op == "" {
		return e, "", fmt.Errorf("%s: want an operator (== != = += -= :=), found %q", e.Key, clip(s))
	}
	if !strings.Contains(" "+syn.ops+" ", " "+string(e.Op)+" ") {
		return e, "", fmt.Errorf("%s does not take %s (it takes %s)", e.Key, e.Op, syn.ops)
	}
	written := e.Op
	switch {
	case e.Key == "PROGRAM" && e.Op == OpAssign:
		e.Op = OpMatch
	case (e.Key == "ATTR" || e.Key == "SYSCTL") && e.Op == OpAdd:
		e.Op = OpAssign // udev assumes = (with a warning)
	}
	s = strings.TrimLeft(s, " \t")
	// The value's prefix: e (C escapes), i (a case-insensitive match,
	// systemd 256 and later), both in either order, each once.
	escapes, fold := false, false
	for k := 0; k < 2 && k < len(s) && s[0] != '"'; k++ {
		switch {
		case s[0] == 'e' && !escapes:
			escapes, s = true, s[1:]
		case s[0] == 'i' && !fold:
			fold, s = true, s[1:]
		default:
			k = 2
		}
	}
	if fold {
		switch {
		case !written.IsMatch():
			return e, "", fmt.Errorf("%s%s: an i prefix goes only with == and != (udev refuses it on an assignment)", e.Key, written)
		case e.Key == "TEST" || e.Key == "PROGRAM" || e.Key == "IMPORT":
			return e, "", fmt.Errorf("%s takes no i prefix (udev refuses a case-insensitive %s)", e.Key, e.Key)
		}
		e.CaseInsensitive = true
	}
	if !strings.HasPrefix(s, `"`) {
		return e, "", fmt.Errorf("%s%s: want a value in double quotes, found %q", e.Key, e.Op, clip(s))
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			e.Value = b.String()
			return e, s[i+1:], nil
		case c == '\\' && i+1 < len(s):
			n := s[i+1]
			switch {
			case n == '"' || n == '\\':
				b.WriteByte(n)
				i++
			case escapes && n == 'n':
				b.WriteByte('\n')
				i++
			case escapes && n == 't':
				b.WriteByte('\t')
				i++
			default:
				b.WriteByte(c)
			}
		default:
			b.WriteByte(c)
		}
	}
	return e, "", fmt.Errorf("%s%s: unterminated string", e.Key, e.Op)
}

func clip(s string) string {
	if len(s) > 24 {
		return s[:24] + "..."
	}
	return s
}
