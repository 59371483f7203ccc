package acp_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unicode"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// Through a real session: every session/request_permission title and
// text, and every tool call's title, shows the hidden characters of the
// model's commands and the tail of a long one; rawInput keeps what runs.
func TestPermissionRequestShowsWhatRuns(t *testing.T) {
	cases := []struct{ name, command, shown string }{
		{"carriage return", "echo safe\rgit push --force", `echo safe\rgit push --force`},
		{"OSC 52", "printf '\x1b]52;c;cm0gLXJmIH4=\a'", `printf '\x1b]52;c;cm0gLXJmIH4=\a'`},
		{"bidi override", "cat notes\u202Etxt.sh", `cat notes<U+202E>txt.sh`},
		{"zero-width space", "ping -c1 evil\u200B.example", `ping -c1 evil<U+200B>.example`},
		{"long command", "echo " + strings.Repeat("padding ", 60) + "&& git push --force origin main", "&& git push --force origin main"},
	}
	var script providertest.Script
	for i, c := range cases {
		args, _ := json.Marshal(map[string]string{"command": c.command})
		script = append(script, providertest.Turn{ToolCalls: []providertest.Call{{ID: "call_" + string(rune('a'+i)), Name: "run_bash", Arguments: string(args)}}})
	}
	script = append(script, providertest.Turn{Text: "Done."})
	h := startAgent(t, harnessOptions{dialect: "openai", script: script})
	h.initialize(true)
	h.client.answer = func(context.Context, sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
		return selected("reject_once")
	}
	ns, err := h.conn.NewSession(h.ctx(), sdk.NewSessionRequest{Cwd: t.TempDir(), McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	if r := h.prompt(ns.SessionId, "Tidy up."); r.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("stop %q", r.StopReason)
	}
	hiddenRune := func(r rune) bool {
		return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp) && r != '\n' && r != '\t'
	}
	h.client.mu.Lock()
	asked := append([]sdk.RequestPermissionRequest(nil), h.client.asked...)
	h.client.mu.Unlock()
	if len(asked) != len(cases) {
		t.Fatalf("asked %d times, want %d", len(asked), len(cases))
	}
	ups, _ := h.client.snapshot()
	for i, c := range cases {
		q := asked[i].ToolCall
		texts := []string{*q.Title}
		for _, content := range q.Content {
			if content.Content == nil || content.Content.Content.Text == nil {
				continue
			}
			text := content.Content.Content.Text.Text
			if j := strings.IndexFunc(text, hiddenRune); j >= 0 {
				t.Errorf("%s: %q shows %q raw", c.name, text, []rune(text[j:])[0])
			}
			if strings.HasPrefix(text, "$ ") {
				texts = append(texts, text)
			}
		}
		for _, u := range ups {
			if tc := u.Update.ToolCall; tc != nil && tc.ToolCallId == q.ToolCallId {
				texts = append(texts, tc.Title)
			}
		}
		if len(texts) < 3 {
			t.Fatalf("%s: want the title, the command and the tool call's title: %q", c.name, texts)
		}
		for _, text := range texts {
			if !strings.Contains(text, c.shown) {
				t.Errorf("%s: %q does not show %q", c.name, text, c.shown)
			}
			if j := strings.IndexFunc(text, hiddenRune); j >= 0 {
				t.Errorf("%s: %q shows %q raw", c.name, text, []rune(text[j:])[0])
			}
		}
		if raw, _ := json.Marshal(q.RawInput); !strings.Contains(string(raw), mustJSON(c.command)) {
			t.Errorf("%s: rawInput %s lacks the command that runs", c.name, raw)
		}
	}
}

func mustJSON(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}
