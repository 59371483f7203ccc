package acp_test

import (
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/agent/control"
	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// modelChoices are the model option's values and its current one.
func modelChoices(opts []sdk.SessionConfigOption) (values []string, current string) {
	for _, o := range opts {
		if o.Select == nil || o.Select.Id != "model" {
			continue
		}
		for _, v := range *o.Select.Options.Ungrouped {
			values = append(values, string(v.Value))
		}
		return values, string(o.Select.CurrentValue)
	}
	return nil, ""
}

// The model the agent started with stays in the picker after a switch to
// a preset, also after session/load, and choosing it goes back to it: the
// next request names it again.
func TestModelPickerRoundTrip(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Script{{Text: "on the preset"}, {Text: "back home"}})
	state := t.TempDir()
	o := harnessOptions{model: srv, dialect: openai.Name, modelName: "started-model", stateDir: state,
		presets: []control.Preset{{Preset: provider.Preset{ID: "fake-messages", Provider: anthropic.Name,
			Model: "switched-model", BaseURL: srv.AnthropicBaseURL(), APIKeyEnv: "none"}}}}
	h := startAgent(t, o)
	h.initialize(false)
	cwd := t.TempDir()
	ns, err := h.conn.NewSession(h.ctx(), sdk.NewSessionRequest{Cwd: cwd, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	if vals, cur := modelChoices(ns.ConfigOptions); cur != "configured" || !strings.Contains(strings.Join(vals, ","), "configured") {
		t.Fatalf("new session: %v, current %q", vals, cur)
	}
	set := func(id sdk.SessionId, v string) []sdk.SessionConfigOption {
		t.Helper()
		r, err := h.conn.SetSessionConfigOption(h.ctx(), sdk.SetSessionConfigOptionRequest{ValueId: &sdk.SetSessionConfigOptionValueId{
			SessionId: id, ConfigId: "model", Value: sdk.SessionConfigValueId(v)}})
		if err != nil {
			t.Fatalf("set model %s: %v", v, err)
		}
		return r.ConfigOptions
	}
	if vals, cur := modelChoices(set(ns.SessionId, "fake-messages")); cur != "fake-messages" || vals[0] != "configured" {
		t.Fatalf("after the switch: %v, current %q: the started-with model is gone", vals, cur)
	}
	if r := h.prompt(ns.SessionId, "on the preset"); r.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v", r)
	}
	h.stop()

	// A restart: the session is loaded on its preset; the picker still
	// offers the model this agent started with, and choosing it goes back.
	h = startAgent(t, o)
	h.initialize(false)
	ld, err := h.conn.LoadSession(h.ctx(), sdk.LoadSessionRequest{SessionId: ns.SessionId, Cwd: cwd, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	if vals, cur := modelChoices(ld.ConfigOptions); cur != "fake-messages" || vals[0] != "configured" {
		t.Fatalf("after session/load: %v, current %q", vals, cur)
	}
	if _, cur := modelChoices(set(ns.SessionId, "configured")); cur != "configured" {
		t.Fatalf("back: current %q", cur)
	}
	if r := h.prompt(ns.SessionId, "back home"); r.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v", r)
	}
	reqs := srv.Requests()
	if last := string(reqs[len(reqs)-1].Body); !strings.Contains(last, `"model":"started-model"`) || reqs[len(reqs)-1].Dialect != openai.Name {
		t.Errorf("the last request is not the started-with model's: %.200s", last)
	}
}
