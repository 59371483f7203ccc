package main

import (
	"strings"
	"testing"

	"github.com/agent-lsp/agent-lsp/provider/providertest"
)

// An overloaded model is retried, and each retry is a line while it waits
// ("retrying (2/4)"); the answer that follows is shown as usual.
func TestChatShowsRetries(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Script{
		{Fault: &providertest.Fault{Status: 529, RetryAfter: "0"}},
		{Fault: &providertest.Fault{Status: 503, RetryAfter: "0"}},
		{Text: "Back again."},
	})
	code, out, errOut := chatIn(t, srv, t.TempDir(), t.TempDir(), "", "-p", "hello")
	if code != 0 || !strings.Contains(out, "Back again.") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	for _, want := range []string{"retrying (2/4) in 0s: the model API answered 529 Overloaded",
		"retrying (3/4) in 0s: the model API answered 503 Service Unavailable"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if strings.Contains(errOut, "error:") {
		t.Errorf("a retried call that succeeded printed an error:\n%s", errOut)
	}
}

// A failed model call is one line: the status and the API's message, not
// the body's escaped JSON, no log line beside it, not repeated at exit.
func TestChatModelErrorIsOneLine(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Script{{Fault: &providertest.Fault{Status: 401}}})
	code, out, errOut := chatIn(t, srv, t.TempDir(), t.TempDir(), "", "-p", "hello")
	if code != 1 || out != "" {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	lines := strings.Split(strings.TrimRight(errOut, "\n"), "\n")
	var errLines []string
	for _, l := range lines {
		if strings.Contains(l, "401") {
			errLines = append(errLines, l)
		}
	}
	if len(errLines) != 1 || !strings.HasPrefix(errLines[0], "error: the model API answered 401 Unauthorized") ||
		strings.Contains(errOut, `\"`) || strings.Contains(errOut, "WARN") || strings.Contains(errOut, "{") {
		t.Errorf("want one readable error line, got:\n%s", errOut)
	}
}
