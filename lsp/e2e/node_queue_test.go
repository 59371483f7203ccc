package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// vscode-jsonrpc queues and steers (node/queue_steer.js), against the
// daemon in both dialects: the steer message sent while a tool call
// waits reaches the next request after the tool result; the queued
// prompt, edited while it waited, runs after the turn, in order; a cancel
// keeps the queue, a cancel with dropQueue removes it.
func TestNodeClientQueuesAndSteers(t *testing.T) {
	client := requireNodeClient(t)
	for _, dialect := range []string{"openai", "anthropic"} {
		t.Run(dialect, func(t *testing.T) {
			bash := func(id string) providertest.Turn {
				return providertest.Turn{ToolCalls: []providertest.Call{{ID: id, Name: "run_bash", Arguments: `{"command":"echo slow"}`}}}
			}
			script := providertest.Script{bash("call_a"), {Text: "Steered."}, {Text: "Queued ran."},
				bash("call_c"), {Text: "Kept."}, bash("call_e")}
			model := providertest.NewServer(t, script)
			d := dialectDaemon(t, model, dialect)
			root := workspace(t, map[string]string{"demo.go": "package demo\n"})
			cfg := map[string]any{"command": d.args, "root": root, "file": "demo.go", "originalText": "package demo\n",
				"steer": "Also say hi.", "queued": "Then the queued one.", "timeoutMs": 30000}
			var sum struct{}
			client.run(t, "queue_steer.js", cfg, &sum)

			reqs := model.Requests()
			if len(reqs) != 6 {
				t.Fatalf("%d model requests, want 6", len(reqs))
			}
			for i, r := range reqs {
				if r.Rejected != "" {
					t.Fatalf("request %d rejected: %s", i, r.Rejected)
				}
			}
			second, third := string(reqs[1].Body), string(reqs[2].Body)
			result, steer := strings.LastIndex(second, "slow"), strings.LastIndex(second, "Also say hi.")
			if result < 0 || steer < result || !strings.HasSuffix(lastMessageRole(t, reqs[1]), "user") {
				t.Errorf("the steered request does not end with the steer after the tool result:\n%s", second)
			}
			if !strings.Contains(third, "Then the queued one.") || strings.Contains(third, "unedited") ||
				strings.Index(third, "Also say hi.") > strings.Index(third, "Then the queued one.") {
				t.Errorf("the queued prompt's request:\n%s", third)
			}
			if strings.Contains(string(reqs[5].Body), "Drop me.") {
				t.Errorf("a dropped prompt reached the model")
			}
		})
	}
}

// dialectDaemon is the daemon speaking dialect to the fake model.
func dialectDaemon(t *testing.T, model *providertest.Server, dialect string) daemon {
	d := newDaemon(t, model)
	for i, a := range d.args {
		switch {
		case a == "--provider":
			d.args[i+1] = dialect
		case a == "--base-url" && dialect == "anthropic":
			d.args[i+1] = model.AnthropicBaseURL()
		}
	}
	return d
}

// lastMessageRole is the role of a request's last message.
func lastMessageRole(t *testing.T, r providertest.Received) string {
	t.Helper()
	var body struct {
		Messages []struct {
			Role string `json:"role"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil || len(body.Messages) == 0 {
		t.Fatalf("request body: %v", err)
	}
	return body.Messages[len(body.Messages)-1].Role
}
