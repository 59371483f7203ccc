#!/usr/bin/env bash
# agent-lsp's LSP benchmarks: start-up (spawn → initialize response, idle
# RSS), with gopls measured in the same run as the reference, and the relay
# of streamed text deltas to agent/update notifications: one session as
# fast as it can and paced, then 1, 10 and 50 sessions at once at 2,500
# deltas a second each against as many direct HTTP readers in the
# benchmark's process and as many curl -N relays (the same path as the
# daemon's: another process, a pipe; skipped without curl). An earlier
# build in $AGENT_LSP_PEER_BIN is measured in the same runs.
#
#   bench/lsp/run.sh [-n 20]
#
# gopls is installed through the Go module proxy into a cache folder
# ($AGENT_LSP_BENCH_CACHE, default <repo>/.cache/bench): @latest when this
# Go toolchain can build it, else the newest release known to build with
# Go 1.26. Without it the reference is skipped with a note.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$repo"
n=20
if [ "${1:-}" = "-n" ]; then n="$2"; fi

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
go build -o "$out/agent-lsp" ./cmd/agent-lsp

cache="${AGENT_LSP_BENCH_CACHE:-$repo/.cache/bench}"
gopls="$cache/bin/gopls"
if [ ! -x "$gopls" ]; then
  mkdir -p "$cache/bin"
  for version in latest v0.23.0; do
    echo "installing gopls@$version into $cache/bin (once)" >&2
    if GOBIN="$cache/bin" GOFLAGS=-mod=mod go install "golang.org/x/tools/gopls@$version" 2>"$out/gopls-install.log"; then
      break
    fi
    tail -n 1 "$out/gopls-install.log" >&2
  done
fi
[ -x "$gopls" ] || gopls=""

echo "== start-up"
go run ./bench/lsp -bin "$out/agent-lsp" ${gopls:+-gopls "$gopls"} -n "$n"
echo
echo "== relay"
# The table is the test's log; strip go test's indentation and file:line.
go test -count=1 -run 'TestRelayBench$' -v ./bench/lsp -args -bin "$out/agent-lsp" |
  sed -n '/relay_test.go/,/^--- /p' | sed -e '/relay_test.go/d' -e '/^--- /d' -e 's/^        //' -e '/^\s*$/d'
echo
echo "== relay, 1 to 50 sessions"
go test -count=1 -timeout 30m -run 'TestRelaySessionsBench$' -v ./bench/lsp -args -bin "$out/agent-lsp" ${AGENT_LSP_PEER_BIN:+-peer-bin "$AGENT_LSP_PEER_BIN"} |
  sed -n '/relay_sessions_test.go/,/^--- /p' | sed -e '/relay_sessions_test.go/d' -e '/^--- /d' -e 's/^        //' -e '/^\s*$/d'
