package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agent-lsp/agent-lsp/tools"
)

// Remote names of the two tools every server with resources gets; they
// are not the server's tools but ours, calling resources/list and
// resources/read.
const (
	listResourcesTool = "list_resources"
	readResourceTool  = "read_resource"
)

// maxResourcesListed bounds one list_resources answer.
const maxResourcesListed = 200

func newResourceTools(s *server, listName, readName string) []*toolAdapter {
	list := &toolAdapter{
		srv: s, remote: listResourcesTool, exposed: listName, readOnly: true, pinned: s.cfg.Eager,
		description: fmt.Sprintf("[MCP server %s] List the resources (documents, records, files) this server offers, with the URIs read_resource takes. Pass the cursor from a previous answer to see more.", s.cfg.Name),
		schema:      json.RawMessage(`{"type":"object","properties":{"cursor":{"type":"string","description":"nextCursor from a previous answer"}}}`),
	}
	list.fingerprint = list.description
	list.run = s.listResources
	read := &toolAdapter{
		srv: s, remote: readResourceTool, exposed: readName, readOnly: true, pinned: s.cfg.Eager,
		description: fmt.Sprintf("[MCP server %s] Read one resource of this server by its URI (from list_resources).", s.cfg.Name),
		schema:      json.RawMessage(`{"type":"object","properties":{"uri":{"type":"string","description":"the resource URI"}},"required":["uri"]}`),
	}
	read.fingerprint = read.description
	read.run = s.readResource
	return []*toolAdapter{list, read}
}

func (s *server) listResources(ctx context.Context, args json.RawMessage) (tools.Result, error) {
	var in struct {
		Cursor string `json:"cursor"`
	}
	if err := json.Unmarshal(args, &in); err != nil {
		return tools.Result{}, fmt.Errorf("invalid arguments: %w", err)
	}
	var res *sdk.ListResourcesResult
	err := s.withSession(ctx, "resources/list", func(ctx context.Context, cs *sdk.ClientSession) (err error) {
		res, err = cs.ListResources(ctx, &sdk.ListResourcesParams{Cursor: in.Cursor})
		return err
	})
	if err != nil {
		return tools.Result{}, err
	}
	var b strings.Builder
	for i, r := range res.Resources {
		if i == maxResourcesListed {
			fmt.Fprintf(&b, "… %d more not shown\n", len(res.Resources)-i)
			break
		}
		b.WriteString(r.URI)
		if r.Name != "" {
			b.WriteString(" — " + r.Name)
		}
		if r.MIMEType != "" {
			b.WriteString(" (" + r.MIMEType + ")")
		}
		if r.Description != "" {
			b.WriteString(": " + capText(strings.ReplaceAll(r.Description, "\n", " "), 200))
		}
		b.WriteByte('\n')
	}
	if len(res.Resources) == 0 {
		b.WriteString("(no resources)\n")
	}
	if res.NextCursor != "" {
		fmt.Fprintf(&b, "nextCursor: %s\n", res.NextCursor)
	}
	return tools.Result{Output: b.String()}, nil
}

func (s *server) readResource(ctx context.Context, args json.RawMessage) (tools.Result, error) {
	var in struct {
		URI string `json:"uri"`
	}
	if err := json.Unmarshal(args, &in); err != nil || in.URI == "" {
		return tools.Result{}, fmt.Errorf(`invalid arguments: "uri" (a string) is required`)
	}
	var res *sdk.ReadResourceResult
	err := s.withSession(ctx, "resources/read", func(ctx context.Context, cs *sdk.ClientSession) (err error) {
		res, err = cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: in.URI})
		return err
	})
	if err != nil {
		return tools.Result{}, err
	}
	parts := make([]string, 0, len(res.Contents))
	for _, c := range res.Contents {
		parts = append(parts, resourceContentsText(c))
	}
	if len(parts) == 0 {
		return tools.Result{Output: "(the resource is empty)"}, nil
	}
	return tools.Result{Output: tools.Truncate(strings.Join(parts, "\n"), maxResultText)}, nil
}
