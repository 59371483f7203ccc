package agent

import (
	"strings"

	"github.com/agent-lsp/agent-lsp/provider"
)

// DefaultKeep is how many recent messages compaction keeps verbatim when
// Config.Keep is 0.
const DefaultKeep = 8

// budgetShare is the part of the context window a request may fill: the
// rest is margin for the answer and for the estimate's error.
const budgetShare = 0.8

// budgetCap bounds the default budget whatever the window. Past it a long
// session pays more for re-reading its cached prefix every round than
// compaction costs, and uploads (and waits for the prefill of) more than it
// needs: see docs/context-budget.md for the cost model and the measurements
// (bench/longsession) this number comes from. A user who wants the whole
// window says so with --budget.
const budgetCap = 64_000

// defaultContextWindow is assumed for a model the table does not know: a
// window every current model has, so the default budget errs on the safe side.
const defaultContextWindow = 128_000

// contextWindows is the context window, in tokens, by model name or name
// prefix (an entry ending in "-" matches every model that starts with it).
// Unexported: it is read through ContextWindow and KnownContextWindow, so
// that no other package can change what every session assumes.
var contextWindows = map[string]int{
	"deepseek-flash":    1_000_000, // measured against DeepSeek's API
	"deepseek-v4-pro":   1_000_000,
	"deepseek-chat":     128_000,
	"deepseek-reasoner": 128_000,
	"claude-":           200_000,
	"gpt-4o":            128_000,
	"gpt-4.1":           1_047_576,
}

// ContextWindow returns the model's context window: an exact entry, else
// the longest prefix entry, else a conservative 128K.
func ContextWindow(model string) int {
	if w, ok := KnownContextWindow(model); ok {
		return w
	}
	return defaultContextWindow
}

// KnownContextWindow returns the model's context window when the table
// knows it (an exact entry, else the longest prefix entry), unlike
// ContextWindow, which falls back to a conservative guess.
func KnownContextWindow(model string) (int, bool) {
	if w, ok := contextWindows[model]; ok {
		return w, true
	}
	best, window := "", 0
	for name, w := range contextWindows {
		if strings.HasSuffix(name, "-") && strings.HasPrefix(model, name) && len(name) > len(best) {
			best, window = name, w
		}
	}
	return window, best != ""
}

// knownWindow is the model's window when the table knows it, else 0 (not
// the conservative guess: an unknown window bounds nothing).
func knownWindow(model string) int {
	w, _ := KnownContextWindow(model)
	return w
}

// DefaultBudget is the budget for a model when Config.Budget is 0: 80% of
// its context window, at most budgetCap tokens.
func DefaultBudget(model string) int { return WindowBudget(ContextWindow(model)) }

// WindowBudget is the default budget for a context window of window tokens:
// budgetShare of it (the margin matters in a small window), at most
// budgetCap (the cap matters in a large one).
func WindowBudget(window int) int { return min(int(float64(window)*budgetShare), budgetCap) }

// compactTarget is where compaction aims, below the budget, so that the
// next few rounds fit without compacting again: each compaction costs the
// prompt cache once, so it should happen rarely and thoroughly.
func compactTarget(budget int) int { return budget * 3 / 4 }

// calibration is what the last model call told about the true size of the
// prompt: the provider counted it with the real tokenizer, so the session
// only estimates what was added since.
type calibration struct {
	valid    bool // tokens and messages describe a prefix of the current history
	tokens   int  // the provider's prompt token count for that request
	messages int  // how many history messages that request held
	// msgsEst is the from-scratch estimate of those messages: the next
	// calibration estimates only the messages added since, so that a
	// round's cost does not grow with the history (in a 200-round session
	// without a budget, re-estimating the whole history was half of the
	// agent's CPU).
	msgsEst int
	tools   int // the estimate of that request's tool list
	// ratio is true/estimated for the last calibrated request: it scales a
	// from-scratch estimate (after a compaction, or after a restart).
	ratio float64
}

// calibrate records a model call's true prompt size. A provider that
// reports no usage (0 prompt tokens) leaves the estimate as it was. msgs are
// the request's messages (a prefix of the history when it is made), and
// tools is the estimate of that request's tool list.
func (c *calibration) calibrate(u provider.Usage, msgs []provider.Message, tools int) {
	if u.PromptTokens <= 0 {
		return
	}
	var est int
	if c.valid && c.messages <= len(msgs) {
		est = c.msgsEst + estimateMessages(msgs[c.messages:]) // the history only grew since
	} else {
		est = estimateMessages(msgs)
	}
	raw := tools + est
	ratio := float64(u.PromptTokens) / float64(max(raw, 1))
	*c = calibration{valid: true, tokens: u.PromptTokens, messages: len(msgs), msgsEst: est, tools: tools,
		ratio: min(max(ratio, 0.25), 4)} // a wild ratio is a provider bug, not a tokenizer
}

// estimate returns the estimated prompt size of a request for history h
// and the tool list specs.
func (c *calibration) estimate(h []provider.Message, specs []provider.ToolSpec) int {
	tools := estimateTools(specs)
	if c.valid && c.messages <= len(h) {
		return c.tokens + estimateMessages(h[c.messages:]) + tools - c.tools
	}
	return c.scaled(tools + estimateMessages(h))
}

// scaled applies the last known ratio to a from-scratch estimate.
func (c *calibration) scaled(raw int) int {
	if c.ratio == 0 {
		return raw
	}
	return int(float64(raw)*c.ratio + 0.5)
}

// invalidate forgets the prefix after the history was rewritten; the ratio
// stays, it describes the tokenizer rather than the history.
func (c *calibration) invalidate() { c.valid = false }
