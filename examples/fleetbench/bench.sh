#!/bin/sh
# bench.sh: the fleet survey, trace replay and plan figures of the README,
# against a C read floor, wc -l and a C loop, from one command:
#
#   sh examples/fleetbench/bench.sh [WORKDIR]      (from the top of the clone)
#
# It builds apstctl, a C read floor (floor.c, gcc -O2) and the C reference
# loop of apst.Build (build.c), writes the
# synthetic fleets into WORKDIR (default: a new directory under /tmp;
# about 1 GB for 200,000 reports): the smartctl reports of the corpus copied
# round-robin into folders of 1,000, each copy's serial number rewritten to
# be unique (internal/tools/fleetgen -copy), and the 4096-byte Identify images
# likewise; then times, best of 3 after one warm-up on a warm page cache,
# each command in turn with what it is compared with (A B A B A B):
#   - apstctl survey DIR (default flags, text report to /dev/null) against
#     the floor, for 100,000 smartctl reports and 100,000 binary images, and
#     apstctl survey -o ndjson DIR for the smartctl reports;
#   - the peak RSS growth per drive, 200,000 against 100,000 reports
#     (the median of three runs of each; /usr/bin/time -f %M), for the
#     text and the NDJSON reports;
#   - apstctl replay of blkparse traces in blkparse's default layout
#     ("%D %2c %8s %5T.%9t %5p %2a %3d ", tracegen), 3,000,000 lines each:
#     the five lines of each command of a plain trace (Q G I D C) and the
#     two of `blkparse -a issue -a complete` (D C); and of the other trace
#     formats; each against `wc -l` of the same file;
#   - BenchmarkBuild (go test -bench, -cpu 1) against build.c's loop (least
#     of 5 rounds), for
#     the 990 EVO Plus and the 32-state controller: the default call (the
#     quirk lookup included) and the replica alone (quirks given);
#   - BenchmarkInspectBundle (System.Inspect of the three-controller
#     bundle of testdata/bundle, per call after the first) against the
#     floor reading the same files (floor -r: lstat, open, read and close
#     of each, and the bare open, read and close).
# It prints the ratios as a table. Without gcc the floor is skipped (with
# a message), and so are its ratios. BENCH_N sets the fleet size (100000),
# BENCH_LINES the lines of each blkparse trace (3000000), BENCH_TRACE the
# commands of each trace of another format (1000000).
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:-$(mktemp -d /tmp/fleetbench.XXXXXX)}
n=${BENCH_N:-100000}
cmds=${BENCH_TRACE:-1000000} # commands per synthetic trace of another format
lines=${BENCH_LINES:-3000000} # lines per blkparse trace
mkdir -p "$work"
cd "$top"

echo "building apstctl and the fleet generator into $work" >&2
go build -o "$work/apstctl" ./examples/apstctl
go build -o "$work/fleetgen" ./internal/tools/fleetgen
go build -o "$work/tracegen" ./internal/tools/tracegen
go test -c -o "$work/apst.test" ./apst
go test -c -o "$work/root.test" .
floor="" cbuild=""
if command -v gcc >/dev/null 2>&1; then
	gcc -O2 -o "$work/floor" examples/fleetbench/floor.c
	gcc -O2 -o "$work/build" examples/fleetbench/build.c
	floor="$work/floor" cbuild="$work/build"
else
	echo "no gcc: the C read floor and its ratios are skipped" >&2
fi

fleet() { # fleet FORMAT N DIR
	if [ ! -d "$3" ]; then
		echo "writing $2 $1 captures to $3" >&2
		"$work/fleetgen" -copy -n "$2" -format "$1" -out "$3" -corpus testdata/corpus/smartctl -images testdata/corpus/binary/synthetic
	fi
}
fleet smartctl "$n" "$work/smartctl-$n"
fleet binary "$n" "$work/binary-$n"
fleet smartctl "$((2 * n))" "$work/smartctl-$((2 * n))"

# timed CMD...: prints "WALL USER SYS" in seconds for one run of CMD:
# bash's time keyword, to the millisecond and with nothing but CMD inside
# the timed part, where there is bash; /usr/bin/time (wall to 10 ms)
# otherwise. wc -l reads the 192 MB blkparse trace in about 0.05 s, so a
# 10 ms step moves the replay ratio by a fifth.
if command -v bash >/dev/null 2>&1; then
	timed() { bash -c 'TIMEFORMAT="%3R %3U %3S"; { time "$@" >/dev/null 2>&1; } 2>&1' timed "$@"; }
else
	timed() {
		/usr/bin/time -o "$work/.time" -f '%e %U %S' "$@" >/dev/null 2>&1 || true
		tail -1 "$work/.time"
	}
fi

# lesser A B: the lesser of two numbers; A when B is empty.
lesser() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == "" || a + 0 < b + 0) print a; else print b }'; }
# cpu USER SYS: their sum, to 10 ms.
cpu() { awk -v u="$1" -v s="$2" 'BEGIN { printf "%.2f", u + s }'; }

# Each figure is the least wall time of 3 runs after one warm-up, with the
# least CPU time (user+sys) of the 3, the figure to compare on a machine
# that is not quiet. A command and the floor it is compared with run in
# turn (A B A B A B), so that a change in the machine's speed between rounds
# (a shared virtual machine's moves by a fifth from minute to minute)
# touches both alike. Each round: a_run and b_run (set by the caller) run
# once each; the least figures are left in aw ac bw bc.
rounds() {
	a_run >/dev/null 2>&1 || true
	b_run >/dev/null 2>&1 || true
	aw="" ac="" bw="" bc=""
	for _ in 1 2 3; do
		set -- $(a_timed)
		aw=$(lesser "$1" "$aw") ac=$(lesser "$(cpu "$2" "$3")" "$ac")
		set -- $(b_timed)
		bw=$(lesser "$1" "$bw") bc=$(lesser "$(cpu "$2" "$3")" "$bc")
	done
}
# rss CMD...: the peak RSS in KiB, the median of three runs (one run's peak
# moves by about 20 B a drive with the collector's timing).
rss() {
	for _ in 1 2 3; do
		/usr/bin/time -o "$work/.time" -f %M "$@" >/dev/null 2>&1 || true
		tail -1 "$work/.time"
	done | sort -n | sed -n 2p
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2fx", a / b; else print "-" }'; }

printf '| what | measured (wall) | CPU user+sys | goal |\n| --- | --- | --- | --- |\n'
for f in smartctl smartctl-ndjson binary; do
	dir=$f out=""
	[ "$f" = smartctl-ndjson ] && dir=smartctl out="-o ndjson"
	a_run() { "$work/apstctl" survey $out "$work/$dir-$n"; }
	a_timed() { timed "$work/apstctl" survey $out "$work/$dir-$n"; }
	if [ -n "$floor" ]; then
		b_run() { "$floor" "$work/$dir-$n"; }
		b_timed() { timed "$floor" "$work/$dir-$n"; }
	else
		b_run() { :; }
		b_timed() { echo 0 0 0; }
	fi
	rounds
	goal="<= 2.0x"
	[ "$f" = binary ] && goal="<= 1.5x"
	[ "$f" = smartctl-ndjson ] && goal="<= 2.5x"
	if [ -n "$floor" ]; then
		printf '| apstctl survey %sover %s %s captures / C read floor | %s s / %s s = **%s** | %s s / %s s = %s | %s |\n' \
			"${out:+$out }" "$n" "$dir" "$aw" "$bw" "$(ratio "$aw" "$bw")" "$ac" "$bc" "$(ratio "$ac" "$bc")" "$goal"
	else
		printf '| apstctl survey %sover %s %s captures | %s s | %s s | (no C floor) |\n' "${out:+$out }" "$n" "$dir" "$aw" "$ac"
	fi
done
for out in "" "-o ndjson"; do
	r1=$(rss "$work/apstctl" survey $out "$work/smartctl-$n")
	r2=$(rss "$work/apstctl" survey $out "$work/smartctl-$((2 * n))")
	printf '| peak RSS growth per drive%s, %s against %s reports | (%s - %s KiB) / %s = **%s B** | | < 200 B |\n' \
		"${out:+ ($out)}" "$((2 * n))" "$n" "$r2" "$r1" "$n" "$(awk -v a="$r1" -v b="$r2" -v n="$n" 'BEGIN { printf "%.0f", (b - a) * 1024 / n }')"
done

cap=testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin
for f in blkparse-QGIDC blkparse-DC biosnoop biosnoop-bpftrace fio-iolog plain; do
	tr="$work/trace.$f"
	case $f in
	blkparse-*)
		mix=${f#blkparse-}
		[ -f "$tr" ] || "$work/tracegen" -format blkparse -actions "$mix" -cpus 4 -n "$((lines / ${#mix}))" -out "$tr"
		;;
	*) [ -f "$tr" ] || "$work/tracegen" -format "$f" -n "$cmds" -out "$tr" ;;
	esac
	a_run() { "$work/apstctl" replay "$cap" "$tr"; }
	a_timed() { timed "$work/apstctl" replay "$cap" "$tr"; }
	b_run() { wc -l "$tr"; }
	b_timed() { timed wc -l "$tr"; }
	rounds
	# The goal is blkparse's (issues 22 and 33); the other formats are
	# measured. Their lines are short (26 to 75 bytes a command, against
	# blkparse's two to five lines of 60 bytes), so wc -l costs a third to
	# a seventh as much per command, while replaying a command costs the
	# same; and they are parsed on one goroutine (the parallel path is
	# blkparse's).
	goal="measured"
	case $f in blkparse-*) goal="<= 5x" ;; esac
	printf '| apstctl replay of a %s trace (%s lines) / wc -l | %s s / %s s = **%s** | %s s / %s s = %s | %s |\n' \
		"$f" "$(wc -l <"$tr")" "$aw" "$bw" "$(ratio "$aw" "$bw")" "$ac" "$bc" "$(ratio "$ac" "$bc")" "$goal"
done

# apst.Build against the C loop: ns a plan, the least of 5 rounds (Go's
# benchmark and the C loop in turn), on one CPU: a round is half a second
# of each, and this machine's speed moves by more than the 1.2x goal's
# margin between rounds (three rounds gave 1.11x, 1.27x and 1.17x for the
# same code within three minutes).
if [ -n "$cbuild" ]; then
	for c in 990-evo-plus npss31; do
		arg=$cap
		[ "$c" = npss31 ] && arg=npss31
		gd="" gg="" cl=""
		for _ in 1 2 3 4 5; do
			set -- $("$work/apst.test" -test.run '^$' -test.bench "^BenchmarkBuild/$c(-quirks-given)?\$" -test.cpu 1 -test.benchtime 500ms |
				awk '/^BenchmarkBuild/ { print $3 }')
			gd=$(lesser "$1" "$gd") gg=$(lesser "$2" "$gg")
			cl=$(lesser "$("$cbuild" "$arg" | awk '{ print $1 }')" "$cl")
		done
		printf '| BenchmarkBuild/%s, default parameters (quirk lookup) / C loop | %s ns / %s ns = **%s** | | <= 3x, 0 allocs |\n' "$c" "$gd" "$cl" "$(ratio "$gd" "$cl")"
		printf '| BenchmarkBuild/%s-quirks-given / C loop | %s ns / %s ns = **%s** | | <= 1.2x |\n' "$c" "$gg" "$cl" "$(ratio "$gg" "$cl")"
	done
fi
# System.Inspect of the bundle against the C floor of reading its files:
# µs a call, the least of 3 rounds of each (Go's benchmark, a mean of
# 2,000 calls; the floor's means of 2,000 rounds, checked and bare).
gi="" ga="" fl="" fb=""
for _ in 1 2 3; do
	set -- $("$work/root.test" -test.run '^$' -test.bench '^BenchmarkInspectBundle$' -test.benchtime 2000x -test.benchmem |
		awk '/^BenchmarkInspectBundle/ { for (i = 1; i < NF; i++) { if ($(i+1) == "ns/op") ns = $i; if ($(i+1) == "allocs/op") al = $i }; print ns / 1000, al }')
	gi=$(lesser "$1" "$gi") ga=$(lesser "$2" "$ga")
	if [ -n "$floor" ]; then
		set -- $("$floor" -r 2000 testdata/bundle)
		fl=$(lesser "$1" "$fl") fb=$(lesser "$8" "$fb")
	fi
done
if [ -n "$floor" ]; then
	printf '| BenchmarkInspectBundle / C floor of its reads, checked (lstat first) | %s µs / %s µs = **%s**, %s allocs | bare C floor (open, read, close): %s µs | <= 200 µs, <= 200 allocs |\n' \
		"$gi" "$fl" "$(ratio "$gi" "$fl")" "$ga" "$fb"
else
	printf '| BenchmarkInspectBundle | %s µs, %s allocs | | <= 200 µs, <= 200 allocs |\n' "$gi" "$ga"
fi
echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
