package sandbox

import "strings"

// withoutVar drops every name= entry from env.
func withoutVar(env []string, name string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if !(len(kv) > len(name) && kv[len(name)] == '=' && strings.HasPrefix(kv, name)) {
			out = append(out, kv)
		}
	}
	return out
}
