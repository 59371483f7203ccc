#!/usr/bin/env bash
# Benchmark: what checkpoints cost a stored session, before and after the
# content store (issue 15). Builds bench/session from this tree ("after")
# and from a base commit ("before", default: the merge base with main,
# exported with git archive: the repository is not changed), then for
# each prints the bytes 20 edits of a 0.2 MB file add to the state
# directory, and the time, peak RSS and allocation of resuming a session
# with three edits of a 20 MB file (in a fresh process).
# Usage: bench/session/run.sh [base commit]
set -euo pipefail
cd "$(dirname "$0")/../.."
base="${1:-$(git merge-base HEAD main)}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
go build -o "$work/after" ./bench/session
mkdir "$work/src"
git archive "$base" | tar -x -C "$work/src"
mkdir -p "$work/src/bench/session"
cp bench/session/main.go "$work/src/bench/session/"
(cd "$work/src" && go build -o "$work/before" ./bench/session)
for v in before after; do
	echo "== $v ($([ "$v" = before ] && git rev-parse --short "$base" || echo "$(git rev-parse --short HEAD)+worktree"))"
	"$work/$v" -growth
	mkdir "$work/state-$v"
	id="$("$work/$v" -prepare "$work/state-$v")"
	"$work/$v" -resume "$work/state-$v" -id "$id"
	rm -rf "$work/state-$v"
done
