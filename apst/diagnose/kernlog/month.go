package kernlog

import (
	"strings"
	"time"
	"unicode/utf8"
)

// months are the month names journalctl and syslog print under the locales
// users paste logs from (LC_TIME), lower-cased and without a final ".":
// English, German, French, Spanish, Italian, Portuguese, Dutch, Polish and
// Russian. The Chinese and Japanese "3月" and the Korean "3월" are read by
// number; any other name leaves the date out (Timestamp.NoDate).
var months = map[string]time.Month{
	"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
	// German.
	"mär": 3, "mrz": 3, "mai": 5, "okt": 10, "dez": 12,
	// French.
	"janv": 1, "févr": 2, "fevr": 2, "mars": 3, "avr": 4, "juin": 6, "juil": 7, "août": 8, "aout": 8, "sept": 9, "déc": 12,
	// Spanish, Italian, Portuguese.
	"ene": 1, "abr": 4, "ago": 8, "dic": 12, "gen": 1, "mag": 5, "giu": 6, "lug": 7, "set": 9, "ott": 10, "fev": 2, "out": 10,
	// Dutch.
	"mrt": 3, "mei": 5,
	// Polish.
	"sty": 1, "lut": 2, "kwi": 4, "maj": 5, "cze": 6, "lip": 7, "sie": 8, "wrz": 9, "paź": 10, "lis": 11, "gru": 12,
	// Russian.
	"янв": 1, "фев": 2, "мар": 3, "апр": 4, "мая": 5, "май": 5, "июн": 6, "июл": 7, "авг": 8, "сен": 9, "окт": 10, "ноя": 11, "дек": 12,
}

// monthOf returns the month a name stands for, or 0.
func monthOf(name string) time.Month {
	if len(name) == 3 {
		switch name {
		case "Jan":
			return time.January
		case "Feb":
			return time.February
		case "Mar":
			return time.March
		case "Apr":
			return time.April
		case "May":
			return time.May
		case "Jun":
			return time.June
		case "Jul":
			return time.July
		case "Aug":
			return time.August
		case "Sep":
			return time.September
		case "Oct":
			return time.October
		case "Nov":
			return time.November
		case "Dec":
			return time.December
		}
	}
	name = strings.TrimSuffix(name, ".")
	if n, ok := strings.CutSuffix(name, "月"); ok {
		return numberedMonth(n)
	}
	if n, ok := strings.CutSuffix(name, "월"); ok {
		return numberedMonth(n)
	}
	if len(name) > 12 {
		return 0
	}
	return months[strings.ToLower(name)]
}

func numberedMonth(n string) time.Month {
	if n == "" || len(n) > 2 || !allDigits(n) {
		return 0
	}
	if m := atoi(n); m >= 1 && m <= 12 {
		return time.Month(m)
	}
	return 0
}

// parseLocalSyslogTime parses a journal or syslog time whose month may be
// spelt in any language: "Mär 21 22:57:44", "3月 13 18:33:21", "നവം 27
// 11:06:53". It returns the time stamp (without the year; without the date
// when the month is not known) and the length it took.
func parseLocalSyslogTime(s string) (Timestamp, int, bool) {
	sp := strings.IndexByte(s, ' ')
	if sp < 1 || sp > 24 || !utf8.ValidString(s[:sp]) {
		return Timestamp{}, 0, false
	}
	i := sp
	for i < len(s) && s[i] == ' ' {
		i++
	}
	j := i
	for j < len(s) && j-i < 2 && isDigit(s[j]) {
		j++
	}
	if j == i || j >= len(s) || s[j] != ' ' {
		return Timestamp{}, 0, false
	}
	day := atoi(s[i:j])
	for j < len(s) && s[j] == ' ' {
		j++
	}
	d, n, ok := parseClock(s[j:])
	if !ok || day < 1 || day > 31 {
		return Timestamp{}, 0, false
	}
	ts := Timestamp{HasWall: true, NoYear: true}
	if m := monthOf(s[:sp]); m != 0 {
		ts.Wall = time.Date(0, m, day, 0, 0, 0, 0, time.UTC).Add(d)
	} else {
		ts.Wall, ts.NoDate = time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC).Add(d), true
	}
	return ts, j + n, true
}

// parseLocalCtime parses dmesg -T's time (inside its brackets) when the
// C library printed the weekday and the month in the user's language
// ("Ter Set 19 06:01:41 2017", "lun. déc.  4 10:00:00 2026", "木 12月  3
// 10:00:00 2026"): a weekday word, a month word, the day, the time of day
// and the year. The weekday is not checked; a month that monthOf does not
// know leaves the date out (Timestamp.NoDate).
func parseLocalCtime(inner string) (Timestamp, bool) {
	f := strings.Fields(inner)
	if len(f) != 5 || len(f[0]) > 16 || !utf8.ValidString(f[0]) || strings.ContainsAny(f[0], "0123456789:") {
		return Timestamp{}, false
	}
	day := 0
	if len(f[2]) <= 2 && allDigits(f[2]) {
		day = atoi(f[2])
	}
	d, n, ok := parseClock(f[3])
	if !ok || n != len(f[3]) || day < 1 || day > 31 || len(f[4]) != 4 || !allDigits(f[4]) {
		return Timestamp{}, false
	}
	year := atoi(f[4])
	if m := monthOf(f[1]); m != 0 {
		return Timestamp{Wall: time.Date(year, m, day, 0, 0, 0, 0, time.UTC).Add(d), HasWall: true, NoZone: true}, true
	}
	return Timestamp{Wall: time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC).Add(d), HasWall: true, NoZone: true, NoYear: true, NoDate: true}, true
}
