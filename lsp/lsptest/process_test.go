package lsptest

import (
	"context"
	"os/exec"
	"testing"
	"time"
)

func TestWaitExitWaitsForTheProcess(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Skipf("sleep: %v", err)
	}
	defer cmd.Process.Kill()
	short, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := WaitExit(short, cmd.Process.Pid); err == nil {
		t.Fatal("WaitExit returned while the process runs")
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	// Not reaped yet: a zombie has exited all the same.
	ctx, cancel2 := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel2()
	if err := WaitExit(ctx, cmd.Process.Pid); err != nil {
		t.Fatalf("WaitExit after kill: %v", err)
	}
	_ = cmd.Wait()
	if err := WaitExit(ctx, cmd.Process.Pid); err != nil {
		t.Fatalf("WaitExit of a reaped pid: %v", err)
	}
}
