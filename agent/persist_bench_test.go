package agent

import (
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
)

// BenchmarkRecordResult is the cost write-ahead adds per tool call: one
// tool result appended to the session file and fsync'd. Set TMPDIR to a
// disk-backed directory to measure a real fsync.
func BenchmarkRecordResult(b *testing.B) {
	store, err := NewStore(b.TempDir(), nil)
	if err != nil {
		b.Fatal(err)
	}
	s := NewSession(Config{Provider: newFakeModel(), Model: "m", Store: store}, "system")
	s.commit()
	out := make([]byte, 2<<10) // a typical tool output
	for i := range out {
		out[i] = 'x'
	}
	b.ResetTimer()
	for b.Loop() {
		s.recordResult(provider.Message{Role: provider.RoleTool, ToolCallID: "c1", Text: string(out)})
	}
}
