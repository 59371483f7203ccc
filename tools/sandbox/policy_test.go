package sandbox

import (
	"reflect"
	"testing"
)

// The launch policy survives its line encoding (pinned dirs and
// read-only paths in their order: the launcher mounts them so); a path
// with a newline is refused rather than split into two lines.
func TestPolicyEncoding(t *testing.T) {
	p := launchPolicy{Shell: "/usr/bin/bash", RulesetFD: 3, RulesetFlags: 0, Namespace: true, Loopback: true,
		Pinned: []string{"/w/.git", "/w/.git/modules/sub"}, ReadOnly: []string{"/w/.git/hooks", "/w/.git/config"}}
	enc, err := p.encode()
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodePolicy(enc)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, p) {
		t.Errorf("decoded %+v, want %+v", got, p)
	}
	p.ReadOnly = []string{"/w/evil\nfd=4/.git/hooks"}
	if _, err := p.encode(); err == nil {
		t.Error("a path with a newline was encoded")
	}
	if _, err := decodePolicy("{}"); err == nil {
		t.Error("a foreign policy was accepted")
	}
}
