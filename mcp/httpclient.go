package mcp

import (
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"go.uber.org/zap"
)

// credentialHeaders are the headers that carry who the client is, beyond
// the entry's own: dropped with them on a redirect to another origin.
var credentialHeaders = []string{"Authorization", "Proxy-Authorization", "Cookie"}

// originClient is the HTTP side of one connection to a Streamable HTTP or
// SSE server. The entry's headers (tokens) go only to the origin (scheme,
// host and port) of its URL: a redirect to another origin is followed
// without them and without any Authorization or Cookie, the way browsers
// and Claude Code treat credentials. Following it, not refusing it, keeps
// servers working that send unauthenticated traffic through a redirect
// (a load balancer, a moved endpoint); a server that needed the token
// there answers 401, and the connection's error names the redirect.
//
// Go's own client strips Authorization and Cookie only when the host
// name changes (not the port or scheme), and not at all from headers a
// RoundTripper adds, which is how the entry's headers are sent: so the
// origin is checked here, on every request and every redirect.
type originClient struct {
	origin  string
	headers map[string]string
	next    http.RoundTripper
	log     *zap.Logger

	mu      sync.Mutex
	foreign string // the last other origin a redirect led to
}

func newOriginClient(endpoint string, headers map[string]string, log *zap.Logger) *originClient {
	return &originClient{origin: originOf(endpoint), headers: headers, next: http.DefaultTransport, log: log}
}

// client is the http.Client the SDK's transport uses.
func (o *originClient) client() *http.Client {
	return &http.Client{Transport: o, CheckRedirect: o.checkRedirect}
}

// RoundTrip adds the entry's headers to requests for its own origin.
func (o *originClient) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(o.headers) == 0 || originOf(r.URL.String()) != o.origin {
		return o.next.RoundTrip(r)
	}
	r = r.Clone(r.Context())
	for k, v := range o.headers {
		r.Header.Set(k, v)
	}
	return o.next.RoundTrip(r)
}

// checkRedirect strips every credential from a hop to another origin
// (Go copied the previous request's headers into req before calling it),
// and keeps Go's limit of ten redirects.
func (o *originClient) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return http.ErrUseLastResponse
	}
	to := originOf(req.URL.String())
	if to == o.origin {
		return nil
	}
	for k := range o.headers {
		req.Header.Del(k)
	}
	for _, k := range credentialHeaders {
		req.Header.Del(k)
	}
	o.mu.Lock()
	first := o.foreign != to
	o.foreign = to
	o.mu.Unlock()
	if first {
		o.log.Warn("MCP server redirected to another origin; following without the entry's headers or any credential",
			zap.String("from", o.origin), zap.String("to", to))
	}
	return nil
}

// redirectedTo is the other origin a redirect led to, "" when none did.
func (o *originClient) redirectedTo() string {
	if o == nil {
		return ""
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.foreign
}

// originOf is scheme://host:port of a URL, the port made explicit, so
// that https://h and https://h:443 are one origin; an unparsable URL is
// its own text (and so no other URL's origin).
func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return raw
	}
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		switch scheme {
		case "http", "ws":
			port = "80"
		case "https", "wss":
			port = "443"
		}
	}
	return scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}
