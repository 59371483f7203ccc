package term

import (
	"testing"
)

// apiMessage reads both dialects' error bodies; anything else stays as it came.
func TestAPIMessage(t *testing.T) {
	for body, want := range map[string]string{
		`{"error":{"message":"Invalid API key","type":"authentication_error"}}`:       "Invalid API key",
		`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`: "Overloaded",
		`{"error":{"type":"overloaded_error"}}`:                                       "overloaded_error",
		`{"message":"no such model"}`:                                                 "no such model",
		`upstream timed out`:                                                          "upstream timed out",
		`{"error":{"message":"cut`:                                                    `{"error":{"message":"cut`,
	} {
		if got := apiMessage(body); got != want {
			t.Errorf("apiMessage(%s) = %q, want %q", body, got, want)
		}
	}
}

// Tool calls read like the diff does: what they touch and how much, not
// the argument JSON with its escaped newlines.
func TestToolCallText(t *testing.T) {
	for _, c := range []struct{ name, args, want string }{
		{"read_file", `{"path":"a/B.java"}`, "read_file a/B.java"},
		{"read_file", `{"path":"a/B.java","offset":10,"limit":20}`, "read_file a/B.java (from line 10, 20 lines)"},
		{"edit_file", `{"path":"B.java","old_string":"x\ny\n","new_string":"x\ny\nz\n"}`, "edit_file B.java (-2 lines +3 lines)"},
		{"edit_file", `{"path":"B.java","old_string":"a","new_string":"b","replace_all":true}`, "edit_file B.java (-1 line +1 line), every occurrence"},
		{"write_file", `{"path":"N.md","content":"# t\n\nbody\n"}`, "write_file N.md (3 lines)"},
		{"glob", `{"pattern":"**/*.java"}`, "glob **/*.java"},
		{"grep", `{"pattern":"int add\\(","glob":"**/*.java","path":"src"}`, `grep "int add\(" in src (**/*.java)`},
		{"run_bash", `{"command":"go test ./...\necho done"}`, `run_bash $ go test ./...\necho done`},
		{"todo_write", `{"items":[{"content":"a","status":"pending"}]}`, "todo_write (1 item)"},
		{"mcp__fs__stat", `{"path": "x"}`, `mcp__fs__stat {"path":"x"}`},
		{"edit_file", `"not json"`, `edit_file "not json"`},
	} {
		if got := toolCallText(c.name, []byte(c.args)); got != c.want {
			t.Errorf("toolCallText(%s, %s) = %q, want %q", c.name, c.args, got, c.want)
		}
	}
}
