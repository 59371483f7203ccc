package e2e

import (
	"fmt"
	"strings"
	"time"

	"github.com/agent-lsp/agent-lsp/provider"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// The scenario's rendered answers and following output (issue 25, items
// 1 and 2; scenario/lib/steps_render.mjs): an answer in markdown whose
// elements the chat must render, then a long answer that streams on while
// the view is hidden and is in view when it is shown again at another
// size, then one sent after the user scrolled up.
const (
	renderPrompt = "Show the plan for review.go."
	// renderAnswer holds every construct the step checks for, a path:line
	// link into the workspace and raw HTML that must stay text.
	renderAnswer = "### Plan for review.go\n\n" +
		"The **rename** touches review.go:3 and <img src=x onerror=alert(1)>.\n\n" +
		"- rename `oldName`\n- keep ~~the old~~ callers\n\n" +
		"> Nothing else changes.\n\n" +
		"| step | file |\n|---|---|\n| 1 | review.go |\n| 2 | docs |\n\n" +
		"```go\nfunc newName() {\n\tfmt.Println(\"renamed\")\n}\n```\n"
	renderInsert = "func newName() {\n\tfmt.Println(\"renamed\")\n}\n"
	followPrompt = "Explain review.go line by line."
	againPrompt  = "And once more, briefly."
)

// followAnswer is long enough to overflow the chat several times.
var followAnswer = longAnswer("Line", 120)

var againAnswer = longAnswer("Again", 60)

func longAnswer(word string, lines int) string {
	var b strings.Builder
	for i := 1; i <= lines; i++ {
		fmt.Fprintf(&b, "%d. %s %d of the answer, long enough to wrap in a narrow chat view.\n", i, word, i)
	}
	return b.String() + "\nThe end."
}

// renderTurns are the model's answers to the three prompts; each long one
// stalls midway so the step acts while it streams.
func renderTurns() providertest.Script {
	stall := func() *providertest.Fault { return &providertest.Fault{Stall: 4 * time.Second, StallAfterFrames: 60} }
	return providertest.Script{
		{Text: renderAnswer, Usage: provider.Usage{PromptTokens: 1000, CompletionTokens: 60}},
		{Text: followAnswer, Usage: provider.Usage{PromptTokens: 1100, CompletionTokens: 900}, Fault: stall()},
		{Text: againAnswer, Usage: provider.Usage{PromptTokens: 1200, CompletionTokens: 500}, Fault: stall()},
	}
}

// renderConfig is what steps_render.mjs reads.
func renderConfig(cfg map[string]any) {
	cfg["renderPrompt"], cfg["renderInsert"] = renderPrompt, renderInsert
	cfg["followPrompt"], cfg["followAnswerEnd"] = followPrompt, "The end."
	cfg["againPrompt"] = againPrompt
}
