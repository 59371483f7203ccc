package editorjson_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/agent-lsp/agent-lsp/tools/editorjson"
)

// FuzzUnmarshal: editorjson never panics, and it only ever accepts more
// than encoding/json does: whatever encoding/json decodes, it decodes to
// the same value, and whatever it refuses, encoding/json refuses too.
func FuzzUnmarshal(f *testing.F) {
	for _, seed := range []string{`[]`, `{}`, `null`, `{"inner":[]}`, `{"list":[[],{"env":[]}]}`,
		`{"byName":{"a":[]},"raw":[]}`, `{"inner":[]} x`, `{"inner":[`, `{"deep":[ ],"FOLDED":[]}`, `[[]]`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var plain, lenient outer
		plainErr := json.Unmarshal([]byte(in), &plain)
		lenientErr := editorjson.Unmarshal([]byte(in), &lenient)
		if lenientErr != nil && plainErr == nil {
			t.Fatalf("%q: editorjson refused (%v) what encoding/json decoded", in, lenientErr)
		}
		if plainErr == nil && !reflect.DeepEqual(plain, lenient) {
			t.Fatalf("%q: encoding/json %+v, editorjson %+v", in, plain, lenient)
		}
	})
}
