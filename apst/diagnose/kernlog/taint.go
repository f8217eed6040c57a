package kernlog

import "strings"

// taintLine reads a dump's taint line: the kernel release it names, in
// bootRelease's form, and its taint flags but G ("OE" of "Tainted: G
// OE 6.8.0-117-generic #117-Ubuntu"; "" for "Not tainted"); ok is false
// for a line that is none: the line a warning, an oops or a hung-task
// report prints with the kernel's taint flags and uname -r and -v
// (lib/dump_stack.c's "CPU: 3 PID: 1 Comm: kworker/3:1 Not tainted
// 6.1.0-18-amd64 #1 Debian 6.1.76-1", kernel/hung_task.c's "      Tainted:
// G            E       6.13.2-ge5f37b497f62 #1"). A log pasted without its
// boot's "Linux version" line often has one. The flags are capital
// letters; since 6.12 the letters are spelled out on a line of their own
// ("Tainted: [W]=WARN, [O]=OOT_MODULE"), which names no release.
func taintLine(msg string) (release, flags string, ok bool) {
	var rest string
	if _, after, found := strings.Cut(msg, "Not tainted "); found {
		rest = after
	} else if _, after, found := strings.Cut(msg, "Tainted: "); found {
		rest = strings.TrimLeft(after, " ABCDEFGHIJKLMNOPQRSTUVWXYZ")
		if len(rest) == len(after) || rest != "" && after[len(after)-len(rest)-1] != ' ' {
			return "", "", false // no flags, or a release that began with a capital
		}
		for _, c := range []byte(after[:len(after)-len(rest)]) {
			if c != ' ' && c != 'G' {
				flags += string(c)
			}
		}
	} else {
		return "", "", false
	}
	rest = strings.TrimLeft(rest, " ")
	rel, _, _ := strings.Cut(rest, " ")
	x, y, found := strings.Cut(rel, ".")
	if !found || x == "" || len(x) > 2 || !allDigits(x) || y == "" || !isDigit(y[0]) {
		return "", "", false
	}
	return clip(bootRelease(rest)), flags, true
}
