package lsp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// writeAfterTypingScript reads a.txt, then — the user typing over line
// typedLine (0-based) of the buffer before the model answers — writes the
// file whole from what it read, with line 2 changed.
func writeAfterTypingScript(s **setup, path *string, typedLine uint32, typed string) providertest.Script {
	content := strings.Replace(twentyLines(), "line 2\n", "LINE TWO\n", 1)
	args, err := json.Marshal(map[string]string{"path": "a.txt", "content": content})
	if err != nil {
		panic(err)
	}
	var once sync.Once
	return providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "call_read", Name: "read_file", Arguments: `{"path":"a.txt"}`}}},
		{ToolCalls: []providertest.Call{{ID: "call_write", Name: "write_file", Arguments: string(args)}},
			Check: func(providertest.Received) error {
				var typeErr error
				once.Do(func() { typeErr = typeAndSync((*s).ed, *path, typedLine, typed) })
				return typeErr
			}},
		{Text: "Done."},
	}
}

// typeAndSync types text over line (0-based) of path, then waits until the
// daemon has taken the change in: it serves text synchronisation in order
// on its read loop, so the answer to a later quick call comes after it.
func typeAndSync(ed *lsptest.Editor, path string, line uint32, text string) error {
	c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r := protocol.Range{Start: protocol.Position{Line: line}, End: protocol.Position{Line: line + 1}}
	if err := ed.Change(c, path, r, text); err != nil {
		return fmt.Errorf("type: %w", err)
	}
	var sessions json.RawMessage
	if err := ed.Call(c, "agent/sessions", map[string]any{}, &sessions); err != nil {
		return fmt.Errorf("sync with the daemon: %w", err)
	}
	return nil
}

// The user types far from the model's change between its read_file and its
// write_file of the whole file: the write is merged onto the buffer, so the
// typing stays and the model's change lands.
func TestWriteFileRebasedOntoTypingSinceRead(t *testing.T) {
	var s *setup
	path := ""
	before := twentyLines()
	s = start(t, writeAfterTypingScript(&s, &path, 17, "typed by the user\n"), setupOptions{caps: fullCaps,
		files: map[string]string{"a.txt": before}, handlers: lsptest.Handlers{ShowMessageRequest: answer("Allow", nil)}})
	path = filepath.Join(s.root, "a.txt")
	s.shoutLineTwo(path, before)
	want := strings.Replace(strings.Replace(before, "line 2\n", "LINE TWO\n", 1), "line 18\n", "typed by the user\n", 1)
	if buf, _ := s.ed.Buffer(path); buf.Text != want {
		t.Errorf("buffer =\n%s\nwant\n%s", buf.Text, want)
	}
	edits := s.ed.AppliedEdits()
	if len(edits) != 1 || !strings.Contains(string(edits[0]), `"version":2`) || strings.Contains(string(edits[0]), "line 18") {
		t.Errorf("applyEdit requests = %s, want one against version 2 (after the typing) leaving line 18 alone", edits)
	}
	if out := toolMessage(t, s, 2, "call_write"); !strings.Contains(out, "merged with changes made to it since you read it") {
		t.Errorf("the model read %q", out)
	}
}

// The user types on the line the model rewrites: the model reads a
// conflict, nothing is asked or sent to the editor, the typing stays.
func TestWriteFileConflictingWithTypingSinceReadFails(t *testing.T) {
	var s *setup
	path := ""
	before := twentyLines()
	s = start(t, writeAfterTypingScript(&s, &path, 1, "line 2 typed by the user\n"), setupOptions{caps: fullCaps,
		files: map[string]string{"a.txt": before}, handlers: lsptest.Handlers{ShowMessageRequest: func(context.Context, protocol.ShowMessageRequestParams) (*protocol.MessageActionItem, error) {
			t.Error("a conflicting write was put to the user")
			return nil, nil
		}}})
	path = filepath.Join(s.root, "a.txt")
	s.shoutLineTwo(path, before)
	want := strings.Replace(before, "line 2\n", "line 2 typed by the user\n", 1)
	if buf, _ := s.ed.Buffer(path); buf.Text != want {
		t.Errorf("buffer =\n%s\nwant the user's text\n%s", buf.Text, want)
	}
	if n := len(s.ed.AppliedEdits()); n != 0 {
		t.Errorf("%d applyEdit requests for a conflicting write", n)
	}
	out := toolMessage(t, s, 2, "call_write")
	if !strings.Contains(out, "edited line 2 of a.txt since you read it") || !strings.Contains(out, "Read a.txt again and redo your edit") {
		t.Errorf("the model read %q", out)
	}
}
