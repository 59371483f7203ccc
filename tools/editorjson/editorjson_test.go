package editorjson_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/agent-lsp/agent-lsp/tools/editorjson"
)

type inner struct {
	Mode string            `json:"mode"`
	Env  map[string]string `json:"env"`
}

type Embedded struct {
	Deep *inner `json:"deep"`
}

type outer struct {
	Embedded
	Name    string                     `json:"name"`
	Inner   *inner                     `json:"inner"`
	List    []inner                    `json:"list"`
	Tags    []string                   `json:"tags"`
	ByName  map[string]inner           `json:"byName"`
	Raw     json.RawMessage            `json:"raw"`
	Any     any                        `json:"any"`
	RawMap  map[string]json.RawMessage `json:"rawMap"`
	Skipped inner                      `json:"-"`
	Folded  *inner                     // matched case-insensitively, as encoding/json does
}

func TestUnmarshal(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     outer
		wantErr  bool
	}{
		{name: "empty array for the whole object", in: `[]`, want: outer{}},
		{name: "spaces inside", in: " [ \n ] ", want: outer{}},
		{name: "null", in: `null`, want: outer{}},
		{name: "empty object", in: `{}`, want: outer{}},
		{name: "nested struct", in: `{"name":"x","inner":[]}`, want: outer{Name: "x", Inner: &inner{}}},
		{name: "map in a struct", in: `{"inner":{"mode":"m","env":[]}}`, want: outer{Inner: &inner{Mode: "m", Env: map[string]string{}}}},
		{name: "structs in an array", in: `{"list":[[],{"mode":"a","env":[ ]}]}`, want: outer{List: []inner{{}, {Mode: "a", Env: map[string]string{}}}}},
		{name: "an empty array stays one", in: `{"tags":[]}`, want: outer{Tags: []string{}}},
		{name: "map values", in: `{"byName":{"a":[]}}`, want: outer{ByName: map[string]inner{"a": {}}}},
		{name: "map itself", in: `{"byName":[]}`, want: outer{ByName: map[string]inner{}}},
		{name: "embedded field", in: `{"deep":[]}`, want: outer{Embedded: Embedded{Deep: &inner{}}}},
		{name: "case-insensitive field", in: `{"FOLDED":[]}`, want: outer{Folded: &inner{}}},
		{name: "raw values untouched", in: `{"raw":[],"any":[],"rawMap":{"k":[]}}`,
			want: outer{Raw: json.RawMessage(`[]`), Any: []any{}, RawMap: map[string]json.RawMessage{"k": json.RawMessage(`[]`)}}},
		{name: "ignored field", in: `{"Skipped":[]}`, want: outer{}},
		{name: "brackets in a string", in: `{"name":"[]"}`, want: outer{Name: "[]"}},
		{name: "a non-empty array is still wrong", in: `{"inner":[1]}`, wantErr: true},
		{name: "a string is still wrong", in: `{"inner":"x"}`, wantErr: true},
		{name: "broken JSON is still an error", in: `{"inner":[]`, wantErr: true},
		{name: "a lone bracket", in: `[`, wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got outer
			err := editorjson.Unmarshal([]byte(tc.in), &got)
			if tc.wantErr {
				if err == nil {
					t.Fatalf("no error for %s: %+v", tc.in, got)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("Unmarshal(%s) = %+v, %v; want %+v", tc.in, got, err, tc.want)
			}
		})
	}
}

// The members' order (and spelling) is kept when a part is rewritten: a
// raw value beside it reaches its own decoder byte for byte.
func TestUnmarshalKeepsRawBytes(t *testing.T) {
	var got struct {
		Inner *inner          `json:"inner"`
		Raw   json.RawMessage `json:"raw"`
	}
	in := `{"raw":{"b": 1, "a": [ ]},"inner":[]}`
	if err := editorjson.Unmarshal([]byte(in), &got); err != nil || string(got.Raw) != `{"b": 1, "a": [ ]}` || got.Inner == nil {
		t.Fatalf("got %+v (raw %s), %v", got, got.Raw, err)
	}
}

func TestUnmarshalTrailingDataIsAnError(t *testing.T) {
	var v struct {
		Inner *inner `json:"inner"`
	}
	for _, in := range []string{`{"inner":[]} x`, `{"inner":[]}{}`, `[[]]]`} {
		if err := editorjson.Unmarshal([]byte(in), &v); err == nil {
			t.Errorf("no error for %s", in)
		}
	}
}
