//go:build linux

package mcp

import (
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/agent-lsp/agent-lsp/internal/await"
	"github.com/agent-lsp/agent-lsp/tools"
)

// A server has a death signal, and it fires on the exit of the thread that
// forked it, so threads ending elsewhere in the daemon (a goroutine that
// exits locked to its thread takes the thread with it) must not kill it:
// the fork runs on the spawner's thread, which no other goroutine uses.
func TestServerSurvivesOtherThreadsExiting(t *testing.T) {
	m, reg := newTestManager(t)
	startAndWait(t, m, testServer("srv", "demo"))
	pid := pidOf(t, m, "srv")

	// Many goroutines, each locked to a thread at the same time (so each
	// takes an idle thread, the one that forked included were it free),
	// then ending locked: every one of those threads exits.
	const n = 64
	var locked, exited sync.WaitGroup
	release := make(chan struct{})
	locked.Add(n)
	exited.Add(n)
	for range n {
		go func() {
			defer exited.Done()
			runtime.LockOSThread()
			locked.Done()
			<-release
		}()
	}
	locked.Wait()
	close(release)
	exited.Wait()

	o := call(t, reg, "mcp__srv__word_count", `{"text":"still here"}`)
	if o.Status != tools.StatusCompleted || !strings.Contains(o.Output, "words: 2") {
		t.Fatalf("call after threads exited = %s %q; status %+v", o.Status, o.Output, m.Status())
	}
	if got := pidOf(t, m, "srv"); got != pid {
		t.Errorf("the server was restarted (pid %d → %d)", pid, got)
	}
	if await.Gone(pid) {
		t.Errorf("server pid %d is gone", pid)
	}
}
