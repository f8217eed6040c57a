package udev

import "strings"

// Match reports whether s matches the udev pattern, as udev's fnmatch does
// for match keys. The pattern is alternatives separated by |, each a shell
// glob with * ? and [...] ([!...] or [^...] negated, a-z ranges); a pattern
// with none of * ? [ is compared as plain strings, as udev does (a
// backslash is then itself, not an escape).
func Match(pattern, s string) bool { return globMatch(pattern, s) }

// Glob reports whether s matches the one shell glob p (fnmatch(3) with no
// flags; no | alternatives), as a path component of /sys/class/nvme/nvme*.
func Glob(p, s string) bool { return fnmatch(p, s) }

// globMatch is Match. As udev does, a pattern without * ? or [ in any of
// its alternatives is compared as plain strings (a backslash is itself),
// one with them by fnmatch(3) in every alternative.
func globMatch(pattern, s string) bool {
	glob := strings.ContainsAny(pattern, "*?[")
	for _, alt := range strings.Split(pattern, "|") {
		if glob && fnmatch(alt, s) || !glob && alt == s {
			return true
		}
	}
	return false
}

// fnmatch is fnmatch(3) with no flags; a malformed [ matches itself.
func fnmatch(p, s string) bool {
	// Iterative with one backtrack point for the last *.
	pi, si := 0, 0
	starP, starS := -1, 0
	for si < len(s) {
		if pi < len(p) {
			switch p[pi] {
			case '*':
				starP, starS = pi, si
				pi++
				continue
			case '?':
				pi++
				si++
				continue
			case '[':
				if ok, n, valid := matchClass(p[pi:], s[si]); valid {
					if ok {
						pi += n
						si++
						continue
					}
				} else if s[si] == '[' {
					pi++
					si++
					continue
				}
			case '\\':
				if pi+1 < len(p) && p[pi+1] == s[si] {
					pi += 2
					si++
					continue
				}
			default:
				if p[pi] == s[si] {
					pi++
					si++
					continue
				}
			}
		}
		if starP < 0 {
			return false
		}
		starS++
		pi, si = starP+1, starS
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}

// matchClass matches c against the bracket expression at the start of p
// ("[a-z]..."), returning whether it matched, the expression's length and
// whether it is well formed.
func matchClass(p string, c byte) (matched bool, n int, valid bool) {
	i := 1
	neg := false
	if i < len(p) && (p[i] == '!' || p[i] == '^') {
		neg = true
		i++
	}
	first := true
	for i < len(p) {
		if p[i] == ']' && !first {
			return matched != neg, i + 1, true
		}
		first = false
		lo := p[i]
		hi := lo
		if i+2 < len(p) && p[i+1] == '-' && p[i+2] != ']' {
			hi = p[i+2]
			i += 2
		}
		if lo <= c && c <= hi {
			matched = true
		}
		i++
	}
	return false, 0, false
}
