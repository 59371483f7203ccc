package tools

import (
	"strings"
	"testing"
)

func TestUnifiedDiff(t *testing.T) {
	tests := []struct {
		name          string
		before, after string
		context       int
		want          string
	}{
		{name: "equal", before: "a\n", after: "a\n", want: ""},
		{name: "one line changed", before: "a\nb\nc\nd\ne\n", after: "a\nb\nX\nd\ne\n", context: 1,
			want: "--- a/f.go\n+++ b/f.go\n@@ -2,3 +2,3 @@\n b\n-c\n+X\n d\n"},
		{name: "new file", before: "", after: "x\ny\n", context: 3,
			want: "--- a/f.go\n+++ b/f.go\n@@ -0,0 +1,2 @@\n+x\n+y\n"},
		{name: "final newline removed", before: "a\n", after: "a", context: 3,
			want: "--- a/f.go\n+++ b/f.go\n@@ -1 +1 @@\n-a\n+a\n\\ No newline at end of file\n"},
		{name: "negative context is zero", before: "a\nb\nc\n", after: "a\nB\nc\n", context: -5,
			want: "--- a/f.go\n+++ b/f.go\n@@ -2 +2 @@\n-b\n+B\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := UnifiedDiff("f.go", tt.before, tt.after, tt.context); got != tt.want {
				t.Fatalf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestUnifiedDiffIsCompact(t *testing.T) {
	// One change in a long file: the diff shows the hunk, not the file.
	var b strings.Builder
	for i := 0; i < 1000; i++ {
		b.WriteString("same line\n")
	}
	before := b.String()
	after := strings.Replace(before, "same line\n", "changed\n", 1)
	d := UnifiedDiff("big.txt", before, after, 3)
	if n := strings.Count(d, "\n"); n > 10 {
		t.Fatalf("diff of a one-line change has %d lines:\n%s", n, d)
	}
}
