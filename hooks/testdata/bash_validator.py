#!/usr/bin/env python3
# A PreToolUse hook as Claude Code's documentation writes one: it reads the
# tool call as JSON on stdin and blocks (exit 2, the reason on stderr) a
# Bash command it does not want run; with a JSON answer it denies another.
import json
import re
import sys

try:
    input_data = json.load(sys.stdin)
except json.JSONDecodeError as e:
    print(f"Error: Invalid JSON input: {e}", file=sys.stderr)
    sys.exit(1)

tool_name = input_data.get("tool_name", "")
tool_input = input_data.get("tool_input", {})
command = tool_input.get("command", "")

if tool_name != "Bash" or not command:
    sys.exit(0)

if re.search(r"\brm\s+-rf?\b", command):
    print("Do not delete files with rm; move them to ./trash instead", file=sys.stderr)
    sys.exit(2)

if re.search(r"\bcurl\b", command):
    output = {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "Network access is not allowed from this project",
        }
    }
    print(json.dumps(output))
    sys.exit(0)

sys.exit(0)
