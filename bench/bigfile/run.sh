#!/usr/bin/env bash
# agent-lsp's big-file benchmark: a one-character edit_file on 1, 5 and
# 20 MiB files through the daemon (an LSP client that applies
# workspace/applyEdit to the disk) and through `agent-lsp chat -p --yes`,
# against a plain read-replace-write in Go measured in the same run. Prints
# CPU per MiB, peak RSS above idle and RSS after the edit, with the ratio
# to the reference and issue 15's goals marked pass/FAIL; then the same
# files opened in the editor (didOpen, a whole-text didChange, didClose):
# peak RSS and the return to idle, against issue 27's goals. Linux only (/proc).
#
#   bench/bigfile/run.sh [-n 3] [-sizes 1,5,20] [-settle 1s]
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$repo"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
go build -o "$out/agent-lsp" ./cmd/agent-lsp
go build -o "$out/bigfile" ./bench/bigfile
# Later flags win: -n 3 is only the default.
"$out/bigfile" -bin "$out/agent-lsp" -n 3 "$@"
