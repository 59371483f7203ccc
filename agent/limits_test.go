package agent

import (
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider"
)

func TestPagedTextKeepsEveryByteInOrder(t *testing.T) {
	for _, sizes := range [][]int{{}, {1}, {firstPage}, {firstPage + 1}, {3, firstPage - 3, 1}, {lastPage * 3}, {7, lastPage, lastPage + 5, 1}} {
		var p pagedText
		var want strings.Builder
		for i, n := range sizes {
			s := strings.Repeat(string(rune('a'+i%26)), n)
			p.WriteString(s)
			want.WriteString(s)
		}
		if got := p.String(); got != want.String() || p.Len() != want.Len() {
			t.Errorf("sizes %v: got %d bytes (Len %d), want %d", sizes, len(got), p.Len(), want.Len())
		}
		for i, page := range p.pages {
			if cap(page) > lastPage {
				t.Errorf("sizes %v: page %d holds %d bytes, more than a page", sizes, i, cap(page))
			}
		}
	}
}

func TestTurnCutsAtTheLimits(t *testing.T) {
	limits := answerLimits{maxBytes: 10, maxCalls: 2}
	tests := []struct {
		name     string
		events   []provider.Event
		wantCut  cut
		wantKept []string // what each event kept
		wantText string
	}{
		{"under the limit", []provider.Event{text("hello"), text("world")}, notCut, []string{"hello", "world"}, "helloworld"},
		{"text past the limit", []provider.Event{text("hello"), text("wide world")}, cutTooLong, []string{"hello", "wide "}, "hellowide "},
		{"a rune is never split", []provider.Event{text("hello"), text("wor€ld")}, cutTooLong, []string{"hello", "wor"}, "hellowor"},
		{"reasoning and arguments count", []provider.Event{reasoning("think"), callStart("c1", "glob"), callArgs("c1", `{"p":"x"}`)},
			cutTooLong, []string{"think", "", `{"p":`}, ""},
		{"the last call within the limit", []provider.Event{callStart("c1", "a"), callStart("c2", "b"), callStart("c2", "b")},
			notCut, []string{"", "", ""}, ""},
		{"one call more", []provider.Event{text("x"), callStart("c1", "a"), callStart("c2", "b"), callStart("c3", "c")},
			cutManyCalls, []string{"x", "", "", ""}, "x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := &turn{limits: limits}
			for i, ev := range tt.events {
				kept, more := tr.take(ev)
				if kept != tt.wantKept[i] {
					t.Errorf("event %d kept %q, want %q", i, kept, tt.wantKept[i])
				}
				if last := i == len(tt.events)-1; more != (tt.wantCut == notCut || !last) {
					t.Errorf("event %d: more = %v", i, more)
				}
			}
			if tr.cut != tt.wantCut || tr.text.String() != tt.wantText {
				t.Fatalf("cut %d text %q, want %d %q", tr.cut, tr.text.String(), tt.wantCut, tt.wantText)
			}
			if tt.wantCut == notCut {
				return
			}
			if err := tr.finish(); err != nil {
				t.Errorf("finish: %v, want none: a cut turn ended as the agent chose", err)
			}
			m := tr.cutMessage()
			if len(m.ToolCalls) != 0 || m.Reasoning != "" || !strings.HasSuffix(m.Text, limits.marker(tt.wantCut)) {
				t.Errorf("cut message = %+v", m)
			}
			if kept, more := tr.take(text("more")); kept != "" || more {
				t.Errorf("a cut turn took %q more", kept)
			}
		})
	}
}

func TestLimitMarkersNameTheLimit(t *testing.T) {
	l := answerLimits{maxBytes: DefaultMaxAnswerBytes, maxCalls: DefaultMaxToolCalls}
	for c, want := range map[cut]string{
		cutTooLong:   "[answer cut at 8 MiB: the rest was not kept]",
		cutManyCalls: "[the answer asked for more than 128 tool calls, the limit for one answer: none was run]",
	} {
		if got := l.marker(c); got != want {
			t.Errorf("marker(%d) = %q, want %q", c, got, want)
		}
	}
	if got := (answerLimits{maxBytes: 1500}).marker(cutTooLong); !strings.Contains(got, "1500 bytes") {
		t.Errorf("an odd limit is written in bytes: %q", got)
	}
}
