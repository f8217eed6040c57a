#!/bin/sh
# buildcost.sh: what a cold `go test ./...` spends, by tool, from one
# command (run from the top of the clone; docs/testing.md has the figures):
#
#   sh internal/tools/buildcost/buildcost.sh
#
# It runs `go test ./...` twice with a new, empty build cache each time:
# once plain (the figure the README quotes: CPU user + system of the go
# command and everything it waits for), and once with -toolexec wrapping
# every compile, vet, link and asm in /usr/bin/time, so that their CPU is
# summed per tool and, for compile, split into the standard library, the
# other modules (testify, rapid, x/sys) and this module. What the tools do
# not account for is the tests running and the go command itself. The
# wrapped run costs a little more than the plain one (a shell and a time
# process per tool call). Needs GNU time (/usr/bin/time).
set -eu
[ -x /usr/bin/time ] || { echo "buildcost: needs GNU time at /usr/bin/time (apt-get install time)" >&2; exit 2; }
work=$(mktemp -d /tmp/buildcost.XXXXXX)
trap 'rm -rf "$work"' EXIT INT TERM HUP
cat >"$work/tx.sh" <<'TX'
#!/bin/sh
tool=$(basename "$1")
pkg=-
prev=
for a in "$@"; do
	[ "$prev" = -p ] && pkg=$a
	prev=$a
done
exec /usr/bin/time -a -o "$BUILDCOST_LOG" -f "%U %S $tool $pkg" "$@"
TX
chmod +x "$work/tx.sh"

GOCACHE="$work/cache1" /usr/bin/time -o "$work/plain" -f '%U %S %e' go test ./... >"$work/plain.out" 2>&1 || { cat "$work/plain.out"; exit 1; }
BUILDCOST_LOG="$work/tools.log" GOCACHE="$work/cache2" /usr/bin/time -o "$work/wrapped" -f '%U %S %e' \
	go test -toolexec="$work/tx.sh" ./... >"$work/wrapped.out" 2>&1 || { cat "$work/wrapped.out"; exit 1; }

mod=$(go list -m)
awk '{ printf "cold go test ./...: %.0f s CPU (user %.0f + system %.0f), %.0f s wall\n", $1 + $2, $1, $2, $3 }' "$work/plain"
awk -v mod="$mod" -v total="$(awk '{ print $1 + $2 }' "$work/wrapped")" '
	{ c = $1 + $2; tool[$3] += c; calls[$3]++; sum += c }
	$3 == "compile" && index($4, mod) == 1 { own += c; next }
	$3 == "compile" && $4 ~ /\./ { deps += c; next }
	$3 == "compile" { std += c }
	END {
		printf "the same with -toolexec: %.0f s CPU, of which:\n", total
		printf "  compile, standard library  %6.1f s\n", std
		printf "  compile, other modules     %6.1f s\n", deps
		printf "  compile, this module       %6.1f s (packages and their test variants)\n", own
		for (t in tool) if (t != "compile") printf "  %-26s %6.1f s (%d calls)\n", t, tool[t], calls[t]
		printf "  the rest (tests running, the go command) %.1f s\n", total - sum
	}' "$work/tools.log"
echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg), $(go version)"
