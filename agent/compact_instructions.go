package agent

import (
	"context"
	"strings"
)

type compactInstructionsKey struct{}

// WithCompactInstructions is ctx carrying what the user asked a manual
// compaction's summary to keep (/compact's argument, as Claude Code's):
// the summary call reads it, and the PreCompact hooks get it as
// custom_instructions.
func WithCompactInstructions(ctx context.Context, instructions string) context.Context {
	if instructions = strings.TrimSpace(instructions); instructions == "" {
		return ctx
	}
	return context.WithValue(ctx, compactInstructionsKey{}, instructions)
}

// compactInstructions are ctx's (WithCompactInstructions), or "".
func compactInstructions(ctx context.Context) string {
	s, _ := ctx.Value(compactInstructionsKey{}).(string)
	return s
}

// withInstructions is the summary request's instruction with the user's
// own added.
func withInstructions(ctx context.Context, instruction string) string {
	if extra := compactInstructions(ctx); extra != "" {
		return instruction + "\n\nThe user's instructions for this summary: " + extra
	}
	return instruction
}
