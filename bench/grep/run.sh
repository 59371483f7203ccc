#!/usr/bin/env bash
# Benchmark: the grep tool's engine (tools.Search) against ripgrep, in one
# run, on two corpora: 11 patterns over three copies of GOROOT, and a project
# whose .gitignore excludes a generated 100k-file node_modules tree. Each
# prints our median time, ripgrep's and the speed ratio (rg / ours).
# Needs ripgrep (apt-get install -y ripgrep).
# Usage: bench/grep/run.sh [runs] [work dir for the corpora (kept if given)] [older grep-bench binary]
# An older build given third is timed in the same rotation (before/after).
set -euo pipefail
cd "$(dirname "$0")/../.."
runs="${1:-9}"
if ! command -v rg >/dev/null; then
	echo "ripgrep (rg) not found: apt-get install -y ripgrep" >&2
	exit 2
fi
work="${2:-}"
if [ -z "$work" ]; then
	work="$(mktemp -d)"
	trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
bin="$work/grep-bench"
go build -o "$bin" ./bench/grep
goroot="$(go env GOROOT)"
if [ ! -d "$work/goroot3" ]; then
	mkdir "$work/goroot3.tmp"
	for copy in a b c; do
		# Hard links when the file system allows: same bytes, no copying.
		cp -al "$goroot" "$work/goroot3.tmp/$copy" 2>/dev/null || cp -a "$goroot" "$work/goroot3.tmp/$copy"
	done
	mv "$work/goroot3.tmp" "$work/goroot3"
fi
if [ ! -d "$work/node_modules_project" ]; then
	"$bin" -make-node-modules -dir "$work/node_modules_project.tmp"
	mv "$work/node_modules_project.tmp" "$work/node_modules_project"
fi
base="${3:-}"
version="$(rg --version)"
echo "${version%%$'\n'*}; $(nproc) CPUs; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== 3x GOROOT ($(go env GOVERSION)), 11 patterns"
"$bin" -dir "$work/goroot3" -runs "$runs" -corpus goroot ${base:+-base "$base"}
echo "== 100k-file ignored node_modules"
"$bin" -dir "$work/node_modules_project" -runs "$runs" -corpus node_modules ${base:+-base "$base"}
