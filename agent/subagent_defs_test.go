package agent_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/agent"
)

func TestParseSubagentFile(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		want       agent.SubagentDef
		err        string
	}{
		{name: "the peers' layout", file: "---\nname: code-reviewer\ndescription: Reviews code\ntools: Read, Grep, Glob, Bash\nmodel: deepseek\ncolor: blue\n---\nYou review.\n",
			want: agent.SubagentDef{Name: "code-reviewer", Description: "Reviews code", Tools: []string{"read_file", "grep", "glob", "run_bash"},
				Model: "deepseek", Prompt: "You review."}},
		{name: "a list of our names, the file's name", file: "---\ndescription: Finds things\ntools:\n  - read_file\n  - grep\n---\n\nFind.",
			want: agent.SubagentDef{Name: "finder", Description: "Finds things", Tools: []string{"read_file", "grep"}, Prompt: "Find."}},
		{name: "no tools: the defaults", file: "---\r\ndescription: d\r\n---\r\nbody\r\n",
			want: agent.SubagentDef{Name: "finder", Description: "d", Prompt: "body"}},
		{name: "no front matter", file: "You review.", err: "no front matter"},
		{name: "unclosed", file: "---\ndescription: d\n", err: "no closing"},
		{name: "no description", file: "---\nname: x\n---\nbody", err: "no description"},
		{name: "a bad name", file: "---\nname: ../x\ndescription: d\n---\n", err: `name "../x"`},
		{name: "too large", file: "---\ndescription: d\n---\n" + strings.Repeat("x", agent.MaxSubagentFile), err: "larger than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := agent.ParseSubagentFile([]byte(tc.file), "finder")
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Name != tc.want.Name || got.Description != tc.want.Description || got.Model != tc.want.Model ||
				got.Prompt != tc.want.Prompt || !slices.Equal(got.Tools, tc.want.Tools) || (got.Tools == nil) != (tc.want.Tools == nil) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}
