#!/usr/bin/env bash
# The run_bash sandbox's start-up cost per command vs bubblewrap, same run.
# Needs Linux with Landlock; bubblewrap is the reference (apt-get install bubblewrap).
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=$(mktemp -d)/sandbox-bench
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./bench/sandbox
"$bin" "$@"
