package tools

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/strikethrough"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"golang.org/x/net/html/charset"

	"github.com/agent-lsp/agent-lsp/permission"
)

// htmlConverter turns a page into markdown: CommonMark with the GitHub
// tables and strikethrough documentation pages use. It is safe for
// concurrent use. It is built at the first page, not at every start of
// the binary.
var htmlConverter = sync.OnceValue(func() *converter.Converter {
	return converter.NewConverter(converter.WithPlugins(
		base.NewBasePlugin(), commonmark.NewCommonmarkPlugin(),
		table.NewTablePlugin(), strikethrough.NewStrikethroughPlugin()))
})

// readable is the page as the model reads it: a header line naming the
// URL, the status and the type, then the text (HTML converted to
// markdown by html-to-markdown, the maintained converter that keeps
// tables, code blocks and links and drops scripts and styles).
func (p *webPage) readable() string {
	if p.redirect != "" {
		return fmt.Sprintf("%s redirects to another host: %s\nFetch that URL to follow it (the user approves each domain).",
			permission.VisibleLine(p.url, 0), permission.VisibleLine(p.redirect, 0))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "URL: %s\nStatus: %d %s\n", permission.VisibleLine(p.url, 0), p.status, http.StatusText(p.status))
	if p.contentType != "" {
		fmt.Fprintf(&b, "Content-Type: %s\n", permission.VisibleLine(p.contentType, 0))
	}
	b.WriteString("\n")
	b.WriteString(p.text())
	if p.cut {
		fmt.Fprintf(&b, "\n\n[the page was cut at %d MiB]", webMaxBody>>20)
	}
	return b.String()
}

// cacheable reports whether a later fetch of the URL in the session may
// be answered from this one: a page that came back, not a server error.
func (p *webPage) cacheable() bool { return p.redirect == "" && p.status < 500 }

// text is the body as text: HTML as markdown, other text as it is (in
// UTF-8 whatever its charset), anything else named, not shown.
func (p *webPage) text() string {
	media, _, _ := mime.ParseMediaType(p.contentType)
	body := p.utf8()
	switch {
	case media == "text/html" || media == "application/xhtml+xml" || (media == "" && looksLikeHTML(body)):
		md, err := htmlConverter().ConvertString(body, converter.WithDomain(p.url))
		if err != nil {
			return fmt.Sprintf("(the HTML could not be converted: %v)\n\n%s", err, body)
		}
		return strings.TrimSpace(md)
	case strings.HasPrefix(media, "text/"), media == "application/json", strings.HasSuffix(media, "+json"),
		media == "application/xml", strings.HasSuffix(media, "+xml"), media == "application/javascript",
		media == "" && utf8.ValidString(body):
		return body
	}
	return fmt.Sprintf("(%d bytes of %s: not text, not shown)", len(p.body), permission.VisibleLine(media, 0))
}

// utf8 decodes the body from the charset its header or its own meta tag
// names (UTF-8 when none does).
func (p *webPage) utf8() string {
	r, err := charset.NewReader(bytes.NewReader(p.body), p.contentType)
	if err != nil {
		return strings.ToValidUTF8(string(p.body), "\uFFFD")
	}
	text, err := io.ReadAll(r)
	if err != nil {
		return strings.ToValidUTF8(string(p.body), "\uFFFD")
	}
	return strings.ToValidUTF8(string(text), "\uFFFD")
}

// looksLikeHTML sniffs a body a server sent without a type.
func looksLikeHTML(body string) bool {
	return strings.HasPrefix(http.DetectContentType([]byte(body)), "text/html")
}
