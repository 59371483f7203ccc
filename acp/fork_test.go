package acp_test

import (
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/provider/anthropic"
	"github.com/agent-lsp/agent-lsp/provider/openai"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// session/fork: a new session that carries the source's conversation
// and then goes its own way; the source never sees the fork's prompts
// (both dialects).
func TestForkSession(t *testing.T) {
	for _, dialect := range []string{openai.Name, anthropic.Name} {
		t.Run(dialect, func(t *testing.T) {
			h := startAgent(t, harnessOptions{dialect: dialect, script: providertest.Script{
				{Text: "the answer is 42"}, {Text: "in the fork"}, {Text: "in the source"}}})
			if h.initialize(true).AgentCapabilities.SessionCapabilities.Fork == nil {
				t.Error("sessionCapabilities.fork is not offered")
			}
			cwd := t.TempDir()
			ns, err := h.conn.NewSession(h.ctx(), sdk.NewSessionRequest{Cwd: cwd, McpServers: []sdk.McpServer{}})
			if err != nil {
				t.Fatal(err)
			}
			h.prompt(ns.SessionId, "what is the answer?")
			fork, err := h.conn.UnstableForkSession(h.ctx(), sdk.UnstableForkSessionRequest{SessionId: ns.SessionId, Cwd: cwd})
			if err != nil {
				t.Fatal(err)
			}
			if fork.SessionId == ns.SessionId || fork.SessionId == "" {
				t.Fatalf("fork id %q", fork.SessionId)
			}
			h.prompt(fork.SessionId, "FORK-ONLY question")
			h.prompt(ns.SessionId, "SOURCE-ONLY question")
			reqs := h.model.Requests()
			inFork, inSource := string(reqs[1].Body), string(reqs[2].Body)
			if !strings.Contains(inFork, "the answer is 42") || !strings.Contains(inFork, "FORK-ONLY") {
				t.Errorf("the fork's request lacks the source's conversation:\n%.800s", inFork)
			}
			if strings.Contains(inSource, "FORK-ONLY") || !strings.Contains(inSource, "SOURCE-ONLY") {
				t.Errorf("the source saw the fork's prompt:\n%.800s", inSource)
			}
			if _, err := h.conn.UnstableForkSession(h.ctx(), sdk.UnstableForkSessionRequest{SessionId: "nope", Cwd: cwd}); err == nil {
				t.Error("forking an unknown session worked")
			}
		})
	}
}

// A stored session (of an earlier run) is forked from its file, and the
// fork is listed with the source's title.
func TestForkStoredSession(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Script{{Text: "the answer is 42"}, {Text: "in the fork"}})
	state, cwd := t.TempDir(), t.TempDir()
	h := startAgent(t, harnessOptions{model: srv, stateDir: state})
	h.initialize(true)
	ns, err := h.conn.NewSession(h.ctx(), sdk.NewSessionRequest{Cwd: cwd, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	h.prompt(ns.SessionId, "what is the answer?")
	h.stop()

	h = startAgent(t, harnessOptions{model: srv, stateDir: state})
	h.initialize(true)
	fork, err := h.conn.UnstableForkSession(h.ctx(), sdk.UnstableForkSessionRequest{SessionId: ns.SessionId, Cwd: cwd})
	if err != nil {
		t.Fatal(err)
	}
	h.prompt(fork.SessionId, "and then?")
	if body := string(srv.Requests()[1].Body); !strings.Contains(body, "the answer is 42") {
		t.Errorf("the fork of a stored session lacks its conversation:\n%.600s", body)
	}
	list, err := h.conn.ListSessions(h.ctx(), sdk.ListSessionsRequest{Cwd: &cwd})
	if err != nil {
		t.Fatal(err)
	}
	titles := map[string]string{}
	for _, s := range list.Sessions {
		if s.Title != nil {
			titles[string(s.SessionId)] = *s.Title
		}
	}
	if !strings.HasSuffix(titles[string(fork.SessionId)], "(fork)") || len(list.Sessions) != 2 {
		t.Errorf("sessions %v", titles)
	}
}

// A fork goes on with the source's model and mode: a switch made in the
// source is not undone by forking it (both dialects, each switching to
// the other).
func TestForkKeepsTheSourcesModelAndMode(t *testing.T) {
	for _, dialect := range []string{openai.Name, anthropic.Name} {
		t.Run(dialect, func(t *testing.T) {
			h := startAgent(t, harnessOptions{dialect: dialect, script: providertest.Script{{Text: "first"}, {Text: "in the fork"}}})
			h.initialize(true)
			cwd := t.TempDir()
			ns, err := h.conn.NewSession(h.ctx(), sdk.NewSessionRequest{Cwd: cwd, McpServers: []sdk.McpServer{}})
			if err != nil {
				t.Fatal(err)
			}
			h.prompt(ns.SessionId, "hello")
			other, otherDialect := "deepseek-anthropic", anthropic.Name
			if dialect == anthropic.Name {
				other, otherDialect = "deepseek", openai.Name
			}
			for _, set := range []struct{ id, value string }{{"mode", "plan"}, {"model", other}} {
				if _, err := h.conn.SetSessionConfigOption(h.ctx(), sdk.SetSessionConfigOptionRequest{ValueId: &sdk.SetSessionConfigOptionValueId{
					SessionId: ns.SessionId, ConfigId: sdk.SessionConfigId(set.id), Value: sdk.SessionConfigValueId(set.value)}}); err != nil {
					t.Fatalf("set %s: %v", set.id, err)
				}
			}
			fork, err := h.conn.UnstableForkSession(h.ctx(), sdk.UnstableForkSessionRequest{SessionId: ns.SessionId, Cwd: cwd})
			if err != nil {
				t.Fatal(err)
			}
			var opts []sdk.SessionConfigOption
			if err := sameShapeForTest(fork.ConfigOptions, &opts); err != nil {
				t.Fatal(err)
			}
			if got := string(findOption(opts, "model").CurrentValue); got != other {
				t.Errorf("the fork's model is %q, want the source's %q", got, other)
			}
			if fork.Modes == nil || fork.Modes.CurrentModeId != "plan" {
				t.Errorf("the fork's mode is %+v, want the source's plan", fork.Modes)
			}
			h.prompt(fork.SessionId, "and in the fork?")
			reqs := h.model.Requests()
			if last := reqs[len(reqs)-1]; last.Dialect != otherDialect {
				t.Errorf("the fork's request went in %q, want the source's switched %q", last.Dialect, otherDialect)
			}
		})
	}
}

// sameShapeForTest copies v into out through JSON (the unstable methods'
// own copies of the stable types).
func sameShapeForTest(v, out any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, out)
}
