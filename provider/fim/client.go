package fim

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/agent-lsp/agent-lsp/provider"
)

// client is the Client of one endpoint. It holds no per-call state.
type client struct {
	f     flavour
	model string
	base  string               // the base URL as provider.NewHTTP gets it
	path  string               // what provider.NewHTTP appends
	o     provider.HTTPOptions // the template of every call's options
}

func newClient(cfg Config) (*client, error) {
	f, err := flavourOf(cfg.Dialect, cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	base := strings.TrimSpace(cfg.BaseURL)
	if base == "" {
		if strings.TrimSpace(cfg.Dialect) == "" {
			return nil, errors.New("FIM endpoint: no base URL and no dialect to take one from")
		}
		base = f.defaultBase
	}
	model := strings.TrimSpace(cfg.Model)
	if f.modelRequired && model == "" {
		return nil, fmt.Errorf("FIM dialect %s: no model configured", f.name)
	}
	getenv := cfg.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	// The chat's key rules, loopback exemption and MissingKeyError included.
	key, err := provider.Config{APIKeyEnv: cfg.APIKeyEnv, BaseURL: base}.APIKey(getenv)
	if err != nil {
		return nil, err
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	if f.framing == framingNDJSON {
		hc = withNDJSON(hc)
	}
	c := &client{f: f, model: model}
	c.base, c.path = f.endpoint(base)
	c.o = provider.HTTPOptions{
		BaseURL:     c.base,
		APIKey:      key,
		Client:      hc,
		MaxAttempts: orDefault(cfg.MaxAttempts, 2),
		IdleTimeout: orDefault(cfg.IdleTimeout, 15*time.Second),
		BackoffBase: orDefault(cfg.BackoffBase, 200*time.Millisecond),
		BackoffMax:  orDefault(cfg.BackoffMax, time.Second),
		Recorder:    cfg.Recorder,
		Logger:      cfg.Logger,
	}
	// Check the URL once, here, rather than on every keystroke.
	if _, err := provider.NewHTTP(c.options(nil)); err != nil {
		return nil, fmt.Errorf("FIM endpoint: %w", err)
	}
	if cfg.Logger != nil {
		cfg.Logger.Debug("FIM client", zap.String("dialect", f.name), zap.String("path", c.path),
			zap.Bool("key", key != "")) // never the key itself
	}
	return c, nil
}

func orDefault[T int | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// options are the HTTP options of one call carrying body.
func (c *client) options(body []byte) provider.HTTPOptions {
	o := c.o
	o.Dialect = callDialect{f: c.f, path: c.path, body: body}
	return o
}

// Complete sends req and streams the answer; see Client.
func (c *client) Complete(ctx context.Context, req Request, onText func(string) bool) (Result, error) {
	body, err := c.f.encode(c.model, req)
	if err != nil {
		return Result{}, err
	}
	p, err := provider.NewHTTP(c.options(body))
	if err != nil {
		return Result{}, fmt.Errorf("FIM endpoint: %w", err)
	}
	var (
		text strings.Builder
		res  Result
		end  bool
	)
	for e := range p.Stream(ctx, provider.Request{}) {
		switch e.Type {
		case provider.EventText:
			text.WriteString(e.Text)
			if onText != nil && !onText(e.Text) {
				// Breaking the range closes the response body before
				// Stream returns: the server sees the stream go.
				return Result{Text: text.String(), StopReason: StopCancelled}, nil
			}
		case provider.EventDone:
			res = Result{StopReason: StopDone, PromptTokens: e.Usage.PromptTokens, CompletionTokens: e.Usage.CompletionTokens}
			if e.StopReason == provider.StopMaxTokens {
				res.StopReason = StopLength
			}
			end = true
		case provider.EventFailure:
			res.Text = text.String()
			if ctx.Err() != nil {
				res.StopReason = StopCancelled
			}
			return res, c.wrap(e.Err)
		}
	}
	res.Text = text.String()
	if !end { // the provider's contract: only a consumer that stops gets no terminal event
		return res, errors.New("FIM stream ended without a finish")
	}
	return res, nil
}

// wrap names the dialect and surfaces the message of a refused request
// (400, 422): "refused: max_tokens must be ≤ 4096" rather than a JSON dump.
// The typed error stays reachable with errors.As.
func (c *client) wrap(err error) error {
	var herr *provider.HTTPError
	if errors.As(err, &herr) && herr.Status >= 400 && herr.Status < 500 {
		if msg := errorMessage(herr.Body); msg != "" {
			return fmt.Errorf("%s FIM request refused: %s: %w", c.f.name, msg, err)
		}
	}
	return fmt.Errorf("%s FIM request: %w", c.f.name, err)
}

// errorMessage digs the human message out of an error body: {"error":
// {"message":…}} (OpenAI style, llama.cpp), {"error":"…"} (Ollama),
// {"message":…} or Mistral's {"message":{"detail":[{"msg":…,"loc":[…]}]}}.
func errorMessage(body string) string {
	var o struct {
		Error   json.RawMessage `json:"error"`
		Message json.RawMessage `json:"message"`
		Detail  json.RawMessage `json:"detail"`
	}
	if json.Unmarshal([]byte(body), &o) != nil {
		return ""
	}
	for _, raw := range []json.RawMessage{o.Error, o.Message, o.Detail} {
		if msg := messageOf(raw); msg != "" {
			return msg
		}
	}
	return ""
}

func messageOf(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var o struct {
		Message json.RawMessage `json:"message"`
		Detail  json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(raw, &o) == nil {
		if msg := messageOf(o.Message); msg != "" {
			return msg
		}
		if msg := messageOf(o.Detail); msg != "" {
			return msg
		}
	}
	var details []struct {
		Msg string `json:"msg"`
		Loc []any  `json:"loc"`
	}
	if json.Unmarshal(raw, &details) == nil {
		var parts []string
		for _, d := range details {
			loc := make([]string, 0, len(d.Loc))
			for _, l := range d.Loc {
				loc = append(loc, fmt.Sprint(l))
			}
			parts = append(parts, strings.Join(loc, ".")+": "+d.Msg)
		}
		return strings.Join(parts, "; ")
	}
	return ""
}

// callDialect adapts one call to provider.HTTPProvider: the FIM body is
// built before the call because provider.Request has no FIM shape, so
// Encode ignores the (empty) chat request it is given.
type callDialect struct {
	f    flavour
	path string
	body []byte
}

func (d callDialect) Name() string                            { return "fim-" + d.f.name }
func (d callDialect) Path() string                            { return d.path }
func (d callDialect) Encode(provider.Request) ([]byte, error) { return d.body, nil }
func (d callDialect) NewDecoder() provider.Decoder            { return &decoder{answer: d.f.answer} }

// SetHeaders sends the bearer credential only when there is one: a local
// server without auth gets no empty "Bearer ".
func (d callDialect) SetHeaders(h http.Header, apiKey string) {
	h.Set("Content-Type", "application/json")
	if d.f.framing == framingNDJSON {
		h.Set("Accept", "application/x-ndjson")
	} else {
		h.Set("Accept", "text/event-stream")
	}
	if apiKey != "" {
		h.Set("Authorization", "Bearer "+apiKey)
	}
}
