package providertest

import (
	"strings"
	"testing"
)

// FuzzValidators: whatever a client sends, the validators answer (accept or
// refuse with a reason) and never panic.
func FuzzValidators(f *testing.F) {
	f.Add([]byte(`{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`))
	f.Add([]byte(`{"model":"m","max_tokens":9,"stream":true,"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"f","input":{}}]}]}`))
	f.Add([]byte(`{"model":"m","stream":true,"tools":[{"type":"function","function":{"name":"f"}}],"messages":[{"role":"user","content":"x"},{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c","content":"r"}]}`))
	f.Add([]byte(`{"messages":[null,1,"x",{"role":7}],"tools":[null],"system":[{}],"thinking":{"budget_tokens":1e99}}`))
	mem := newMemory()
	mem.remember(&producedTurn{text: "t", reasoning: "r", signature: "s", callIDs: []string{"c", "a"}})
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, rej := range []*rejection{validateChat(body, mem), validateMessages(body, mem)} {
			if rej != nil && (rej.status == 0 || rej.message == "") {
				t.Fatalf("rejection without status or reason: %+v", rej)
			}
		}
	})
}

// FuzzSplit: fragments always reassemble to the input, byte for byte.
func FuzzSplit(f *testing.F) {
	f.Add("hello 世界 🎉", int64(1), 0)
	f.Add("\xff\xfe invalid", int64(2), 3)
	f.Fuzz(func(t *testing.T, s string, seed int64, size int) {
		frag := newFragmenter(seed, 0, size%10)
		parts := frag.split(s)
		if got := strings.Join(parts, ""); got != s {
			t.Fatalf("reassembled %q, want %q", got, s)
		}
		for _, p := range parts {
			if p == "" {
				t.Fatalf("empty fragment in %q", parts)
			}
		}
	})
}
