package fim

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/agent-lsp/agent-lsp/provider"
)

// ProbeTimeout bounds a probe of the server's kind: a local server answers
// at once, and the first completion waits for it.
const ProbeTimeout = 2 * time.Second

// maxProbeReply bounds what one probe reads (/props is a few KB).
const maxProbeReply = 1 << 20

// Detection is what a probe learnt of the server behind a base URL.
type Detection struct {
	// Dialect is the FIM dialect the server speaks natively ("": the probe
	// recognised no server, and the dialect came from the URL).
	Dialect string
	// Evidence says what told it: "Server: llama.cpp", "GET /props", "GET
	// /api/version"; "" when nothing did.
	Evidence string
	// Configured is the dialect the configuration named ("": none, the
	// probe chose).
	Configured string
}

// Contradicts reports whether the server is not what the configuration
// named: the dialect configured is not the server's own.
func (d Detection) Contradicts() bool {
	return d.Configured != "" && d.Dialect != "" && d.Dialect != d.Configured
}

// Warning is what the user is told when the server contradicts the
// configuration ("" when it does not).
func (d Detection) Warning() string {
	if !d.Contradicts() {
		return ""
	}
	msg := fmt.Sprintf("inline completion: the server is %s (%s), but the completion dialect is set to %q", d.Dialect, d.Evidence, d.Configured)
	if d.Dialect == DialectLlamaCpp && d.Configured == DialectOpenAI {
		msg += "; llama.cpp ignores the suffix on /v1/completions, so the model never sees the code after the cursor"
	}
	return msg + fmt.Sprintf(". Set \"dialect\": %q, or remove it to detect the server.", d.Dialect)
}

// probeWorthy reports whether the base URL may hide a server of another
// kind than its URL says: not the public APIs, which are what their host
// names (and which should not get requests of no use to them).
func probeWorthy(baseURL string) bool {
	switch DetectDialect(baseURL) {
	case DialectDeepSeek, DialectMistral:
		return false
	}
	switch provider.DetectKind(baseURL) {
	case provider.KindOpenAI, provider.KindOpenRouter, provider.KindAnthropic:
		return false
	}
	return true
}

// Probe asks the server at baseURL which one it is, the ways the servers
// themselves say it: llama.cpp answers every request with "Server:
// llama.cpp" and serves GET /props; Ollama serves GET /api/version. A
// server that says neither is unknown (Detection.Dialect ""), with a nil
// error: not knowing is an answer. No key is sent: these endpoints are
// public, and a key is not given to a server before it is known. client
// nil: a client of its own; ctx is bounded by ProbeTimeout.
func Probe(ctx context.Context, baseURL string, client *http.Client) (Detection, error) {
	base, err := url.Parse(strings.TrimRight(strings.TrimSpace(baseURL), "/"))
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return Detection{}, fmt.Errorf("probe: bad base URL %q", baseURL)
	}
	if client == nil {
		client = http.DefaultClient
	}
	noRedirect := *client // a probe is answered where it was asked, or not at all
	noRedirect.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	ctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()
	root := *base
	root.Path = strings.TrimRight(base.Path, "/")
	for _, s := range []string{"/v1", "/api", "/beta", "/anthropic"} {
		root.Path = strings.TrimSuffix(root.Path, s)
	}
	root.RawQuery, root.Fragment = "", ""
	get := func(path string, into any) (http.Header, int, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, root.String()+path, nil)
		if err != nil {
			return nil, 0, err
		}
		req.Header.Set("Accept", "application/json")
		resp, err := noRedirect.Do(req)
		if err != nil {
			return nil, 0, err
		}
		defer resp.Body.Close()
		data, err := io.ReadAll(io.LimitReader(resp.Body, maxProbeReply))
		if err == nil && resp.StatusCode == http.StatusOK {
			err = json.Unmarshal(data, into)
		}
		return resp.Header, resp.StatusCode, err
	}
	var props struct {
		Default json.RawMessage `json:"default_generation_settings"`
	}
	h, status, err := get("/props", &props)
	if h != nil && strings.Contains(strings.ToLower(h.Get("Server")), "llama.cpp") {
		return Detection{Dialect: DialectLlamaCpp, Evidence: "Server: " + h.Get("Server")}, nil
	}
	if err == nil && status == http.StatusOK && len(props.Default) > 0 {
		return Detection{Dialect: DialectLlamaCpp, Evidence: "GET /props"}, nil
	}
	if ctx.Err() != nil {
		return Detection{}, fmt.Errorf("probe %s: %w", root.String(), context.Cause(ctx))
	}
	var version struct {
		Version string `json:"version"`
	}
	if _, status, err := get("/api/version", &version); err == nil && status == http.StatusOK && version.Version != "" {
		return Detection{Dialect: DialectOllama, Evidence: "GET /api/version"}, nil
	} else if ctx.Err() != nil {
		return Detection{}, fmt.Errorf("probe %s: %w", root.String(), context.Cause(ctx))
	}
	return Detection{}, nil
}
