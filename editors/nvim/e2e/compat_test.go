package e2e

import (
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// compatReport is what nvim/compat.lua writes.
type compatReport struct {
	UTF16         int  `json:"utf16"`
	ValidateError bool `json:"validate_error"`
	Marks         []struct {
		Row    int    `json:"row"`
		Col    int    `json:"col"`
		EndCol int    `json:"end_col"`
		Group  string `json:"group"`
	} `json:"marks"`
	Tools int `json:"tools"`
	PID   int `json:"pid"`
	// The statusline with spend caps (statusline.lua's cap_text).
	SpendStatusline string `json:"spend_statusline"`
	TokenStatusline string `json:"token_statusline"`
}

// agent_lsp/compat.lua on each version: JSON null read as absent, UTF-16
// lengths, validation, whole-line highlights as extmarks (to the line's
// byte length), a request through the version's client call, and the
// daemon's pid from its initialize result.
func TestCompatLayer(t *testing.T) {
	eachNvim(t, func(t *testing.T, nvim lsptest.Nvim) {
		model := providertest.NewServer(t, providertest.Script{})
		root := workspace(t, map[string]string{"main.go": greetBefore})
		var rep compatReport
		scenario{nvim: nvim, script: "compat.lua", root: root, model: model}.run(t, &rep)
		if rep.UTF16 != 8 {
			t.Errorf("utf16_len(\"wörld 🎉\") = %d, want 8", rep.UTF16)
		}
		if !rep.ValidateError {
			t.Errorf("validate accepted a number for a string option")
		}
		if len(rep.Marks) != 2 || rep.Marks[0].Group != "Title" || rep.Marks[0].EndCol != len("héllo wörld") ||
			rep.Marks[1].Group != "Comment" || rep.Marks[1].Row != 1 || rep.Marks[1].EndCol != 0 {
			t.Errorf("highlight marks = %+v", rep.Marks)
		}
		if !strings.Contains(rep.SpendStatusline, "session $0.8200 of $1.00") || !strings.Contains(rep.TokenStatusline, "(15.0k of 2000.0k tok cap)") {
			t.Errorf("statuslines with caps: %q, %q", rep.SpendStatusline, rep.TokenStatusline)
		}
		if rep.Tools < 7 || rep.PID <= 0 {
			t.Errorf("agent/tools through compat.request gave %d tools; pid %d", rep.Tools, rep.PID)
		}
	})
}
