#!/usr/bin/env bash
# Issue 29's benchmark, in one run: the cached share of the 40-round
# compacting session (goal ≥ 0.85) and the first request's size with 120
# MCP tools mounted, with tool search and without (goal ≤ 1.5x 6.2 KB), in
# both dialects against the strict fake. Needs node and the npm reference
# servers (scripts/install-mcp-peers, or AGENT_LSP_MCP_PEERS).
#
#   bench/toolsearch/run.sh
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$repo"
# The report is the test's standard output; go test's own lines are dropped.
go test -count=1 -run '^TestReport$' -v ./bench/toolsearch -args -report |
  grep -v -e '^=== RUN' -e '^--- PASS' -e '^PASS$' -e '^ok ' || true
test "${PIPESTATUS[0]}" -eq 0
