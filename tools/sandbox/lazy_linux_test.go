package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// countingLauncher makes every launch of the sandbox's launcher (this
// test binary) append a line to the returned log first, through a script
// that then execs it: what a launch costs is seen from outside.
func countingLauncher(t *testing.T) (log string) {
	t.Helper()
	dir := t.TempDir()
	log = filepath.Join(dir, "launches")
	script := filepath.Join(dir, "launcher")
	text := "#!/bin/sh\necho launched >>'" + log + "'\nexec '" + testBinary() + "' \"$@\"\n"
	if err := os.WriteFile(script, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
	old := launcherPath
	launcherPath = script
	t.Cleanup(func() { launcherPath = old })
	return log
}

func launches(t *testing.T, log string) int {
	t.Helper()
	data, err := os.ReadFile(log)
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(data), "launched")
}

// New starts nothing: the check that starts a confined command waits for
// the first Status (a command about to run), and meanwhile Current says
// "checking", never active.
func TestNewStartsNoCommand(t *testing.T) {
	log := countingLauncher(t)
	f := newFixture(t)
	s := newSandbox(t, f, Settings{})
	if n := launches(t, log); n != 0 {
		t.Fatalf("New started the launcher %d times; want none before the first command", n)
	}
	cur := s.Current()
	if !cur.Checking || cur.Active || cur.ContainsFS() {
		t.Fatalf("before the check: Current = %+v; want Checking and not Active", cur)
	}
	if !strings.Contains(cur.Summary(), "checking") {
		t.Errorf("summary before the check %q does not say it is checking", cur.Summary())
	}
	st := s.Status()
	if !st.Active || st.Checking {
		t.Fatalf("after the check: %s", st.Summary())
	}
	if n := launches(t, log); n < 1 {
		t.Fatalf("Status knew the sandbox active without launching it (%d launches)", n)
	}
	if got := s.Current(); got.Summary() != st.Summary() || got.Checking {
		t.Errorf("Current after the check %q, Status %q", got.Summary(), st.Summary())
	}
}

// A command asked for before anyone checked the sandbox waits for the
// check and runs confined: never unconfined because the check had not
// ended.
func TestFirstCommandWaitsForTheCheck(t *testing.T) {
	f := newFixture(t)
	s := newSandbox(t, f, Settings{})
	outside := filepath.Join(f.outside, "written-outside")
	out, code, _ := run(t, s, f, "echo x > "+outside)
	if code == 0 {
		t.Fatalf("the first command wrote outside the workspace (output %q): it ran unconfined", out)
	}
	if _, err := os.Stat(outside); err == nil {
		t.Fatal("the first command's write outside the workspace landed")
	}
}

// OnKnown hears the final status once, whether it is registered before
// the check (on the check's goroutine) or after (at once).
func TestOnKnown(t *testing.T) {
	f := newFixture(t)
	s := newSandbox(t, f, Settings{})
	before := make(chan Status, 2)
	s.OnKnown(func(st Status) { before <- st })
	s.Start()
	got := <-before
	if got.Checking || !got.Active {
		t.Fatalf("OnKnown got %s", got.Summary())
	}
	var after []Status
	s.OnKnown(func(st Status) { after = append(after, st) })
	if len(after) != 1 || after[0].Summary() != got.Summary() {
		t.Fatalf("OnKnown after the check: %v", after)
	}
	if len(before) != 0 {
		t.Fatal("OnKnown called twice")
	}
}

// Close during the check ends it; waiters get an answer, not a hang.
func TestCloseEndsTheCheck(t *testing.T) {
	f := newFixture(t)
	s, err := New(Settings{Home: f.home}, []string{f.ws})
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// Whatever Close cut short says nothing about the machine: the check
	// either ended first or the status says it was closed, never that
	// namespaces are missing.
	st := s.Status()
	if st.Checking || (!st.Namespaces && st.Unavailable != errClosedUnchecked) {
		t.Fatalf("after Close: %s", st.Summary())
	}
}
