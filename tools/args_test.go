package tools

import (
	"encoding/json"
	"strings"
	"testing"
)

type sampleArgs struct {
	Path    string   `json:"path"`
	Offset  int      `json:"offset,omitempty"`
	All     bool     `json:"replace_all,omitempty"`
	Globs   []string `json:"globs,omitempty"`
	Content string   `json:"content"`
}

func TestDecodeArgs(t *testing.T) {
	tests := []struct {
		name    string
		raw     string
		want    sampleArgs
		wantErr []string // substrings, all must appear
	}{
		{name: "all fields", raw: `{"path":"a.go","offset":3,"replace_all":true,"globs":["*.go"],"content":"x"}`,
			want: sampleArgs{Path: "a.go", Offset: 3, All: true, Globs: []string{"*.go"}, Content: "x"}},
		{name: "optional absent", raw: `{"path":"a.go","content":""}`, want: sampleArgs{Path: "a.go"}},
		{name: "optional null", raw: `{"path":"a.go","content":"c","offset":null}`, want: sampleArgs{Path: "a.go", Content: "c"}},
		{name: "misspelled field", raw: `{"pth":"a.go","content":"x"}`,
			wantErr: []string{`unknown argument "pth"`, `did you mean "path" for "pth"`, "accepted arguments: content, globs, offset, path, replace_all"}},
		{name: "two unknown fields", raw: `{"path":"a","content":"x","zzz":1,"replaceAll":true}`,
			wantErr: []string{`unknown arguments "replaceAll", "zzz"`, `"replace_all" for "replaceAll"`}},
		{name: "missing one", raw: `{"content":"x"}`, wantErr: []string{`missing required argument "path"`}},
		{name: "missing two", raw: `{}`, wantErr: []string{`missing required arguments "content", "path"`}},
		{name: "required null is missing", raw: `{"path":null,"content":"x"}`, wantErr: []string{`missing required argument "path"`}},
		{name: "empty is an empty object", raw: `  `, wantErr: []string{`missing required arguments "content", "path"`}},
		{name: "integer as string", raw: `{"path":"a","content":"x","offset":"10"}`,
			wantErr: []string{`argument "offset" must be an integer, got a string "10"`}},
		{name: "integer as float", raw: `{"path":"a","content":"x","offset":1.5}`,
			wantErr: []string{`argument "offset" must be an integer, got a number 1.5`}},
		{name: "bool as string", raw: `{"path":"a","content":"x","replace_all":"yes"}`,
			wantErr: []string{`argument "replace_all" must be a boolean`}},
		{name: "string as number", raw: `{"path":5,"content":"x"}`, wantErr: []string{`argument "path" must be a string, got a number 5`}},
		{name: "array expected", raw: `{"path":"a","content":"x","globs":"*.go"}`,
			wantErr: []string{`argument "globs" must be an array of strings`}},
		{name: "array instead of object", raw: `["a"]`, wantErr: []string{"must be a JSON object, got array"}},
		{name: "null instead of object", raw: `null`, wantErr: []string{"must be a JSON object, got null"}},
		{name: "bad json", raw: `{"path":`, wantErr: []string{"unexpected end of JSON input"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got sampleArgs
			err := decodeArgs(json.RawMessage(tt.raw), &got)
			if len(tt.wantErr) > 0 {
				if err == nil {
					t.Fatalf("no error, decoded %+v", got)
				}
				for _, w := range tt.wantErr {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q does not contain %q", err, w)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Path != tt.want.Path || got.Offset != tt.want.Offset || got.All != tt.want.All ||
				got.Content != tt.want.Content || strings.Join(got.Globs, ",") != strings.Join(tt.want.Globs, ",") {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestDecodeArgsRejectsNonStructDestination(t *testing.T) {
	var m map[string]any
	if err := decodeArgs(json.RawMessage(`{}`), &m); err == nil {
		t.Fatal("a map destination was accepted")
	}
}
