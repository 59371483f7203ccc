package mcp

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agent-lsp/agent-lsp/permission"
)

var validToolName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

func TestExposedNamesAreValidUniqueAndDeterministic(t *testing.T) {
	long := strings.Repeat("very_long_tool_name_", 5)
	tools := []string{"read.file", "read_file", "read file", long + "a", long + "b", "ok"}
	taken := func(n string) bool { return n == "mcp__srv__ok" } // a built-in or another server has it
	got := exposedNames("srv", tools, taken)
	seen := map[string]bool{}
	for _, tool := range tools {
		n := got[tool]
		if !validToolName.MatchString(n) || !strings.HasPrefix(n, "mcp__srv__") {
			t.Errorf("%q → %q: not a valid exposed name", tool, n)
		}
		if seen[n] || n == "mcp__srv__ok" {
			t.Errorf("%q → %q collides", tool, n)
		}
		seen[n] = true
	}
	if got["read file"] != "mcp__srv__read_file" { // sorts first: keeps the plain name
		t.Errorf("read file → %q", got["read file"])
	}
	reversed := []string{"ok", long + "b", long + "a", "read file", "read_file", "read.file"}
	again := exposedNames("srv", reversed, taken)
	for _, tool := range tools {
		if again[tool] != got[tool] {
			t.Errorf("%q named %q then %q: order-dependent", tool, got[tool], again[tool])
		}
	}
	p := serverPrefixes([]string{"my.fs", "my_fs", strings.Repeat("x", 40)})
	if p["my.fs"] == p["my_fs"] || len(p[strings.Repeat("x", 40)]) > 20 {
		t.Errorf("server prefixes = %v", p)
	}
}

func TestResultText(t *testing.T) {
	png := make([]byte, 12*1024)
	for _, tc := range []struct {
		name string
		res  *sdk.CallToolResult
		want string
	}{
		{"texts joined", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "one"}, &sdk.TextContent{Text: "two"}}}, "one\ntwo"},
		{"image note", &sdk.CallToolResult{Content: []sdk.Content{&sdk.ImageContent{MIMEType: "image/png", Data: png}}}, "[image: image/png, 12 KB]"},
		{"audio note", &sdk.CallToolResult{Content: []sdk.Content{&sdk.AudioContent{MIMEType: "audio/wav", Data: make([]byte, 300)}}}, "[audio: audio/wav, 300 bytes]"},
		{"embedded text resource", &sdk.CallToolResult{Content: []sdk.Content{&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "file:///a.txt", MIMEType: "text/plain", Text: "hi"}}}}, "[resource: file:///a.txt, text/plain]\nhi"},
		{"embedded blob", &sdk.CallToolResult{Content: []sdk.Content{&sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: "x://b", Blob: make([]byte, 2<<20)}}}}, "[resource: x://b, 2.0 MB binary]"},
		{"resource link", &sdk.CallToolResult{Content: []sdk.Content{&sdk.ResourceLink{URI: "file:///r", Name: "r", MIMEType: "text/x-go", Description: "a file"}}}, "[resource link: file:///r (r), text/x-go] a file"},
		{"structured only", &sdk.CallToolResult{StructuredContent: map[string]any{"n": 3}}, `{"n":3}`},
		{"structured beside text", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "n is 3"}}, StructuredContent: map[string]any{"n": 3}}, "n is 3"},
		{"empty", &sdk.CallToolResult{}, "(the tool returned no content)"},
	} {
		if got := resultText(tc.res); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	huge := resultText(&sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: strings.Repeat("y", 5<<20)}}})
	if len(huge) > maxResultText || !strings.Contains(huge, "cut from the middle") {
		t.Errorf("5 MB text → %d bytes", len(huge))
	}
}

func TestDescribePermissions(t *testing.T) {
	s := &server{cfg: ServerConfig{Name: "gh"}}
	yes, no := true, false
	for _, tc := range []struct {
		name string
		ann  *sdk.ToolAnnotations
		risk permission.Risk
	}{
		{"no hints", nil, permission.Medium},
		{"destructive", &sdk.ToolAnnotations{DestructiveHint: &yes}, permission.High},
		{"explicitly not destructive", &sdk.ToolAnnotations{DestructiveHint: &no}, permission.Medium},
		{"read-only", &sdk.ToolAnnotations{ReadOnlyHint: true}, permission.Medium},
	} {
		a := newToolAdapter(s, "mcp__gh__delete_repo", &sdk.Tool{Name: "delete_repo", Annotations: tc.ann})
		act, err := a.Describe(t.Context(), json.RawMessage(`{ "repo" : "me/x", "blob": "`+strings.Repeat("z", 5000)+`" }`), nil)
		if err != nil {
			t.Fatal(err)
		}
		if act.Risk != tc.risk || act.ReadOnly || act.Tool != "mcp__gh__delete_repo" || act.Scope != "mcp__gh__delete_repo" {
			t.Errorf("%s: action = %+v", tc.name, act)
		}
		if !strings.Contains(act.Summary, "gh/delete_repo") || !strings.Contains(act.Summary, `{"repo":"me/x"`) || len(act.Summary) > 300 {
			t.Errorf("%s: summary %q", tc.name, act.Summary)
		}
		if !strings.Contains(act.Command, `"gh"`) || !strings.Contains(act.Command, `"delete_repo"`) || len(act.Command) > 2200 {
			t.Errorf("%s: command %.200q", tc.name, act.Command)
		}
	}
	// The policy still asks for a read-only-hinted MCP tool.
	a := newToolAdapter(s, "mcp__gh__list", &sdk.Tool{Name: "list", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}})
	act, _ := a.Describe(t.Context(), json.RawMessage(`{}`), nil)
	asked := false
	p := permission.NewPolicy(approverFunc(func(permission.Action) permission.Decision { asked = true; return permission.AllowOnce }))
	if v, _ := p.Check(t.Context(), act); !v.Allowed || !asked {
		t.Errorf("read-only hint: allowed=%v asked=%v, want asked", v.Allowed, asked)
	}
}

func TestObjectSchema(t *testing.T) {
	for _, tc := range []struct {
		in   any
		want string
	}{
		{nil, `{"properties":{},"type":"object"}`},
		{map[string]any{"properties": map[string]any{"a": map[string]any{"type": "string"}}}, `{"properties":{"a":{"type":"string"}},"type":"object"}`},
		{map[string]any{"type": "object", "required": []string{"a"}, "properties": map[string]any{}}, `{"properties":{},"required":["a"],"type":"object"}`},
	} {
		if got := string(objectSchema(tc.in)); got != tc.want {
			t.Errorf("objectSchema(%v) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

type approverFunc func(permission.Action) permission.Decision

func (f approverFunc) Approve(_ context.Context, a permission.Action, _ bool) (permission.Decision, error) {
	return f(a), nil
}
