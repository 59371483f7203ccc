package control

import (
	"reflect"
	"testing"

	"github.com/agent-lsp/agent-lsp/mcp"
	"github.com/agent-lsp/agent-lsp/provider"
)

func TestParseCommand(t *testing.T) {
	for _, tc := range []struct {
		prompt, name, args string
		ok                 bool
	}{
		{"/mode plan", "/mode", "plan", true},
		{"  /compact  ", "/compact", "", true},
		{"/model   deepseek-pro  ", "/model", "deepseek-pro", true},
		{"/mcp__demo__greet city=\"New York\"", "/mcp__demo__greet", "city=\"New York\"", true},
		{"/rewind\n2", "/rewind", "2", true},
		{"/usr/bin is where it lives", "", "", false}, // a path, not a command
		{"/1abc", "", "", false},
		{"what does /mode do?", "", "", false},
		{"/", "", "", false},
		{"", "", "", false},
	} {
		name, args, ok := ParseCommand(tc.prompt)
		if name != tc.name || args != tc.args || ok != tc.ok {
			t.Errorf("ParseCommand(%q) = %q, %q, %v; want %q, %q, %v", tc.prompt, name, args, ok, tc.name, tc.args, tc.ok)
		}
	}
}

func TestSplitWords(t *testing.T) {
	for _, tc := range []struct {
		line  string
		words []string
		err   bool
	}{
		{"a b\tc\nd", []string{"a", "b", "c", "d"}, false},
		{`city="New York" x`, []string{"city=New York", "x"}, false},
		{`"say \"hi\"" b`, []string{`say "hi"`, "b"}, false},
		{`""`, []string{""}, false},
		{"  ", nil, false},
		{`"open`, nil, true},
	} {
		words, err := splitWords(tc.line)
		if (err != nil) != tc.err || !reflect.DeepEqual(words, tc.words) {
			t.Errorf("splitWords(%q) = %q, %v; want %q, error %v", tc.line, words, err, tc.words, tc.err)
		}
	}
}

func TestPromptArguments(t *testing.T) {
	one := mcp.PromptInfo{Server: "s", Name: "weather", Arguments: []mcp.PromptArgument{{Name: "city"}}}
	two := mcp.PromptInfo{Server: "s", Name: "trip", Arguments: []mcp.PromptArgument{{Name: "from"}, {Name: "to"}}}
	none := mcp.PromptInfo{Server: "s", Name: "hello"}
	for _, tc := range []struct {
		pi   mcp.PromptInfo
		line string
		want map[string]string
		err  bool
	}{
		{one, "", map[string]string{}, false},
		{one, "New York City", map[string]string{"city": "New York City"}, false}, // one argument takes the line
		{one, `city="Paris"`, map[string]string{"city": "Paris"}, false},
		{two, "Paris Rome", map[string]string{"from": "Paris", "to": "Rome"}, false},
		{two, "to=Rome Paris", map[string]string{"from": "Paris", "to": "Rome"}, false},
		{two, `from="St Ives" to=Leeds`, map[string]string{"from": "St Ives", "to": "Leeds"}, false},
		{two, "Paris", map[string]string{"from": "Paris"}, false},
		{two, "a b c", nil, true},      // too many
		{two, `from="open`, nil, true}, // unterminated quote
		{none, "anything", nil, true},  // takes no argument
		{two, "x=1 Paris", map[string]string{"from": "x=1", "to": "Paris"}, false}, // x is not declared: a bare word
		{one, "x=1", map[string]string{"city": "x=1"}, false},
	} {
		got, err := promptArguments(tc.pi, tc.line)
		if (err != nil) != tc.err || (!tc.err && !reflect.DeepEqual(got, tc.want)) {
			t.Errorf("promptArguments(%s, %q) = %v, %v; want %v, error %v", tc.pi.Name, tc.line, got, err, tc.want, tc.err)
		}
	}
}

func TestShortTitle(t *testing.T) {
	long := "Refactor the parser so that every production returns a node and an error, then test it"
	for _, tc := range []struct{ prompt, want string }{
		{"  fix the bug\nin main.go", "fix the bug"},
		{"", ""},
		{long, string([]rune(long)[:maxTitleRunes-1]) + "…"},
	} {
		if got := shortTitle(tc.prompt); got != tc.want {
			t.Errorf("shortTitle(%q) = %q, want %q", tc.prompt, got, tc.want)
		}
	}
}

func TestAllPresetsKeepsTheUsersFirst(t *testing.T) {
	user := []Preset{{Preset: providerPreset("fast", "my-model")}}
	all := AllPresets(user)
	if len(all) < 2 || all[0].ID != "fast" || all[0].Source != "options" {
		t.Fatalf("presets %+v", all)
	}
	for _, p := range all[1:] {
		if p.Source != "default" || p.ID == "fast" {
			t.Errorf("default preset %+v", p)
		}
	}
	if user[0].Source != "" {
		t.Error("AllPresets changed its argument")
	}
}

func providerPreset(id, model string) provider.Preset {
	return provider.Preset{ID: id, Provider: "openai", Model: model, BaseURL: "http://127.0.0.1:1/v1", APIKeyEnv: "none"}
}
