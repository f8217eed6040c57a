package kernlog

import (
	"strings"
	"unicode/utf8"
)

// A pattern is one of the package's regular expressions, matched as
// package regexp matches it (leftmost-first, by runes, submatches as
// FindStringSubmatch gives them) by a small backtracking matcher: regexp
// and the Unicode tables it pulls in were some 0.5 MB of the web page's
// WebAssembly for the 22 patterns of messages. It reads the syntax the
// patterns use: literals and escaped punctuation, ., \S, \b, ^, classes
// of ASCII ranges ([a-z_], [^,]), groups (capturing and (?:)), | and the
// quantifiers ?, *, + and {m,n}, greedy or lazy. What * or + repeats
// must consume a byte (mustPattern refuses it otherwise: its loop would
// not end); the other quantifiers are bounded.
type pattern struct {
	// expr is the pattern as written, for its tests.
	expr   string
	prog   []inst
	groups int
	// prefix is the literal every match begins with, if any.
	prefix string
	// anchored is set for a pattern that begins with ^.
	anchored bool
}

// A node is one element of a pattern.
type node struct {
	op byte
	// lit is opLit's text.
	lit string
	// ranges are opClass's byte ranges (pairs lo, hi), neg its negation.
	ranges string
	neg    bool
	sub    []*node
	// min and max bound opRepeat (max -1: no bound).
	min, max int
	lazy     bool
	// group is opGroup's number.
	group int
}

const (
	opLit = iota
	opClass
	opSeq
	opAlt
	opRepeat
	opGroup
	opBegin
	opWordBoundary
)

// mustPattern parses expr and panics on syntax it does not read (the
// patterns are constants of the package, checked by its tests).
func mustPattern(expr string) *pattern {
	p := &parser{s: expr}
	if strings.HasPrefix(expr, "^") {
		p.anchored = true
		p.s = expr[1:]
	}
	root := p.alt()
	if p.s != "" {
		panic("kernlog: pattern " + expr + ": unexpected " + p.s)
	}
	prog := append(compile(nil, root), inst{op: iMatch})
	pat := &pattern{expr: expr, prog: prog, groups: p.groups, anchored: p.anchored}
	if !p.anchored && prog[0].op == iLit {
		pat.prefix = prog[0].lit
	}
	return pat
}

type parser struct {
	s        string
	groups   int
	anchored bool
}

func (p *parser) alt() *node {
	alts := []*node{p.seq()}
	for strings.HasPrefix(p.s, "|") {
		p.s = p.s[1:]
		alts = append(alts, p.seq())
	}
	if len(alts) == 1 {
		return alts[0]
	}
	return &node{op: opAlt, sub: alts}
}

func (p *parser) seq() *node {
	var subs []*node
	for p.s != "" && p.s[0] != '|' && p.s[0] != ')' {
		n := p.quantified(p.atom())
		// Consecutive literal bytes make one literal.
		if k := len(subs) - 1; n.op == opLit && k >= 0 && subs[k].op == opLit {
			subs[k] = &node{op: opLit, lit: subs[k].lit + n.lit}
			continue
		}
		subs = append(subs, n)
	}
	switch len(subs) {
	case 0:
		return &node{op: opLit}
	case 1:
		return subs[0]
	}
	return &node{op: opSeq, sub: subs}
}

func (p *parser) atom() *node {
	c := p.s[0]
	p.s = p.s[1:]
	switch c {
	case '(':
		n := &node{op: opGroup}
		if strings.HasPrefix(p.s, "?:") {
			p.s = p.s[2:]
			n = nil
		} else {
			p.groups++
			n.group = p.groups
		}
		sub := p.alt()
		if !strings.HasPrefix(p.s, ")") {
			panic("kernlog: pattern: missing )")
		}
		p.s = p.s[1:]
		if n == nil {
			return sub
		}
		n.sub = []*node{sub}
		return n
	case '[':
		n := &node{op: opClass}
		if strings.HasPrefix(p.s, "^") {
			n.neg, p.s = true, p.s[1:]
		}
		var r []byte
		for p.s != "" && p.s[0] != ']' {
			lo := p.classByte()
			hi := lo
			if len(p.s) > 1 && p.s[0] == '-' && p.s[1] != ']' {
				p.s = p.s[1:]
				hi = p.classByte()
			}
			r = append(r, lo, hi)
		}
		if !strings.HasPrefix(p.s, "]") {
			panic("kernlog: pattern: missing ]")
		}
		p.s = p.s[1:]
		n.ranges = string(r)
		return n
	case '.':
		return &node{op: opClass, ranges: "\n\n", neg: true}
	case '\\':
		e := p.s[0]
		p.s = p.s[1:]
		switch {
		case e == 'S':
			// Perl's \s is [\t\n\f\r ].
			return &node{op: opClass, ranges: "\t\n\f\r  ", neg: true}
		case e == 'b':
			return &node{op: opWordBoundary}
		case isWordByte(e) || e >= utf8.RuneSelf:
			panic("kernlog: pattern: unknown escape \\" + string(e))
		}
		return &node{op: opLit, lit: string(e)}
	case '^':
		return &node{op: opBegin}
	case '|', ')', '?', '*', '+', '{', ']':
		panic("kernlog: pattern: unexpected " + string(c))
	}
	if c >= utf8.RuneSelf {
		panic("kernlog: pattern: not ASCII")
	}
	return &node{op: opLit, lit: string(c)}
}

// classByte reads one member of a class: a byte, or an escaped one.
func (p *parser) classByte() byte {
	c := p.s[0]
	if c == '\\' {
		c, p.s = p.s[1], p.s[1:]
		if isWordByte(c) {
			panic("kernlog: pattern: unknown escape in class \\" + string(c))
		}
	}
	if c >= utf8.RuneSelf {
		panic("kernlog: pattern: not ASCII")
	}
	p.s = p.s[1:]
	return c
}

// quantified reads the quantifier after n, if any.
func (p *parser) quantified(n *node) *node {
	if p.s == "" {
		return n
	}
	min, max := 0, 0
	switch p.s[0] {
	case '?':
		max = 1
	case '*':
		max = -1
	case '+':
		min, max = 1, -1
	case '{':
		end := strings.IndexByte(p.s, '}')
		a, b, comma := strings.Cut(p.s[1:end], ",")
		min, max = atoi(a), atoi(a)
		if comma {
			max = atoi(b)
		}
		p.s = p.s[end:]
	default:
		return n
	}
	p.s = p.s[1:]
	r := &node{op: opRepeat, sub: []*node{n}, min: min, max: max}
	if strings.HasPrefix(p.s, "?") {
		r.lazy, p.s = true, p.s[1:]
	}
	return r
}

// An inst is one instruction of a pattern's program, run by a
// backtracking matcher that tries the branches of a split in order, as
// package regexp prefers them.
type inst struct {
	op byte
	// lit is iLit's text; ranges and neg iClass's and iRepeat's class.
	lit    string
	ranges string
	neg    bool
	// x is iSplit's preferred branch (y the other), iJmp's target and
	// iSave's slot; min and max bound iRepeat (max -1: no bound).
	x, y     int
	min, max int
	lazy     bool
}

const (
	iLit = iota
	iClass
	// iRepeat repeats a class, as many times as it can first (fewest
	// first when lazy).
	iRepeat
	iSplit
	iJmp
	iSave
	iBegin
	iWordBoundary
	iMatch
)

// maxGroups bounds a pattern's groups: a match keeps its submatches in an
// array.
const maxGroups = 7

// compile appends n's instructions to prog.
func compile(prog []inst, n *node) []inst {
	switch n.op {
	case opLit:
		return append(prog, inst{op: iLit, lit: n.lit})
	case opClass:
		return append(prog, inst{op: iClass, ranges: n.ranges, neg: n.neg})
	case opSeq:
		for _, sub := range n.sub {
			prog = compile(prog, sub)
		}
		return prog
	case opAlt:
		// split L1, next; L1: a; jmp end; next: split L2, ...; last
		var jmps []int
		for k, a := range n.sub {
			split := -1
			if k < len(n.sub)-1 {
				split = len(prog)
				prog = append(prog, inst{op: iSplit, x: split + 1})
			}
			prog = compile(prog, a)
			if split >= 0 {
				jmps = append(jmps, len(prog))
				prog = append(prog, inst{op: iJmp})
				prog[split].y = len(prog)
			}
		}
		for _, j := range jmps {
			prog[j].x = len(prog)
		}
		return prog
	case opRepeat:
		sub := n.sub[0]
		// A class repeated at most 80 times, or an ASCII one, is one
		// instruction.
		if sub.op == opClass && (!sub.neg || n.max >= 0 && n.max <= maxRepeatClass) {
			return append(prog, inst{op: iRepeat, ranges: sub.ranges, neg: sub.neg, min: n.min, max: n.max, lazy: n.lazy})
		}
		for range n.min {
			prog = compile(prog, sub)
		}
		if n.max < 0 {
			if empty(sub) {
				// Its loop would never end.
				panic("kernlog: pattern: a repeat without bound of what may match nothing")
			}
			// L: split body, end; body; jmp L
			loop := len(prog)
			prog = append(prog, inst{op: iSplit})
			prog = compile(prog, sub)
			prog = append(prog, inst{op: iJmp, x: loop})
			prog[loop].x, prog[loop].y = loop+1, len(prog)
			if n.lazy {
				prog[loop].x, prog[loop].y = prog[loop].y, prog[loop].x
			}
			return prog
		}
		// Each optional copy: split body, end.
		var splits []int
		for range n.max - n.min {
			splits = append(splits, len(prog))
			prog = append(prog, inst{op: iSplit})
			prog = compile(prog, sub)
		}
		for _, sp := range splits {
			prog[sp].x, prog[sp].y = sp+1, len(prog)
			if n.lazy {
				prog[sp].x, prog[sp].y = prog[sp].y, prog[sp].x
			}
		}
		return prog
	case opGroup:
		if n.group >= maxGroups {
			panic("kernlog: pattern: too many groups")
		}
		prog = append(prog, inst{op: iSave, x: 2 * n.group})
		prog = compile(prog, n.sub[0])
		return append(prog, inst{op: iSave, x: 2*n.group + 1})
	case opBegin:
		return append(prog, inst{op: iBegin})
	}
	return append(prog, inst{op: iWordBoundary})
}

// empty reports whether n may match the empty string.
func empty(n *node) bool {
	switch n.op {
	case opLit:
		return n.lit == ""
	case opClass:
		return false
	case opSeq:
		for _, sub := range n.sub {
			if !empty(sub) {
				return false
			}
		}
		return true
	case opAlt:
		for _, sub := range n.sub {
			if empty(sub) {
				return true
			}
		}
		return false
	case opRepeat:
		return n.min == 0 || empty(n.sub[0])
	case opGroup:
		return empty(n.sub[0])
	}
	return true
}

// maxRepeatClass bounds the repeat of a class of multi-byte characters
// run as one instruction: its matcher keeps where each character ends.
const maxRepeatClass = 80

// matcher is one match of a pattern against s.
type matcher struct {
	prog []inst
	s    string
	caps [2 * maxGroups]int
}

// FindStringSubmatch returns the leftmost match of p in s and its
// groups' matches ("" for a group that took no part), or nil, as
// regexp.Regexp's method of that name does.
func (p *pattern) FindStringSubmatch(s string) []string {
	m := matcher{prog: p.prog, s: s}
	for i := 0; i <= len(s); {
		if p.prefix != "" {
			// No match starts before the next copy of the pattern's
			// first literal.
			k := strings.Index(s[i:], p.prefix)
			if k < 0 {
				return nil
			}
			i += k
		}
		for j := range m.caps {
			m.caps[j] = -1
		}
		if m.run(0, i) {
			m.caps[0] = i
			out := make([]string, p.groups+1)
			for g := range out {
				if m.caps[2*g] >= 0 {
					out[g] = s[m.caps[2*g]:m.caps[2*g+1]]
				}
			}
			return out
		}
		if p.anchored || i == len(s) {
			break
		}
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	return nil
}

// FindString returns the leftmost match of p in s, or "".
func (p *pattern) FindString(s string) string {
	if m := p.FindStringSubmatch(s); m != nil {
		return m[0]
	}
	return ""
}

// run runs the program from pc at i and reports whether it matches,
// trying the branches in order of preference; the match's end is caps[1].
func (m *matcher) run(pc, i int) bool {
	for {
		in := &m.prog[pc]
		switch in.op {
		case iLit:
			if !strings.HasPrefix(m.s[i:], in.lit) {
				return false
			}
			i += len(in.lit)
		case iClass:
			w := m.class(in, i)
			if w == 0 {
				return false
			}
			i += w
		case iRepeat:
			return m.repeat(in, pc, i)
		case iSplit:
			if m.run(in.x, i) {
				return true
			}
			pc = in.y
			continue
		case iJmp:
			pc = in.x
			continue
		case iSave:
			old := m.caps[in.x]
			m.caps[in.x] = i
			if m.run(pc+1, i) {
				return true
			}
			m.caps[in.x] = old
			return false
		case iBegin:
			if i != 0 {
				return false
			}
		case iWordBoundary:
			before := i > 0 && isWordByte(m.s[i-1])
			after := i < len(m.s) && isWordByte(m.s[i])
			if before == after {
				return false
			}
		default: // iMatch
			m.caps[1] = i
			return true
		}
		pc++
	}
}

// repeat runs the repeat of a class at pc: the rest of the program after
// each count of its characters, most first (fewest when lazy).
func (m *matcher) repeat(in *inst, pc, i int) bool {
	if !in.neg {
		// An ASCII class: each character is a byte.
		n := 0
		for (in.max < 0 || n < in.max) && m.class(in, i+n) == 1 {
			n++
		}
		if in.lazy {
			for c := in.min; c <= n; c++ {
				if m.run(pc+1, i+c) {
					return true
				}
			}
			return false
		}
		for c := n; c >= in.min; c-- {
			if m.run(pc+1, i+c) {
				return true
			}
		}
		return false
	}
	var ends [maxRepeatClass + 1]int
	ends[0] = i
	n := 0
	for j := i; n < in.max; n++ {
		w := m.class(in, j)
		if w == 0 {
			break
		}
		j += w
		ends[n+1] = j
	}
	if in.lazy {
		for c := in.min; c <= n; c++ {
			if m.run(pc+1, ends[c]) {
				return true
			}
		}
		return false
	}
	for c := n; c >= in.min; c-- {
		if m.run(pc+1, ends[c]) {
			return true
		}
	}
	return false
}

// class returns the width of the character at i when n's class holds
// it, else 0: a byte that is not UTF-8 is one character, U+FFFD, as
// package regexp reads it.
func (m *matcher) class(n *inst, i int) int {
	if i >= len(m.s) {
		return 0
	}
	c, w := m.s[i], 1
	if c >= utf8.RuneSelf {
		_, w = utf8.DecodeRuneInString(m.s[i:])
		// No ASCII range holds it.
		if n.neg {
			return w
		}
		return 0
	}
	in := false
	for r := 0; r < len(n.ranges); r += 2 {
		if n.ranges[r] <= c && c <= n.ranges[r+1] {
			in = true
			break
		}
	}
	if in != n.neg {
		return w
	}
	return 0
}
