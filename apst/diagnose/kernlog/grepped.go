package kernlog

// afterGrep removes what a search or a listing put before each line of a
// log, when a log line's stamp follows it: json-seq's record separator
// (journalctl -o json-seq, RFC 7464; "=1E" in quoted-printable), grep's file name and line number
// ("/var/log/kern.log.1:Dec  5 04:55:59 host kernel: ...", of grep -H or
// grep over several files; "syslog:812:...", "812:[   12.345678] ...", of
// grep -n) and cat -n's line number and tab. Event.Raw is the line
// without it. After a colon or a tab, a digit must start an ISO date, not
// the rest of a time of day ("07:45:58" is no line 7).
func afterGrep(b []byte) []byte {
	i := 0
	for i < len(b) && quoteByte(b[i]) {
		i++
	}
	for j := i; j < len(b)-1 && j-i < 256; j++ {
		switch c := b[j]; {
		case c == 0x1e && j == i:
			return b[j+1:]
		case c == '=' && j == i && len(b) > j+3 && b[j+1] == '1' && b[j+2] == 'E' && b[j+3] == '{':
			return b[j+3:] // the separator as quoted-printable mail writes it
		case c == ':' || c == '\t':
			if r := b[j+1:]; r[0] != ' ' && stampedBytes(r) && (!isDigit(r[0]) || len(r) > 10 && r[4] == '-' && r[7] == '-') {
				return r
			}
		case c < '+' || c > 'z' || c == '[':
			// No file name or line number: a blank, dmesg's "[".
			return b
		}
	}
	return b
}
