package tools

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// schemaNode is the part of a JSON Schema the built-in tools use.
type schemaNode struct {
	Type                 string                `json:"type"`
	Properties           map[string]schemaNode `json:"properties"`
	Required             []string              `json:"required"`
	Items                *schemaNode           `json:"items"`
	Enum                 []json.RawMessage     `json:"enum"`
	AdditionalProperties *bool                 `json:"additionalProperties"`
}

// schemaMismatches compares a schema with the Go type its value decodes
// into and lists every disagreement, at path (e.g. "items[].status"):
// a property that is no field (by JSON name), a field missing from the
// schema, a required property that is omitempty or the reverse, and a JSON
// type the Go type cannot hold.
func schemaMismatches(path string, s schemaNode, t reflect.Type) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var out []string
	bad := func(format string, a ...any) { out = append(out, path+": "+fmt.Sprintf(format, a...)) }
	switch s.Type {
	case "string":
		if t.Kind() != reflect.String {
			bad("schema type string, Go type %s", t)
		}
	case "boolean":
		if t.Kind() != reflect.Bool {
			bad("schema type boolean, Go type %s", t)
		}
	case "integer":
		switch t.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		default:
			bad("schema type integer, Go type %s", t)
		}
	case "number":
		if t.Kind() != reflect.Float32 && t.Kind() != reflect.Float64 {
			bad("schema type number, Go type %s", t)
		}
	case "array":
		if t.Kind() != reflect.Slice && t.Kind() != reflect.Array {
			bad("schema type array, Go type %s", t)
			break
		}
		if s.Items == nil {
			bad("array without items")
			break
		}
		out = append(out, schemaMismatches(path+"[]", *s.Items, t.Elem())...)
	case "object":
		if t.Kind() != reflect.Struct {
			bad("schema type object, Go type %s", t)
			break
		}
		out = append(out, objectMismatches(path, s, t)...)
	default:
		bad("schema type %q is not checked", s.Type)
	}
	return out
}

func objectMismatches(path string, s schemaNode, t reflect.Type) []string {
	var out []string
	fields := argFields(t)
	for name, prop := range s.Properties {
		f, ok := fields[name]
		if !ok {
			out = append(out, fmt.Sprintf("%s: property %q is no field of %s", path, name, t))
			continue
		}
		out = append(out, schemaMismatches(path+"."+name, prop, f.typ)...)
	}
	for name, f := range fields {
		if _, ok := s.Properties[name]; !ok {
			out = append(out, fmt.Sprintf("%s: field %q of %s is not in the schema", path, name, t))
		}
		if req := slices.Contains(s.Required, name); f.required != req {
			out = append(out, fmt.Sprintf("%s: %q required=%v in the schema, %v in %s (omitempty decides)", path, name, req, f.required, t))
		}
	}
	for _, r := range s.Required {
		if _, ok := s.Properties[r]; !ok {
			out = append(out, fmt.Sprintf("%s: required %q is not a property", path, r))
		}
	}
	return out
}

// Every built-in tool's schema (what the model sees) and its argument
// struct (what decodeArgs accepts) agree on names, types and which are
// required; decodeArgs refuses unknown arguments, so the schema says so.
func TestBuiltinSchemasMatchTheirArgStructs(t *testing.T) {
	args := map[string]any{
		"read_file":  readFileArgs{},
		"glob":       globArgs{},
		"grep":       grepArgs{},
		"write_file": writeFileArgs{},
		"edit_file":  editFileArgs{},
		"run_bash":   runBashArgs{},
		"todo_write": todoWriteArgs{},
		"web_fetch":  webFetchArgs{},
		"skill":      skillArgs{},
	}
	r := NewRegistry()
	if err := RegisterBuiltins(r); err != nil {
		t.Fatal(err)
	}
	if n := len(r.Tools()); n != len(args) {
		t.Errorf("%d built-in tools, %d argument structs checked", n, len(args))
	}
	for _, tool := range r.Tools() {
		a, ok := args[tool.Name()]
		if !ok {
			t.Errorf("%s: no argument struct to check its schema against", tool.Name())
			continue
		}
		var s schemaNode
		if err := json.Unmarshal(tool.Schema(), &s); err != nil {
			t.Fatalf("%s: schema is not JSON: %v", tool.Name(), err)
		}
		for _, m := range schemaMismatches(tool.Name(), s, reflect.TypeOf(a)) {
			t.Error(m)
		}
		if s.AdditionalProperties == nil || *s.AdditionalProperties {
			t.Errorf("%s: schema allows additional properties; decodeArgs refuses them", tool.Name())
		}
		if n := len(tool.Description()); n > 450 {
			t.Errorf("%s: description is %d bytes, budget 450", tool.Name(), n)
		}
	}
}

// The comparison finds each kind of disagreement it is there for.
func TestSchemaMismatchesFindsEachDisagreement(t *testing.T) {
	type item struct {
		Name string `json:"name"`
	}
	type args struct {
		Path  string   `json:"path"`
		Count int      `json:"count,omitempty"`
		Flag  *bool    `json:"flag,omitempty"`
		Items []item   `json:"items,omitempty"`
		Tags  []string `json:"tags,omitempty"`
	}
	const good = `{"type":"object","properties":{"path":{"type":"string"},"count":{"type":"integer"},` +
		`"flag":{"type":"boolean"},"items":{"type":"array","items":{"type":"object",` +
		`"properties":{"name":{"type":"string"}},"required":["name"]}},` +
		`"tags":{"type":"array","items":{"type":"string"}}},"required":["path"]}`
	tests := []struct {
		name   string
		schema string
		want   string // a substring of one mismatch; "" for none
	}{
		{"agreeing", good, ""},
		{"unknown property", strings.Replace(good, `"path":{"type":"string"}`, `"path":{"type":"string"},"pth":{"type":"string"}`, 1), `property "pth" is no field`},
		{"missing field", strings.Replace(good, `"count":{"type":"integer"},`, ``, 1), `field "count"`},
		{"required omitempty", strings.Replace(good, `"required":["path"]}`, `"required":["path","count"]}`, 1), `"count" required=true in the schema`},
		{"not required", strings.Replace(good, `"required":["path"]}`, `"required":[]}`, 1), `"path" required=false in the schema`},
		{"wrong scalar type", strings.Replace(good, `"count":{"type":"integer"}`, `"count":{"type":"string"}`, 1), "args.count: schema type string"},
		{"wrong item type", strings.Replace(good, `"items":{"type":"string"}`, `"items":{"type":"integer"}`, 1), "args.tags[]: schema type integer"},
		{"nested field", strings.Replace(good, `"name":{"type":"string"}`, `"title":{"type":"string"}`, 1), `args.items[]: property "title" is no field`},
		{"nested required", strings.Replace(good, `"required":["name"]`, `"required":[]`, 1), `args.items[]: "name" required=false`},
	}
	for _, tt := range tests {
		var s schemaNode
		if err := json.Unmarshal([]byte(tt.schema), &s); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		got := schemaMismatches("args", s, reflect.TypeOf(args{}))
		switch {
		case tt.want == "" && len(got) > 0:
			t.Errorf("%s: mismatches %q, want none", tt.name, got)
		case tt.want != "" && !slices.ContainsFunc(got, func(m string) bool { return strings.Contains(m, tt.want) }):
			t.Errorf("%s: mismatches %q, want one containing %q", tt.name, got, tt.want)
		}
	}
}
