package lsp_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// controlResult is agent/prompt's answer with the fields of this issue.
type controlResult struct {
	SessionID  string `json:"sessionId"`
	StopReason string `json:"stopReason"`
	Text       string `json:"text"`
	Error      string `json:"error"`
	Command    string `json:"command"`
	Mentions   []struct {
		Path      string `json:"path"`
		StartLine int    `json:"startLine"`
		EndLine   int    `json:"endLine"`
		Status    string `json:"status"`
		Message   string `json:"message"`
	} `json:"mentions"`
}

func (s *setup) controlPrompt(params map[string]any) controlResult {
	s.t.Helper()
	var r controlResult
	if err := s.ed.Call(ctx(s.t), "agent/prompt", params, &r); err != nil {
		s.t.Fatalf("agent/prompt: %v", err)
	}
	return r
}

func (s *setup) call(method string, params, result any) {
	s.t.Helper()
	if err := s.ed.Call(ctx(s.t), method, params, result); err != nil {
		s.t.Fatalf("%s: %v", method, err)
	}
}

// wireRequest is the part of either dialect's request body the tests read.
type wireRequest struct {
	Tools []struct {
		Name     string `json:"name"` // Messages
		Function struct {
			Name string `json:"name"`
		} `json:"function"` // Chat Completions
	} `json:"tools"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Thinking *struct {
		Type string `json:"type"`
	} `json:"thinking"`
}

func decodeWire(t *testing.T, r providertest.Received) wireRequest {
	t.Helper()
	var w wireRequest
	if err := r.Decode(&w); err != nil {
		t.Fatal(err)
	}
	return w
}

func (w wireRequest) toolNames() string {
	var names []string
	for _, tl := range w.Tools {
		names = append(names, tl.Name+tl.Function.Name)
	}
	return strings.Join(names, ",")
}

// lastUserText is the text of the request's last user message (a string
// content, or its text blocks joined).
func (w wireRequest) lastUserText() string {
	for i := len(w.Messages) - 1; i >= 0; i-- {
		m := w.Messages[i]
		if m.Role != "user" {
			continue
		}
		var s string
		if json.Unmarshal(m.Content, &s) == nil {
			return s
		}
		var blocks []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		_ = json.Unmarshal(m.Content, &blocks)
		var b strings.Builder
		for _, bl := range blocks {
			if bl.Type == "text" {
				b.WriteString(bl.Text)
			}
		}
		return b.String()
	}
	return ""
}

// In ask mode the request carries only the read-only tools, and a
// write_file call the model makes anyway is refused with a result that
// says why: no popup, no edit. Switching to default offers every tool again.
func TestAskModeOffersOnlyReadOnlyTools(t *testing.T) {
	script := providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "call_w", Name: "write_file", Arguments: `{"path":"new.txt","content":"x\n"}`}}},
		{Text: "I may not write in ask mode."},
		{Text: "all tools now"},
	}
	asked := make(chan protocol.ShowMessageRequestParams, 4)
	s := start(t, script, setupOptions{caps: fullCaps, handlers: lsptest.Handlers{ShowMessageRequest: answer("Allow", asked)}})
	s.initialize(map[string]any{"mode": "ask"})
	r := s.controlPrompt(map[string]any{"prompt": "make new.txt"})
	if r.StopReason != "end_turn" {
		t.Fatalf("result = %+v", r)
	}
	reqs := s.model.Requests()
	for i, req := range reqs[:2] {
		if got := decodeWire(t, req).toolNames(); got != "read_file,glob,grep,skill,task" {
			t.Errorf("request %d offers %s", i, got)
		}
	}
	var result *update
	for _, u := range s.updates(r.SessionID) {
		if u.Kind == "tool_result" {
			result = &u
		}
	}
	if result == nil || result.Status != "denied" || !strings.Contains(result.Output, "write_file is not available in ask mode") {
		t.Errorf("tool_result = %+v", result)
	}
	if len(asked) != 0 || len(s.ed.AppliedEdits()) != 0 {
		t.Errorf("popups %d, edits %d: a refused call must do nothing", len(asked), len(s.ed.AppliedEdits()))
	}
	if _, err := os.Stat(filepath.Join(s.root, "new.txt")); err == nil {
		t.Error("new.txt was written")
	}

	var mr struct{ Mode string }
	s.call("agent/setMode", map[string]any{"sessionId": r.SessionID, "mode": "default"}, &mr)
	if mr.Mode != "default" {
		t.Errorf("setMode = %+v", mr)
	}
	var modes []string
	for _, n := range s.ed.Notifications("agent/update") {
		var u struct{ Kind, Mode string }
		if err := json.Unmarshal(n.Params, &u); err != nil {
			t.Fatal(err)
		}
		if u.Kind == "mode" {
			modes = append(modes, u.Mode)
		}
	}
	if !slices.Equal(modes, []string{"default"}) {
		t.Errorf("mode updates = %v", modes)
	}
	s.controlPrompt(map[string]any{"sessionId": r.SessionID, "prompt": "again"})
	if got := decodeWire(t, s.model.Requests()[2]).toolNames(); got != "read_file,glob,grep,write_file,edit_file,run_bash,todo_write,web_fetch,skill,task" {
		t.Errorf("default mode offers %s", got)
	}
	var bad json.RawMessage
	if err := s.ed.Call(ctx(t), "agent/setMode", map[string]any{"sessionId": r.SessionID, "mode": "yolo"}, &bad); err == nil ||
		!strings.Contains(err.Error(), "unknown mode") {
		t.Errorf("setMode yolo: %v", err)
	}
}

// In auto-edit mode an edit lands through the editor without a popup (so
// it is streamed and undoable), while a command still asks.
func TestAutoEditAppliesEditsWithoutAPopup(t *testing.T) {
	script := providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "call_w", Name: "write_file", Arguments: `{"path":"new.txt","content":"hello\n"}`}}},
		{ToolCalls: []providertest.Call{{ID: "call_b", Name: "run_bash", Arguments: `{"command":"echo hi"}`}}},
		{Text: "done"},
	}
	asked := make(chan protocol.ShowMessageRequestParams, 4)
	s := start(t, script, setupOptions{caps: fullCaps, handlers: lsptest.Handlers{ShowMessageRequest: answer("Deny", asked)}})
	s.initialize(map[string]any{"mode": "auto-edit"})
	r := s.controlPrompt(map[string]any{"prompt": "write and run"})
	if r.StopReason != "end_turn" {
		t.Fatalf("result = %+v", r)
	}
	if n := len(s.ed.AppliedEdits()); n != 1 {
		t.Errorf("%d workspace/applyEdit, want 1", n)
	}
	if b, ok := s.ed.Buffer(filepath.Join(s.root, "new.txt")); !ok || b.Text != "hello\n" {
		t.Errorf("buffer = %+v %v", b, ok)
	}
	close(asked)
	var popups []string
	for p := range asked {
		popups = append(popups, p.Message)
	}
	if len(popups) != 1 || !strings.Contains(popups[0], "run_bash") {
		t.Errorf("popups = %q, want one for run_bash", popups)
	}
}

// A session starts on Chat Completions with reasoning and tool calls,
// switches to Messages, continues with tool calls, and switches back; it
// also switches in the middle of a tool loop both ways. Every request
// passes the strict fake (which demands DeepSeek's reasoning_content
// round-trip and the Messages thinking rules), and the model sees every
// earlier round.
func TestSwitchDialectsMidSession(t *testing.T) {
	read := func(id, path string) []providertest.Call {
		return []providertest.Call{{ID: id, Name: "read_file", Arguments: `{"path":"` + path + `"}`}}
	}
	wait := func(id, flag string) []providertest.Call {
		return []providertest.Call{{ID: id, Name: "run_bash",
			Arguments: `{"command":"while [ ! -e ` + flag + ` ]; do sleep 0.02; done; echo ` + flag + ` seen"}`}}
	}
	script := providertest.Script{
		// Prompt 1, Chat Completions.
		{Reasoning: "I should read a.txt.", ToolCalls: read("call_a", "a.txt")},
		{Reasoning: "It says alpha.", Text: "a.txt says alpha."},
		// Prompt 2, Messages: a signed tool loop.
		{Reasoning: "Now b.txt.", ToolCalls: read("toolu_b", "b.txt")},
		{Text: "b.txt says beta."},
		// Prompt 3, Messages, switched back to Chat Completions mid-loop.
		{Reasoning: "Wait for flag1.", ToolCalls: wait("toolu_w1", "flag1")},
		{Reasoning: "Back on chat.", Text: "flag1 seen, on chat."},
		// Prompt 4, Chat Completions, switched to Messages mid-loop.
		{Reasoning: "Wait for flag2.", ToolCalls: wait("call_w2", "flag2")},
		{Text: "flag2 seen, on messages."},
		// Prompt 5, Messages: a new prompt, thinking back on.
		{Reasoning: "Summing up.", Text: "alpha, beta, both flags."},
	}
	s := start(t, script, setupOptions{caps: fullCaps, autoApprove: true, thinking: true,
		files: map[string]string{"a.txt": "alpha-content\n", "b.txt": "beta-content\n"}})
	s.initialize(nil)
	toMessages := map[string]any{"provider": anthropic.Name, "model": "deepseek-flash", "baseURL": s.model.AnthropicBaseURL()}
	toChat := map[string]any{"provider": openai.Name, "model": "deepseek-flash", "baseURL": s.model.OpenAIBaseURL()}
	setModel := func(id string, p map[string]any) {
		t.Helper()
		p = maps(p, "sessionId", id)
		var cur struct{ Provider, Model, BaseURL string }
		s.call("agent/setModel", p, &cur)
		if cur.Provider != p["provider"] || cur.BaseURL != p["baseURL"] {
			t.Fatalf("setModel = %+v", cur)
		}
	}
	// promptSwitching runs a prompt and, once its run_bash call started,
	// switches the model and lets the command end.
	promptSwitching := func(id, prompt, flag string, to map[string]any) controlResult {
		t.Helper()
		_, done := s.ed.CallAsync(ctx(t), "agent/prompt", map[string]any{"sessionId": id, "prompt": prompt})
		_, err := s.ed.WaitFor(ctx(t), func(n lsptest.Notification) bool {
			return n.Method == "agent/update" && strings.Contains(string(n.Params), `"kind":"tool_call"`) &&
				strings.Contains(string(n.Params), flag)
		})
		if err != nil {
			t.Fatal(err)
		}
		setModel(id, to)
		if err := os.WriteFile(filepath.Join(s.root, flag), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		res := <-done
		if res.Err != nil {
			t.Fatal(res.Err)
		}
		var r controlResult
		if err := json.Unmarshal(res.Result, &r); err != nil {
			t.Fatal(err)
		}
		return r
	}

	r := s.controlPrompt(map[string]any{"prompt": "What does a.txt say?"})
	id := r.SessionID
	if r.Text != "a.txt says alpha." {
		t.Fatalf("prompt 1 = %+v", r)
	}
	setModel(id, toMessages)
	if r = s.controlPrompt(map[string]any{"sessionId": id, "prompt": "And b.txt?"}); r.Text != "b.txt says beta." {
		t.Fatalf("prompt 2 = %+v", r)
	}
	if r = promptSwitching(id, "Wait for flag1.", "flag1", toChat); r.Text != "flag1 seen, on chat." {
		t.Fatalf("prompt 3 = %+v", r)
	}
	if r = promptSwitching(id, "Wait for flag2.", "flag2", toMessages); r.Text != "flag2 seen, on messages." {
		t.Fatalf("prompt 4 = %+v", r)
	}
	if r = s.controlPrompt(map[string]any{"sessionId": id, "prompt": "Sum up."}); r.Text != "alpha, beta, both flags." {
		t.Fatalf("prompt 5 = %+v", r)
	}

	reqs := s.model.Requests()
	var dialects []string
	for i, req := range reqs {
		if req.Rejected != "" {
			t.Errorf("request %d (%s) refused: %s", i, req.Dialect, req.Rejected)
		}
		dialects = append(dialects, req.Dialect)
	}
	want := []string{"openai", "openai", "anthropic", "anthropic", "anthropic", "openai", "openai", "anthropic", "anthropic"}
	if !slices.Equal(dialects, want) {
		t.Fatalf("dialects = %v, want %v", dialects, want)
	}
	// Thinking: on in Messages, except for the request that continues the
	// tool loop of the Chat Completions turn (no signature to send back).
	for i, wantThinking := range map[int]string{2: "enabled", 3: "enabled", 4: "enabled", 7: "disabled", 8: "enabled"} {
		w := decodeWire(t, reqs[i])
		if w.Thinking == nil || w.Thinking.Type != wantThinking {
			t.Errorf("request %d thinking = %+v, want %s", i, w.Thinking, wantThinking)
		}
	}
	// The last request holds every earlier round, in the Messages dialect.
	last := string(reqs[len(reqs)-1].Body)
	for _, want := range []string{"alpha-content", "a.txt says alpha.", "beta-content", "b.txt says beta.",
		"flag1 seen", "flag1 seen, on chat.", "flag2 seen", "Now b.txt.", "What does a.txt say?"} {
		if !strings.Contains(last, want) {
			t.Errorf("the last request lacks %q", want)
		}
	}
	// The Chat Completions turns' reasoning has no signature: it is dropped
	// in the Messages dialect, never sent as an unsigned thinking block.
	if strings.Contains(last, "I should read a.txt.") {
		t.Error("unsigned reasoning was sent in the Messages dialect")
	}
	// Back on Chat Completions the Messages turn's reasoning went back as
	// reasoning_content (request 5 continues a tool loop started there).
	if !strings.Contains(string(reqs[5].Body), `"reasoning_content":"Wait for flag1."`) {
		t.Errorf("request 5 lacks the reasoning of the Messages turn: %s", reqs[5].Body)
	}
	var providers []string
	for _, n := range s.ed.Notifications("agent/update") {
		var u struct{ Kind, Provider string }
		if err := json.Unmarshal(n.Params, &u); err != nil {
			t.Fatal(err)
		}
		if u.Kind == "model" {
			providers = append(providers, u.Provider)
		}
	}
	if want := []string{"anthropic", "openai", "anthropic"}; !slices.Equal(providers, want) {
		t.Errorf("model updates = %v, want %v", providers, want)
	}
}

// maps returns a copy of m with k set to v.
func maps(m map[string]any, k string, v any) map[string]any {
	out := map[string]any{k: v}
	for key, val := range m {
		out[key] = val
	}
	return out
}

// todo_write updates stream in order as plan updates (plan mode offers
// it beside the read-only tools) and survive a daemon restart.
func TestPlanUpdatesSurviveARestart(t *testing.T) {
	plan1 := `{"items":[{"content":"Read main.go","status":"in_progress"},{"content":"Fix the bug","status":"pending"}]}`
	plan2 := `{"items":[{"content":"Read main.go","status":"completed"},{"content":"Fix the bug","status":"in_progress"}]}`
	script := providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "call_p1", Name: "todo_write", Arguments: plan1}}},
		{ToolCalls: []providertest.Call{{ID: "call_p2", Name: "todo_write", Arguments: plan2}}},
		{Text: "Plan: read main.go, then fix the bug."},
		{Text: "resumed"},
	}
	stateDir := t.TempDir()
	s := start(t, script, setupOptions{caps: fullCaps, stateDir: stateDir})
	s.initialize(map[string]any{"mode": "plan"})
	r := s.controlPrompt(map[string]any{"prompt": "Plan the fix."})
	if r.StopReason != "end_turn" {
		t.Fatalf("result = %+v", r)
	}
	if got := decodeWire(t, s.model.Requests()[0]).toolNames(); got != "read_file,glob,grep,todo_write,skill,task" {
		t.Errorf("plan mode offers %s", got)
	}
	var order []string
	var plans [][]map[string]string
	for _, n := range s.ed.Notifications("agent/update") {
		var u struct {
			Kind  string              `json:"kind"`
			Name  string              `json:"name"`
			Items []map[string]string `json:"items"`
		}
		if err := json.Unmarshal(n.Params, &u); err != nil {
			t.Fatal(err)
		}
		switch u.Kind {
		case "tool_call", "tool_result":
			order = append(order, u.Kind)
		case "plan":
			order = append(order, "plan")
			plans = append(plans, u.Items)
		}
	}
	if want := []string{"tool_call", "plan", "tool_result", "tool_call", "plan", "tool_result"}; !slices.Equal(order, want) {
		t.Fatalf("updates = %v, want %v", order, want)
	}
	if plans[0][0]["status"] != "in_progress" || plans[1][0]["status"] != "completed" || plans[1][1]["content"] != "Fix the bug" {
		t.Errorf("plans = %v", plans)
	}

	// Restart the daemon on the same store and model.
	s.stop()
	s2 := start(t, nil, setupOptions{caps: fullCaps, stateDir: stateDir, model: s.model})
	s2.initialize(nil) // default mode for new sessions; the stored one keeps "plan"
	var st struct {
		Mode string              `json:"mode"`
		Plan []map[string]string `json:"plan"`
	}
	s2.call("agent/session", map[string]any{"sessionId": r.SessionID}, &st)
	if st.Mode != "plan" || len(st.Plan) != 2 || st.Plan[0]["status"] != "completed" || st.Plan[1]["status"] != "in_progress" {
		t.Errorf("after a restart: %+v", st)
	}
	if r2 := s2.controlPrompt(map[string]any{"sessionId": r.SessionID, "prompt": "Go on."}); r2.Text != "resumed" {
		t.Errorf("resumed prompt = %+v", r2)
	}
}

// @src/x.go#L3-5 attaches exactly those lines from the unsaved buffer; a
// context file is attached whole; @../outside is refused by the sandbox
// and a missing file reported, in updates and in the result.
func TestMentionsAttachBufferLines(t *testing.T) {
	script := providertest.Script{{Text: "seen"}}
	s := start(t, script, setupOptions{caps: fullCaps, files: map[string]string{
		"src/x.go":  "disk1\ndisk2\ndisk3\ndisk4\ndisk5\ndisk6\n",
		"notes.txt": "note body\n",
	}})
	s.initialize(nil)
	if err := os.WriteFile(filepath.Join(filepath.Dir(s.root), "outside"), []byte("secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	xgo := filepath.Join(s.root, "src", "x.go")
	if err := s.ed.Open(ctx(t), xgo, "buf1\nbuf2\nbuf3\nbuf4\nbuf5\nbuf6\nbuf7\n"); err != nil {
		t.Fatal(err)
	}
	r := s.controlPrompt(map[string]any{
		"prompt":  "Explain @src/x.go#L3-5 and @../outside and @missing.go.",
		"context": map[string]any{"files": []string{lsptest.FileURI(filepath.Join(s.root, "notes.txt"))}},
	})
	if r.StopReason != "end_turn" {
		t.Fatalf("result = %+v", r)
	}
	user := decodeWire(t, s.model.Requests()[0]).lastUserText()
	if !strings.Contains(user, "Attached src/x.go (lines 3-5):\n```\nbuf3\nbuf4\nbuf5\n```") {
		t.Errorf("user message lacks exactly lines 3-5 of the buffer:\n%s", user)
	}
	for _, absent := range []string{"buf2", "buf6", "disk", "secret"} {
		if strings.Contains(user, absent) {
			t.Errorf("user message holds %q:\n%s", absent, user)
		}
	}
	if !strings.Contains(user, "Attached notes.txt:\n```\nnote body\n```") {
		t.Errorf("context file not attached:\n%s", user)
	}
	var statuses []string
	for _, m := range r.Mentions {
		statuses = append(statuses, m.Path+":"+m.Status)
	}
	if want := []string{"src/x.go:attached", "../outside:refused", "missing.go:missing", "notes.txt:attached"}; !slices.Equal(statuses, want) {
		t.Errorf("mentions = %v, want %v", statuses, want)
	}
	if m := r.Mentions[0]; m.StartLine != 3 || m.EndLine != 5 {
		t.Errorf("range = %+v", m)
	}
	if !strings.Contains(r.Mentions[1].Message, "escapes the workspace") {
		t.Errorf("refusal = %q", r.Mentions[1].Message)
	}
	n := 0
	for _, u := range s.updates(r.SessionID) {
		if u.Kind == "mention" {
			n++
		}
	}
	if n != 4 {
		t.Errorf("%d mention updates, want 4", n)
	}
}

// agent/commands lists the built-in commands; /mode and /model run
// without a model call; an unknown command is refused; a path is a prompt.
func TestSlashCommands(t *testing.T) {
	script := providertest.Script{{Text: "a path, not a command"}}
	s := start(t, script, setupOptions{caps: fullCaps})
	s.initialize(map[string]any{"models": []map[string]any{
		{"id": "mine", "provider": "openai", "model": "my-model", "baseURL": s.model.OpenAIBaseURL(), "apiKeyEnv": "none",
			"contextWindow": 32000, "prices": map[string]any{"input": 1, "cachedInput": 0.1, "output": 2}},
	}})
	var cmds struct {
		Commands []struct{ Name, Source string } `json:"commands"`
	}
	s.call("agent/commands", map[string]any{}, &cmds)
	var names []string
	for _, c := range cmds.Commands {
		names = append(names, c.Name)
	}
	if strings.Join(names, ",") != "/compact,/clear,/mode,/model,/rewind,/skills,/hooks,/worktree,/budget,/agents,/permissions" {
		t.Errorf("commands = %v", names)
	}

	r := s.controlPrompt(map[string]any{"prompt": "/mode plan"})
	if r.Command != "/mode" || !strings.Contains(r.Text, "Mode: plan") {
		t.Errorf("/mode plan = %+v", r)
	}
	id := r.SessionID
	r = s.controlPrompt(map[string]any{"sessionId": id, "prompt": "/model"})
	if !strings.Contains(r.Text, "mine: my-model") || !strings.Contains(r.Text, "deepseek-anthropic") {
		t.Errorf("/model = %q", r.Text)
	}
	r = s.controlPrompt(map[string]any{"sessionId": id, "prompt": "/model mine"})
	if !strings.Contains(r.Text, "Model: my-model") {
		t.Errorf("/model mine = %+v", r)
	}
	var st struct{ Mode, Model string }
	s.call("agent/session", map[string]any{"sessionId": id}, &st)
	if st.Mode != "plan" || st.Model != "my-model" {
		t.Errorf("session = %+v", st)
	}
	var models struct {
		Models []struct {
			ID            string `json:"id"`
			Provider      string `json:"provider"`
			ContextWindow int    `json:"contextWindow"`
			Prices        *struct {
				Input, Output float64
			} `json:"prices"`
			Source string `json:"source"`
		} `json:"models"`
		Current struct{ Model string } `json:"current"`
	}
	s.call("agent/models", map[string]any{"sessionId": id}, &models)
	byID := map[string]int{}
	for i, m := range models.Models {
		byID[m.ID] = i
	}
	for _, want := range []string{"mine", "deepseek", "deepseek-anthropic", "openai", "anthropic", "openrouter", "ollama"} {
		if _, ok := byID[want]; !ok {
			t.Errorf("agent/models lacks %s", want)
		}
	}
	if m := models.Models[byID["mine"]]; m.ContextWindow != 32000 || m.Prices == nil || m.Prices.Output != 2 || m.Source != "options" {
		t.Errorf("mine = %+v", m)
	}
	if m := models.Models[byID["deepseek"]]; m.ContextWindow != 1_000_000 || m.Prices == nil {
		t.Errorf("deepseek = %+v", m)
	}
	if models.Current.Model != "my-model" {
		t.Errorf("current = %+v", models.Current)
	}
	if len(s.model.Requests()) != 0 {
		t.Errorf("commands made %d model calls", len(s.model.Requests()))
	}

	var bad json.RawMessage
	err := s.ed.Call(ctx(t), "agent/prompt", map[string]any{"sessionId": id, "prompt": "/frobnicate now"}, &bad)
	if err == nil || !strings.Contains(err.Error(), "unknown command /frobnicate") {
		t.Errorf("/frobnicate: %v", err)
	}
	err = s.ed.Call(ctx(t), "agent/setModel", map[string]any{"sessionId": id, "preset": "nope"}, &bad)
	if err == nil || !strings.Contains(err.Error(), "unknown model preset") {
		t.Errorf("setModel nope: %v", err)
	}
	r = s.controlPrompt(map[string]any{"sessionId": id, "prompt": "/usr/bin holds what?"})
	if r.Command != "" || r.Text != "a path, not a command" {
		t.Errorf("a path prompt = %+v", r)
	}

	r = s.controlPrompt(map[string]any{"sessionId": id, "prompt": "/clear"})
	if r.Command != "/clear" {
		t.Errorf("/clear = %+v", r)
	}
	var after struct {
		Plan []any `json:"plan"`
	}
	s.call("agent/session", map[string]any{"sessionId": id}, &after)
	if after.Plan == nil || len(after.Plan) != 0 {
		t.Errorf("plan after /clear = %v", after.Plan)
	}
}

// An MCP prompt of @modelcontextprotocol/server-everything runs as a
// slash command: fetched with prompts/get, its text sent as the user
// message.
func TestMCPPromptRunsAsSlashCommand(t *testing.T) {
	node, script := everythingServer(t)
	model := providertest.Script{{Text: "Sunny in Paris.", Check: func(r providertest.Received) error {
		var w wireRequest
		if err := r.Decode(&w); err != nil {
			return err
		}
		if got := w.lastUserText(); got != "What's weather in Paris, Texas?" {
			return &checkError{"user message = " + got}
		}
		return nil
	}}}
	s := start(t, model, setupOptions{caps: fullCaps})
	s.initialize(map[string]any{"mcpServers": map[string]any{"every": map[string]any{"command": node, "args": []string{script, "stdio"}}}})

	var cmds struct {
		Commands []struct {
			Name      string `json:"name"`
			Source    string `json:"source"`
			Arguments []struct {
				Name     string `json:"name"`
				Required bool   `json:"required"`
			} `json:"arguments"`
		} `json:"commands"`
	}
	// The prompts come from a server process's handshake, and the editor
	// is told of no MCP change: asked until they are listed.
	await.Poll(t, 20*time.Second, "the MCP prompts in agent/commands", func() bool {
		s.call("agent/commands", map[string]any{}, &cmds)
		for _, c := range cmds.Commands {
			if c.Name == "/mcp__every__args-prompt" {
				if c.Source != "mcp:every" || len(c.Arguments) != 2 || c.Arguments[0].Name != "city" || !c.Arguments[0].Required {
					t.Fatalf("command = %+v", c)
				}
				return true
			}
		}
		return false
	})
	r := s.controlPrompt(map[string]any{"prompt": `/mcp__every__args-prompt city=Paris state="Texas"`})
	if r.Command != "/mcp__every__args-prompt" || r.Text != "Sunny in Paris." || r.StopReason != "end_turn" {
		t.Errorf("result = %+v (requests %+v)", r, s.model.Requests())
	}
	var bad json.RawMessage
	err := s.ed.Call(ctx(t), "agent/prompt", map[string]any{"prompt": "/mcp__every__args-prompt"}, &bad)
	if err == nil || !strings.Contains(err.Error(), "city") {
		t.Errorf("missing argument: %v", err)
	}
}

type checkError struct{ msg string }

func (e *checkError) Error() string { return e.msg }

// everythingServer locates the npm reference server installed by
// scripts/install-mcp-peers, skipping the test without it (failing under CI).
func everythingServer(t *testing.T) (node, script string) {
	t.Helper()
	dir := os.Getenv("AGENT_LSP_MCP_PEERS")
	if dir == "" {
		dir = filepath.Join("..", ".cache", "mcp-peers")
	}
	dir, _ = filepath.Abs(dir)
	miss := t.Skipf
	if os.Getenv("CI") != "" {
		miss = t.Fatalf
	}
	node, err := exec.LookPath("node")
	if err != nil {
		miss("node not found: %v", err)
	}
	script = filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
	if _, err := os.Stat(script); err != nil {
		miss("server-everything not installed in %s: run scripts/install-mcp-peers", dir)
	}
	return node, script
}

// Mode changes sent while a prompt streams keep seq order with the
// prompt's updates: numbering and writing an update are one step, so the
// editor never sees a lower seq after a higher one. This is a stress
// check: the interleaving it guards against (a number taken, then another
// sender writing first) is a window of a few instructions, so it rarely
// shows even without the fix; the fix is session.sendUpdate.
func TestControlUpdatesKeepSeqOrderWhileStreaming(t *testing.T) {
	answer := strings.Repeat("streaming text ", 400)
	s := start(t, providertest.Script{{Text: answer}}, setupOptions{caps: fullCaps})
	s.initialize(nil)
	var ns struct {
		SessionID string `json:"sessionId"`
	}
	s.call("agent/newSession", map[string]any{}, &ns)
	_, done := s.ed.CallAsync(ctx(t), "agent/prompt", map[string]any{"sessionId": ns.SessionID, "prompt": "stream"})
	modes := []string{"ask", "default", "plan", "auto-edit"}
	for i := 0; i < 40; i++ {
		var mr struct{ Mode string }
		s.call("agent/setMode", map[string]any{"sessionId": ns.SessionID, "mode": modes[i%len(modes)]}, &mr)
	}
	if r := <-done; r.Err != nil {
		t.Fatalf("prompt: %v", r.Err)
	}
	us := s.updates(ns.SessionID)
	kinds := map[string]int{}
	for i, u := range us {
		kinds[u.Kind]++
		if u.Seq != int64(i+1) {
			t.Fatalf("update %d (%s) arrived with seq %d: updates left out of order", i+1, u.Kind, u.Seq)
		}
	}
	if kinds["mode"] != 40 || joinText(us, "text") != answer {
		t.Errorf("updates by kind = %v; text intact = %v", kinds, joinText(us, "text") == answer)
	}
}
