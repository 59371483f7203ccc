package openai

import (
	"bytes"
	"encoding/json"
	"flag"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// threeRoundHistory is a three-round agent session as history: glob and grep in
// parallel, then read_file, then the answer and a follow-up, with thinking
// on (every assistant turn has reasoning) and a compaction summary in the
// middle.
func threeRoundHistory() []provider.Message {
	return []provider.Message{
		{Role: provider.RoleSystem, Text: "You are a coding agent. Work in /home/u/calc."},
		{Role: provider.RoleUser, Text: "How many .java files are in this project, and what does Calculator.add do?"},
		{
			Role:      provider.RoleAssistant,
			Reasoning: "I need to count .java files and find Calculator.add. Run glob and grep together.",
			ToolCalls: []provider.ToolCall{
				{ID: "call_00_EQSIh2ejOTwD2ifbR6vJ6OcO", Name: "glob", Arguments: `{"pattern": "**/*.java"}`},
				{ID: "call_01_duTt6JEv9vE0hLkS1bOXwPxq", Name: "grep", Arguments: `{"pattern":"int add\\(","glob":"**/*.java"}`},
			},
		},
		{Role: provider.RoleTool, ToolCallID: "call_00_EQSIh2ejOTwD2ifbR6vJ6OcO", Text: "src/Main.java\nsrc/Calculator.java"},
		{Role: provider.RoleTool, ToolCallID: "call_01_duTt6JEv9vE0hLkS1bOXwPxq", Text: "src/Calculator.java:3:    public int add(int a, int b) {"},
		{Role: provider.RoleSystem, Text: "Summary of earlier context: the user works on a <Calculator> & <Main> demo."},
		{
			Role:      provider.RoleAssistant,
			Text:      "Two files. Let me read Calculator.java.",
			Reasoning: "Two files; read the add method to describe it.",
			ToolCalls: []provider.ToolCall{{ID: "call_00_Xb2", Name: "read_file", Arguments: ""}},
		},
		{Role: provider.RoleTool, ToolCallID: "call_00_Xb2", IsError: true, Text: "error: path is required"},
		{
			Role:      provider.RoleAssistant,
			Text:      "There are 2 .java files; Calculator.add returns a + b when a < b && b > 0.",
			Reasoning: "The file shows add returns a+b.",
		},
		{Role: provider.RoleUser, Text: "Thanks. Now add a subtract method."},
	}
}

func codingTools() []provider.ToolSpec {
	return []provider.ToolSpec{
		{
			Name:        "glob",
			Description: "Find files by pattern.",
			// Whitespace and an unusual key order: compacted, never reordered.
			Schema: json.RawMessage("{\n  \"type\": \"object\",\n  \"required\": [\"pattern\"],\n  \"properties\": {\"pattern\": {\"type\": \"string\"}}\n}"),
		},
		{Name: "grep", Description: "Search file contents.", Schema: json.RawMessage(`{"type":"object","properties":{"pattern":{"type":"string"},"glob":{"type":"string"}},"required":["pattern"]}`)},
		{Name: "read_file", Description: "Read a file.", Schema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)},
	}
}

func encode(t *testing.T, req provider.Request) []byte {
	t.Helper()
	body, err := NewDialect().Encode(req)
	if err != nil {
		t.Fatal(err)
	}
	return body
}

func compareGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("body differs from %s\n got: %s\nwant: %s", path, got, want)
	}
}

// wireBody is a loose view of an encoded body, to check facts that the
// golden bytes alone would not explain.
type wireBody struct {
	Messages []map[string]json.RawMessage `json:"messages"`
	Tools    []map[string]json.RawMessage `json:"tools"`
}

func TestEncodeThreeRoundConversationGolden(t *testing.T) {
	tests := []struct {
		name          string
		golden        string
		tools         []provider.ToolSpec
		wantReasoning bool
	}{
		{name: "with tools keeps every reasoning", golden: "encode_three_rounds_tools.json", tools: codingTools(), wantReasoning: true},
		{name: "without tools omits reasoning", golden: "encode_three_rounds_no_tools.json", wantReasoning: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			body := encode(t, provider.Request{
				Model:     "deepseek-flash",
				Messages:  threeRoundHistory(),
				Tools:     tc.tools,
				MaxTokens: 8192,
				Thinking:  provider.Thinking{Enabled: true, Effort: "high"},
			})
			compareGolden(t, tc.golden, body)

			var got wireBody
			if err := json.Unmarshal(body, &got); err != nil {
				t.Fatalf("body is not JSON: %v", err)
			}
			reasoningTurns := 0
			for _, m := range got.Messages {
				if _, ok := m["reasoning_content"]; ok {
					reasoningTurns++
				}
			}
			if want := map[bool]int{true: 3, false: 0}[tc.wantReasoning]; reasoningTurns != want {
				t.Errorf("%d messages carry reasoning_content, want %d", reasoningTurns, want)
			}
			if len(got.Messages) != 10 {
				t.Errorf("%d messages, want 10 (one per tool result)", len(got.Messages))
			}
			if r := string(got.Messages[5]["role"]); r != `"system"` {
				t.Errorf("mid-conversation system message encoded with role %s", r)
			}
			if c := string(got.Messages[2]["content"]); c != "null" {
				t.Errorf("tool-only assistant content = %s, want null", c)
			}
		})
	}
}

func TestEncodeIsDeterministic(t *testing.T) {
	req := provider.Request{Messages: threeRoundHistory(), Tools: codingTools(), Thinking: provider.Thinking{Enabled: true}}
	first := encode(t, req)
	for range 20 {
		if again := encode(t, req); !bytes.Equal(first, again) {
			t.Fatalf("encodings differ:\n%s\n%s", first, again)
		}
	}
	// A longer history must begin with the shorter one's messages byte for
	// byte, or the prompt cache misses on every round.
	longer := req
	longer.Messages = append(threeRoundHistory(), provider.Message{Role: provider.RoleAssistant, Text: "Done."})
	firstMsgs := first[:bytes.LastIndex(first, []byte(`],"stream"`))]
	if !bytes.HasPrefix(encode(t, longer), firstMsgs) {
		t.Error("appending a message changed the bytes of the earlier ones")
	}
}

func TestEncodeFields(t *testing.T) {
	user := []provider.Message{{Role: provider.RoleUser, Text: "hi"}}
	tests := []struct {
		name    string
		req     provider.Request
		want    []string // substrings that must appear
		notWant []string
	}{
		{
			name:    "defaults: model, stream, usage option, thinking off, no max_tokens, no tools",
			req:     provider.Request{Messages: user},
			want:    []string{`{"model":"deepseek-flash","messages":[{"role":"user","content":"hi"}],"stream":true,"stream_options":{"include_usage":true},"thinking":{"type":"disabled"}}`},
			notWant: []string{"max_tokens", "tools", "reasoning_effort"},
		},
		{
			name: "max_tokens, thinking with effort",
			req:  provider.Request{Model: "deepseek-v4-pro", Messages: user, MaxTokens: 100, Thinking: provider.Thinking{Enabled: true, Effort: "low"}},
			want: []string{`"model":"deepseek-v4-pro"`, `"max_tokens":100`, `"thinking":{"type":"enabled"},"reasoning_effort":"low"`},
		},
		{
			name:    "thinking without effort leaves the server default",
			req:     provider.Request{Messages: user, Thinking: provider.Thinking{Enabled: true}},
			want:    []string{`"thinking":{"type":"enabled"}`},
			notWant: []string{"reasoning_effort"},
		},
		{
			name: "tool schema nests under function; empty schema becomes {}",
			req:  provider.Request{Messages: user, Tools: []provider.ToolSpec{{Name: "now", Description: "Current time."}}},
			want: []string{`"tools":[{"type":"function","function":{"name":"now","description":"Current time.","parameters":{}}}]`},
		},
		{
			name: "empty arguments are sent as {}",
			req: provider.Request{Messages: []provider.Message{
				{Role: provider.RoleAssistant, ToolCalls: []provider.ToolCall{{ID: "c1", Name: "now"}}},
				{Role: provider.RoleTool, ToolCallID: "c1", Text: "12:00"},
			}},
			want: []string{
				`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"now","arguments":"{}"}}]}`,
				`{"role":"tool","tool_call_id":"c1","content":"12:00"}`,
			},
		},
		{
			name:    "assistant turn with neither text nor calls keeps an empty string",
			req:     provider.Request{Messages: []provider.Message{{Role: provider.RoleAssistant, Reasoning: "hmm"}}},
			want:    []string{`{"role":"assistant","content":""}`},
			notWant: []string{"hmm"},
		},
		{
			name: "html characters are not escaped",
			req:  provider.Request{Messages: []provider.Message{{Role: provider.RoleUser, Text: "a < b && c > d"}}},
			want: []string{`"content":"a < b && c > d"`},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			body := string(encode(t, tc.req))
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("body lacks %s\nbody: %s", w, body)
				}
			}
			for _, nw := range tc.notWant {
				if strings.Contains(body, nw) {
					t.Errorf("body has %s\nbody: %s", nw, body)
				}
			}
		})
	}
}

func TestEncodeRejects(t *testing.T) {
	tests := []struct {
		name string
		req  provider.Request
		want string
	}{
		{"unknown role", provider.Request{Messages: []provider.Message{{Role: "developer", Text: "x"}}}, `unknown role "developer"`},
		{"tool result without id", provider.Request{Messages: []provider.Message{{Role: provider.RoleTool, Text: "x"}}}, "tool_call_id"},
		{"invalid schema", provider.Request{Tools: []provider.ToolSpec{{Name: "bad", Schema: json.RawMessage(`{"type":`)}}}, "encode"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewDialect().Encode(tc.req)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestDialectBasics(t *testing.T) {
	d := NewDialect()
	if d.Name() != "openai" || d.Path() != "/chat/completions" {
		t.Errorf("Name, Path = %q, %q", d.Name(), d.Path())
	}
	tests := []struct {
		key      string
		wantAuth string
	}{
		{"sk-test", "Bearer sk-test"},
		{"", ""},
	}
	for _, tc := range tests {
		h := http.Header{}
		d.SetHeaders(h, tc.key)
		if got := h.Get("Authorization"); got != tc.wantAuth {
			t.Errorf("key %q: Authorization = %q, want %q", tc.key, got, tc.wantAuth)
		}
		if _, ok := h["Authorization"]; !ok && tc.wantAuth != "" {
			t.Error("Authorization missing")
		}
		if tc.key == "" && len(h.Values("Authorization")) != 0 {
			t.Error("Authorization set without a key")
		}
		if h.Get("Content-Type") != "application/json" {
			t.Errorf("Content-Type = %q", h.Get("Content-Type"))
		}
	}
}

// OpenAI's own API refuses DeepSeek's thinking parameters with 400, so the
// dialect for it leaves them out, whether thinking is asked for or not.
func TestEncodeWithoutThinkingFields(t *testing.T) {
	for _, enabled := range []bool{false, true} {
		req := provider.Request{Model: "gpt-4.1", Messages: []provider.Message{{Role: provider.RoleUser, Text: "hi"}},
			Thinking: provider.Thinking{Enabled: enabled, Effort: "high"}}
		with, err := NewDialect().Encode(req)
		if err != nil {
			t.Fatal(err)
		}
		without, err := NewDialect(WithoutThinkingFields()).Encode(req)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(with), `"thinking":`) {
			t.Errorf("the default dialect dropped the thinking switch: %s", with)
		}
		if strings.Contains(string(without), `"thinking"`) || strings.Contains(string(without), `"reasoning_effort"`) {
			t.Errorf("thinking fields sent to a server that refuses them: %s", without)
		}
	}
	for url, want := range map[string]bool{
		"https://api.openai.com/v1":            true,
		"https://myco.openai.azure.com/openai": true,
		"https://api.deepseek.com":             false,
		"http://localhost:11434/v1":            false,
		"https://openrouter.ai/api/v1":         false,
		"::not a url":                          false,
	} {
		if got := RejectsThinkingFields(url); got != want {
			t.Errorf("RejectsThinkingFields(%q) = %v, want %v", url, got, want)
		}
	}
}
