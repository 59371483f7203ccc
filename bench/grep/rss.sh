#!/usr/bin/env bash
# Peak memory of the grep tool's engine (tools.Search) on huge files: four
# 2 GB sparse files (binary: all NUL) and a 2 GB file with text at its start,
# a hole and a match near its end. Prints the peak RSS (VmHWM, via GNU time's
# %M) of one search, and the match count.
# Usage: bench/grep/rss.sh [grep-bench binary to measure instead of a fresh build]
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ ! -x /usr/bin/time ]; then
	echo "GNU time (/usr/bin/time) not found: apt-get install -y time" >&2
	exit 2
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
bin="${1:-}"
if [ -z "$bin" ]; then
	bin="$work/grep-bench"
	go build -o "$bin" ./bench/grep
fi
tree="$work/tree"
mkdir "$tree"
for i in 0 1 2 3; do
	truncate -s 2G "$tree/sparse$i.dat"
done
awk 'BEGIN { for (i = 0; i < 2000; i++) print "some text before the hole" }' >"$tree/text.log"
truncate -s 2G "$tree/text.log"
printf '\nneedle near the end\n' | dd of="$tree/text.log" bs=1 seek=$(((2 << 30) - 100)) conv=notrunc status=none
start=$(date +%s.%N)
/usr/bin/time -f '%M' -o "$work/rss" "$bin" -dir "$tree" -one needle >"$work/count"
end=$(date +%s.%N)
printf 'matches: %s; peak RSS: %s KiB; wall: %.1f s\n' "$(cat "$work/count")" "$(cat "$work/rss")" "$(echo "$end - $start" | bc)"
