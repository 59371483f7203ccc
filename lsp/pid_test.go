package lsp_test

import (
	"encoding/json"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/openai"
)

// The initialize result names the daemon's process: the pid of the child
// the editor started, which Neovim 0.10+ no longer exposes on its client.
func TestInitializeResultHasPid(t *testing.T) {
	d := startDaemon(t, openai.Name, "http://127.0.0.1:1", t.TempDir())
	raw, err := d.ed.Initialize(ctx(t), t.TempDir(), fullCaps, nil)
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Capabilities struct {
			Experimental struct {
				Agent struct {
					ProtocolVersion int             `json:"protocolVersion"`
					Pid             json.RawMessage `json:"pid"`
				} `json:"agent"`
			} `json:"experimental"`
		} `json:"capabilities"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	var pid int
	agentCaps := res.Capabilities.Experimental.Agent
	if err := json.Unmarshal(agentCaps.Pid, &pid); err != nil || pid != d.cmd.Process.Pid || agentCaps.ProtocolVersion != 1 {
		t.Fatalf("experimental.agent = %+v (pid %s), want pid %d: %v", agentCaps, agentCaps.Pid, d.cmd.Process.Pid, err)
	}
}
