//go:build linux

package lsp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// bashScript is one run_bash call, then an answer.
func bashScript(command string) providertest.Script {
	return providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "call_bash", Name: "run_bash", Arguments: bashArgs(command)}}},
		{Text: "Done."},
	}
}

// A write outside the workspace fails inside the daemon's sandbox (the
// default), and the fake model receives the tool result saying why.
func TestSandboxBlockedWriteReachesTheModel(t *testing.T) {
	target := filepath.Join(t.TempDir(), "escape.txt")
	s := start(t, bashScript("echo pwned > "+target), setupOptions{caps: fullCaps, autoApprove: true})
	s.initialize(nil)
	r := s.prompt(map[string]any{"prompt": "Write it."})
	if r.StopReason != "end_turn" {
		t.Fatalf("prompt: %+v", r)
	}
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Fatalf("%s was written from the sandbox: %v", target, err)
	}
	reqs := s.model.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	if body := string(reqs[1].Body); !strings.Contains(body, "blocked by the sandbox: write outside the workspace: "+target) {
		t.Errorf("the tool result the model read does not say the sandbox blocked the write:\n%s", body)
	}
}

// sandbox.autoAllow: a sandboxed command below HIGH runs without a popup;
// without it the same command asks.
func TestSandboxAutoAllow(t *testing.T) {
	for _, auto := range []bool{true, false} {
		var popups atomic.Int32
		h := lsptest.Handlers{ShowMessageRequest: func(context.Context, protocol.ShowMessageRequestParams) (*protocol.MessageActionItem, error) {
			popups.Add(1)
			return nil, nil // deny
		}}
		s := start(t, bashScript("echo ok > inside.txt"), setupOptions{caps: fullCaps, handlers: h})
		s.initialize(map[string]any{"sandbox": map[string]any{"autoAllow": auto}})
		if r := s.prompt(map[string]any{"prompt": "Write it."}); r.StopReason != "end_turn" {
			t.Fatalf("prompt: %+v", r)
		}
		_, err := os.Stat(filepath.Join(s.root, "inside.txt"))
		if auto && (popups.Load() != 0 || err != nil) {
			t.Errorf("autoAllow: %d popups, file %v; want none and the file written", popups.Load(), err)
		}
		if !auto && (popups.Load() != 1 || err == nil) {
			t.Errorf("no autoAllow: %d popups, file %v; want one (denied), no file", popups.Load(), err)
		}
	}
}

// A sandbox the machine cannot give is said once (showMessage) and
// commands run under approvals only; a bad mode fails initialize.
func TestSandboxUnavailableIsShown(t *testing.T) {
	s := start(t, bashScript("echo ok"), setupOptions{caps: fullCaps, autoApprove: true})
	s.initialize(map[string]any{"sandbox": map[string]any{"forceUnavailable": true}})
	n, err := s.ed.WaitFor(ctx(t), func(n lsptest.Notification) bool {
		return n.Method == "window/showMessage" && strings.Contains(string(n.Params), "sandbox unavailable")
	})
	if err != nil {
		t.Fatalf("no showMessage about the sandbox: %v", err)
	}
	if !strings.Contains(string(n.Params), "approvals only") {
		t.Errorf("message %s does not say what happens instead", n.Params)
	}
	if r := s.prompt(map[string]any{"prompt": "Run it."}); r.StopReason != "end_turn" {
		t.Fatalf("prompt: %+v", r)
	}
	shown := 0
	for _, n := range s.ed.Notifications("window/showMessage") {
		if strings.Contains(string(n.Params), "sandbox") {
			shown++
		}
	}
	if shown != 1 {
		t.Errorf("the sandbox was reported %d times, want once", shown)
	}

	bad := start(t, nil, setupOptions{caps: fullCaps})
	if _, err := bad.ed.Initialize(ctx(t), bad.root, bad.caps, map[string]any{"sandbox": map[string]any{"mode": "sideways"}}); err == nil ||
		!strings.Contains(err.Error(), "sandbox mode") {
		t.Errorf("initialize with a bad sandbox mode: %v", err)
	}
}

// initialize is answered without starting a sandboxed process: its
// status line says the sandbox is being checked, never "active" on a
// guess; the check runs after the reply, and a command still runs
// confined.
func TestInitializeDoesNotWaitForTheSandbox(t *testing.T) {
	target := filepath.Join(t.TempDir(), "escape.txt")
	s := start(t, bashScript("echo pwned > "+target), setupOptions{caps: fullCaps, autoApprove: true})
	res := s.initialize(nil)
	var reply struct {
		Capabilities struct {
			Experimental struct {
				Agent struct {
					Sandbox string `json:"sandbox"`
				} `json:"agent"`
			} `json:"experimental"`
		} `json:"capabilities"`
	}
	if err := json.Unmarshal(res, &reply); err != nil {
		t.Fatal(err)
	}
	if line := reply.Capabilities.Experimental.Agent.Sandbox; !strings.Contains(line, "checking") {
		t.Errorf("initialize's sandbox status %q: want it to say the sandbox is being checked (nothing launched before the reply)", line)
	}
	if r := s.prompt(map[string]any{"prompt": "Write it."}); r.StopReason != "end_turn" {
		t.Fatalf("prompt: %+v", r)
	}
	if _, err := os.Stat(target); !os.IsNotExist(err) {
		t.Fatalf("%s was written: the command ran unconfined: %v", target, err)
	}
}
