package hooks

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/agent-lsp/agent-lsp/tools"
)

// answer is a hook's JSON answer on stdout (the fields of Claude Code's
// that mean something here).
type answer struct {
	Continue      *bool  `json:"continue"`
	StopReason    string `json:"stopReason"`
	SystemMessage string `json:"systemMessage"`
	Decision      string `json:"decision"` // "block" ("approve": no effect here)
	Reason        string `json:"reason"`
	Specific      struct {
		PermissionDecision       string `json:"permissionDecision"` // "deny", "ask" ("allow": no effect here)
		PermissionDecisionReason string `json:"permissionDecisionReason"`
		AdditionalContext        string `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// parse reads a successful hook's stdout as its JSON answer; ok is false
// for plain text (which some events take as context).
func (res result) parse() (answer, bool) {
	var a answer
	s := strings.TrimSpace(res.stdout)
	if !strings.HasPrefix(s, "{") || json.Unmarshal([]byte(s), &a) != nil {
		return answer{}, false
	}
	return a, true
}

// stops reports a JSON answer that ends the turn ("continue": false).
func (a answer) stops() bool { return a.Continue != nil && !*a.Continue }

// base is the input every event gets.
func base(sessionID string) map[string]any {
	return map[string]any{"session_id": sessionID, "transcript_path": ""}
}

// BeforeCall runs the PreToolUse hooks of a call: block refuses it (the
// model reads reason), ask puts it to the user whatever the policy would
// have done. A hook's "allow" changes nothing: hooks never widen what the
// policy asks about.
func (r *Runner) BeforeCall(ctx context.Context, sessionID string, c tools.Call) (block, ask bool, reason string) {
	in := base(sessionID)
	in["tool_name"], in["tool_input"] = toolName(c.Name), toolInput(c.Args, r.root)
	var reasons []string
	for _, res := range r.runEvent(ctx, PreToolUse, c.Name, in) {
		switch {
		case res.err != nil:
		case res.exit == 2:
			block = true
			reasons = append(reasons, strings.TrimSpace(res.stderr))
		case res.exit == 0:
			a, ok := res.parse()
			if !ok {
				continue
			}
			r.system(a)
			switch {
			case a.stops(), a.Specific.PermissionDecision == "deny", a.Decision == "block":
				block = true
				reasons = append(reasons, first(a.Specific.PermissionDecisionReason, a.Reason, a.StopReason))
			case a.Specific.PermissionDecision == "ask":
				ask = true
				reasons = append(reasons, a.Specific.PermissionDecisionReason)
			}
		}
	}
	return block, ask, join(reasons)
}

// AfterCall runs the PostToolUse hooks of a call that ran: what they say
// for the model (a "block" reason, exit 2's stderr, additionalContext)
// comes back to be added to the call's result.
func (r *Runner) AfterCall(ctx context.Context, sessionID string, c tools.Call, o tools.Outcome) string {
	in := base(sessionID)
	in["tool_name"], in["tool_input"] = toolName(c.Name), toolInput(c.Args, r.root)
	in["tool_response"] = map[string]any{"output": o.Output, "success": o.Status == tools.StatusCompleted}
	var notes []string
	for _, res := range r.runEvent(ctx, PostToolUse, c.Name, in) {
		switch {
		case res.err != nil:
		case res.exit == 2:
			notes = append(notes, strings.TrimSpace(res.stderr))
		case res.exit == 0:
			if a, ok := res.parse(); ok {
				r.system(a)
				if a.Decision == "block" || a.stops() {
					notes = append(notes, first(a.Reason, a.StopReason))
				}
				notes = append(notes, a.Specific.AdditionalContext)
			}
		}
	}
	return join(notes)
}

// PromptSubmit runs the UserPromptSubmit hooks: block stops the prompt
// before any request (reason is for the user); context is added to it.
func (r *Runner) PromptSubmit(ctx context.Context, sessionID, prompt string) (block bool, reason, context string) {
	in := base(sessionID)
	in["prompt"] = prompt
	var reasons, extra []string
	for _, res := range r.runEvent(ctx, UserPromptSubmit, "", in) {
		switch {
		case res.err != nil:
		case res.exit == 2:
			block = true
			reasons = append(reasons, strings.TrimSpace(res.stderr))
		case res.exit == 0:
			a, ok := res.parse()
			if !ok {
				extra = append(extra, strings.TrimSpace(res.stdout))
				continue
			}
			r.system(a)
			if a.Decision == "block" || a.stops() {
				block = true
				reasons = append(reasons, first(a.Reason, a.StopReason))
			}
			extra = append(extra, a.Specific.AdditionalContext)
		}
	}
	return block, join(reasons), join(extra)
}

// system passes a hook's systemMessage to the user.
func (r *Runner) system(a answer) {
	if s := strings.TrimSpace(a.SystemMessage); s != "" {
		r.tell(s)
	}
}

// first is the first non-empty of ss.
func first(ss ...string) string {
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			return s
		}
	}
	return ""
}

// join joins the non-empty texts, one per line.
func join(ss []string) string {
	var out []string
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return strings.Join(out, "\n")
}
