#!/usr/bin/env bash
# Inline completion through the daemon against the FIM fake (issue 18):
# the daemon's overhead per completion, request in -> model request out and
# model answer in -> response out (p50/p99, loopback and pipe transit
# included, so upper bounds), and the model requests the cache saves while
# a 40-character suggestion is typed one character at a time.
# Usage: bench/completion/run.sh [completions, default 1000]
set -euo pipefail
cd "$(dirname "$0")/../.."
AGENT_LSP_BENCH_COMPLETION="${1:-1000}" go test -count=1 -run '^TestInlineCompletionBench$' -v ./lsp |
	grep -E 'inline_completion_bench_test|^(--- |ok|FAIL)' | sed -E 's/^ +inline_completion_bench_test.go:[0-9]+: //'
