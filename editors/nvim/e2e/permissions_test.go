package e2e

import (
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// :AgentPermissions lists the saved permission rules with vim.ui.select:
// an untrusted workspace rules file is an item that trusts it (then it is
// no longer offered), and a rule's item removes it from its file.
func TestAgentPermissionsTrustsAndRemoves(t *testing.T) {
	eachNvim(t, func(t *testing.T, nvim lsptest.Nvim) {
		model := providertest.NewServer(t, providertest.Script{})
		root := workspace(t, map[string]string{
			".agents/permissions.json": `{"allow": ["run_bash: make"], "deny": ["run_bash: git push *"]}`,
		})
		var rep struct {
			Pickers []struct {
				Prompt, Kind string
				Items        []string
			} `json:"pickers"`
			File string `json:"file"`
		}
		scenario{nvim: nvim, script: "permissions.lua", root: root, model: model}.run(t, &rep)
		if len(rep.Pickers) != 2 {
			t.Fatalf("pickers: %+v", rep.Pickers)
		}
		first, second := strings.Join(rep.Pickers[0].Items, "\n"), strings.Join(rep.Pickers[1].Items, "\n")
		for _, want := range []string{"remove  deny run_bash: git push *  (workspace)", "remove  allow run_bash: make  (workspace)",
			"trust   the workspace rules file " + root + "/.agents/permissions.json"} {
			if !strings.Contains(first, want) {
				t.Errorf("first picker lacks %q:\n%s", want, first)
			}
		}
		if strings.Contains(second, "trust") || rep.Pickers[0].Kind != "agent_lsp_permissions" {
			t.Errorf("second picker (after the trust):\n%s", second)
		}
		if strings.Contains(rep.File, "git push") || !strings.Contains(rep.File, "run_bash: make") {
			t.Errorf("rules file after removing the deny rule:\n%s", rep.File)
		}
	})
}
