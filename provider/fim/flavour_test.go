package fim

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/agent-lsp/agent-lsp/provider"
)

func TestDetectDialect(t *testing.T) {
	tests := []struct{ base, want string }{
		{"https://api.deepseek.com", DialectDeepSeek},
		{"https://api.deepseek.com/beta", DialectDeepSeek},
		{"https://API.DeepSeek.com./", DialectDeepSeek},
		{"https://api.mistral.ai", DialectMistral},
		{"https://codestral.mistral.ai/v1", DialectMistral},
		{"http://localhost:11434", DialectOllama},
		{"http://127.0.0.1:11434/v1", DialectOllama},
		{"https://ollama.com", DialectOllama},
		{"http://localhost:8080", DialectLlamaCpp},
		{"http://gpu-box:8080/v1", DialectLlamaCpp},
		{"https://api.openai.com/v1", DialectOpenAI},
		{"http://localhost:8000/v1", DialectOpenAI}, // vLLM: OpenAI-style completions
		{"http://localhost:1234", DialectOpenAI},    // LM Studio
		{"https://example.com", DialectOpenAI},
		{"::not a url", DialectOpenAI},
	}
	for _, tc := range tests {
		if got := DetectDialect(tc.base); got != tc.want {
			t.Errorf("DetectDialect(%q) = %q, want %q", tc.base, got, tc.want)
		}
	}
}

func TestExplicitDialectWins(t *testing.T) {
	f, err := flavourOf(" Ollama ", "https://api.deepseek.com")
	if err != nil || f.name != DialectOllama {
		t.Fatalf("flavourOf = %q, %v; want the explicit ollama", f.name, err)
	}
	if _, err := flavourOf("copilot", "https://api.deepseek.com"); err == nil || !strings.Contains(err.Error(), "deepseek, llamacpp, mistral, ollama, openai") {
		t.Errorf("unknown dialect: %v, want the list of dialects", err)
	}
}

func TestEndpoint(t *testing.T) {
	tests := []struct{ dialect, base, want string }{
		{DialectDeepSeek, "https://api.deepseek.com", "https://api.deepseek.com/beta/completions"},
		{DialectDeepSeek, "https://api.deepseek.com/beta/", "https://api.deepseek.com/beta/completions"},
		{DialectLlamaCpp, "http://localhost:8080", "http://localhost:8080/infill"},
		{DialectLlamaCpp, "http://localhost:8080/v1", "http://localhost:8080/infill"},
		{DialectOllama, "http://localhost:11434/v1", "http://localhost:11434/api/generate"},
		{DialectOllama, "http://localhost:11434/api", "http://localhost:11434/api/generate"},
		{DialectMistral, "https://codestral.mistral.ai", "https://codestral.mistral.ai/v1/fim/completions"},
		{DialectMistral, "https://api.mistral.ai/v1", "https://api.mistral.ai/v1/fim/completions"},
		{DialectOpenAI, "https://api.openai.com/v1", "https://api.openai.com/v1/completions"},
		{DialectOpenAI, "http://localhost:8000", "http://localhost:8000/v1/completions"},
	}
	for _, tc := range tests {
		root, path := flavours[tc.dialect].endpoint(tc.base)
		if root+path != tc.want {
			t.Errorf("%s %q: %q + %q, want %q", tc.dialect, tc.base, root, path, tc.want)
		}
	}
}

func TestBounds(t *testing.T) {
	ds, oa := flavours[DialectDeepSeek], flavours[DialectOpenAI]
	for _, tc := range []struct {
		f        flavour
		in, want int
	}{{ds, 10000, 4096}, {ds, 0, 256}, {ds, 100, 100}, {oa, 10000, 10000}} {
		if got := tc.f.maxTokens(tc.in); got != tc.want {
			t.Errorf("%s maxTokens(%d) = %d, want %d", tc.f.name, tc.in, got, tc.want)
		}
	}
	stop := []string{"a", "b", "c", "d", "e", "f"}
	if got := oa.stops(stop); len(got) != 4 {
		t.Errorf("openai stops: %q, want the first 4", got)
	}
	if got := ds.stops(stop); len(got) != 6 {
		t.Errorf("deepseek stops: %q, want all 6", got)
	}
}

func TestPromptHeader(t *testing.T) {
	extra := []File{{Path: "util.go", Text: "package main\nfunc g() {}"}}
	tests := []struct {
		name    string
		dialect string
		req     Request
		want    string
	}{
		{"no path: the prefix as it is", DialectDeepSeek, Request{Prefix: "x", Language: "go"}, "x"},
		{"path and language", DialectDeepSeek, Request{Prefix: "x", Path: "a/main.go", Language: "go"}, "// Path: a/main.go\nx"},
		{"language from the extension", DialectMistral, Request{Prefix: "x", Path: "t.py"}, "# Path: t.py\nx"},
		{"unknown comment syntax: no header", DialectOpenAI, Request{Prefix: "x", Path: "page.html", Language: "html"}, "x"},
		{"extra files inline", DialectOllama, Request{Prefix: "x", Path: "main.go", Extra: extra},
			"// Path: util.go\npackage main\nfunc g() {}\n\n// Path: main.go\nx"},
		// llama.cpp names the file itself ([FIM_SEP]filename): one name, not two.
		{"llama.cpp: extra files in input_extra, no second name", DialectLlamaCpp, Request{Prefix: "x", Path: "main.go", Language: "go", Extra: extra}, "x"},
	}
	for _, tc := range tests {
		if got := flavours[tc.dialect].prompt(tc.req); got != tc.want {
			t.Errorf("%s: prompt %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestNewRefuses(t *testing.T) {
	none := func(string) string { return "" }
	tests := []struct {
		name string
		cfg  Config
		want string
	}{
		{"no model", Config{Dialect: DialectDeepSeek, BaseURL: "https://api.deepseek.com", Getenv: none}, "no model"},
		{"unknown dialect", Config{Dialect: "tabby", BaseURL: "http://x", Model: "m"}, "unknown FIM dialect"},
		{"bad URL", Config{Dialect: DialectOpenAI, BaseURL: "ftp://x", Model: "m"}, "want http(s)"},
		{"missing key", Config{BaseURL: "https://api.deepseek.com", Model: "m", APIKeyEnv: "DS_KEY", Getenv: none}, "DS_KEY"},
	}
	for _, tc := range tests {
		_, err := New(tc.cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
	var missing *provider.MissingKeyError
	if _, err := New(tests[3].cfg); !errors.As(err, &missing) {
		t.Errorf("missing key: %T, want *provider.MissingKeyError", err)
	}
	if _, err := New(Config{Model: "m"}); err == nil || !strings.Contains(err.Error(), "no base URL") {
		t.Errorf("neither base URL nor dialect: %v", err)
	}
	// llama.cpp serves the model it loaded: none needed, none sent.
	if _, err := New(Config{Dialect: DialectLlamaCpp, BaseURL: "http://localhost:8080"}); err != nil {
		t.Errorf("llamacpp without a model: %v", err)
	}
}

func TestNDJSONReframing(t *testing.T) {
	in := "{\"response\":\"a\",\"done\":false}\r\n\n{\"response\":\"b\",\"done\":true}"
	want := "data: {\"response\":\"a\",\"done\":false}\n\ndata: {\"response\":\"b\",\"done\":true}"
	for name, r := range map[string]io.Reader{
		"whole":          strings.NewReader(in),
		"byte by byte":   iotest.OneByteReader(strings.NewReader(in)),
		"data with EOF":  iotest.DataErrReader(strings.NewReader(in)),
		"half at a time": iotest.HalfReader(strings.NewReader(in)),
	} {
		got, err := io.ReadAll(&ndjsonReader{body: io.NopCloser(r), atLineStart: true})
		if err != nil || string(got) != want {
			t.Errorf("%s: %q, %v; want %q", name, got, err, want)
		}
	}
	// A read error after data is delivered after the data.
	broken := io.MultiReader(strings.NewReader("{\"x\":1}\n"), iotest.ErrReader(io.ErrUnexpectedEOF))
	got, err := io.ReadAll(&ndjsonReader{body: io.NopCloser(broken), atLineStart: true})
	if !bytes.Equal(got, []byte("data: {\"x\":1}\n\n")) || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("broken body: %q, %v", got, err)
	}
}

func TestDefaultBaseURL(t *testing.T) {
	for _, name := range Dialects() {
		c, err := newClient(Config{Dialect: name, Model: "m"})
		if err != nil {
			t.Errorf("%s without a base URL: %v", name, err)
			continue
		}
		if got := DetectDialect(c.base + c.path); got != name {
			t.Errorf("%s's default endpoint %s%s is detected as %s", name, c.base, c.path, got)
		}
	}
}

// The public APIs are what their host names: never probed. A local or
// unknown server is.
func TestProbeWorthy(t *testing.T) {
	for base, want := range map[string]bool{
		"https://api.deepseek.com": false, "https://api.mistral.ai": false, "https://api.openai.com/v1": false,
		"https://openrouter.ai/api/v1": false, "http://localhost:8090": true, "http://127.0.0.1:8080": true,
		"http://gpu-box:11434": true, "https://llm.internal.example": true,
	} {
		if got := probeWorthy(base); got != want {
			t.Errorf("probeWorthy(%s) = %v, want %v", base, got, want)
		}
	}
}
