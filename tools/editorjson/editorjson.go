// Package editorjson decodes JSON from clients that cannot write an empty
// object: Lua (Neovim's encoder among them) has one empty table for both,
// and sends `[]` where `{}` was meant. Unmarshal reads an empty array
// wherever the destination expects an object (a struct or a map) as that
// empty object, at any depth; everything else decodes as encoding/json
// decodes it. It is the one decoder the daemon uses for the params and
// options it reads (LSP params, initializationOptions, MCP server entries).
package editorjson

import (
	"bytes"
	"encoding"
	"encoding/json"
	"reflect"
	"strings"
)

// Unmarshal is json.Unmarshal, except that `[]` where v's type expects an
// object reads as `{}`. A value its type decodes itself (UnmarshalJSON,
// json.RawMessage among them) is passed on untouched: whoever decodes it
// later calls Unmarshal again with the type it expects.
func Unmarshal(data []byte, v any) error {
	if t := reflect.TypeOf(v); t != nil && hasEmptyArray(data) {
		if fixed, changed := rewrite(data, t); changed {
			data = fixed
		}
	}
	return json.Unmarshal(data, v)
}

// hasEmptyArray reports whether data may hold an empty array (it may be
// inside a string): most input has none and is decoded as it is.
func hasEmptyArray(data []byte) bool {
	for i := bytes.IndexByte(data, '['); i >= 0; {
		rest := bytes.TrimLeft(data[i+1:], " \t\r\n")
		if len(rest) > 0 && rest[0] == ']' {
			return true
		}
		j := bytes.IndexByte(data[i+1:], '[')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

var (
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// decodesItself reports whether encoding/json hands a value of type t to
// the type's own method.
func decodesItself(t reflect.Type) bool {
	for _, u := range []reflect.Type{unmarshalerType, textUnmarshalerType} {
		if t.Implements(u) || (t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(u)) {
			return true
		}
	}
	return false
}

// rewrite is data with the empty arrays where t expects an object
// replaced by {}; changed is false when there were none (or data is not
// valid JSON, which json.Unmarshal then reports).
func rewrite(data []byte, t reflect.Type) (out []byte, changed bool) {
	for t.Kind() == reflect.Pointer {
		if decodesItself(t) {
			return data, false
		}
		t = t.Elem()
	}
	if decodesItself(t) {
		return data, false
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return data, false
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		if isEmptyArray(trimmed) {
			return []byte("{}"), true
		}
		if trimmed[0] != '{' {
			return data, false
		}
		return rewriteObject(trimmed, t)
	case reflect.Slice, reflect.Array:
		if trimmed[0] != '[' || t.Elem().Kind() == reflect.Uint8 {
			return data, false // []byte is a base64 string
		}
		return rewriteArray(trimmed, t.Elem())
	}
	return data, false
}

// isEmptyArray reports whether data (trimmed) is `[]`, spaces allowed.
func isEmptyArray(data []byte) bool {
	return len(data) >= 2 && data[0] == '[' && data[len(data)-1] == ']' &&
		len(bytes.TrimSpace(data[1:len(data)-1])) == 0
}

// rewriteObject rewrites the members of an object for struct or map type
// t, keeping their order (and any duplicates) as they were.
func rewriteObject(data []byte, t reflect.Type) ([]byte, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // {
		return data, false
	}
	var fields map[string]reflect.Type
	if t.Kind() == reflect.Struct {
		fields = map[string]reflect.Type{}
		structFields(t, fields, map[reflect.Type]bool{})
	}
	var b bytes.Buffer
	b.WriteByte('{')
	changed := false
	for n := 0; dec.More(); n++ {
		key, err := dec.Token()
		if err != nil {
			return data, false
		}
		name, _ := key.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return data, false
		}
		if ft := memberType(t, fields, name); ft != nil {
			if fixed, ok := rewrite(raw, ft); ok {
				raw, changed = fixed, true
			}
		}
		if n > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(name) // a string always marshals
		b.Write(k)
		b.WriteByte(':')
		b.Write(raw)
	}
	if !changed || !closed(dec, data, '}') {
		return data, false
	}
	b.WriteByte('}')
	return b.Bytes(), true
}

// memberType is the type the member called name decodes into: the map's
// element type, or the struct field encoding/json would pick (its exact
// name, else a case-insensitive match); nil when it is not decoded.
func memberType(t reflect.Type, fields map[string]reflect.Type, name string) reflect.Type {
	if t.Kind() == reflect.Map {
		return t.Elem()
	}
	if ft, ok := fields[name]; ok {
		return ft
	}
	for n, ft := range fields {
		if strings.EqualFold(n, name) {
			return ft
		}
	}
	return nil
}

// structFields adds t's JSON member names and their types to fields: its
// own exported fields first, then those of embedded structs (a shallower
// field hides a deeper one of the same name).
func structFields(t reflect.Type, fields map[string]reflect.Type, seen map[reflect.Type]bool) {
	if seen[t] {
		return
	}
	seen[t] = true
	var embedded []reflect.Type
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" && f.Tag.Get("json") == "-" {
			continue
		}
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				embedded = append(embedded, ft)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if _, dup := fields[name]; !dup {
			fields[name] = f.Type
		}
	}
	for _, e := range embedded {
		structFields(e, fields, seen)
	}
}

// rewriteArray rewrites the elements of an array of elem.
func rewriteArray(data []byte, elem reflect.Type) ([]byte, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // [
		return data, false
	}
	var b bytes.Buffer
	b.WriteByte('[')
	changed := false
	for n := 0; dec.More(); n++ {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return data, false
		}
		if fixed, ok := rewrite(raw, elem); ok {
			raw, changed = fixed, true
		}
		if n > 0 {
			b.WriteByte(',')
		}
		b.Write(raw)
	}
	if !changed || !closed(dec, data, ']') {
		return data, false
	}
	b.WriteByte(']')
	return b.Bytes(), true
}

// closed reports whether dec's next token is the delimiter that ends
// data, with nothing after it: a value cut short or followed by more is
// left for json.Unmarshal to report.
func closed(dec *json.Decoder, data []byte, end json.Delim) bool {
	tok, err := dec.Token()
	return err == nil && tok == end && len(bytes.TrimSpace(data[dec.InputOffset():])) == 0
}
