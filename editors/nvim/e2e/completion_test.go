package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// The file the completion tests type into: the body of add is empty.
const (
	addBefore = "package main\n\nfunc add(a, b int) int {\n}\n"
	addAfter  = "package main\n\nfunc add(a, b int) int {\n\treturn a + b\n}\n"
)

// completionReport is what nvim/completion.lua writes.
type completionReport struct {
	Provider  bool `json:"provider"`
	Enabled   bool `json:"enabled"`
	TabMapped bool `json:"tab_mapped"`
	Ghosts    []struct {
		Text string `json:"text"`
		Row  int    `json:"row"`
		Col  int    `json:"col"`
	} `json:"ghosts"`
	Statuslines   []string `json:"statuslines"`
	BufferText    string   `json:"buffer_text"`
	Notifications []struct {
		Message string `json:"message"`
		Level   int    `json:"level"`
	} `json:"notifications"`
	Health []string `json:"health"`
	Cuts   []struct {
		Word string `json:"word"`
		Line string `json:"line"`
	} `json:"cuts"`
}

// fimCompletion is the plugin's completion option for the fake's
// DeepSeek FIM endpoint.
func fimCompletion(model *providertest.Server) map[string]any {
	return map[string]any{"dialect": "deepseek", "baseURL": model.FIMBaseURL(), "model": "deepseek-coder",
		"apiKeyEnv": "none", "debounceMs": 0}
}

// Neovim 0.12 with the completion option: typing "\treturn " on a new line
// asks automatically; the ghost text shows the model's "a + b" at the
// cursor. Accepting its first word (<M-Right>) takes "a"; the rest,
// " + b", comes back from the daemon's cache (no second model request for
// it) and <Tab> accepts it into the buffer. The model saw the buffer's
// text before and after the cursor, and the status line said completing….
func TestInlineCompletionGhostText(t *testing.T) {
	eachNvim(t, func(t *testing.T, nvim lsptest.Nvim) {
		if !strings.HasPrefix(nvim.Version, "0.12.") {
			t.Skipf("Neovim %s has no vim.lsp.inline_completion (0.12 has): no ghost text to test", nvim.Version)
		}
		model := providertest.NewServer(t, providertest.Script{
			// Slow enough for the status line to show "completing…".
			{FIM: &providertest.FIMTurn{Chunks: []string{"a", " + b"}, Delay: 150 * time.Millisecond}},
			// Once it is all typed, Neovim may ask again before Insert
			// mode ends: nothing more to suggest.
			{FIM: &providertest.FIMTurn{Text: ""}},
		})
		root := workspace(t, map[string]string{"main.go": addBefore})
		var rep completionReport
		scenario{nvim: nvim, script: "completion.lua", root: root, model: model, config: map[string]any{
			"file": "main.go", "line": 3, "type": "o\treturn ", "completion": fimCompletion(model),
			"accept_keys": []string{"<M-Right>", "<Tab>"},
		}}.run(t, &rep)

		if !rep.Provider || !rep.Enabled || !rep.TabMapped {
			t.Errorf("capability %v, enabled %v, <Tab> mapped %v: want all", rep.Provider, rep.Enabled, rep.TabMapped)
		}
		var ghosts []string
		for _, g := range rep.Ghosts {
			ghosts = append(ghosts, g.Text)
			if g.Row != 3 {
				t.Errorf("ghost %q on row %d, want the new line (3)", g.Text, g.Row)
			}
		}
		if strings.Join(ghosts, "|") != "a + b| + b" {
			t.Errorf("ghost texts = %q, want \"a + b\" then \" + b\"", ghosts)
		}
		if rep.BufferText != addAfter {
			t.Errorf("buffer = %q, want %q", rep.BufferText, addAfter)
		}
		if !strings.Contains(strings.Join(rep.Statuslines, "\n"), "completing…") {
			t.Errorf("the status line never said completing…: %q", rep.Statuslines)
		}
		fims := model.FIMRequests()
		if len(fims) == 0 {
			t.Fatal("no FIM request reached the model")
		}
		if first := fims[0]; !strings.HasSuffix(first.Prefix, "func add(a, b int) int {\n\treturn ") ||
			!strings.HasPrefix(first.Suffix, "\n}") || first.Model != "deepseek-coder" {
			t.Errorf("FIM request: model %q, prefix %q, suffix %q", first.Model, first.Prefix, first.Suffix)
		}
		// " + b" after the word accept was the cache's: a second request
		// is only the one after the whole suggestion was typed.
		for _, r := range fims[1:] {
			if !strings.HasSuffix(r.Prefix, "\treturn a + b") {
				t.Errorf("a model request with prefix %q: the rest of the suggestion was not served from the cache", r.Prefix)
			}
		}
		for _, n := range rep.Notifications {
			t.Errorf("notified %q (level %d)", n.Message, n.Level)
		}
		// What a word and a line accept take of a suggestion's rest.
		want := []string{"a", "a + b", " +", " + b", "(", "(x, y)", "wörld", "wörld 🎉 x", "\n\tz", "\n\tz := 1"}
		var cuts []string
		for _, c := range rep.Cuts {
			cuts = append(cuts, c.Word, c.Line)
		}
		if strings.Join(cuts, "|") != strings.Join(want, "|") {
			t.Errorf("word|line cuts = %q, want %q", cuts, want)
		}
		if health := strings.Join(rep.Health, "\n"); !strings.Contains(health, "inline completion: configured") {
			t.Errorf(":checkhealth agent_lsp lacks the completion:\n%s", health)
		}
	})
}

// Without the completion option the daemon announces no inline completion
// and the plugin enables nothing: no ghost text, no accept key, <Tab>
// types a tab, and no keystroke reaches a model. On every version.
func TestInlineCompletionOffWithoutConfig(t *testing.T) {
	eachNvim(t, func(t *testing.T, nvim lsptest.Nvim) {
		model := providertest.NewServer(t, providertest.Script{})
		root := workspace(t, map[string]string{"main.go": addBefore})
		var rep completionReport
		scenario{nvim: nvim, script: "completion.lua", root: root, model: model, config: map[string]any{
			"file": "main.go", "line": 3, "type": "o\treturn a + b",
		}}.run(t, &rep)
		if rep.Provider || rep.Enabled || rep.TabMapped || len(rep.Ghosts) != 0 {
			t.Errorf("capability %v, enabled %v, <Tab> mapped %v, ghosts %+v: want none", rep.Provider, rep.Enabled, rep.TabMapped, rep.Ghosts)
		}
		if rep.BufferText != addAfter {
			t.Errorf("buffer = %q, want %q", rep.BufferText, addAfter)
		}
		if n := len(model.Requests()); n != 0 {
			t.Errorf("%d model requests, want none", n)
		}
		if len(rep.Notifications) != 0 {
			t.Errorf("notified %+v", rep.Notifications)
		}
		if health := strings.Join(rep.Health, "\n"); !strings.Contains(health, "inline completion: off") {
			t.Errorf(":checkhealth agent_lsp lacks the completion:\n%s", health)
		}
	})
}

// Neovim 0.7 and 0.10 with the completion option: the daemon serves it,
// the plugin says once, at INFO, that ghost text needs 0.12, and
// :checkhealth says it too; nothing is enabled.
func TestInlineCompletionNeedsNvim012(t *testing.T) {
	eachNvim(t, func(t *testing.T, nvim lsptest.Nvim) {
		if strings.HasPrefix(nvim.Version, "0.12.") {
			t.Skipf("Neovim %s shows inline completion (TestInlineCompletionGhostText)", nvim.Version)
		}
		model := providertest.NewServer(t, providertest.Script{})
		root := workspace(t, map[string]string{"main.go": addBefore})
		var rep completionReport
		scenario{nvim: nvim, script: "completion.lua", root: root, model: model, config: map[string]any{
			"file": "main.go", "line": 3, "type": "o\treturn a + b", "completion": fimCompletion(model),
			"allow_messages": []string{"^agent%-lsp: inline completion needs Neovim 0%.12"},
		}}.run(t, &rep)
		if !rep.Provider || rep.Enabled || rep.TabMapped || rep.BufferText != addAfter {
			t.Errorf("capability %v (want true), enabled %v, <Tab> mapped %v, buffer %q", rep.Provider, rep.Enabled, rep.TabMapped, rep.BufferText)
		}
		want := "agent-lsp: inline completion needs Neovim 0.12 (vim.lsp.inline_completion); this is " + nvim.Version
		if len(rep.Notifications) != 1 || !strings.HasPrefix(rep.Notifications[0].Message, want) || rep.Notifications[0].Level != 2 {
			t.Errorf("notifications = %+v, want one at INFO (2) starting %q", rep.Notifications, want)
		}
		if health := strings.Join(rep.Health, "\n"); !strings.Contains(health, "inline completion needs Neovim 0.12") {
			t.Errorf(":checkhealth agent_lsp lacks the reason:\n%s", health)
		}
		if n := len(model.Requests()); n != 0 {
			t.Errorf("%d model requests, want none", n)
		}
	})
}

// Neovim 0.12: a model that fails shows no ghost text, and the status line
// says why (agent/completionStatus "error"), with nothing in :messages.
func TestInlineCompletionFailureInStatusLine(t *testing.T) {
	eachNvim(t, func(t *testing.T, nvim lsptest.Nvim) {
		if !strings.HasPrefix(nvim.Version, "0.12.") {
			t.Skipf("Neovim %s has no vim.lsp.inline_completion (0.12 has)", nvim.Version)
		}
		model := providertest.NewServer(t, providertest.Script{
			{Fault: &providertest.Fault{Status: 400}},
		})
		root := workspace(t, map[string]string{"main.go": addBefore})
		var rep completionReport
		scenario{nvim: nvim, script: "completion.lua", root: root, model: model, config: map[string]any{
			"file": "main.go", "line": 3, "type": "o\treturn ", "completion": fimCompletion(model),
			"wait_status": "completion failed: ",
		}}.run(t, &rep)
		if len(rep.Ghosts) != 0 || rep.BufferText != strings.Replace(addBefore, "{\n", "{\n\treturn \n", 1) {
			t.Errorf("ghosts %+v, buffer %q", rep.Ghosts, rep.BufferText)
		}
	})
}
