package tools

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestHeadTailBuffer(t *testing.T) {
	tests := []struct {
		name   string
		limit  int
		writes []string
		want   string
	}{
		{"fits", 10, []string{"abc", "def"}, "abcdef"},
		{"exactly full", 6, []string{"abc", "def"}, "abcdef"},
		{"one big write", 6, []string{"0123456789"}, "012\n… [4 bytes of output omitted] …\n789"},
		{"many small writes", 6, []string{"01", "23", "45", "67", "89"}, "012\n… [4 bytes of output omitted] …\n789"},
		{"tail keeps the newest", 4, []string{"ab", "cdefgh", "ij"}, "ab\n… [6 bytes of output omitted] …\nij"},
		// "é" is two bytes: cuts move to rune boundaries and count the dropped bytes.
		{"runes", 6, []string{"aéé", "xxxxx", "éé"}, "aé\n… [9 bytes of output omitted] …\né"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newHeadTailBuffer(tt.limit)
			total := 0
			for _, w := range tt.writes {
				n, err := b.Write([]byte(w))
				if n != len(w) || err != nil {
					t.Fatalf("Write returned %d, %v", n, err)
				}
				total += n
			}
			got := b.String()
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if !utf8.ValidString(got) {
				t.Errorf("invalid UTF-8 in %q", got)
			}
			if b.total != int64(total) {
				t.Errorf("total %d, want %d", b.total, total)
			}
		})
	}
}

func TestOneLineSummary(t *testing.T) {
	tests := []struct {
		in       string
		maxRunes int
		want     string
	}{
		{"ls -la", 80, "ls -la"},
		{"  go test ./...  \n", 80, "go test ./..."},
		{"cd x\nmake", 80, `cd x\nmake`},
		{"echo one\r\u202Eecho two", 80, `echo one\r<U+202E>echo two`},
		{strings.Repeat("é", 60) + " rm -rf ~", 36, "ééééé…[54 characters cut]…é rm -rf ~"},
	}
	for _, tt := range tests {
		if got := oneLineSummary(tt.in, tt.maxRunes); got != tt.want {
			t.Errorf("oneLineSummary(%q, %d) = %q, want %q", tt.in, tt.maxRunes, got, tt.want)
		}
	}
}
