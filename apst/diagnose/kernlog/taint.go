package kernlog

import "strings"

// taintRelease is the kernel release a dump's taint line names, in
// bootRelease's form, or "": the line a warning, an oops or a hung-task
// report prints with the kernel's taint flags and uname -r and -v
// (lib/dump_stack.c's "CPU: 3 PID: 1 Comm: kworker/3:1 Not tainted
// 6.1.0-18-amd64 #1 Debian 6.1.76-1", kernel/hung_task.c's "      Tainted:
// G            E       6.13.2-ge5f37b497f62 #1"). A log pasted without its
// boot's "Linux version" line often has one. The flags are capital
// letters; since 6.12 the letters are spelled out on a line of their own
// ("Tainted: [W]=WARN, [O]=OOT_MODULE"), which names no release.
func taintRelease(msg string) string {
	var rest string
	if _, after, ok := strings.Cut(msg, "Not tainted "); ok {
		rest = after
	} else if _, after, ok := strings.Cut(msg, "Tainted: "); ok {
		rest = strings.TrimLeft(after, " ABCDEFGHIJKLMNOPQRSTUVWXYZ")
		if len(rest) == len(after) || rest != "" && after[len(after)-len(rest)-1] != ' ' {
			return "" // no flags, or a release that began with a capital
		}
	} else {
		return ""
	}
	rest = strings.TrimLeft(rest, " ")
	rel, _, _ := strings.Cut(rest, " ")
	x, y, ok := strings.Cut(rel, ".")
	if !ok || x == "" || len(x) > 2 || !allDigits(x) || y == "" || !isDigit(y[0]) {
		return ""
	}
	return clip(bootRelease(rest))
}
