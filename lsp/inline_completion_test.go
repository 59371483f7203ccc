package lsp_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// inlineList is an InlineCompletionList as the editor reads it.
type inlineList struct {
	Items []struct {
		InsertText string          `json:"insertText"`
		Range      *protocol.Range `json:"range"`
	} `json:"items"`
}

// startInline starts a daemon whose inline completion talks DeepSeek's
// FIM dialect to the fake, with the given completion options on top.
func startInline(t *testing.T, script providertest.Script, extra map[string]any) *setup {
	t.Helper()
	s := start(t, script, setupOptions{})
	opts := map[string]any{"dialect": "deepseek", "baseURL": s.model.FIMBaseURL(), "model": "deepseek-coder",
		"apiKeyEnv": "none", "debounceMs": 0}
	for k, v := range extra {
		opts[k] = v
	}
	s.initialize(map[string]any{"completion": opts})
	return s
}

// openAt opens a buffer whose text marks the cursor with "|" and returns
// the path and the cursor's position.
func (s *setup) openAt(name, marked string) (string, protocol.Position) {
	s.t.Helper()
	i := strings.Index(marked, "|")
	text := marked[:i] + marked[i+1:]
	lines := strings.Split(marked[:i], "\n")
	last := lines[len(lines)-1]
	pos := protocol.Position{Line: uint32(len(lines) - 1), Character: uint32(len(utf16Units(last)))}
	path := filepath.Join(s.root, name)
	if err := s.ed.Open(ctx(s.t), path, text); err != nil {
		s.t.Fatal(err)
	}
	return path, pos
}

func utf16Units(s string) []uint16 {
	var out []uint16
	for _, r := range s {
		if r >= 0x10000 {
			out = append(out, 0, 0)
		} else {
			out = append(out, 0)
		}
	}
	return out
}

func (s *setup) inline(path string, pos protocol.Position, kind int) inlineList {
	s.t.Helper()
	var l inlineList
	err := s.ed.Call(ctx(s.t), "textDocument/inlineCompletion", map[string]any{
		"textDocument": map[string]any{"uri": lsptest.FileURI(path)},
		"position":     pos,
		"context":      map[string]any{"triggerKind": kind},
	}, &l)
	if err != nil {
		s.t.Fatalf("inlineCompletion: %v", err)
	}
	return l
}

// accepted is the buffer's text with the only suggestion applied.
func (s *setup) accepted(path string, l inlineList) string {
	s.t.Helper()
	if len(l.Items) != 1 || l.Items[0].Range == nil {
		s.t.Fatalf("want one item with a range, got %+v", l)
	}
	b, _ := s.ed.Buffer(path)
	out, err := lsptest.ApplyEdits(b.Text, []protocol.TextEdit{{Range: *l.Items[0].Range, NewText: l.Items[0].InsertText}})
	if err != nil {
		s.t.Fatal(err)
	}
	return out
}

const (
	invoked   = 1
	automatic = 2
)

func TestInlineCompletionTrimsWhatTheSuffixHolds(t *testing.T) {
	s := startInline(t, providertest.Script{
		{FIM: &providertest.FIMTurn{Text: `"hello")`}},              // closing paren repeated
		{FIM: &providertest.FIMTurn{Text: "return a + b\n}\n"}},     // the suffix's brace repeated
		{FIM: &providertest.FIMTurn{Text: "n, err)\nreturn nil\n"}}, // mid-line: the line only
	}, nil)

	path, pos := s.openAt("a.go", "package main\n\nfunc main() {\n\tfmt.Println(|)\n}\n")
	if got := s.accepted(path, s.inline(path, pos, invoked)); got != "package main\n\nfunc main() {\n\tfmt.Println(\"hello\")\n}\n" {
		t.Errorf("closing paren: %q", got)
	}
	path, pos = s.openAt("b.go", "package main\n\nfunc add(a, b int) int {\n\t|\n}\n")
	l := s.inline(path, pos, automatic)
	if got := s.accepted(path, l); got != "package main\n\nfunc add(a, b int) int {\n\treturn a + b\n}\n" {
		t.Errorf("repeated suffix: %q", got)
	}
	path, pos = s.openAt("c.go", "package main\n\nfunc f() {\n\tfmt.Printf(\"%d\", |) // why\n}\n")
	if got := s.accepted(path, s.inline(path, pos, automatic)); got != "package main\n\nfunc f() {\n\tfmt.Printf(\"%d\", n, err) // why\n}\n" {
		t.Errorf("mid-line: %q", got)
	}

	reqs := s.model.FIMRequests()
	if len(reqs) != 3 {
		t.Fatalf("%d FIM requests", len(reqs))
	}
	if !strings.HasSuffix(reqs[0].Prefix, "func main() {\n\tfmt.Println(") || reqs[0].Suffix != ")\n}\n" {
		t.Errorf("first request: prefix %q suffix %q", reqs[0].Prefix, reqs[0].Suffix)
	}
	if len(reqs[2].Stop) != 1 || reqs[2].Stop[0] != "\n" {
		t.Errorf("a mid-line request stops at the line's end: %q", reqs[2].Stop)
	}
	// "completing…" then idle, for the editor's status line.
	var states []string
	for _, n := range s.ed.Notifications("agent/completionStatus") {
		var st struct{ URI, State string }
		if err := json.Unmarshal(n.Params, &st); err != nil {
			t.Fatal(err)
		}
		if st.URI == lsptest.FileURI(path) {
			states = append(states, st.State)
		}
	}
	if strings.Join(states, ",") != "completing,idle" {
		t.Errorf("statuses of c.go: %v", states)
	}
}

// TestInlineCompletionCancelsThePrevious: the second request for a
// document closes the first one's HTTP stream at once (issue 18): on its
// arrival, not on its answer (which here never comes) nor on a timer.
func TestInlineCompletionCancelsThePrevious(t *testing.T) {
	s := startInline(t, providertest.Script{
		{FIM: &providertest.FIMTurn{Text: "never", Stall: providertest.Forever}},
		{FIM: &providertest.FIMTurn{Text: "never either", Stall: providertest.Forever}},
		{FIM: &providertest.FIMTurn{Text: "b := 2"}},
	}, nil)
	path, pos := s.openAt("a.go", "package main\n\nfunc f() {\n\t|\n}\n")
	params := map[string]any{"textDocument": map[string]any{"uri": lsptest.FileURI(path)}, "position": pos,
		"context": map[string]any{"triggerKind": automatic}}
	_, first := s.ed.CallAsync(ctx(t), "textDocument/inlineCompletion", params)
	if err := s.model.WaitRequests(ctx(t), 1); err != nil {
		t.Fatal(err)
	}
	_, second := s.ed.CallAsync(ctx(t), "textDocument/inlineCompletion", params)
	// Both streams stall forever, so only the second request's arrival
	// can close the first before the FIM client's 15 s idle timeout.
	await.Within(t, s.model.FIMRequests()[0].Closed(), 10*time.Second, "close of the first HTTP request by the second")
	if res := await.Event(t, first, "the first request's answer"); res.Err == nil || !strings.Contains(res.Err.Error(), "cancelled") {
		t.Errorf("the first request answered %s, %v; want RequestCancelled", res.Result, res.Err)
	}

	// The third closes the second in turn, and answers.
	if err := s.model.WaitRequests(ctx(t), 2); err != nil {
		t.Fatal(err)
	}
	l := s.inline(path, pos, automatic)
	if len(l.Items) != 1 || l.Items[0].InsertText != "b := 2" {
		t.Errorf("third answer: %+v", l)
	}
	if res := await.Event(t, second, "the second request's answer"); res.Err == nil || !strings.Contains(res.Err.Error(), "cancelled") {
		t.Errorf("the second request answered %s, %v; want RequestCancelled", res.Result, res.Err)
	}
	await.Event(t, s.model.FIMRequests()[1].Closed(), "close of the second HTTP request")
}

func TestInlineCompletionCacheServesTypingThrough(t *testing.T) {
	// One turn: a second model request would fail the test (script exhausted).
	s := startInline(t, providertest.Script{{FIM: &providertest.FIMTurn{Text: "return a + b"}}}, nil)
	path, pos := s.openAt("a.go", "package main\n\nfunc add(a, b int) int {\n\t|\n}\n")
	want := "return a + b"
	if l := s.inline(path, pos, automatic); len(l.Items) != 1 || l.Items[0].InsertText != want {
		t.Fatalf("first answer: %+v", l)
	}
	for i := range len("retu") {
		at := protocol.Position{Line: pos.Line, Character: pos.Character + uint32(i)}
		if err := s.ed.Change(ctx(t), path, protocol.Range{Start: at, End: at}, want[i:i+1]); err != nil {
			t.Fatal(err)
		}
		cursor := protocol.Position{Line: pos.Line, Character: at.Character + 1}
		l := s.inline(path, cursor, automatic)
		if len(l.Items) != 1 || l.Items[0].InsertText != want[i+1:] || *l.Items[0].Range != (protocol.Range{Start: cursor, End: cursor}) {
			t.Fatalf("after typing %q: %+v", want[:i+1], l)
		}
	}
	if n := len(s.model.FIMRequests()); n != 1 {
		t.Errorf("%d model requests while typing through the suggestion, want 1", n)
	}
}

func TestInlineCompletionMultiByteRanges(t *testing.T) {
	s := startInline(t, providertest.Script{{FIM: &providertest.FIMTurn{Text: "名前)"}}}, nil)
	// 😀 is two UTF-16 units and four bytes; 世界 one unit and three bytes each.
	path, pos := s.openAt("a.go", "package main\n\nvar s = f(\"😀 世界\", |) + 1\n")
	if pos.Character != uint32(len(`var s = f("`)+2+len(` 世界", `)-4) {
		t.Fatalf("the test's UTF-16 column is off: %d", pos.Character)
	}
	l := s.inline(path, pos, invoked)
	if got := s.accepted(path, l); got != "package main\n\nvar s = f(\"😀 世界\", 名前) + 1\n" {
		t.Errorf("accepted: %q", got)
	}
	if r := l.Items[0].Range; r.End.Character != pos.Character+1 {
		t.Errorf("range %+v: want the ) after the cursor replaced", r)
	}
	if p := s.model.FIMRequests()[0].Prefix; !strings.HasSuffix(p, "var s = f(\"😀 世界\", ") {
		t.Errorf("prefix = %q", p)
	}
}

func TestInlineCompletionDisabledLanguage(t *testing.T) {
	// No turns: any model request fails the test.
	s := startInline(t, providertest.Script{}, map[string]any{"languages": []string{"go"}})
	path, pos := s.openAt("notes.md", "# Notes\n\nSome |\n")
	if l := s.inline(path, pos, invoked); len(l.Items) != 0 {
		t.Errorf("items for a disabled language: %+v", l)
	}
	if n := len(s.model.Requests()); n != 0 {
		t.Errorf("%d model requests", n)
	}
}

func TestInlineCompletionCapabilityOnlyWhenConfigured(t *testing.T) {
	for _, c := range []struct {
		name    string
		options map[string]any
		want    bool
	}{
		{"no completion options", map[string]any{}, false},
		{"an empty completion object", map[string]any{"completion": map[string]any{}}, false},
		{"an empty Lua table", map[string]any{"completion": []any{}}, false},
		{"a completion model", map[string]any{"completion": map[string]any{"dialect": "llamacpp", "baseURL": "http://127.0.0.1:1"}}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := start(t, providertest.Script{}, setupOptions{})
			var res struct {
				Capabilities map[string]json.RawMessage `json:"capabilities"`
			}
			if err := json.Unmarshal(s.initialize(c.options), &res); err != nil {
				t.Fatal(err)
			}
			got, ok := res.Capabilities["inlineCompletionProvider"]
			if ok != c.want || (ok && string(got) != "{}") {
				t.Errorf("inlineCompletionProvider = %s (present %v), want present %v", got, ok, c.want)
			}
			if _, ok := res.Capabilities["codeLensProvider"]; !ok {
				t.Errorf("the other capabilities went missing: %v", res.Capabilities)
			}
		})
	}
}
