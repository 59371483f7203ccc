package lsp

// agent/permissions' example, beside the others (wire_examples_test.go).
func init() {
	wireExamples = append(wireExamples, wireExample{name: "agent.permissions", method: "agent/permissions", from: "editor",
		params: permissionsParams{Remove: "u-3fa2c901", Trust: "9c4e0b7d2a"},
		result: permissionsResult{
			Rules: []permissionRule{{ID: "u-5d0b1e77", Tool: "run_bash", Pattern: "go test ./...", Decision: "allow", Source: "user"}},
			Files: []rulesFile{{Source: "workspace", Path: "/w/.agents/permissions.json", Exists: true, Trusted: true,
				Hash: "9c4e0b7d2a", Errors: []string{"workspace rules file /w/.agents/permissions.json: rule \"edit_file: [\": not a valid path glob"}}},
		}})
}
