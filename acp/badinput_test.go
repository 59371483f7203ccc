package acp_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agent-lsp/agent-lsp/provider/openai"
)

// rpcReply is a JSON-RPC response as it comes off the wire.
type rpcReply struct {
	ID     *int            `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// call writes one request and reads lines until its answer (skipping
// notifications).
func (h *harness) call(id int, method, params string) rpcReply {
	h.t.Helper()
	if _, err := fmt.Fprintf(h.in, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`+"\n", id, method, params); err != nil {
		h.t.Fatal(err)
	}
	for {
		line, err := h.out.ReadBytes('\n')
		if err != nil {
			h.t.Fatalf("reading the answer to %s: %v", method, err)
		}
		var r rpcReply
		if err := json.Unmarshal(line, &r); err != nil {
			h.t.Fatalf("not JSON from the agent: %q", line)
		}
		if r.ID != nil && *r.ID == id {
			return r
		}
	}
}

func wantCode(t *testing.T, what string, r rpcReply, code int) {
	t.Helper()
	if r.Error == nil || r.Error.Code != code {
		t.Fatalf("%s: want error %d, got %+v (result %s)", what, code, r.Error, r.Result)
	}
}

func TestBadInput(t *testing.T) {
	h := startAgent(t, harnessOptions{dialect: openai.Name, raw: true})
	ws := t.TempDir()
	if r := h.call(1, "initialize", `{"protocolVersion":1,"clientCapabilities":{}}`); r.Error != nil {
		t.Fatalf("initialize: %+v", r.Error)
	}
	wantCode(t, "unknown method", h.call(2, "session/frobnicate", `{}`), -32601)
	wantCode(t, "malformed params", h.call(3, "session/new", `{"cwd":5,"mcpServers":[]}`), -32602)
	wantCode(t, "relative cwd", h.call(4, "session/new", `{"cwd":"rel/dir","mcpServers":[]}`), -32602)
	wantCode(t, "unknown session", h.call(5, "session/prompt", `{"sessionId":"nope","prompt":[{"type":"text","text":"hi"}]}`), -32002)
	wantCode(t, "load unknown session", h.call(6, "session/load", fmt.Sprintf(`{"sessionId":"nope","cwd":%q,"mcpServers":[]}`, ws)), -32002)

	r := h.call(7, "session/new", fmt.Sprintf(`{"cwd":%q,"mcpServers":[]}`, ws))
	var ns sdk.NewSessionResponse
	if r.Error != nil || json.Unmarshal(r.Result, &ns) != nil {
		t.Fatalf("session/new: %+v", r.Error)
	}
	wantCode(t, "image prompt", h.call(8, "session/prompt", fmt.Sprintf(`{"sessionId":%q,"prompt":[{"type":"image","data":"AA==","mimeType":"image/png"}]}`, ns.SessionId)), -32602)
	wantCode(t, "unknown mode", h.call(9, "session/set_mode", fmt.Sprintf(`{"sessionId":%q,"modeId":"yolo"}`, ns.SessionId)), -32602)
	wantCode(t, "unknown config option", h.call(10, "session/set_config_option", fmt.Sprintf(`{"sessionId":%q,"configId":"color","value":"red"}`, ns.SessionId)), -32602)
	wantCode(t, "unknown delivery", h.call(20, "session/prompt", fmt.Sprintf(`{"sessionId":%q,"prompt":[{"type":"text","text":"hi"}],"_meta":{"agent-lsp":{"delivery":"later"}}}`, ns.SessionId)), -32602)
	if r := h.call(11, "session/close", fmt.Sprintf(`{"sessionId":%q}`, ns.SessionId)); r.Error != nil {
		t.Fatalf("session/close: %+v", r.Error)
	}
	wantCode(t, "prompt on a closed session", h.call(12, "session/prompt", fmt.Sprintf(`{"sessionId":%q,"prompt":[{"type":"text","text":"hi"}]}`, ns.SessionId)), -32002)
	wantCode(t, "close twice", h.call(13, "session/close", fmt.Sprintf(`{"sessionId":%q}`, ns.SessionId)), -32002)
}

func TestAuthMethodWhenKeyMissing(t *testing.T) {
	h := startAgent(t, harnessOptions{dialect: openai.Name, keyEnv: "DEEPSEEK_API_KEY"})
	init := h.initialize(false)
	if len(init.AuthMethods) != 1 || init.AuthMethods[0].Agent == nil || init.AuthMethods[0].Agent.Description == nil ||
		!strings.Contains(*init.AuthMethods[0].Agent.Description, "DEEPSEEK_API_KEY") {
		t.Fatalf("auth methods %+v", init.AuthMethods)
	}
}
