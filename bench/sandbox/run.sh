#!/usr/bin/env bash
# The run_bash sandbox's start-up cost per command against bubblewrap with
# the same namespaces, in one run: as the caller and, run as root, as an
# ordinary account too (scripts/ensure-test-user makes it, agentci by
# default). Needs Linux with Landlock; installs bubblewrap when missing
# (root, Debian). Flags go to the benchmark (-n 200, -user NAME).
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v bwrap >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "sandbox-bench: apt-get install bubblewrap" >&2
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get install -y -qq --no-install-recommends bubblewrap >/dev/null 2>&1; then
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends bubblewrap >/dev/null
  fi
fi
if [ "$(id -u)" = 0 ]; then
  export AGENT_LSP_TEST_USER="$(scripts/ensure-test-user)"
fi
# A directory the ordinary account can enter and execute from (mktemp -d
# makes it 0700).
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
chmod 755 "$dir"
go build -o "$dir/sandbox-bench" ./bench/sandbox
"$dir/sandbox-bench" "$@"
