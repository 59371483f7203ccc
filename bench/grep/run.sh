#!/usr/bin/env bash
# Benchmark: the grep tool's engine (tools.Search) against ripgrep on the Go
# source tree. Needs ripgrep (apt-get install -y ripgrep).
# Usage: bench/grep/run.sh [dir] [runs]
set -euo pipefail
cd "$(dirname "$0")/../.."
dir="${1:-$(go env GOROOT)/src}"
runs="${2:-9}"
if ! command -v rg >/dev/null; then
	echo "ripgrep (rg) not found: apt-get install -y ripgrep" >&2
	exit 2
fi
bin="$(mktemp -d)/grep-bench"
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./bench/grep
version="$(rg --version)"
echo "${version%%$'\n'*}"
"$bin" -dir "$dir" -runs "$runs"
