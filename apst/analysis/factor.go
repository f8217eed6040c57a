package analysis

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"

	"github.com/nvmeapst/nvmeapst/apst"
)

// Factor is an exact rational factor Num/Den that scales advertised exit
// latencies to measured ones (the seeds measured 0.78 on a Samsung 990 EVO
// Plus: 33.5 ms against the advertised 43 ms). The zero value means 1 (no
// scaling); Den 0 is read as 1/1 whatever Num is.
type Factor struct {
	Num, Den uint64
}

// Apply scales us by the factor, rounding up to a whole microsecond (a stall
// estimate errs long), and saturates at NoLimit.
func (f Factor) Apply(us apst.Microseconds) apst.Microseconds {
	if f.Den == 0 {
		return us
	}
	hi, lo := bits.Mul64(uint64(us), f.Num)
	if hi >= f.Den {
		return apst.NoLimit
	}
	q, r := bits.Div64(hi, lo, f.Den)
	if r != 0 {
		if q == math.MaxUint64 {
			return apst.NoLimit
		}
		q++
	}
	return apst.Microseconds(q)
}

// IsOne reports whether the factor leaves latencies unchanged.
func (f Factor) IsOne() bool { return f.Den == 0 || f.Num == f.Den }

// String formats the factor as a decimal when it has an exact one ("0.78",
// "1"), as a fraction ("2/3") otherwise.
func (f Factor) String() string {
	if f.Den == 0 {
		return "1"
	}
	g := gcd(f.Num, f.Den)
	num, den := f.Num/g, f.Den/g
	if den == 1 {
		return strconv.FormatUint(num, 10)
	}
	p10, k := uint64(1), 0
	for k < 19 {
		p10 *= 10
		k++
		if p10%den == 0 {
			if hi, lo := bits.Mul64(num, p10/den); hi == 0 {
				s := strconv.FormatUint(lo, 10)
				for len(s) <= k {
					s = "0" + s
				}
				s = s[:len(s)-k] + "." + s[len(s)-k:]
				return strings.TrimRight(strings.TrimRight(s, "0"), ".")
			}
			break
		}
	}
	return strconv.FormatUint(num, 10) + "/" + strconv.FormatUint(den, 10)
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	if a == 0 {
		return 1
	}
	return a
}

// ParseFactor parses an exit-latency factor exactly: a decimal ("0.78",
// "1"), a percentage ("78%"), a per-mille value ("780‰") or a fraction
// ("39/50"). Negative values and a zero denominator are errors wrapping
// ErrInvalidFactor.
func ParseFactor(s string) (Factor, error) {
	bad := func() (Factor, error) {
		return Factor{}, fmt.Errorf("%w %q: want a decimal (0.78), a percentage (78%%) or a fraction (39/50)", ErrInvalidFactor, s)
	}
	t := strings.TrimSpace(s)
	scale := uint64(1)
	if v, ok := strings.CutSuffix(t, "%"); ok {
		t, scale = v, 100
	} else if v, ok := strings.CutSuffix(t, "‰"); ok {
		t, scale = v, 1000
	}
	if n, d, ok := strings.Cut(t, "/"); ok {
		num, err1 := strconv.ParseUint(strings.TrimSpace(n), 10, 64)
		den, err2 := strconv.ParseUint(strings.TrimSpace(d), 10, 64)
		if err1 != nil || err2 != nil || den == 0 {
			return bad()
		}
		hi, den := bits.Mul64(den, scale)
		if hi != 0 {
			return bad()
		}
		g := gcd(num, den)
		return Factor{Num: num / g, Den: den / g}, nil
	}
	ip, fp, _ := strings.Cut(t, ".")
	if ip == "" && fp == "" || len(fp) > 18 || !allDigits(ip) || !allDigits(fp) {
		return bad()
	}
	num, err := strconv.ParseUint(ip+fp, 10, 64)
	if err != nil {
		return bad()
	}
	den := scale
	for range len(fp) {
		hi, lo := bits.Mul64(den, 10)
		if hi != 0 {
			return bad()
		}
		den = lo
	}
	g := gcd(num, den)
	return Factor{Num: num / g, Den: den / g}, nil
}

func allDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
