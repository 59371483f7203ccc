package mcp

import (
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agent-lsp/agent-lsp/tools"
)

// maxResultText bounds the text one MCP result becomes. The registry cuts
// every output far lower for the model; this bound only keeps a runaway
// server (a 5 MB result) from being copied around in full.
const maxResultText = 256 << 10

// resultText renders a tool result's content for the model: text blocks
// joined by newlines; images and audio as a note with type and size;
// resource links and embedded resources as text; structured content as
// JSON when no text block carries the result already (the spec asks servers
// to mirror structured content in a text block, so both would say the same
// twice).
func resultText(res *sdk.CallToolResult) string {
	var parts []string
	hasText := false
	for _, c := range res.Content {
		if t, ok := c.(*sdk.TextContent); ok && t.Text != "" {
			hasText = true
		}
		if s := contentText(c); s != "" {
			parts = append(parts, s)
		}
	}
	if res.StructuredContent != nil && !hasText {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			parts = append(parts, string(b))
		}
	}
	out := strings.Join(parts, "\n")
	if out == "" {
		out = "(the tool returned no content)"
	}
	return tools.Truncate(out, maxResultText)
}

func contentText(c sdk.Content) string {
	switch c := c.(type) {
	case *sdk.TextContent:
		return tools.Truncate(c.Text, maxResultText)
	case *sdk.ImageContent:
		return fmt.Sprintf("[image: %s, %s]", orUnknown(c.MIMEType), formatSize(len(c.Data)))
	case *sdk.AudioContent:
		return fmt.Sprintf("[audio: %s, %s]", orUnknown(c.MIMEType), formatSize(len(c.Data)))
	case *sdk.ResourceLink:
		s := "[resource link: " + c.URI
		if c.Name != "" {
			s += " (" + c.Name + ")"
		}
		if c.MIMEType != "" {
			s += ", " + c.MIMEType
		}
		s += "]"
		if c.Description != "" {
			s += " " + c.Description
		}
		return s
	case *sdk.EmbeddedResource:
		if c.Resource == nil {
			return "[resource: empty]"
		}
		return resourceContentsText(c.Resource)
	case nil:
		return ""
	default:
		b, err := json.Marshal(c)
		if err != nil {
			return fmt.Sprintf("[%T content]", c)
		}
		return tools.Truncate(string(b), maxResultText)
	}
}

// resourceContentsText renders one resource's contents: its text under a
// header line, or a note for binary contents.
func resourceContentsText(r *sdk.ResourceContents) string {
	head := "[resource: " + r.URI
	if r.MIMEType != "" {
		head += ", " + r.MIMEType
	}
	if r.Blob != nil && r.Text == "" {
		return head + ", " + formatSize(len(r.Blob)) + " binary]"
	}
	return head + "]\n" + tools.Truncate(r.Text, maxResultText)
}

func orUnknown(mime string) string {
	if mime == "" {
		return "unknown type"
	}
	return mime
}

// formatSize is a human size: "512 bytes", "12 KB", "3.4 MB".
func formatSize(n int) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d bytes", n)
	case n < 1024*1024:
		return fmt.Sprintf("%d KB", (n+512)/1024)
	default:
		return fmt.Sprintf("%.1f MB", float64(n)/(1024*1024))
	}
}
