package tools

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestFileHolds(t *testing.T) {
	e := newFileToolEnv(t)
	big := strings.Repeat("0123456789abcdef", 3*compareChunk/16+5) // several chunks and a part
	e.write(t, "big.txt", big)
	e.write(t, "empty.txt", "")
	e.write(t, "dir/x.txt", "x")
	ws := e.env.Workspace
	tests := []struct {
		name, file, text string
		same, exists     bool
		wantErr          string
	}{
		{"same", "big.txt", big, true, true, ""},
		{"differs in the last chunk", "big.txt", big[:len(big)-1] + "X", false, true, ""},
		{"differs in the first byte", "big.txt", "X" + big[1:], false, true, ""},
		{"shorter", "big.txt", big[:len(big)-1], false, true, ""},
		{"longer", "big.txt", big + "x", false, true, ""},
		{"empty file, empty text", "empty.txt", "", true, true, ""},
		{"empty file, some text", "empty.txt", "a", false, true, ""},
		{"missing, empty text", "none.txt", "", true, false, ""},
		{"missing, some text", "none.txt", "a", false, false, ""},
		{"a directory", "dir", "", false, false, "is a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			same, exists, err := fileHolds(ws, filepath.Join(e.root, tt.file), tt.text)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || same != tt.same || exists != tt.exists {
				t.Fatalf("fileHolds = %v, %v, %v; want %v, %v", same, exists, err, tt.same, tt.exists)
			}
		})
	}
}
