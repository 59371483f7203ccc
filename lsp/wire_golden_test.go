package lsp

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// wireDir holds one file per wireExample: the wire types' single source
// for the editors' unit tests (docs/protocol.md, "Wire types").
const wireDir = "testdata/wire"

// wireFile is a golden file: a message as it travels, with who sends it.
type wireFile struct {
	Method string          `json:"method"`
	From   string          `json:"from"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result,omitempty"`
}

// updating says whether -update was given (the flag is lsp_test's,
// approval_popup_test.go: one test binary, one flag).
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// TestWireGolden holds testdata/wire to the Go types: each file is its
// example marshalled, no file is stale or left over, and
// go test ./lsp -run TestWireGolden -update writes them again. The TS
// and Lua unit tests read the same files, so a field renamed here fails
// them, without an editor.
func TestWireGolden(t *testing.T) {
	want := map[string][]byte{}
	for _, ex := range wireExamples {
		b, err := marshalWire(ex)
		if err != nil {
			t.Fatalf("%s: %v", ex.name, err)
		}
		if _, dup := want[ex.name+".json"]; dup {
			t.Fatalf("two examples are named %s", ex.name)
		}
		want[ex.name+".json"] = b
	}
	if updating() {
		if err := os.MkdirAll(wireDir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, b := range want {
			if err := os.WriteFile(filepath.Join(wireDir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	entries, err := os.ReadDir(wireDir)
	if err != nil {
		t.Fatalf("%v (go test ./lsp -run TestWireGolden -update writes it)", err)
	}
	for _, e := range entries {
		if _, ok := want[e.Name()]; !ok {
			if updating() {
				if err := os.Remove(filepath.Join(wireDir, e.Name())); err != nil {
					t.Fatal(err)
				}
				continue
			}
			t.Errorf("%s/%s has no example in wire_examples_test.go: remove it, or run go test ./lsp -run TestWireGolden -update", wireDir, e.Name())
		}
	}
	for name, b := range want {
		got, err := os.ReadFile(filepath.Join(wireDir, name))
		if err != nil {
			t.Errorf("%v (go test ./lsp -run TestWireGolden -update writes it)", err)
			continue
		}
		if !bytes.Equal(got, b) {
			t.Errorf("%s/%s is stale: go test ./lsp -run TestWireGolden -update\n got %s\nwant %s", wireDir, name, got, b)
		}
	}
}

func marshalWire(ex wireExample) ([]byte, error) {
	f := wireFile{Method: ex.method, From: ex.from}
	var err error
	if f.Params, err = json.Marshal(ex.params); err != nil {
		return nil, err
	}
	if ex.result != nil {
		if f.Result, err = json.Marshal(ex.result); err != nil {
			return nil, err
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Every agent/* method the daemon serves has an example, with the
// params and result types its route declares (route.go): the golden
// files cannot drift from the handlers' signatures.
func TestWireExamplesMatchTheRoutes(t *testing.T) {
	covered := map[string]bool{}
	for _, ex := range wireExamples {
		if ex.from != "editor" {
			continue
		}
		covered[ex.method] = true
		rt, ok := routes[ex.method]
		if !ok {
			t.Errorf("%s: no route %s", ex.name, ex.method)
			continue
		}
		if got := reflect.TypeOf(ex.params); got != rt.params {
			t.Errorf("%s: params are a %v, the route takes a %v", ex.name, got, rt.params)
		}
		switch {
		case ex.result == nil && rt.result != reflect.TypeFor[noResult]():
			t.Errorf("%s: no result, the route answers a %v", ex.name, rt.result)
		case ex.result != nil && reflect.TypeOf(ex.result) != rt.result:
			t.Errorf("%s: result is a %v, the route answers a %v", ex.name, reflect.TypeOf(ex.result), rt.result)
		}
	}
	for method := range routes {
		if strings.HasPrefix(method, "agent/") && !covered[method] {
			t.Errorf("%s has no example in wire_examples_test.go", method)
		}
	}
}

// Every field of every example's types has a value in its golden file
// (omitempty ones included, slices with an element), so the editors'
// tests see every name the daemon may send or read.
func TestWireExamplesShowEveryField(t *testing.T) {
	for _, ex := range wireExamples {
		for part, v := range map[string]any{"params": ex.params, "result": ex.result} {
			if v == nil {
				continue
			}
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			var decoded any
			if err := json.Unmarshal(b, &decoded); err != nil {
				t.Fatal(err)
			}
			for _, missing := range absentFields(reflect.TypeOf(v), decoded, part, nil) {
				t.Errorf("%s: %s has no value in the example: give it one", ex.name, missing)
			}
		}
	}
}

var jsonMarshaler = reflect.TypeFor[json.Marshaler]()

// absentFields lists the JSON fields of t that decoded (t marshalled)
// lacks, by path. Types that marshal themselves (time.Time,
// json.RawMessage) and interfaces are leaves; a nil pointer to a type
// being walked already (within) ends a recursive type (Prices.Peak).
func absentFields(t reflect.Type, decoded any, path string, within []reflect.Type) []string {
	if t.Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(jsonMarshaler) {
		return nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		if decoded == nil && slices.Contains(within, t.Elem()) {
			return nil
		}
		if decoded == nil {
			return []string{path}
		}
		return absentFields(t.Elem(), decoded, path, within)
	case reflect.Slice, reflect.Array:
		items, _ := decoded.([]any)
		if len(items) == 0 {
			return []string{path + "[]"}
		}
		var out []string
		for i, it := range items {
			out = append(out, absentFields(t.Elem(), it, fmt.Sprintf("%s[%d]", path, i), within)...)
		}
		return out
	case reflect.Struct:
		obj, _ := decoded.(map[string]any)
		within = append(within, t)
		var out []string
		for f := range fieldsOf(t) {
			v, ok := obj[f.name]
			if !ok && f.typ.Kind() == reflect.Pointer && slices.Contains(within, f.typ.Elem()) {
				continue
			}
			if !ok {
				out = append(out, path+"."+f.name)
				continue
			}
			out = append(out, absentFields(f.typ, v, path+"."+f.name, within)...)
		}
		slices.Sort(out)
		return out
	}
	return nil
}

type jsonField struct {
	name string
	typ  reflect.Type
}

// fieldsOf yields t's JSON fields, those of embedded structs in place.
func fieldsOf(t reflect.Type) func(yield func(jsonField) bool) {
	return func(yield func(jsonField) bool) {
		for i := range t.NumField() {
			f := t.Field(i)
			tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if tag == "-" || (!f.IsExported() && !f.Anonymous) {
				continue
			}
			if f.Anonymous && tag == "" && f.Type.Kind() == reflect.Struct {
				for inner := range fieldsOf(f.Type) {
					if !yield(inner) {
						return
					}
				}
				continue
			}
			if tag == "" {
				tag = f.Name
			}
			if !yield(jsonField{name: tag, typ: f.Type}) {
				return
			}
		}
	}
}
