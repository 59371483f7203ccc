package lsp_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/lsp/lsptest"
	"github.com/agent-lsp/agent-lsp/provider/providertest"
	"github.com/agent-lsp/agent-lsp/tools"
)

// bigBuffer is a text of n bytes (n a multiple of 10): lines "l0000001\n"…
func bigBuffer(n int) string {
	var b strings.Builder
	b.Grow(n)
	for i := 1; b.Len() < n; i++ {
		fmt.Fprintf(&b, "l%08d\n", i)
	}
	return b.String()
}

// An open 40 MB buffer — the disk has a small file of that name — is
// refused by edit_file with the size policy's error, before anyone is asked
// or anything is sent to the editor; read_file with offset/limit still reads
// a window of it, from the buffer. A file on disk over the limit, not open,
// is refused the same way.
func TestFilesOverTheLimitAreNotEdited(t *testing.T) {
	const size = 40_000_000
	script := providertest.Script{
		{ToolCalls: []providertest.Call{{ID: "call_read", Name: "read_file", Arguments: `{"path":"big.txt","offset":3,"limit":2}`}}},
		{ToolCalls: []providertest.Call{{ID: "call_edit", Name: "edit_file",
			Arguments: `{"path":"big.txt","old_string":"l00000003\n","new_string":"three\n"}`}}},
		{ToolCalls: []providertest.Call{{ID: "call_disk", Name: "edit_file",
			Arguments: `{"path":"disk.txt","old_string":"l00000003\n","new_string":"three\n"}`}}},
		{Text: "Done."},
	}
	onDisk := bigBuffer(tools.MaxFileBytes + 10 - tools.MaxFileBytes%10) // over the limit by a few bytes
	s := start(t, script, setupOptions{caps: fullCaps, files: map[string]string{"big.txt": "small on disk\n", "disk.txt": onDisk},
		handlers: lsptest.Handlers{ShowMessageRequest: noPopup(t)}})
	path := filepath.Join(s.root, "big.txt")
	s.initialize(nil)
	text := bigBuffer(size)
	if err := s.ed.Open(ctx(t), path, text); err != nil {
		t.Fatal(err)
	}
	if r := s.prompt(map[string]any{"prompt": "Edit big.txt."}); r.StopReason != "end_turn" {
		t.Fatalf("result = %+v", r)
	}

	read := toolMessage(t, s, 1, "call_read")
	if want := "     3\tl00000003\n     4\tl00000004\n… 3999996 more lines; call read_file with offset 5 to read further"; !strings.Contains(read, want) {
		t.Errorf("read_file's window of the buffer = %q, want it to contain %q", read, want)
	}
	edit := toolMessage(t, s, 2, "call_edit")
	want := (&tools.TooLargeError{Path: "big.txt", Size: size}).Error()
	if !strings.Contains(edit, want) {
		t.Errorf("edit_file answered %q, want the size policy's error %q", edit, want)
	}
	for _, part := range []string{"big.txt", "38.1 MiB (40000000 bytes)", "32.0 MiB limit", "read_file with offset and limit"} {
		if !strings.Contains(edit, part) {
			t.Errorf("edit_file's error %q does not say %q", edit, part)
		}
	}
	// A file on disk, not open, over the limit: the same error.
	disk := toolMessage(t, s, 3, "call_disk")
	if want := (&tools.TooLargeError{Path: "disk.txt", Size: int64(len(onDisk))}).Error(); !strings.Contains(disk, want) {
		t.Errorf("edit_file of a file on disk answered %q, want %q", disk, want)
	}
	if n := len(s.ed.AppliedEdits()); n != 0 {
		t.Errorf("%d applyEdit requests for a buffer over the limit", n)
	}
	if buf, _ := s.ed.Buffer(path); buf.Text != text {
		t.Error("the buffer changed")
	}
}
