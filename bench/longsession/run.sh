#!/usr/bin/env bash
# agent-lsp's long-session benchmark: 200 rounds of read_file (~4 KB results)
# through agent.Session against a fake model in a child process, with the
# default context budget and without one. Prints the agent's per-round CPU
# and wall overhead at round 10 and round 200 (goal: within 2x), the bytes
# uploaded, the compactions, and the modelled cost at DeepSeek's and
# Anthropic's cache prices. See docs/context-budget.md.
#
#   bench/longsession/run.sh [-rounds 200] [-budgets default,none,64000,...]
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$repo"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
go build -o "$out/longsession" ./bench/longsession
"$out/longsession" "$@"
