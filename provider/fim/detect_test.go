package fim_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/fim"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// detections collects what OnDetect was told.
type detections struct {
	mu  sync.Mutex
	got []fim.Detection
}

func (d *detections) add(det fim.Detection) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.got = append(d.got, det)
}

func (d *detections) all() []fim.Detection {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]fim.Detection(nil), d.got...)
}

func completeOnce(t *testing.T, c fim.Client) {
	t.Helper()
	if _, err := c.Complete(t.Context(), fim.Request{Prefix: "x := ", Suffix: "\ny := 2\n"}, nil); err != nil {
		t.Fatalf("Complete: %v", err)
	}
}

// A FIM config with no dialect on a port that is not llama.cpp's default
// (the fake listens on a random one, as a llama.cpp on 8090 would) reaches
// /infill with its suffix, not /v1/completions, which drops the suffix.
func TestNoDialectOnLlamaCppReachesInfill(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Script{{FIM: &providertest.FIMTurn{Text: "1"}}, {FIM: &providertest.FIMTurn{Text: "2"}}},
		providertest.WithSeed(1), providertest.WithLlamaCpp(4096))
	var seen detections
	c := newClient(t, srv, "", func(cfg *fim.Config) { cfg.OnDetect = seen.add })
	completeOnce(t, c)
	completeOnce(t, c) // probed once, not per completion
	for i, r := range srv.FIMRequests() {
		if r.Dialect != providertest.FIMLlamaCpp || r.Suffix != "\ny := 2\n" || r.SuffixIgnored {
			t.Errorf("request %d went to %s (suffix %q, ignored %v), want /infill with the suffix", i, r.Dialect, r.Suffix, r.SuffixIgnored)
		}
	}
	got := seen.all()
	if len(got) != 1 || got[0].Dialect != fim.DialectLlamaCpp || got[0].Evidence != "Server: llama.cpp" || got[0].Contradicts() {
		t.Errorf("detections %+v, want one: llama.cpp by its Server header", got)
	}
}

// A configured dialect the server contradicts is kept (the user chose it)
// and reported once, with why it matters.
func TestConfiguredDialectContradictedIsReported(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Script{{FIM: &providertest.FIMTurn{Text: "1"}}},
		providertest.WithSeed(2), providertest.WithLlamaCpp(4096))
	var seen detections
	completeOnce(t, newClient(t, srv, fim.DialectOpenAI, func(cfg *fim.Config) { cfg.OnDetect = seen.add }))
	if r := srv.FIMRequests()[0]; r.Dialect != providertest.FIMOpenAI || !r.SuffixIgnored {
		t.Errorf("request went to %s (suffix ignored %v), want the configured /v1/completions", r.Dialect, r.SuffixIgnored)
	}
	got := seen.all()
	if len(got) != 1 || !got[0].Contradicts() {
		t.Fatalf("detections %+v, want one contradiction", got)
	}
	w := got[0].Warning()
	for _, want := range []string{"llama.cpp", `"openai"`, "suffix", `"dialect": "llamacpp"`} {
		if !strings.Contains(w, want) {
			t.Errorf("warning %q does not say %q", w, want)
		}
	}
}

// Ollama says what it is at /api/version; a server that says nothing is
// taken by its URL (an OpenAI-style completions server).
func TestProbeOllamaAndUnknown(t *testing.T) {
	ollama := providertest.NewServer(t, providertest.Script{{FIM: &providertest.FIMTurn{Text: "1"}}},
		providertest.WithSeed(3), providertest.WithWindow(providertest.Window{Kind: providertest.WindowOllama, Model: "coder"}))
	completeOnce(t, newClient(t, ollama, ""))
	if r := ollama.FIMRequests()[0]; r.Dialect != providertest.FIMOllama {
		t.Errorf("Ollama got %s", r.Dialect)
	}
	plain := providertest.NewServer(t, providertest.Script{{FIM: &providertest.FIMTurn{Text: "1"}}}, providertest.WithSeed(4))
	var seen detections
	completeOnce(t, newClient(t, plain, "", func(cfg *fim.Config) { cfg.OnDetect = seen.add }))
	if r := plain.FIMRequests()[0]; r.Dialect != providertest.FIMOpenAI {
		t.Errorf("an unknown server got %s", r.Dialect)
	}
	if got := seen.all(); len(got) != 1 || got[0].Dialect != "" || got[0].Contradicts() {
		t.Errorf("detections %+v, want one that recognised nothing", got)
	}
}
