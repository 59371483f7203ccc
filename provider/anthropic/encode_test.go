package anthropic

import (
	"bytes"
	"encoding/json"
	"flag"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

var patternSchema = json.RawMessage(`{"type":"object","properties":{"pattern":{"type":"string"}},"required":["pattern"]}`)

// threeRoundConversation is a compacted tool conversation: a two-part system
// prompt, a first round with signed thinking and two parallel calls, a
// compaction summary (a system message in mid-conversation) right after their
// results, a second round whose call was denied, a final answer whose
// reasoning came unsigned (from the other dialect), and a new prompt.
func threeRoundConversation() provider.Request {
	return provider.Request{
		Model:     "deepseek-flash",
		MaxTokens: 4096,
		Thinking:  provider.Thinking{Enabled: true, Effort: "high"},
		Tools: []provider.ToolSpec{
			{Name: "glob", Description: "Find files by pattern.", Schema: patternSchema},
			{Name: "grep", Description: "Search file contents.", Schema: patternSchema},
			{Name: "read_file", Description: "Read a file.", Schema: json.RawMessage(`{
				"type": "object",
				"properties": {"path": {"type": "string"}}
			}`)},
		},
		Messages: []provider.Message{
			{Role: provider.RoleSystem, Text: "You are agent-lsp, a coding agent."},
			{Role: provider.RoleSystem, Text: "Workspace: /home/u/calc"},
			{Role: provider.RoleUser, Text: "How many .go files are there, and what does calc.Add do?"},
			{
				Role: provider.RoleAssistant, Text: "Let me look.",
				Reasoning: "Glob and grep can run in parallel.", ReasoningSignature: "sig-round-1",
				ToolCalls: []provider.ToolCall{
					{ID: "toolu_01", Name: "glob", Arguments: `{"pattern": "**/*.go"}`},
					{ID: "toolu_02", Name: "grep", Arguments: `{"pattern":"func Add"}`},
				},
			},
			{Role: provider.RoleTool, ToolCallID: "toolu_01", Text: "main.go\ncalc/calc.go\ncalc/calc_test.go"},
			{Role: provider.RoleTool, ToolCallID: "toolu_02", Text: "calc/calc.go:3: func Add(a, b int) int {"},
			{Role: provider.RoleSystem, Text: "Summary of the conversation so far: the user asked about calc.Add."},
			{
				Role: provider.RoleAssistant, Reasoning: "Read calc.go for the body.", ReasoningSignature: "sig-round-2",
				ToolCalls: []provider.ToolCall{{ID: "toolu_03", Name: "read_file", Arguments: `{"path":"calc/calc.go"}`}},
			},
			{Role: provider.RoleTool, ToolCallID: "toolu_03", Text: "denied by the user", IsError: true},
			{Role: provider.RoleAssistant, Reasoning: "unsigned, from the other dialect", Text: "There are 3 .go files; calc.Add returns a+b."},
			{Role: provider.RoleUser, Text: "Thanks. Does it handle <T> & generics?"},
		},
	}
}

func encode(t *testing.T, req provider.Request) []byte {
	t.Helper()
	body, err := NewDialect().Encode(req)
	if err != nil {
		t.Fatalf("Encode: %v", err)
	}
	return body
}

// TestEncodeGolden pins the whole body of the three-round conversation. The
// golden file is the body indented; indenting keeps key order and string
// bytes, so it compares everything but insignificant whitespace.
func TestEncodeGolden(t *testing.T) {
	body := encode(t, threeRoundConversation())
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, body, "", "  "); err != nil {
		t.Fatalf("body is not JSON: %v\n%s", err, body)
	}
	pretty.WriteByte('\n')
	path := filepath.Join("testdata", "three_round_tool_conversation.golden.json")
	if *update {
		if err := os.WriteFile(path, pretty.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run TestEncodeGolden -update to create it)", err)
	}
	if !bytes.Equal(pretty.Bytes(), want) {
		t.Errorf("body differs from %s; got:\n%s", path, pretty.Bytes())
	}
}

// wireBody is the body read back, for assertions on its structure.
type wireBody struct {
	System   []wireBlock   `json:"system"`
	Messages []wireMessage `json:"messages"`
	Tools    []wireTool    `json:"tools"`
	Thinking wireThinking  `json:"thinking"`
	Max      int           `json:"max_tokens"`
	Stream   bool          `json:"stream"`
}

func decodeBody(t *testing.T, body []byte) wireBody {
	t.Helper()
	var w wireBody
	if err := json.Unmarshal(body, &w); err != nil {
		t.Fatalf("body is not JSON: %v\n%s", err, body)
	}
	return w
}

// TestEncodeOnlyLeadingSystemIsTopLevel guards a bug of the first encoder:
// collecting every system message into the top-level system field sent a
// compaction summary twice and changed the cached prefix (wire rule 7,
// docs/design.md §5).
func TestEncodeOnlyLeadingSystemIsTopLevel(t *testing.T) {
	body := encode(t, threeRoundConversation())
	w := decodeBody(t, body)
	if len(w.System) != 1 || w.System[0].Text != "You are agent-lsp, a coding agent.\n\nWorkspace: /home/u/calc" {
		t.Errorf("system = %+v", w.System)
	}
	if n := bytes.Count(body, []byte("Summary of the conversation")); n != 1 {
		t.Errorf("summary appears %d times in the body, want once", n)
	}
	// The summary is user text in the message of the first tool results,
	// after the tool_result blocks.
	got := w.Messages[2]
	if got.Role != roleUser || len(got.Content) != 3 ||
		got.Content[0].Type != blockToolResult || got.Content[1].Type != blockToolResult ||
		got.Content[2].Type != blockText || !strings.HasPrefix(got.Content[2].Text, "Summary") {
		t.Errorf("messages[2] = %+v", got)
	}
}

func TestEncodeAlternatesRoles(t *testing.T) {
	w := decodeBody(t, encode(t, threeRoundConversation()))
	for i, m := range w.Messages {
		want := roleUser
		if i%2 == 1 {
			want = roleAssistant
		}
		if m.Role != want {
			t.Errorf("messages[%d].role = %s, want %s", i, m.Role, want)
		}
		if len(m.Content) == 0 {
			t.Errorf("messages[%d] has empty content", i)
		}
		for j, b := range m.Content {
			if b.Type == blockText && strings.TrimSpace(b.Text) == "" {
				t.Errorf("messages[%d].content[%d] is an empty text block", i, j)
			}
		}
	}
}

func TestEncodeCacheBreakpoints(t *testing.T) {
	body := encode(t, threeRoundConversation())
	if n := bytes.Count(body, []byte(`"cache_control":{"type":"ephemeral"}`)); n != 3 {
		t.Errorf("%d breakpoints, want 3 (last tool, system, newest message)", n)
	}
	w := decodeBody(t, body)
	for i, tool := range w.Tools {
		if marked := tool.CacheControl != nil; marked != (i == len(w.Tools)-1) {
			t.Errorf("tools[%d] (%s) marked = %v", i, tool.Name, marked)
		}
	}
	if w.System[0].CacheControl == nil {
		t.Error("system block is not marked")
	}
	newest := w.Messages[len(w.Messages)-1].Content
	if newest[len(newest)-1].CacheControl == nil {
		t.Error("the newest message's last block is not marked")
	}
}

// TestEncodeSummaryAfterSystemPromptIsUserText: the compactor places its
// summary right after the system prompt; marked as a summary it must not
// join the top-level system text (which would change the cached prefix).
func TestEncodeSummaryAfterSystemPromptIsUserText(t *testing.T) {
	w := decodeBody(t, encode(t, provider.Request{Model: "m", Messages: []provider.Message{
		{Role: provider.RoleSystem, Text: "sys"},
		{Role: provider.RoleSystem, Text: "summary", Summary: true},
		{Role: provider.RoleAssistant, Text: "kept answer"},
		{Role: provider.RoleUser, Text: "next"},
	}}))
	if len(w.System) != 1 || w.System[0].Text != "sys" {
		t.Errorf("system = %+v, want just the system prompt", w.System)
	}
	want := []wireMessage{
		{Role: roleUser, Content: []wireBlock{{Type: blockText, Text: "summary"}}},
		{Role: roleAssistant, Content: []wireBlock{{Type: blockText, Text: "kept answer"}}},
		{Role: roleUser, Content: []wireBlock{{Type: blockText, Text: "next", CacheControl: ephemeral}}},
	}
	if !reflect.DeepEqual(w.Messages, want) {
		t.Errorf("messages =\n%+v\nwant\n%+v", w.Messages, want)
	}
}

func TestEncodeMergesUserTurns(t *testing.T) {
	tests := []struct {
		name string
		msgs []provider.Message
		want []wireMessage
	}{
		{
			name: "summary then prompt become one user message",
			msgs: []provider.Message{
				{Role: provider.RoleSystem, Text: "sys"},
				{Role: provider.RoleUser, Text: "first"},
				{Role: provider.RoleAssistant, Text: "answer"},
				{Role: provider.RoleSystem, Text: "summary"},
				{Role: provider.RoleUser, Text: "next"},
			},
			want: []wireMessage{
				{Role: roleUser, Content: []wireBlock{{Type: blockText, Text: "first"}}},
				{Role: roleAssistant, Content: []wireBlock{{Type: blockText, Text: "answer"}}},
				{Role: roleUser, Content: []wireBlock{{Type: blockText, Text: "summary"}, {Type: blockText, Text: "next", CacheControl: ephemeral}}},
			},
		},
		{
			name: "tool results stay ahead of a summary placed before them",
			msgs: []provider.Message{
				{Role: provider.RoleUser, Text: "go"},
				{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "a", Name: "glob", Arguments: "{}"}, {ID: "b", Name: "grep", Arguments: "{}"}}},
				{Role: provider.RoleTool, ToolCallID: "a", Text: "1"},
				{Role: provider.RoleSystem, Text: "summary"},
				{Role: provider.RoleTool, ToolCallID: "b", Text: ""},
			},
			want: []wireMessage{
				{Role: roleUser, Content: []wireBlock{{Type: blockText, Text: "go"}}},
				{Role: roleAssistant, Content: []wireBlock{
					{Type: blockToolUse, ID: "a", Name: "glob", Input: json.RawMessage("{}")},
					{Type: blockToolUse, ID: "b", Name: "grep", Input: json.RawMessage("{}")},
				}},
				{Role: roleUser, Content: []wireBlock{
					{Type: blockToolResult, ToolUseID: "a", Content: "1"},
					{Type: blockToolResult, ToolUseID: "b"},
					{Type: blockText, Text: "summary", CacheControl: ephemeral},
				}},
			},
		},
		{
			name: "an empty assistant turn is dropped and its neighbours merge",
			msgs: []provider.Message{
				{Role: provider.RoleUser, Text: "one"},
				{Role: provider.RoleAssistant, Reasoning: "unsigned"},
				{Role: provider.RoleUser, Text: ""},
				{Role: provider.RoleUser, Text: "two"},
			},
			want: []wireMessage{
				{Role: roleUser, Content: []wireBlock{{Type: blockText, Text: "one"}, {Type: blockText, Text: "two", CacheControl: ephemeral}}},
			},
		},
		{
			name: "every system message before the first other turn is the leading run",
			msgs: []provider.Message{
				{Role: provider.RoleSystem, Text: "sys"},
				{Role: provider.RoleSystem, Text: ""},
				{Role: provider.RoleSystem, Text: "summary"},
				{Role: provider.RoleUser, Text: "hi"},
			},
			want: []wireMessage{
				{Role: roleUser, Content: []wireBlock{{Type: blockText, Text: "hi", CacheControl: ephemeral}}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := decodeBody(t, encode(t, provider.Request{Model: "m", Messages: tt.msgs}))
			if !reflect.DeepEqual(w.Messages, tt.want) {
				t.Errorf("messages =\n%+v\nwant\n%+v", w.Messages, tt.want)
			}
		})
	}
}

func TestEncodeAssistantBlocks(t *testing.T) {
	msg := provider.Message{
		Role: provider.RoleAssistant, Text: "calling",
		Reasoning: "think", ReasoningSignature: "sig",
		ToolCalls: []provider.ToolCall{
			{ID: "1", Name: "t", Arguments: " {\n \"a\": [1, 2]\n} "},
			{ID: "2", Name: "t", Arguments: ""},
			{ID: "3", Name: "t", Arguments: `{"a": `},
			{ID: "4", Name: "t", Arguments: `[1,2]`},
			{ID: "5", Name: "t", Arguments: `"text"`},
		},
	}
	w := decodeBody(t, encode(t, provider.Request{Model: "m", Messages: []provider.Message{{Role: provider.RoleUser, Text: "u"}, msg, {Role: provider.RoleUser, Text: "u2"}}}))
	got := w.Messages[1].Content
	want := []wireBlock{
		{Type: blockThinking, Thinking: "think", Signature: "sig"},
		{Type: blockText, Text: "calling"},
		{Type: blockToolUse, ID: "1", Name: "t", Input: json.RawMessage(`{"a":[1,2]}`)},
		{Type: blockToolUse, ID: "2", Name: "t", Input: json.RawMessage(`{}`)},
		{Type: blockToolUse, ID: "3", Name: "t", Input: json.RawMessage(`{}`)},
		{Type: blockToolUse, ID: "4", Name: "t", Input: json.RawMessage(`{}`)},
		{Type: blockToolUse, ID: "5", Name: "t", Input: json.RawMessage(`{}`)},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("assistant content =\n%+v\nwant\n%+v", got, want)
	}
}

func TestEncodeThinkingBudget(t *testing.T) {
	tests := []struct {
		name      string
		thinking  provider.Thinking
		maxTokens int
		want      wireThinking
	}{
		{"off", provider.Thinking{}, 0, wireThinking{Type: "disabled"}},
		{"low", provider.Thinking{Enabled: true, Effort: "low"}, 0, wireThinking{Type: "enabled", BudgetTokens: 2048}},
		{"medium", provider.Thinking{Enabled: true, Effort: "medium"}, 0, wireThinking{Type: "enabled", BudgetTokens: 4096}},
		{"high", provider.Thinking{Enabled: true, Effort: "high"}, 0, wireThinking{Type: "enabled", BudgetTokens: 8191}},
		{"server default is high", provider.Thinking{Enabled: true}, 32000, wireThinking{Type: "enabled", BudgetTokens: 8192}},
		{"max", provider.Thinking{Enabled: true, Effort: "max"}, 32000, wireThinking{Type: "enabled", BudgetTokens: 16384}},
		{"clamped below max_tokens", provider.Thinking{Enabled: true, Effort: "max"}, 3000, wireThinking{Type: "enabled", BudgetTokens: 2999}},
		{"never below the minimum", provider.Thinking{Enabled: true, Effort: "low"}, 1025, wireThinking{Type: "enabled", BudgetTokens: 1024}},
		{"no room for thinking", provider.Thinking{Enabled: true, Effort: "low"}, 1024, wireThinking{Type: "disabled"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := decodeBody(t, encode(t, provider.Request{Model: "m", MaxTokens: tt.maxTokens, Thinking: tt.thinking}))
			if w.Thinking != tt.want {
				t.Errorf("thinking = %+v, want %+v", w.Thinking, tt.want)
			}
			wantMax := tt.maxTokens
			if wantMax == 0 {
				wantMax = DefaultMaxTokens
			}
			if w.Max != wantMax || !w.Stream {
				t.Errorf("max_tokens = %d stream = %v, want %d true", w.Max, w.Stream, wantMax)
			}
		})
	}
}

func TestEncodeToolsAndPlainRequest(t *testing.T) {
	body := encode(t, provider.Request{
		Model:    "m",
		Messages: []provider.Message{{Role: provider.RoleUser, Text: "a < b && c > d"}},
		Tools:    []provider.ToolSpec{{Name: "noargs"}},
	})
	want := `{"model":"m","max_tokens":8192,"stream":true,"messages":[{"role":"user","content":[{"type":"text","text":"a < b && c > d","cache_control":{"type":"ephemeral"}}]}],"tools":[{"name":"noargs","input_schema":{"type":"object","properties":{}},"cache_control":{"type":"ephemeral"}}],"thinking":{"type":"disabled"}}`
	if string(body) != want {
		t.Errorf("body =\n%s\nwant\n%s", body, want)
	}
}

func TestEncodeIsDeterministic(t *testing.T) {
	first := encode(t, threeRoundConversation())
	for range 50 {
		if again := encode(t, threeRoundConversation()); !bytes.Equal(again, first) {
			t.Fatalf("encoding changed between calls:\n%s\n%s", first, again)
		}
	}
}

func TestEncodeRejects(t *testing.T) {
	user := []provider.Message{{Role: provider.RoleUser, Text: "u"}}
	tests := []struct {
		name    string
		req     provider.Request
		wantErr string
	}{
		{"no model", provider.Request{Messages: user}, "no model"},
		{"negative max_tokens", provider.Request{Model: "m", MaxTokens: -1}, "negative"},
		{"unknown effort", provider.Request{Model: "m", Thinking: provider.Thinking{Enabled: true, Effort: "extreme"}}, `effort "extreme"`},
		{"unknown role", provider.Request{Model: "m", Messages: []provider.Message{{Role: "developer", Text: "x"}}}, `message 0: unknown role "developer"`},
		{"tool result without id", provider.Request{Model: "m", Messages: []provider.Message{{Role: provider.RoleSystem, Text: "s"}, {Role: provider.RoleTool, Text: "x"}}}, "message 1: tool result without tool_call_id"},
		{"schema not JSON", provider.Request{Model: "m", Tools: []provider.ToolSpec{{Name: "bad", Schema: json.RawMessage(`{"type":`)}}}, `tool "bad"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewDialect().Encode(tt.req)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("err = %v, want it to contain %q", err, tt.wantErr)
			}
		})
	}
}

func TestDialectHeadersAndPath(t *testing.T) {
	d := NewDialect()
	if d.Name() != "anthropic" || d.Path() != "/v1/messages" {
		t.Errorf("name, path = %q, %q", d.Name(), d.Path())
	}
	h := http.Header{}
	d.SetHeaders(h, "sk-test")
	want := http.Header{
		"X-Api-Key":         {"sk-test"},
		"Anthropic-Version": {"2023-06-01"},
		"Content-Type":      {"application/json"},
	}
	if !reflect.DeepEqual(h, want) {
		t.Errorf("headers = %v, want %v", h, want)
	}
	h = http.Header{}
	d.SetHeaders(h, "")
	if _, ok := h["X-Api-Key"]; ok {
		t.Error("x-api-key set for an empty key")
	}
	if h.Get("Authorization") != "" {
		t.Error("Authorization header set: Messages authenticates with x-api-key")
	}
}
