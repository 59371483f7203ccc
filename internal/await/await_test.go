package await

import (
	"context"
	"os/exec"
	"sync"
	"testing"
	"time"
)

// fakeT records a failure instead of ending the test, so the helpers'
// failing paths can be checked.
type fakeT struct {
	testing.TB
	mu     sync.Mutex
	failed string
}

func (f *fakeT) Helper() {}
func (f *fakeT) Fatalf(format string, args ...any) {
	f.mu.Lock()
	f.failed = format
	f.mu.Unlock()
}

func TestEventReturnsTheValue(t *testing.T) {
	ch := make(chan int, 1)
	ch <- 7
	if got := Event(t, ch, "seven"); got != 7 {
		t.Fatalf("Event = %d, want 7", got)
	}
	done := make(chan struct{})
	close(done)
	Event(t, done, "a closed channel")
}

func TestWithinFailsWithoutTheEvent(t *testing.T) {
	f := &fakeT{TB: t}
	Within(f, make(chan int), 20*time.Millisecond, "nothing")
	if f.failed == "" {
		t.Fatal("Within returned without failing for an event that never comes")
	}
	ch := make(chan int, 1)
	ch <- 3
	if got := Within(t, ch, time.Second, "three"); got != 3 {
		t.Fatalf("Within = %d, want 3", got)
	}
}

func TestUntilRechecksAtEveryChange(t *testing.T) {
	var mu sync.Mutex
	n := 0
	changed := make(chan struct{})
	current := func() <-chan struct{} {
		mu.Lock()
		defer mu.Unlock()
		return changed
	}
	bump := func() {
		mu.Lock()
		n++
		close(changed)
		changed = make(chan struct{})
		mu.Unlock()
	}
	go func() {
		for range 3 {
			bump()
		}
	}()
	Until(t, "n to reach 3", current, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return n == 3
	})
}

func TestPollFailsWhenTheConditionNeverHolds(t *testing.T) {
	f := &fakeT{TB: t}
	Poll(f, 50*time.Millisecond, "never", func() bool { return false })
	if f.failed == "" {
		t.Fatal("Poll returned without failing for a condition that never holds")
	}
	calls := 0
	Poll(t, time.Second, "the third check", func() bool { calls++; return calls == 3 })
}

func TestClockFiresOnlyWhenAdvanced(t *testing.T) {
	c := NewClock()
	ch := c.After(time.Minute)
	if d := c.NextWait(t); d != time.Minute {
		t.Fatalf("NextWait = %s, want 1m", d)
	}
	c.Advance(59 * time.Second)
	select {
	case <-ch:
		t.Fatal("fired before its time")
	default:
	}
	start := c.Now()
	c.Advance(time.Second)
	if at := Event(t, ch, "the timer"); !at.Equal(start.Add(time.Second)) {
		t.Errorf("fired at %s, want %s", at, start.Add(time.Second))
	}
	c.After(0)
	c.NextWait(t)
}

// A process is gone once it has exited, reaped or not.
func TestGoneCountsAZombie(t *testing.T) {
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	if Gone(pid) {
		t.Fatal("a running process is gone")
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	// Not reaped yet: a zombie, and gone.
	Exited(t, Long, pid)
	if !Gone(pid) {
		t.Error("a zombie is not gone")
	}
	_ = cmd.Wait()
	if !Gone(pid) {
		t.Error("a reaped process is not gone")
	}
}

func TestExitedReportsARunningProcess(t *testing.T) {
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	f := &errT{TB: t}
	Exited(f, 50*time.Millisecond, cmd.Process.Pid)
	if !f.failed {
		t.Fatal("Exited passed for a process that runs")
	}
}

type errT struct {
	testing.TB
	failed bool
}

func (f *errT) Helper()               {}
func (f *errT) Errorf(string, ...any) { f.failed = true }

// Exit returns ctx's error while the process runs, and nil once it has
// exited, reaped or not.
func TestExitWaitsForTheProcess(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Skipf("sleep: %v", err)
	}
	defer func() { _ = cmd.Process.Kill() }()
	short, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := Exit(short, cmd.Process.Pid); err == nil {
		t.Fatal("Exit returned while the process runs")
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel2 := context.WithTimeout(context.Background(), Long)
	defer cancel2()
	if err := Exit(ctx, cmd.Process.Pid); err != nil {
		t.Fatalf("Exit of a zombie: %v", err)
	}
	_ = cmd.Wait()
	if err := Exit(ctx, cmd.Process.Pid); err != nil {
		t.Fatalf("Exit of a reaped pid: %v", err)
	}
}
