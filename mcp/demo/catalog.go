package demo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The catalog: a server of many generated tools, the shape of a business
// suite's API (a record kind each, five operations on it), to show and
// measure tool search (docs/protocol.md, "Tool search") against a tool list
// as large as a few real servers together.

// CatalogName is the catalog server's self-reported name.
const CatalogName = "agent-lsp-catalog"

// catalogRecords are the kinds of records the catalog's tools work on,
// each with the area of the suite it belongs to and two fields of its own.
var catalogRecords = []struct{ kind, area, field1, field2 string }{
	{"customer", "CRM", "email", "company"},
	{"lead", "CRM", "source", "score"},
	{"campaign", "marketing", "channel", "budget"},
	{"invoice", "billing", "amount", "due_date"},
	{"payment", "billing", "amount", "method"},
	{"refund", "billing", "amount", "reason"},
	{"subscription", "billing", "plan", "renewal_date"},
	{"coupon", "sales", "discount", "expires_on"},
	{"order", "sales", "total", "shipping_address"},
	{"product", "inventory", "sku", "price"},
	{"warehouse", "inventory", "location", "capacity"},
	{"shipment", "logistics", "carrier", "tracking_number"},
	{"supplier", "procurement", "contact", "payment_terms"},
	{"contract", "legal", "counterparty", "end_date"},
	{"employee", "HR", "department", "start_date"},
	{"timesheet", "HR", "week", "hours"},
	{"expense", "finance", "amount", "category"},
	{"support_ticket", "helpdesk", "priority", "status"},
}

// catalogOps are the operations on each record kind.
var catalogOps = []struct{ verb, doc string }{
	{"create", "Create a new %s in the %s area of the Acme suite and return its id."},
	{"get", "Get one %s of the %s area of the Acme suite by its id, with every field."},
	{"list", "List the %ss of the %s area of the Acme suite, newest first, filtered and paged."},
	{"update", "Update fields of one %s of the %s area of the Acme suite; fields not given keep their value."},
	{"delete", "Delete one %s of the %s area of the Acme suite by its id. This cannot be undone."},
}

// CatalogSize is how many tools NewCatalog offers.
var CatalogSize = len(catalogRecords) * len(catalogOps)

// NewCatalog returns the catalog server (CatalogSize tools, e.g.
// create_invoice, list_invoices, delete_support_ticket), ready to Run on any
// transport. A call answers with the operation and its arguments.
func NewCatalog() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: CatalogName, Version: Version}, nil)
	for _, r := range catalogRecords {
		for _, op := range catalogOps {
			name := op.verb + "_" + r.kind
			if op.verb == "list" {
				name += "s"
			}
			human := strings.ReplaceAll(r.kind, "_", " ")
			t := &mcp.Tool{
				Name:        name,
				Description: fmt.Sprintf(op.doc, human, r.area),
				InputSchema: catalogSchema(op.verb, r.field1, r.field2),
				Annotations: &mcp.ToolAnnotations{ReadOnlyHint: op.verb == "get" || op.verb == "list"},
			}
			if op.verb == "delete" {
				destructive := true
				t.Annotations.DestructiveHint = &destructive
			}
			s.AddTool(t, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				args := string(req.Params.Arguments)
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{
					Text: fmt.Sprintf("%s done (%s, Acme %s): %s", name, human, r.area, args)}}}, nil
			})
		}
	}
	return s
}

// catalogSchema is the input schema of one operation on a record kind with
// the two fields f1 and f2.
func catalogSchema(verb, f1, f2 string) map[string]any {
	str := func(doc string) map[string]any { return map[string]any{"type": "string", "description": doc} }
	props := map[string]any{}
	var required []string
	switch verb {
	case "get", "delete":
		props["id"] = str("the record's id")
		required = []string{"id"}
	case "list":
		props["filter"] = str("a query over the fields, e.g. " + f1 + ":value")
		props["page_size"] = map[string]any{"type": "integer", "minimum": 1, "maximum": 100, "description": "records per page"}
		props["page_token"] = str("next_page_token of the previous page")
	case "create", "update":
		props[f1] = str("the record's " + strings.ReplaceAll(f1, "_", " "))
		props[f2] = str("the record's " + strings.ReplaceAll(f2, "_", " "))
		props["notes"] = str("free text kept with the record")
		props["tags"] = map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "description": "labels"}
		required = []string{f1}
		if verb == "update" {
			props["id"] = str("the record's id")
			required = []string{"id"}
		}
	}
	schema := map[string]any{"type": "object", "properties": props}
	if required != nil {
		schema["required"] = required
	}
	return schema
}

// ServeCatalog runs the catalog server over newline-delimited JSON on
// in/out until the client closes in or ctx ends.
func ServeCatalog(ctx context.Context, in io.Reader, out io.Writer) error {
	t := &mcp.IOTransport{Reader: io.NopCloser(in), Writer: nopWriteCloser{out}}
	err := NewCatalog().Run(ctx, t)
	if err != nil && (errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) || ctx.Err() != nil) {
		return nil
	}
	return err
}
