package tools

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/agent-lsp/agent-lsp/permission"
)

// webClient makes web_fetch's requests: no cookie jar, no proxy from the
// environment (a proxy would resolve the name itself, past the address
// guard), no credentials, and every connection checked where it is made.
type webClient struct{ http *http.Client }

// errOtherHost stops a redirect to another host: the user approved the
// URL's domain, not the one it points to.
type errOtherHost struct{ to *url.URL }

func (e errOtherHost) Error() string { return "redirected to another host: " + e.to.String() }

func newWebClient(allowPrivate bool) *webClient {
	d := &net.Dialer{Timeout: 10 * time.Second}
	if !allowPrivate {
		// Checked on the address actually dialled, after the name was
		// resolved: a name that resolves to 127.0.0.1, or to a public
		// address first and a private one on the next lookup, is refused.
		d.Control = refusePrivate
	}
	tr := &http.Transport{
		Proxy:                 nil,
		DialContext:           d.DialContext,
		ForceAttemptHTTP2:     true,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: webTimeout,
		MaxIdleConns:          4,
		IdleConnTimeout:       30 * time.Second,
	}
	return &webClient{http: &http.Client{
		Transport: tr,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= webMaxRedirects {
				return fmt.Errorf("more than %d redirects", webMaxRedirects)
			}
			if !sameHost(req.URL, via[0].URL) {
				return errOtherHost{to: req.URL}
			}
			return nil
		},
	}}
}

// sameHost reports whether a redirect stays on the approved host (http to
// https of the same name included).
func sameHost(to, from *url.URL) bool {
	return strings.EqualFold(to.Hostname(), from.Hostname())
}

// webPage is what one fetch brought back.
type webPage struct {
	url         string // the final URL, after redirects on the same host
	status      int
	contentType string
	body        []byte
	cut         bool   // the body passed webMaxBody
	redirect    string // a redirect to another host, not followed
}

func (c *webClient) fetch(ctx context.Context, u *url.URL) (*webPage, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("User-Agent", "agent-lsp web_fetch")
	req.Header.Set("Accept", "text/html, text/markdown, text/plain, application/json;q=0.9, */*;q=0.5")
	resp, err := c.http.Do(req)
	var other errOtherHost
	if errors.As(err, &other) {
		return &webPage{url: u.String(), redirect: other.to.String()}, nil
	}
	if err != nil {
		return nil, fetchError(u, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, webMaxBody+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", permission.VisibleLine(u.String(), 0), err)
	}
	p := &webPage{url: resp.Request.URL.String(), status: resp.StatusCode,
		contentType: resp.Header.Get("Content-Type"), body: body}
	if len(body) > webMaxBody {
		p.body, p.cut = body[:webMaxBody], true
	}
	return p, nil
}

// fetchError says why a request failed, the refused address plainly.
func fetchError(u *url.URL, err error) error {
	var refused errPrivateAddress
	if errors.As(err, &refused) {
		return fmt.Errorf("%s resolves to %s, a %s address: web_fetch does not reach the user's own machine or network unless the user allows it (webFetch.allowPrivateNetwork)",
			permission.VisibleLine(u.Hostname(), 0), refused.addr, refused.kind)
	}
	return fmt.Errorf("fetching %s: %w", permission.VisibleLine(u.String(), 0), err)
}

// errPrivateAddress is a connection refused by the address guard.
type errPrivateAddress struct {
	addr netip.Addr
	kind string
}

func (e errPrivateAddress) Error() string { return fmt.Sprintf("%s is a %s address", e.addr, e.kind) }

// refusePrivate is the dialer's check of the address it is about to
// connect to.
func refusePrivate(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("address %q: %w", address, err)
	}
	if kind := privateKind(ap.Addr()); kind != "" {
		return errPrivateAddress{addr: ap.Addr().Unmap(), kind: kind}
	}
	return nil
}

// The ranges no public page lives in, beyond what netip classifies.
var nonPublic = []struct {
	prefix netip.Prefix
	kind   string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "this-network"},
	{netip.MustParsePrefix("100.64.0.0/10"), "shared (carrier-grade NAT)"},
	{netip.MustParsePrefix("192.0.0.0/24"), "protocol assignment"},
	{netip.MustParsePrefix("198.18.0.0/15"), "benchmarking"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved"},
	{netip.MustParsePrefix("64:ff9b::/96"), "NAT64"}, // its IPv4 part may be a private address
	{netip.MustParsePrefix("64:ff9b:1::/48"), "NAT64"},
	{netip.MustParsePrefix("::/96"), "IPv4-compatible"},
	{netip.MustParsePrefix("fec0::/10"), "site-local"},
	{netip.MustParsePrefix("2002::/16"), "6to4"}, // embeds an IPv4 address
}

// privateKind names what kind of non-public address a is, "" for a
// public one. IPv4 addresses written as IPv6 (::ffff:127.0.0.1) are
// judged as the IPv4 address they are.
func privateKind(a netip.Addr) string {
	a = a.Unmap()
	switch {
	case a.IsLoopback():
		return "loopback"
	case a.IsUnspecified():
		return "unspecified"
	case a.IsLinkLocalUnicast(), a.IsLinkLocalMulticast():
		return "link-local"
	case a.IsPrivate():
		return "private"
	case a.IsMulticast(), a.IsInterfaceLocalMulticast():
		return "multicast"
	}
	for _, n := range nonPublic {
		if n.prefix.Contains(a) {
			return n.kind
		}
	}
	return ""
}
