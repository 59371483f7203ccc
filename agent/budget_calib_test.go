package agent

import (
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
)

// A calibration estimates only the messages added since the last one, and
// gets the same numbers as a calibration from scratch; after the history
// is rewritten it starts from scratch again.
func TestCalibrateAddsOnlyNewMessages(t *testing.T) {
	h := []provider.Message{
		{Role: provider.RoleSystem, Text: "You are a coding agent."},
		{Role: provider.RoleUser, Text: strings.Repeat("read the file ", 100)},
		{Role: provider.RoleAssistant, Text: "Reading it."},
		{Role: provider.RoleUser, Text: strings.Repeat("and the other one ", 40)},
	}
	var inc calibration
	inc.calibrate(provider.Usage{PromptTokens: 500}, h[:2], 10)
	inc.calibrate(provider.Usage{PromptTokens: 900}, h, 10)
	var fresh calibration
	fresh.calibrate(provider.Usage{PromptTokens: 900}, h, 10)
	if inc != fresh {
		t.Fatalf("incremental calibration %+v, from scratch %+v", inc, fresh)
	}

	inc.invalidate()
	rewritten := []provider.Message{h[0],
		{Role: provider.RoleUser, Text: "short"}, {Role: provider.RoleAssistant, Text: "a"},
		{Role: provider.RoleUser, Text: "b"}, {Role: provider.RoleAssistant, Text: "c"}}
	inc.calibrate(provider.Usage{PromptTokens: 40}, rewritten, 10)
	fresh = calibration{}
	fresh.calibrate(provider.Usage{PromptTokens: 40}, rewritten, 10)
	if inc != fresh {
		t.Fatalf("after a rewrite: calibration %+v, from scratch %+v", inc, fresh)
	}
}
