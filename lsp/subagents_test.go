package lsp_test

import (
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

type subagentList struct {
	Subagents []struct {
		Name, Description, Prompt, Path, Source, Hash, Trust, Problem string
		Tools                                                         []string
	} `json:"subagents"`
}

const reviewerFile = "---\nname: reviewer\ndescription: Reviews a change for bugs\ntools: Read, Grep\n---\nYou are REVIEWER-7: list the bugs you find.\n"

// TestCustomSubagentFromTheWorkspace: a workspace's .claude/agents file is
// listed untrusted and not offered (the task tool's description does not
// name it, a call naming it fails); once the user trusts its content
// (agent/subagentTrust, bound to the hash agent/subagents showed), a task
// call naming it runs a child with its instructions and its tools.
func TestCustomSubagentFromTheWorkspace(t *testing.T) {
	for _, dialect := range []string{openai.Name, anthropic.Name} {
		t.Run(dialect, func(t *testing.T) {
			task := func(id string) providertest.Turn {
				return providertest.Turn{ToolCalls: []providertest.Call{{ID: id, Name: "task",
					Arguments: `{"description":"review","prompt":"review main.go","agent":"reviewer"}`}}}
			}
			s := start(t, providertest.Script{
				task("call_untrusted"), {Text: "It is not available."},
				task("call_trusted"), {Text: "No bugs."}, {Text: "Reviewed: no bugs."},
			}, setupOptions{dialect: dialect, caps: fullCaps, autoApprove: true,
				files: map[string]string{".claude/agents/reviewer.md": reviewerFile, "main.go": "package main\n"}})
			s.initialize(nil)

			var list subagentList
			s.call("agent/subagents", map[string]any{}, &list)
			if len(list.Subagents) != 1 || list.Subagents[0].Trust != "untrusted" || list.Subagents[0].Source != "workspace" ||
				!strings.Contains(list.Subagents[0].Prompt, "REVIEWER-7") || strings.Join(list.Subagents[0].Tools, ",") != "read_file,grep" {
				t.Fatalf("agent/subagents %+v", list)
			}
			r := s.controlPrompt(map[string]any{"prompt": "review, please"})
			if strings.Contains(string(s.model.Requests()[0].Body), "Reviews a change for bugs") {
				t.Error("an untrusted subagent is offered in the task tool's description")
			}
			for _, u := range s.subagentUpdates(r.SessionID) {
				if u.Kind == "tool_result" && (u.Status != "failed" || !strings.Contains(u.Output, `no custom subagent "reviewer"`)) {
					t.Errorf("the untrusted subagent's call: %+v", u)
				}
			}

			var bad any
			if err := s.ed.Call(ctx(t), "agent/subagentTrust", map[string]any{"name": "reviewer", "hash": "stale", "trust": "once"}, &bad); err == nil ||
				!strings.Contains(err.Error(), "changed since it was shown") {
				t.Errorf("trust with a stale hash: %v", err)
			}
			s.call("agent/subagentTrust", map[string]any{"name": "reviewer", "hash": list.Subagents[0].Hash, "trust": "once"}, &list)
			if list.Subagents[0].Trust != "once" {
				t.Fatalf("after trusting: %+v", list)
			}
			s.controlPrompt(map[string]any{"sessionId": r.SessionID, "prompt": "now review"})
			reqs := s.model.Requests()
			if !strings.Contains(string(reqs[2].Body), "Reviews a change for bugs") {
				t.Error("the trusted subagent is not in the task tool's description")
			}
			child := reqs[3]
			if !strings.Contains(string(child.Body), "REVIEWER-7") || strings.Contains(string(child.Body), "review, please") {
				t.Errorf("the child's request: %s", child.Body)
			}
			if got := decodeWire(t, child).toolNames(); got != "read_file,grep" {
				t.Errorf("the child offers %s, want its file's read_file,grep", got)
			}
		})
	}
}

// TestCustomSubagentTalksToItsPreset: a custom subagent whose front matter
// names a model preset talks to that model (its requests name it), and is
// priced as the preset is (free: a known $0), while the session keeps its
// own model.
func TestCustomSubagentTalksToItsPreset(t *testing.T) {
	for _, dialect := range []string{openai.Name, anthropic.Name} {
		t.Run(dialect, func(t *testing.T) {
			s := start(t, providertest.Script{
				{ToolCalls: []providertest.Call{{ID: "call_cheap", Name: "task",
					Arguments: `{"description":"look","prompt":"look around","agent":"scout"}`}}},
				{Text: "Looked.", Usage: provider.Usage{PromptTokens: 100, CompletionTokens: 5}},
				{Text: "Done."},
			}, setupOptions{dialect: dialect, caps: fullCaps, autoApprove: true,
				files: map[string]string{".agents/agents/scout.md": "---\ndescription: Looks around cheaply\nmodel: cheap\n---\nBe brief.\n"}})
			baseURL := s.model.OpenAIBaseURL()
			if dialect == anthropic.Name {
				baseURL = s.model.AnthropicBaseURL()
			}
			s.initialize(map[string]any{"models": []map[string]any{
				{"id": "cheap", "provider": dialect, "model": "cheap-model", "baseURL": baseURL, "apiKeyEnv": "none", "free": true},
			}})
			var list subagentList
			s.call("agent/subagents", map[string]any{}, &list)
			s.call("agent/subagentTrust", map[string]any{"name": "scout", "hash": list.Subagents[0].Hash, "trust": "always"}, &list)
			r := s.controlPrompt(map[string]any{"prompt": "scout it"})
			if r.StopReason != "end_turn" {
				t.Fatalf("result %+v", r)
			}
			var models []string
			for _, req := range s.model.Requests() {
				var body struct{ Model string }
				if err := req.Decode(&body); err != nil {
					t.Fatal(err)
				}
				models = append(models, body.Model)
			}
			if len(models) != 3 || models[1] != "cheap-model" || models[0] == "cheap-model" || models[2] != models[0] {
				t.Errorf("the requests' models %v: want the child's on the preset's", models)
			}
			childRounds := 0
			for _, u := range s.subagentUpdates(r.SessionID) {
				if u.Kind == "round_end" && u.ParentToolCallID != "" {
					childRounds++
					if u.Cost != 0 || u.CostKnown == nil || !*u.CostKnown {
						t.Errorf("the free preset's call: cost %v, known %v", u.Cost, u.CostKnown)
					}
				}
			}
			if childRounds != 1 {
				t.Errorf("%d round_end updates of the child", childRounds)
			}
		})
	}
}
