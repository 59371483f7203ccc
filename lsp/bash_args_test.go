package lsp_test

import "encoding/json"

// bashArgs is the arguments of a run_bash call of command.
func bashArgs(command string) string {
	b, err := json.Marshal(map[string]any{"command": command})
	if err != nil {
		panic(err)
	}
	return string(b)
}
