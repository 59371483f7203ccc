#!/usr/bin/env bash
# agent-lsp's ACP benchmarks: start-up (spawn → initialize reply, idle RSS)
# of `agent-lsp acp`, with claude-code-acp measured in the same run as the
# reference, and session/prompt → first agent_message_chunk against the
# fake model.
#
#   bench/acp/run.sh [-n 20]     (AGENT_LSP_BENCH_BINARY=path: measure that binary)
#
# claude-code-acp (npm @zed-industries/claude-code-acp, pinned below) is
# installed with npm into a cache folder ($AGENT_LSP_BENCH_CACHE, default
# <repo>/.cache/bench); it answers initialize without an API key. Without
# node or npm the reference is skipped with a note.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$repo"
n=20
if [ "${1:-}" = "-n" ]; then n="$2"; fi
ref_version=0.16.2

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
if [ -n "${AGENT_LSP_BENCH_BINARY:-}" ]; then   # a prebuilt binary (another tree, a release)
  cp "$AGENT_LSP_BENCH_BINARY" "$out/agent-lsp"
else
  go build -o "$out/agent-lsp" ./cmd/agent-lsp
fi

cache="${AGENT_LSP_BENCH_CACHE:-$repo/.cache/bench}/claude-code-acp"
ref_js="$cache/node_modules/@zed-industries/claude-code-acp/dist/index.js"
have="$(node -p "require('$cache/node_modules/@zed-industries/claude-code-acp/package.json').version" 2>/dev/null || true)"
if [ "$have" != "$ref_version" ] && command -v npm >/dev/null 2>&1; then
  echo "installing @zed-industries/claude-code-acp@$ref_version into $cache (once)" >&2
  mkdir -p "$cache"
  npm install --prefix "$cache" --no-audit --no-fund --loglevel=error "@zed-industries/claude-code-acp@$ref_version" >&2 || true
fi
ref=""
if [ -f "$ref_js" ] && command -v node >/dev/null 2>&1; then ref="$(command -v node) $ref_js"; fi

echo "== start-up"
go run ./bench/acp -bin "$out/agent-lsp" ${ref:+-ref "$ref" -ref-name "claude-code-acp $ref_version"} -n "$n"
echo
echo "== first chunk"
# The figures are the test's log; strip go test's indentation and file:line.
go test -count=1 -run 'TestFirstChunkBench$' -v ./bench/acp -args -bin "$out/agent-lsp" |
  sed -n '/firstchunk_test.go/,/^--- /p' | sed -e '/firstchunk_test.go/d' -e '/^--- /d' -e 's/^        //' -e '/^\s*$/d'
