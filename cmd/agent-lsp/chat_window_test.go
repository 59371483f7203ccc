package main

import (
	"io"
	"testing"
)

func TestContextWindowFlag(t *testing.T) {
	f, fs, err := parseChatFlags([]string{"--context-window", "4096", "--dir", t.TempDir()}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if cfg := f.config(fs, func(string) string { return "" }); cfg.ContextWindow != 4096 {
		t.Fatalf("ContextWindow = %d, want the flag's 4096", cfg.ContextWindow)
	}
	if f.windows() == nil {
		t.Fatal("no window discovery without --replay")
	}
	f.replay = "x.jsonl"
	if f.windows() != nil {
		t.Fatal("a replay asks a server for its window")
	}
}
