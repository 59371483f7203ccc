package fim_test

import (
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/fim"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// BenchmarkComplete is one whole completion against the fake on loopback:
// encode, HTTP, stream decode, for the SSE and the NDJSON dialects. The
// fake's own work is included; it is the ceiling of this package's share.
func BenchmarkComplete(b *testing.B) {
	for _, dialect := range []string{fim.DialectDeepSeek, fim.DialectOllama} {
		b.Run(dialect, func(b *testing.B) {
			turn := providertest.Turn{FIM: &providertest.FIMTurn{Chunks: []string{"return a", " + b\n", "}\n"}}}
			srv := providertest.NewServer(b, nil, providertest.WithSeed(1))
			c, err := fim.New(fim.Config{Dialect: dialect, BaseURL: srv.FIMBaseURL(), Model: "m", HTTPClient: srv.Client()})
			if err != nil {
				b.Fatal(err)
			}
			req := fim.Request{Prefix: "func add(a, b int) int {\n\t", Suffix: "\n", Path: "add.go", Language: "go"}
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				srv.Append(turn)
				b.StartTimer()
				if _, err := c.Complete(b.Context(), req, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
