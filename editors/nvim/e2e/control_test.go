package e2e

import (
	"slices"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// modelRequest is the part of a Chat Completions request these tests read.
type modelRequest struct {
	Model    string        `json:"model"`
	Messages []chatMessage `json:"messages"`
	Tools    []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
}

// answeredRequests decodes the requests the fake model answered.
func answeredRequests(t *testing.T, model *providertest.Server) []modelRequest {
	t.Helper()
	var out []modelRequest
	for _, r := range model.Requests() {
		if r.Rejected != "" {
			t.Errorf("the fake model refused a request: %s", r.Rejected)
			continue
		}
		var req modelRequest
		if err := r.Decode(&req); err != nil {
			t.Fatal(err)
		}
		out = append(out, req)
	}
	return out
}

func (r modelRequest) toolNames() []string {
	var names []string
	for _, tool := range r.Tools {
		names = append(names, tool.Function.Name)
	}
	slices.Sort(names)
	return names
}

// transcriptLine is a chat line with its highlight groups.
type transcriptLine struct {
	Text   string   `json:"text"`
	Groups []string `json:"groups"`
}

// inOrder reports the first of want not found in lines after the ones
// before it ("" when all are there, in order).
func inOrder(lines []string, want []string) string {
	next := 0
	for _, l := range lines {
		if next < len(want) && l == want[next] {
			next++
		}
	}
	if next < len(want) {
		return want[next]
	}
	return ""
}

func texts(lines []transcriptLine) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l.Text
	}
	return out
}

type planItem struct {
	Content string `json:"content"`
	Status  string `json:"status"`
}

// planReport is what nvim/plan.lua writes.
type planReport struct {
	Last      promptEnd `json:"last"`
	Snapshots []struct {
		Block []string   `json:"block"`
		Items []planItem `json:"items"`
	} `json:"snapshots"`
	Transcript []transcriptLine `json:"transcript"`
	Plan       []planItem       `json:"plan"`
	Resumed    []string         `json:"resumed"`
}

// The plan: each todo_write redraws the turn's plan block in place (the
// block grows from two items to three between updates, and the tool call
// lines below it keep their status), the final plan stays in the chat, and
// a resumed session shows agent/session's plan.
func TestChatShowsThePlan(t *testing.T) {
	eachNvim(t, func(t *testing.T, nvim lsptest.Nvim) {
		const (
			plan1 = `{"items":[{"content":"Read main.go","status":"in_progress"},{"content":"Add a farewell","status":"pending"}]}`
			plan2 = `{"items":[{"content":"Read main.go","status":"completed"},{"content":"Add a farewell","status":"in_progress"},{"content":"Run the tests","status":"pending"}]}`
			plan3 = `{"items":[{"content":"Read main.go","status":"completed"},{"content":"Add a farewell","status":"completed"},{"content":"Run the tests","status":"completed"}]}`
		)
		model := providertest.NewServer(t, providertest.Script{
			{ToolCalls: []providertest.Call{{ID: "call_plan1", Name: "todo_write", Arguments: plan1}}},
			{ToolCalls: []providertest.Call{{ID: "call_read", Name: "read_file", Arguments: `{"path":"main.go"}`}}},
			{ToolCalls: []providertest.Call{{ID: "call_plan2", Name: "todo_write", Arguments: plan2}}},
			{ToolCalls: []providertest.Call{{ID: "call_plan3", Name: "todo_write", Arguments: plan3}}},
			{Text: "Planned and done."},
		})
		root := workspace(t, map[string]string{"main.go": greetBefore})
		var rep planReport
		scenario{nvim: nvim, script: "plan.lua", root: root, model: model, config: map[string]any{"prompt": "Plan a farewell"}}.run(t, &rep)

		if rep.Last.StopReason != "end_turn" {
			t.Fatalf("the prompt ended with %+v", rep.Last)
		}
		wantBlocks := [][]string{
			{"☰ Plan (0/2 done)", "  [~] Read main.go", "  [ ] Add a farewell"},
			{"☰ Plan (1/3 done)", "  [x] Read main.go", "  [~] Add a farewell", "  [ ] Run the tests"},
			{"☰ Plan (3/3 done)", "  [x] Read main.go", "  [x] Add a farewell", "  [x] Run the tests"},
		}
		if len(rep.Snapshots) < len(wantBlocks) {
			t.Fatalf("%d plan updates shown, want %d: %+v", len(rep.Snapshots), len(wantBlocks), rep.Snapshots)
		}
		for i, want := range wantBlocks {
			if got := rep.Snapshots[i].Block; !slices.Equal(got, want) {
				t.Errorf("plan block after update %d = %q, want %q", i+1, got, want)
			}
			if got := len(rep.Snapshots[i].Items); got != len(want)-1 {
				t.Errorf("plan() after update %d has %d items, want %d", i+1, got, len(want)-1)
			}
		}

		lines := texts(rep.Transcript)
		headers := 0
		for _, l := range lines {
			if strings.HasPrefix(l, "☰ Plan") {
				headers++
			}
		}
		if headers != 1 {
			t.Errorf("the turn shows %d plan blocks, want 1 redrawn in place:\n%s", headers, strings.Join(lines, "\n"))
		}
		// The block sits where the plan first appeared; the tool lines after
		// it kept their places and got their results although it grew.
		want := []string{
			"▶ Plan a farewell",
			"⚙ todo_write 2 items  ✓ completed",
			"☰ Plan (3/3 done)", "  [x] Read main.go", "  [x] Add a farewell", "  [x] Run the tests",
			"⚙ read_file main.go  ✓ completed",
			"⚙ todo_write 3 items  ✓ completed",
			"⚙ todo_write 3 items  ✓ completed",
			"Planned and done.",
		}
		if missing := inOrder(lines, want); missing != "" {
			t.Errorf("transcript lacks %q (in order):\n%s", missing, strings.Join(lines, "\n"))
		}
		for _, l := range rep.Transcript {
			if strings.HasPrefix(l.Text, "☰ Plan") && !slices.Contains(l.Groups, "AgentLspPlan") {
				t.Errorf("plan header %q highlighted %q, want AgentLspPlan", l.Text, l.Groups)
			}
			if strings.HasPrefix(l.Text, "  [x]") && !slices.Contains(l.Groups, "AgentLspPlanDone") {
				t.Errorf("completed item %q highlighted %q, want AgentLspPlanDone", l.Text, l.Groups)
			}
		}
		if len(rep.Plan) != 3 || rep.Plan[2] != (planItem{"Run the tests", "completed"}) {
			t.Errorf("plan() = %+v", rep.Plan)
		}

		// The resumed session draws agent/session's plan below the note.
		if missing := inOrder(rep.Resumed, []string{"Planned and done.", "☰ Plan (3/3 done)", "  [x] Run the tests"}); missing != "" {
			t.Errorf("resumed transcript lacks %q (in order):\n%s", missing, strings.Join(rep.Resumed, "\n"))
		}
	})
}

type completionCapture struct {
	Mode  string   `json:"mode"`
	Words []string `json:"words"`
}

// controlReport is what nvim/control.lua writes.
type controlReport struct {
	EarlyCompletion completionCapture `json:"early_completion"`
	ModeItems       []string          `json:"mode_items"`
	StatuslineAsk   string            `json:"statusline_ask"`
	FirstLast       promptEnd         `json:"first_last"`
	ModelItems      []string          `json:"model_items"`
	StatuslineModel string            `json:"statusline_model"`
	ModelCompletion []string          `json:"model_completion"`
	ModeCompletion  []string          `json:"mode_completion"`
	SecondLast      promptEnd         `json:"second_last"`
	SlashCompletion completionCapture `json:"slash_completion"`
	MoCompletion    completionCapture `json:"mo_completion"`
	ModeLast        struct {
		StopReason string `json:"stopReason"`
		Text       string `json:"text"`
	} `json:"mode_last"`
	StatuslinePlan string    `json:"statusline_plan"`
	MentionLine    string    `json:"mention_line"`
	ThirdLast      promptEnd `json:"third_last"`
	AskCompletion  struct {
		Slash   []string `json:"slash"`
		Mode    []string `json:"mode"`
		Mention []string `json:"mention"`
	} `json:"ask_completion"`
	Transcript []transcriptLine `json:"transcript"`
	Status     struct {
		Mode  string `json:"mode"`
		Model string `json:"model"`
	} `json:"status"`
}

// Modes, models, slash commands and mentions from the chat: :AgentMode
// (picked: ask) before the first prompt makes its request carry only the
// read-only tools; :AgentModel switches to a preset for the next request;
// in the prompt line `/` completes the slash commands and a typed
// `/mode plan` switches the mode without a model call; `@ma` completes to
// the workspace file, and a mention of a missing file is shown.
func TestChatModeModelAndCompletion(t *testing.T) {
	eachNvim(t, func(t *testing.T, nvim lsptest.Nvim) {
		const bigModel = "deepseek-pro"
		model := providertest.NewServer(t, providertest.Script{
			{Text: "It greets."},
			{Text: "Still greets."},
			{Text: "Read it."},
		})
		root := workspace(t, map[string]string{"main.go": greetBefore, "notes.txt": "n\n"})
		var rep controlReport
		scenario{nvim: nvim, script: "control.lua", root: root, model: model, config: map[string]any{
			"big_model": bigModel, "first_prompt": "What does main.go do?", "second_prompt": "And now?",
			"mention_prompt": "and @missing.go please",
		}}.run(t, &rep)

		// Completion asked for before the daemon answered opens when it does
		// (through complete(): mode "eval").
		if rep.EarlyCompletion.Mode != "eval" || !slices.Contains(rep.EarlyCompletion.Words, "/compact") ||
			!slices.Contains(rep.EarlyCompletion.Words, "/mode") {
			t.Errorf("/<C-x><C-o> before the daemon was ready offered %+v", rep.EarlyCompletion)
		}
		if len(rep.ModeItems) != 4 || !strings.HasPrefix(rep.ModeItems[0], "ask") || !strings.Contains(rep.ModeItems[0], "read-only") {
			t.Errorf(":AgentMode offered %q", rep.ModeItems)
		}
		if !strings.Contains(rep.StatuslineAsk, "mode ask") {
			t.Errorf("status line after :AgentMode = %q, want the mode", rep.StatuslineAsk)
		}
		if rep.FirstLast.StopReason != "end_turn" || rep.SecondLast.StopReason != "end_turn" || rep.ThirdLast.StopReason != "end_turn" {
			t.Fatalf("prompts ended with %+v, %+v, %+v", rep.FirstLast, rep.SecondLast, rep.ThirdLast)
		}
		if rep.SecondLast.SessionID != rep.FirstLast.SessionID || rep.ThirdLast.SessionID != rep.FirstLast.SessionID {
			t.Errorf("the prompts ran in sessions %q, %q, %q, want one", rep.FirstLast.SessionID, rep.SecondLast.SessionID, rep.ThirdLast.SessionID)
		}

		reqs := answeredRequests(t, model)
		if len(reqs) != 3 {
			t.Fatalf("%d model requests, want 3 (/mode makes none)", len(reqs))
		}
		readOnly := []string{"glob", "grep", "read_file", "task"} // task: a subagent, read-only itself
		if got := reqs[0].toolNames(); !slices.Equal(got, readOnly) {
			t.Errorf("tools offered in ask mode = %q, want %q", got, readOnly)
		}
		if reqs[0].Model != "deepseek-flash" || reqs[1].Model != bigModel {
			t.Errorf("models asked: %q then %q, want deepseek-flash then %q", reqs[0].Model, reqs[1].Model, bigModel)
		}
		if got := reqs[1].toolNames(); !slices.Equal(got, readOnly) {
			t.Errorf("tools offered after the model switch = %q, want %q (still ask)", got, readOnly)
		}
		if got, want := reqs[2].toolNames(), []string{"glob", "grep", "read_file", "task", "todo_write"}; !slices.Equal(got, want) {
			t.Errorf("tools offered after /mode plan = %q, want %q", got, want)
		}

		modelItems := strings.Join(rep.ModelItems, "\n")
		for _, w := range []string{"fake-big", bigModel, "1000k context", "$1/$2 per M", "deepseek-anthropic", "ollama"} {
			if !strings.Contains(modelItems, w) {
				t.Errorf(":AgentModel picker lacks %q:\n%s", w, modelItems)
			}
		}
		if !strings.Contains(rep.StatuslineModel, bigModel) {
			t.Errorf("status line after :AgentModel = %q, want %s", rep.StatuslineModel, bigModel)
		}
		if !slices.Equal(rep.ModelCompletion, []string{"fake-big"}) {
			t.Errorf(":AgentModel fake<Tab> = %q", rep.ModelCompletion)
		}
		if !slices.Equal(rep.ModeCompletion, []string{"ask", "auto-edit"}) {
			t.Errorf(":AgentMode a<Tab> = %q", rep.ModeCompletion)
		}

		// Completion in the prompt line.
		if rep.SlashCompletion.Mode != "omni" {
			t.Errorf("/<C-x><C-o> completion mode = %q, want omni", rep.SlashCompletion.Mode)
		}
		for _, w := range []string{"/compact", "/clear", "/mode", "/model"} {
			if !slices.Contains(rep.SlashCompletion.Words, w) {
				t.Errorf("/<C-x><C-o> offered %q, lacks %s", rep.SlashCompletion.Words, w)
			}
		}
		if !slices.Equal(rep.MoCompletion.Words, []string{"/mode", "/model"}) {
			t.Errorf("/mo<C-x><C-o> offered %q, want /mode, /model", rep.MoCompletion.Words)
		}
		if rep.ModeLast.StopReason != "end_turn" || !strings.HasPrefix(rep.ModeLast.Text, "Mode: plan") {
			t.Errorf("/mode plan ended with %+v", rep.ModeLast)
		}
		if !strings.Contains(rep.StatuslinePlan, "mode plan") || rep.Status.Mode != "plan" || rep.Status.Model != bigModel {
			t.Errorf("after /mode plan: status line %q, status %+v", rep.StatuslinePlan, rep.Status)
		}
		if rep.MentionLine != "Ask> @main.go" {
			t.Errorf("@ma<C-x><C-o> left the prompt line %q, want Ask> @main.go", rep.MentionLine)
		}

		// The mentioned file reached the model; the missing one is shown.
		msgs := reqs[2].Messages
		if user := msgs[len(msgs)-1]; user.Role != "user" || !strings.Contains(user.text(), "Attached main.go") ||
			!strings.Contains(user.text(), "func greet") {
			t.Errorf("the prompt with @main.go sent %+v", user)
		}
		lines := texts(rep.Transcript)
		want := []string{
			"◆ mode: ask",
			"▶ What does main.go do?", "It greets.",
			"◆ model: " + bigModel + " (openai)",
			"▶ And now?", "Still greets.",
			"▶ /mode plan", rep.ModeLast.Text,
			"▶ @main.go and @missing.go please",
			"📎 @main.go attached",
		}
		if missing := inOrder(lines, want); missing != "" {
			t.Errorf("transcript lacks %q (in order):\n%s", missing, strings.Join(lines, "\n"))
		}
		var missingLine string
		for _, l := range rep.Transcript {
			if strings.HasPrefix(l.Text, "⚠ @missing.go missing") {
				missingLine = l.Text
				if !slices.Contains(l.Groups, "AgentLspToolDenied") {
					t.Errorf("missing mention %q highlighted %q", l.Text, l.Groups)
				}
			}
			if strings.Contains(l.Text, "◆ mode: plan") {
				t.Errorf("/mode plan's change is shown twice: %q besides its answer", l.Text)
			}
		}
		if missingLine == "" {
			t.Errorf("the missing mention is not shown:\n%s", strings.Join(lines, "\n"))
		}

		if !slices.Equal(rep.AskCompletion.Slash, []string{"/compact"}) || !slices.Equal(rep.AskCompletion.Mode, []string{"ask", "auto-edit"}) ||
			!slices.Equal(rep.AskCompletion.Mention, []string{"@main.go"}) {
			t.Errorf(":AgentAsk completion: %+v", rep.AskCompletion)
		}
	})
}
