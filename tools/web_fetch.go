package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/agent-lsp/agent-lsp/permission"
)

// The bounds of one fetch: a page bigger than webMaxBody is cut (and says
// so), a server slower than webTimeout fails the call, and the readable
// text is cut like any tool result after conversion.
const (
	webMaxBody      = 5 << 20
	webTimeout      = 30 * time.Second
	webMaxRedirects = 5
	webMaxURL       = 4096
)

// WebFetchOptions are the user's settings of web_fetch.
type WebFetchOptions struct {
	// AllowPrivateNetwork lets a fetch reach loopback, link-local and
	// private addresses (a documentation server on the user's machine or
	// network). Off: a page of the model's choosing cannot be turned
	// against the user's own network, whatever its name resolves to.
	AllowPrivateNetwork bool
}

type webFetchArgs struct {
	URL string `json:"url"`
}

type webFetchTool struct {
	opts   WebFetchOptions
	client *webClient
}

// NewWebFetch returns the web_fetch tool: GET one http(s) URL and return
// its readable text (HTML as markdown), without cookies or credentials,
// asked per domain.
func NewWebFetch(opts WebFetchOptions) Tool {
	return &webFetchTool{opts: opts, client: newWebClient(opts.AllowPrivateNetwork)}
}

func (*webFetchTool) Name() string { return "web_fetch" }

func (*webFetchTool) Description() string {
	return "GET an http(s) URL (no cookies or credentials) and return its text, HTML as markdown: for documentation. " +
		"A redirect to another host is returned, not followed. Each domain is approved by the user."
}

func (*webFetchTool) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{` +
		`"url":{"type":"string","description":"http(s) URL"}},` +
		`"required":["url"],"additionalProperties":false}`)
}

func (*webFetchTool) Describe(_ context.Context, raw json.RawMessage, _ *Env) (permission.Action, error) {
	u, err := parseWebArgs(raw)
	if err != nil {
		return permission.Action{}, err
	}
	host := strings.ToLower(u.Host)
	return permission.Action{
		Tool:    "web_fetch",
		Summary: "fetch " + permission.VisibleLine(u.String(), bashSummaryLength),
		// "Allow for this session" is per domain: another host is asked again.
		Scope:   "web_fetch:" + host,
		Risk:    permission.Medium,
		Reasons: []string{"sends a request to " + permission.VisibleLine(host, 0) + ": what the URL holds leaves this machine"},
	}, nil
}

func (t *webFetchTool) Run(ctx context.Context, raw json.RawMessage, env *Env) (Result, error) {
	u, err := parseWebArgs(raw)
	if err != nil {
		return Result{}, err
	}
	var cache *WebCache
	if env != nil {
		cache = env.Web
	}
	if page, ok := cache.get(u.String()); ok {
		return Result{Output: page}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, webTimeout)
	defer cancel()
	page, err := t.client.fetch(ctx, u)
	if err != nil {
		return Result{}, err
	}
	out := page.readable()
	if page.cacheable() {
		cache.put(u.String(), out)
	}
	return Result{Output: out}, nil
}

// parseWebArgs reads and checks the URL: http or https, a host, no user
// name or password in it (a credential is never sent), and not too long.
func parseWebArgs(raw json.RawMessage) (*url.URL, error) {
	var a webFetchArgs
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	s := strings.TrimSpace(a.URL)
	if s == "" {
		return nil, errors.New("url is required")
	}
	if len(s) > webMaxURL {
		return nil, fmt.Errorf("url is %d bytes; at most %d", len(s), webMaxURL)
	}
	u, err := url.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("url: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("url %q: only http and https are fetched", permission.VisibleLine(s, 0))
	}
	if u.Host == "" || u.Hostname() == "" {
		return nil, fmt.Errorf("url %q has no host", permission.VisibleLine(s, 0))
	}
	if u.User != nil {
		return nil, errors.New("url holds a user name or password: credentials are never sent")
	}
	u.Fragment, u.RawFragment = "", "" // never sent; one cache entry per page
	return u, nil
}
