package kernlog

import (
	"strings"
	"time"
)

// datedClock reads a time stamp whose date is written in an order of its
// own before the time of day, as some viewers, NAS pages and locales write
// it: "12/05/2026 10:00:00", "05.12.2026 10:00:00.123", "2026 Dec  5
// 10:00:00", "Dec 05 2026 10:00:00". Which of "12/05" is the month is not
// known, so the date is dropped and the time of day kept (NoDate, as for
// "07:45:58 kernel: ..."), unless the month is named and the year given
// (namedDate); n is the length of the stamp. The date is at most
// 24 bytes of digit groups (joined by '/', '.', '-' or ','), month and
// weekday names, one of them with a digit.
func datedClock(s string) (ts Timestamp, n int, ok bool) {
	digit := false
	for i := 0; i < len(s) && i <= 24; i++ {
		c := s[i]
		switch {
		case isDigit(c):
			if i > 0 && s[i-1] == ' ' && digit {
				if d, k, ok := parseClock(s[i:]); ok && dateWords(s[:i]) {
					if y, m, day, ok := namedDate(s[:i]); ok {
						// The month by its name and a year: the date is
						// certain ("Mar 14 2025", GNOME Logs' export of
						// an earlier year's line).
						ts.Wall, ts.HasWall, ts.NoZone = time.Date(y, m, day, 0, 0, 0, 0, time.UTC).Add(d), true, true
						return ts, i + k, true
					}
					ts.Wall, ts.HasWall, ts.NoYear, ts.NoDate = time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC).Add(d), true, true, true
					return ts, i + k, true
				}
			}
			digit = true
		case c == '/' || c == '.' || c == '-' || c == ',' || c == ' ' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		default:
			return Timestamp{}, 0, false
		}
	}
	return Timestamp{}, 0, false
}

// dateWords reports whether every word of s is a group of digits joined by
// '/', '.', '-' or ',' ("12/05/2026", "2026", "05,") or a month's or a
// weekday's name ("Dec", "Sat,").
func dateWords(s string) bool {
	for _, w := range strings.Fields(s) {
		w = strings.TrimSuffix(w, ",")
		if isMonth(w) || isWeekday(w) {
			continue
		}
		if w == "" || !isDigit(w[0]) || !isDigit(w[len(w)-1]) {
			return false
		}
		for i := 0; i < len(w); i++ {
			if c := w[i]; !isDigit(c) && c != '/' && c != '.' && c != '-' {
				return false
			}
		}
	}
	return true
}

// namedDate reads a date of a month's name, a day and a year of four
// digits, in any order, a weekday's name beside them or not ("Mar 14
// 2025", "2026 Dec  5", "Sat, 5 Dec 2026").
func namedDate(s string) (year int, month time.Month, day int, ok bool) {
	for _, w := range strings.Fields(s) {
		w = strings.TrimSuffix(w, ",")
		switch {
		case isWeekday(w):
		case isMonth(w) && month == 0:
			month = monthOf(w)
		case len(w) == 4 && allDigits(w) && year == 0:
			year = atoi(w)
		case len(w) <= 2 && allDigits(w) && day == 0:
			day = atoi(w)
		default:
			return 0, 0, 0, false
		}
	}
	return year, month, day, year >= 1970 && month != 0 && day >= 1 && day <= 31
}
